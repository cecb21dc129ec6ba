"""verify's JSON record, written by ``Report.json_text`` (the state's cards from ready-made
pieces), against ``json.dumps`` of ``Report.to_json``, the contract's object: the same text for
every usable log of the test corpus under both --on-illegal modes, for odd file names, and for
random positions (runs removed, stock dealt, games won)."""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spidercli.game.rules import RULESETS
from spidercli.logs.reader import load_log
from spidercli.play.replay import SKIP, STOP, replay, state_json, state_json_text
from tests.helpers import CODES, ROOT, new_game, usable_corpus

NAMES = ["log.yaml", 'a "quoted" name.yaml', "back\\slash.yaml", "line\nbreak.yaml", "\udcff.yaml"]


def general(first: Mapping[str, object], report_json: Mapping[str, object]) -> str:
    return json.dumps({**first, **report_json}, ensure_ascii=False)


@pytest.mark.parametrize("on_illegal", [STOP, SKIP])
def test_the_record_of_each_corpus_log_is_json_dumps(on_illegal: str) -> None:
    used = 0
    for path, log, rules in usable_corpus():
        report = replay(log, rules=rules, on_illegal=on_illegal)
        for name in NAMES:
            first = {"file": name, "status": report.status}
            assert report.json_text(**first) == general(first, report.to_json()), path
        used += 1
    assert used > 30


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(CODES, st.sampled_from(sorted(RULESETS)), st.lists(st.integers(0, 10**6), max_size=150))
def test_the_state_of_random_positions_is_json_dumps(
    code_text: str, rules_name: str, choices: list[int]
) -> None:
    game = new_game(code_text, rules_name)
    for choice in choices:
        actions = game.legal_actions()
        if not actions:
            break
        game.play(actions[choice % len(actions)])
    assert state_json_text(game) == json.dumps(state_json(game), ensure_ascii=False)


def test_the_state_of_won_games_is_json_dumps() -> None:
    """Runs removed and the stock dealt: the fixture wins, at their end."""
    for name in ("spider-1suit-win.yaml", "spiderette-1suit-win.yaml", "duel-1suit-win.yaml"):
        report = replay(load_log(ROOT / "fixtures" / name))
        assert report.game.removed and report.game.deals_left == 0
        assert state_json_text(report.game) == json.dumps(state_json(report.game))
