"""A fixed sample of the differential fuzzing of verify's fast paths (tests/fuzz_fastpaths.py):
mutated corpus files and random games' logs, read by the quick reader and the YAML reader,
played by ``play_all`` and by ``play``, and run through the whole CLI with the fast paths on and
off. Each divergence the campaign found has a regression test here."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from spidercli.game.engine import Game
from spidercli.logs import plain as plainlog
from spidercli.logs import reader as movelog
from spidercli.logs.plain import quick_log
from spidercli.logs.reader import parse_log, parse_yaml_log
from spidercli.play.replay import Report
from tests import fuzz_fastpaths as fuzz

HEAD = "game: SP1-S1C-AAAAABD\n"
BODY = "moves:\n  - 10>9\n  - deal\n"


def both(text: str) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    return fuzz.reader_outcome(parse_log, text), fuzz.reader_outcome(parse_yaml_log, text)


# ------------------------------------------------------------------ regressions


# Every character YAML refuses, in a comment of the head: the quick reader
# skipped comment lines unread, so a control character there passed (the YAML reader refuses the
# file, exit 2, naming the character and its line).
REFUSED = [chr(c) for c in (*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20))]
REFUSED += [chr(c) for c in range(0x7F, 0xA0) if c != 0x85] + ["\ufffe", "\uffff"]


@pytest.mark.parametrize("char", REFUSED, ids=lambda c: f"U+{ord(c):04X}")
def test_a_character_yaml_refuses_in_a_head_comment_is_refused(char: str) -> None:
    for comment in (f"# a{char}b\n", f"#{char}\n"):
        for text in (comment + HEAD + BODY, HEAD + comment + BODY):
            quick, full = both(text)
            assert quick == full, text
            assert quick[0] == "error"
            assert "is not allowed in YAML" in str(quick[1])


@pytest.mark.parametrize("char", ["\t", "\xa0", "\u00e9", "\ufeff", "\ufffd", "\U0001f600"])
def test_a_character_yaml_takes_in_a_comment_keeps_the_quick_path(char: str) -> None:
    """The widened check turns away only what the YAML reader refuses or breaks lines at."""
    text = HEAD + f"# a{char}b\n" + BODY
    assert quick_log(text, "log.yaml", parse_yaml_log) is not None
    quick, full = both(text)
    assert quick == full
    assert quick[0] == "ok"


@pytest.mark.parametrize("brk", ["\r", "\x85", "\u2028", "\u2029"])
def test_a_line_break_yaml_knows_in_a_head_comment_reads_the_same(brk: str) -> None:
    for text in (HEAD + f"# a{brk}b: c\n" + BODY, HEAD + f"# a{brk}\n" + BODY):
        quick, full = both(text)
        assert quick == full, text


# ------------------------------------------------------------------ the switch


def test_general_paths_swap_every_fast_path() -> None:
    """Inside ``general_paths`` no fast path runs (else the CLI comparison compares the fast
    paths with themselves), and outside it they are back."""
    fast_parse, fast_play_all, fast_json = movelog.parse_log, Game.play_all, Report.json_text
    fast_move = Game._plainly_legal
    with fuzz.general_paths():
        assert movelog.parse_log is parse_yaml_log
        assert Game.play_all is fuzz.slow_play_all
        assert Game._plainly_legal is not fast_move
        assert Report.json_text is not fast_json
        from spidercli.cli import quickparams
        from spidercli.logs import dealblock

        assert not dealblock._deck_fits([1], 1, 8)
        assert quickparams.quick_value(str, None, "x", None) is quickparams._NOT_QUICK
    assert (movelog.parse_log, Game.play_all, Report.json_text, Game._plainly_legal) == (
        fast_parse,
        fast_play_all,
        fast_json,
        fast_move,
    )


def test_the_comparisons_can_fail() -> None:
    """Each comparison reports a difference planted on one side: the quick reader's character
    check taken away (the fault found), a play_all that drops the last action."""
    text = HEAD + "# \x01\n" + BODY
    assert fuzz.compare_reader(text) is None
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(plainlog, "_ODD", re.compile("(?!)"))  # matches nothing: the old fault
        assert fuzz.compare_reader(text) is not None
        assert fuzz.check(text.encode())

    log = parse_yaml_log(HEAD + BODY, "log.yaml")

    def play_all_drops_the_last(
        self: Game, actions: object, start: int = 0, *, record: bool = True
    ) -> object:
        return fuzz.slow_play_all(self, list(actions)[:-1], start, record=record)  # type: ignore[call-overload]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Game, "play_all", play_all_drops_the_last)
        assert fuzz.compare_engine(log)
    assert fuzz.compare_engine(log) == []


def test_the_cli_comparison_can_fail(tmp_path: Path) -> None:
    """A fault in a fast path (one byte more in verify's JSON record) shows in the comparison of
    the CLI's outputs, in the runs that write that record and in no other."""
    data = (HEAD + BODY).encode()
    assert fuzz.compare_cli(data, str(tmp_path)) == []
    fast = Report.json_text

    def one_blank_more(self: Report, **first: object) -> str:
        return fast(self, **first) + " "

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Report, "json_text", one_blank_more)
        found = fuzz.compare_cli(data, str(tmp_path))
    assert [line.split(":")[0] for line in found] == [
        f"cli verify {tmp_path / 'log.yaml'} -f jsonl -j 1",
        f"cli verify {tmp_path / 'log.yaml'} -f json -j 1 --rules kpat",
    ]


# ------------------------------------------------------------------ the campaign, a sample


@pytest.mark.slow  # a long property run: make test-slow
def test_mutated_and_generated_logs_read_and_play_the_same_both_ways() -> None:
    """300 inputs: the quick reader against the YAML reader, play_all against play under every
    ruleset that plays the deal; a fair share of them on the quick path."""
    rng = random.Random(20261130)
    seeds = fuzz.corpus()
    quick = 0
    for _ in range(300):
        data = fuzz.case(rng, seeds)
        assert fuzz.check(data) == [], data
        text = data.decode("utf-8", "replace")
        quick += quick_log(text, "log.yaml", parse_yaml_log) is not None
    assert quick >= 40


def test_the_cli_says_the_same_with_the_fast_paths_on_and_off(tmp_path: Path) -> None:
    """replay (text, JSON, other languages and rulesets) and verify (jsonl, json, csv, concise)
    on a sample of the inputs: the same exit status and bytes, and no traceback."""
    rng = random.Random(5)
    seeds = fuzz.corpus()
    for _ in range(5):
        data = fuzz.case(rng, seeds)
        assert fuzz.compare_cli(data, str(tmp_path)) == [], data


@pytest.mark.parametrize("name", ["spider-1suit-win.yaml", "illegal/no-target.yaml"])
def test_odd_option_values_say_the_same_with_the_quick_coercion_on_and_off(
    name: str, tmp_path: Path
) -> None:
    """Option values at the edge of the quick coercion (``1_000_000``, ``0x100000``, ``+1``,
    blanks, Arabic digits, past 2^64, choices in other cases): the same outputs both ways."""
    data = (fuzz.ROOT / "fixtures" / name).read_bytes()
    assert fuzz.compare_cli(data, str(tmp_path), fuzz.OPTION_RUNS) == []
