"""Every test starts in English, whatever the locale of the machine that runs the suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from spidercli import i18n


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # The CLI reads LC_ALL, LC_MESSAGES and LANG when --lang is not given: a Czech or Finnish
    # developer's locale must not change the English snapshots.
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    if i18n.from_environment() != "en":
        monkeypatch.setenv("LANG", "C.UTF-8")
    i18n.use("en")
    yield
    i18n.use("en")
