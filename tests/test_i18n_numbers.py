"""Numbers in each language's own form: 437 952 and 1,12 in Czech and Finnish, 437,952 and 1.12
in English, grouped exactly where the English message groups."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.numbers import get_decimal_symbol, get_group_symbol

from spidercli.text import i18n
from spidercli.text.languages import language_named
from spidercli.text.messages import N_, Nn_, said
from tests.helpers import ROOT, run

NBSP = "\u00a0"


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.use("en")


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_separators_are_the_cldr_ones(lang: str) -> None:
    # Babel (a development dependency) carries the Unicode CLDR: the table agrees with it.
    assert language_named(lang).separators == (get_group_symbol(lang), get_decimal_symbol(lang))


@pytest.mark.parametrize(
    ("value", "spec", "english", "czech_finnish"),
    [
        (437952, ",", "437,952", f"437{NBSP}952"),
        (1234567, ",", "1,234,567", f"1{NBSP}234{NBSP}567"),
        (999, ",", "999", "999"),
        (-1000, ",", "-1,000", f"-1{NBSP}000"),
        (1.12, ".2f", "1.12", "1,12"),
        (12345.678, ",.0f", "12,346", f"12{NBSP}346"),
        (2.5, "g", "2.5", "2,5"),
        (3.0, "g", "3", "3"),
        (7.25, ".1f", "7.2", "7,2"),
        (100, "+d", "+100", "+100"),
        (53, ">4", "  53", "  53"),
        (4278, "", "4278", "4278"),  # ungrouped in English, so ungrouped in every language
        (0.5, "", "0.5", "0,5"),
    ],
)
def test_number(value: float, spec: str, english: str, czech_finnish: str) -> None:
    i18n.use("en")
    assert i18n.number(value, spec) == english == format(value, spec)
    for lang in ("cs", "fi"):
        i18n.use(lang)
        assert i18n.number(value, spec) == czech_finnish


def test_a_translated_message_writes_its_numbers_in_the_language() -> None:
    args = ("{states:,} state in {seconds:.2f} s", "{states:,} states in {seconds:.2f} s")
    i18n.use("cs")
    assert i18n.ngettext(*args, 437952).format(states=437952, seconds=1.12) == (
        f"437{NBSP}952 stavů za 1,12 s"
    )
    i18n.use("fi")
    assert i18n.ngettext(*args, 437952).format(states=437952, seconds=1.12) == (
        f"437{NBSP}952 tilaa 1,12 sekunnissa"
    )
    i18n.use("en")
    english = i18n.ngettext(*args, 437952)
    assert type(english) is str  # English is never reformatted
    assert english.format(states=437952, seconds=1.12) == "437,952 states in 1.12 s"


def test_text_outside_numbers_is_left_alone() -> None:
    # Commas and full stops of the words, of text fields and of !r conversions stay as they are.
    i18n.use("cs")
    text = N_("{what}: {value} is out of range", what="a.b, c", value="1.5")
    assert said(text) == "a.b, c: 1.5 je mimo rozsah"
    assert str(text) == "a.b, c: 1.5 is out of range"
    plural = Nn_("{n:,} byte", "{n:,} bytes", 2048, n=2048)
    assert said(plural) == f"2{NBSP}048 bajtů"
    assert str(plural) == "2,048 bytes"  # the English, for JSON and every machine format


def test_solve_says_its_figures_in_the_language() -> None:
    for lang, words in (("cs", " stavů za "), ("fi", " tilaa ")):
        result = run("solve", "SD1-S1-AAAAABD", "--max-states", "2000", "--lang", lang)
        line = result.stderr.strip().splitlines()[-1]
        figures = line[line.rindex("(") :]
        assert words in figures
        assert "." not in figures and "," in figures  # the decimal comma
    english = run("solve", "SD1-S1-AAAAABD", "--max-states", "2000", "--lang", "en")
    line = english.stderr.strip().splitlines()[-1]
    assert " states in " in line and "." in line[line.rindex("(") :]


def test_duel_times_in_the_language(tmp_path: Path) -> None:
    log = (ROOT / "fixtures" / "duel-finish.yaml").read_text(encoding="utf-8")
    fast, slow = tmp_path / "fast.yaml", tmp_path / "slow.yaml"
    fast.write_text(log.replace("player: bob\n", "player: bob\ntime: 12.5\n"), encoding="utf-8")
    slow.write_text(log.replace("player: bob\n", "player: eve\ntime: 1500.25\n"), encoding="utf-8")
    said_times = {"en": ("12.5 s", "1500.25 s"), "cs": ("12,5 s", "1500,25 s")}
    said_times["fi"] = said_times["cs"]
    for lang, (short, long) in said_times.items():
        out = run("duel", str(fast), str(slow), "--lang", lang).stdout
        assert f" {short} " in out and out.count(long) == 2  # the table and the winner's reason
