"""Fixtures for every test: English whatever the machine's locale, the checkout's root as the
working directory, and the headless browser of the HTML tests; ``yaml_loader`` runs a test with
libyaml's loader and again with the pure-Python one."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from spidercli.logs import yamlreader
from spidercli.text import i18n
from tests.browser import Browser, find_chromium
from tests.helpers import ROOT


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


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts in the checkout's root: paths in the output are relative, so snapshots
    do not depend on where the checkout is (a test that moves elsewhere uses monkeypatch too)."""
    monkeypatch.chdir(ROOT)


@pytest.fixture
def quick_grades(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The fair player's grading (some seconds of CPU a 4-suit deal) stood in for by a quick,
    deterministic grade of the deal's number, for the tests of picks and manifests: the list
    the test gets holds each code graded, in order. The real grading is tested in test_fair."""
    from spidercli.solver import fair
    from spidercli.solver.grades import PLAYOUTS, Grade

    graded: list[str] = []

    def grade(deal: object, **_: object) -> Grade:
        code = str(deal)
        graded.append(code)
        return Grade(int(code.rpartition("-")[2]) % 4, PLAYOUTS)  # hard, medium, easy, easy

    monkeypatch.setattr(fair, "grade", grade)
    return graded


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """A headless Chromium for the HTML page's tests; skipped without one, except in CI."""
    executable = find_chromium()
    if executable is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("chromium is not installed, and CI=true: the HTML page must be tested")
        pytest.skip("chromium is not installed (Debian: apt-get install chromium)")
    chromium = Browser(executable)
    yield chromium
    chromium.close()


@pytest.fixture(scope="module", params=["libyaml", "pure"])
def yaml_loader(request: pytest.FixtureRequest) -> Iterator[str]:
    """The module's tests run twice: with libyaml's loader, and with the pure-Python one spidercli
    uses where PyYAML was built without libyaml (``SPIDERCLI_PURE_YAML=1``, which worker
    processes read too). Module-scoped, so that Hypothesis's tests can use it."""
    with pytest.MonkeyPatch.context() as patch:
        if request.param == "pure":
            patch.setenv(yamlreader.PURE_YAML_VARIABLE, "1")
        else:
            patch.delenv(yamlreader.PURE_YAML_VARIABLE, raising=False)
        loader = yamlreader.choose_loader()
        if request.param == "libyaml" and loader is yamlreader.PureLoader:
            pytest.skip("PyYAML was built without libyaml")
        patch.setattr(yamlreader, "LOADER", loader)
        yield str(request.param)
