"""The replay's one home for each fact: the visitor's events in order, a report's status and
figures, a refused entry's phrases, the ruleset lookup, the error JSON, and the deal cache."""

from __future__ import annotations

import pytest

from spidercli.game.codes import Setup, parse_code
from spidercli.game.engine import Game, Refusal
from spidercli.game.rules import CLASSIC, KPAT, lookup_ruleset, ruleset_named, unknown_ruleset
from spidercli.logs.reader import parse_log
from spidercli.play.logtypes import Entry
from spidercli.play.replay import (
    EXPECT_FAILED,
    ILLEGAL,
    SKIP,
    VALID,
    ReplayVisitor,
    figures,
    replay,
)
from spidercli.text.messages import error_json

LOG = "game: SD1-S1-AAAABIW\nmoves:\n  - 7>1\n  - 3>3\n  - deal\n"


class _Events(ReplayVisitor):
    def __init__(self) -> None:
        self.seen: list[tuple[str, int | None, int]] = []  # (event, entry, moves so far)

    def begin(self, game: Game) -> None:
        self.seen.append(("begin", None, game.moves))

    def applied(self, game: Game, entry: Entry) -> None:
        self.seen.append(("applied", entry.index, game.moves))

    def refused(self, game: Game, entry: Entry, refusal: Refusal) -> None:
        self.seen.append((f"refused {refusal.rule}", entry.index, game.moves))

    def end(self, game: Game) -> None:
        self.seen.append(("end", None, game.moves))


def test_the_visitor_sees_every_step_in_order() -> None:
    events = _Events()
    replay(parse_log(LOG), on_illegal=SKIP, visitor=events)
    assert events.seen == [
        ("begin", None, 0),
        ("applied", 1, 1),
        ("refused same-column", 2, 1),  # the position before it: nothing changed
        ("applied", 3, 2),
        ("end", None, 2),
    ]
    stopped = _Events()
    replay(parse_log(LOG), visitor=stopped)  # stops at the refusal, and still ends
    assert [e[0] for e in stopped.seen] == ["begin", "applied", "refused same-column", "end"]


def test_status_and_figures() -> None:
    report = replay(parse_log(LOG))
    assert report.status == ILLEGAL
    first = report.illegal[0]
    assert first.named == "entry 2 `3>3`"
    assert first.placed == "entry 2 (line 4) same-column"
    assert first.refused("then") == "entry 2 `3>3` is refused (same-column): then"
    unmet = replay(parse_log("game: SD1-S1-AAAABIW\nexpect: {moves: 5}\nmoves: [7>1]\n"))
    assert unmet.status == EXPECT_FAILED
    assert [(m.key, m.expected, m.actual) for m in unmet.mismatches or []] == [("moves", 5, 1)]
    valid = replay(parse_log("game: SD1-S1-AAAABIW\nmoves: [7>1]\n"))
    assert valid.status == VALID
    assert valid.figures() == {"result": "open", "moves": 1, "score": 499, "runs": 0}
    assert valid.figures() == figures(valid.result, valid.game)
    json = valid.to_json()
    assert {key: json[key] for key in valid.figures()} == valid.figures()


@pytest.mark.parametrize("name", [" KPat ", "kpat", "KPAT\t"])
def test_ruleset_lookup_ignores_case_and_blanks(name: str) -> None:
    assert lookup_ruleset(name) is KPAT
    assert ruleset_named(name) is KPAT


@pytest.mark.parametrize("name", ["freecell", "pavou\u212a", "", "classic\n"])
def test_unknown_rulesets_are_refused_in_one_sentence(name: str) -> None:
    assert lookup_ruleset(name) is None
    with pytest.raises(ValueError) as caught:
        ruleset_named(name)
    assert str(caught.value).startswith("--rules: unknown ruleset '")
    assert str(caught.value).endswith("; expected one of classic, duel, pavouk, kpat")
    assert lookup_ruleset("classic\n", " \t\r\n") is CLASSIC  # a YAML value's blanks
    assert unknown_ruleset("rules", "'x'", "x") == (
        "rules: unknown ruleset 'x'; expected one of classic, duel, pavouk, kpat"
    )


def test_error_json() -> None:
    assert error_json("bad", 3) == {"error": {"message": "bad", "line": 3}}
    assert error_json("bad", None) == {"error": {"message": "bad", "line": None}}


def test_a_code_is_dealt_once_and_each_code_its_own_deal() -> None:
    a = parse_code("SP1-S1C-AAAAABD")
    b = parse_code("SP1-S1C-AAAAABE")
    assert Setup.from_code(a) is Setup.from_code(parse_code("SP1-S1C-AAAAABD"))
    assert Setup.from_code(a).layout != Setup.from_code(b).layout
    assert Setup.from_code(b).code == b
