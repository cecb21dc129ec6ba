"""Where a proof holds: every field of ``Ruleset`` classified once (``rules.REACH``), and the
solver's proofs ("unwinnable", locks) and lower bound claimed only under rules that allow no more
than it plays."""

from __future__ import annotations

from dataclasses import field, fields, make_dataclass, replace
from typing import Any

import pytest

from spidercli.game.rules import (
    CLASSIC,
    REACH,
    RULESETS,
    Reach,
    Ruleset,
    bound_holds,
    classic_moves_only,
)
from spidercli.solver.lines import proves_under


def test_every_field_of_ruleset_is_classified() -> None:
    """A field added to ``Ruleset`` fails here until ``REACH`` says whether it can allow a move,
    deal or flip the solver does not play."""
    assert [f.name for f in fields(Ruleset)] == list(REACH)


def test_an_unclassified_field_is_found_and_proves_nothing() -> None:
    wider = make_dataclass(
        "Wider", [("teleport", bool, field(default=False))], bases=(Ruleset,), frozen=True
    )
    rules = wider(**{f.name: getattr(CLASSIC, f.name) for f in fields(Ruleset)})
    assert [f.name for f in fields(rules)] != list(REACH)
    assert not classic_moves_only(rules)
    assert not bound_holds(rules)


def test_the_shipped_rulesets_prove_as_before() -> None:
    """``classic`` and ``pavouk`` allow no more than the classic moves; ``duel`` (cards onto a
    face-down column, deals with a column empty, manual flips) and ``kpat`` (deals with a column
    empty) allow more. The lower bound holds under all four."""
    assert {name: proves_under(r) for name, r in RULESETS.items()} == {
        "classic": True,
        "duel": False,
        "pavouk": True,
        "kpat": False,
    }
    assert all(bound_holds(r) for r in RULESETS.values())


def test_the_classic_values_allow_no_more_than_the_classic_moves() -> None:
    for name, reach in REACH.items():
        if reach is not None:
            assert getattr(CLASSIC, name) in reach.classic
            assert getattr(CLASSIC, name) in reach.bounded


@pytest.mark.parametrize("name", [n for n, reach in REACH.items() if reach is not None])
def test_each_field_that_allows_more_turns_proofs_off(name: str) -> None:
    """Each field that can allow more proves nothing at another value (manual flips included,
    which the deny-list of two fields let prove)."""
    reach = REACH[name]
    assert isinstance(reach, Reach)
    (value,) = {False, True} - reach.classic
    other: dict[str, Any] = {name: value}
    assert not proves_under(replace(CLASSIC, **other))


@pytest.mark.parametrize("name", [n for n, reach in REACH.items() if reach is None])
def test_a_field_of_scores_words_or_undo_changes_no_proof(name: str) -> None:
    """Whatever its value (each other ruleset's, or one no ruleset would have)."""
    for value in [*(getattr(r, name) for r in RULESETS.values()), object()]:
        other: dict[str, Any] = {name: value}
        changed = replace(CLASSIC, **other)
        assert proves_under(changed)
        assert bound_holds(changed)
