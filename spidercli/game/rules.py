"""The rules as data: the two games' geometry and each app's house rules.

A newcomer changes a score value here and nowhere else. ``docs/rules.md`` explains each field and
the decisions taken where the rule texts are silent.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, fields
from typing import Final, Protocol

from spidercli.text.messages import N_, Nn_, did_you_mean, quoted


@dataclass(frozen=True)
class GameKind:
    """What differs between Spider and Spiderette: the layout, the stock, the runs to win."""

    name: str  # "spider" | "spiderette"
    title: str  # "Spider"
    prefix: str  # code prefix: "SP" | "SD"
    cards: int
    column_sizes: tuple[int, ...]
    deal_sizes: tuple[int, ...]  # cards per deal, in order

    @property
    def columns(self) -> int:
        return len(self.column_sizes)

    @property
    def runs_to_win(self) -> int:
        return self.cards // 13


SPIDER = GameKind(
    name="spider",
    title="Spider",
    prefix="SP",
    cards=104,
    column_sizes=(6, 6, 6, 6, 5, 5, 5, 5, 5, 5),
    deal_sizes=(10, 10, 10, 10, 10),
)
SPIDERETTE = GameKind(
    name="spiderette",
    title="Spiderette",
    prefix="SD",
    cards=52,
    column_sizes=(1, 2, 3, 4, 5, 6, 7),
    deal_sizes=(7, 7, 7, 3),
)
GAMES: dict[str, GameKind] = {g.name: g for g in (SPIDER, SPIDERETTE)}


@dataclass(frozen=True)
class Ruleset:
    """One app's house rules. Every number the engine scores with, and every policy it applies."""

    name: str
    app: str  # whose rules these are, in words, for the report header
    games: frozenset[str]  # GameKind names this ruleset plays
    suits: frozenset[int]  # suit counts it plays
    move_rules: frozenset[str]  # the deals' move rules it plays: "classic", "permissive"
    start_score: int
    move_score: int  # each move of a card or group
    deal_score: int  # each deal
    run_score: int  # each completed run removed
    flip_score: int  # each hidden card turned face-up
    same_suit_score: int  # per card, when a group lands on a same-suit card one rank higher
    win_score: int  # when every run is removed
    floor_games: frozenset[str]  # games whose score is raised back to 0 whenever it drops below
    auto_flip: bool  # a newly exposed face-down card turns up by itself
    face_down_column_is_empty: bool  # a column of only face-down cards takes any card or group
    deal_with_empty_column: bool  # dealing is allowed while a column is empty
    undo_depth: int  # how many actions back undo reaches
    undo_after_flip: bool  # undo allowed right after a flip
    undo_after_deal: bool  # undo allowed right after a deal

    def floor_for(self, game: GameKind) -> int | None:
        return 0 if game.name in self.floor_games else None

    @property
    def scoring(self) -> str:
        """The scoring in words, from the numbers: "500 points, -1 a move, +100 a run"."""
        return ", ".join(self.scoring_parts())

    def scoring_parts(self) -> list[str]:
        """The items of ``scoring``, each a ``messages.Text`` (said in the language in use)."""
        n = self.start_score
        parts: list[str] = [Nn_("{n} point", "{n} points", n, n=n)]
        if self.move_score == self.deal_score and self.move_score:
            parts.append(N_("{score:+d} a move", score=self.move_score))  # a deal is a move
        else:
            if self.move_score:
                parts.append(N_("{score:+d} a move", score=self.move_score))
            if self.deal_score:
                parts.append(N_("{score:+d} a deal", score=self.deal_score))
        for value, what in (
            (self.run_score, N_("{score:+d} a run", score=self.run_score)),
            (self.flip_score, N_("{score:+d} a flip", score=self.flip_score)),
            (self.same_suit_score, N_("{score:+d} a card on its suit", score=self.same_suit_score)),
            (self.win_score, N_("{score:+d} a win", score=self.win_score)),
        ):
            if value:
                parts.append(what)
        return parts

    @property
    def description(self) -> str:
        """What the ruleset is, for people: "classic: the Spider and Spiderette apps' rules,
        500 points, -1 a move, +100 a run"."""
        return f"{self.name}: {self.app}, {self.scoring}"


@dataclass(frozen=True)
class Reach:
    """A ``Ruleset`` field that can allow a move, deal or flip the solver does not play (it
    plays the classic rules': automatic flips, no card onto a column of only face-down cards,
    no deal while a column is empty). ``classic``: its values that allow no more than the
    classic moves (the classic rules' value among them); under any other, a search that finds
    no win proves nothing. ``bounded``: its values under which ``solver/bounds.py``'s argument
    still holds (a move makes at most one join, a deal one a card dealt, a flip none), so the
    lower bound on a win's moves may be claimed."""

    classic: frozenset[object]
    bounded: frozenset[object]


_BOTH: Final = frozenset({False, True})

# Every field of ``Ruleset``, classified once for the solver's proofs ("unwinnable", locks, the
# lower bound on a win's moves): None, the field changes only the score, the words, undo or
# which deals are accepted, none of which a proof speaks of (a win is every run removed, by
# moves, deals and flips; an undo only goes back to a position already reached; the deal's own
# move rule, which ``move_rules`` only accepts or refuses, is the one the search plays); or a
# ``Reach``, the field can allow more than the solver plays. ``classic_moves_only`` and
# ``bound_holds`` read it; ``tests/test_rules.py`` fails when a field of ``Ruleset`` is missing
# here, and a field missing at run time proves nothing.
REACH: Final[dict[str, Reach | None]] = {
    "name": None,
    "app": None,
    "games": None,  # the deal's own geometry is searched
    "suits": None,
    "move_rules": None,  # the deal's own move rule is searched
    "start_score": None,
    "move_score": None,
    "deal_score": None,
    "run_score": None,
    "flip_score": None,
    "same_suit_score": None,
    "win_score": None,
    "floor_games": None,
    # Manual flips: a flip the solver does not play, and a deal or move while a column ends
    # face down, which the classic rules never see.
    "auto_flip": Reach(classic=frozenset({True}), bounded=_BOTH),
    # A card or group onto a column of only face-down cards.
    "face_down_column_is_empty": Reach(classic=frozenset({False}), bounded=_BOTH),
    # A deal while a column is empty.
    "deal_with_empty_column": Reach(classic=frozenset({False}), bounded=_BOTH),
    "undo_depth": None,
    "undo_after_flip": None,
    "undo_after_deal": None,
}


def _within(rules: Ruleset, bounded: bool) -> bool:
    for f in fields(rules):
        if f.name not in REACH:
            return False  # unclassified: it may allow anything
        reach = REACH[f.name]
        if reach is not None:
            values = reach.bounded if bounded else reach.classic
            if getattr(rules, f.name) not in values:
                return False
    return True


def classic_moves_only(rules: Ruleset) -> bool:
    """Whether ``rules`` allow no move, deal or flip beyond the classic rules' (every field a
    ``Reach`` in ``REACH`` has one of its ``classic`` values): then a search of the classic
    moves that finds no win proves that none exists (``solver.lines.proves_under``)."""
    return _within(rules, bounded=False)


def bound_holds(rules: Ruleset) -> bool:
    """Whether the lower bound on a win's moves (``solver/bounds.py``) holds under ``rules``
    (every field a ``Reach`` in ``REACH`` has one of its ``bounded`` values)."""
    return _within(rules, bounded=True)


CLASSIC = Ruleset(
    name="classic",
    app=N_("the Spider and Spiderette apps' rules"),
    games=frozenset({"spider", "spiderette"}),
    suits=frozenset({1, 2, 4}),
    move_rules=frozenset({"classic", "permissive"}),
    start_score=500,
    move_score=-1,
    deal_score=-1,
    run_score=100,
    flip_score=0,
    same_suit_score=0,
    win_score=0,
    floor_games=frozenset({"spider"}),
    auto_flip=True,
    face_down_column_is_empty=False,
    deal_with_empty_column=False,
    undo_depth=100,
    undo_after_flip=True,
    undo_after_deal=True,
)

DUEL = Ruleset(
    name="duel",
    app=N_("StarGames' two-player duel Spider"),
    games=frozenset({"spider"}),
    suits=frozenset({1, 2}),
    move_rules=frozenset({"classic", "permissive"}),
    start_score=0,
    move_score=-1,
    deal_score=-1,
    run_score=26,
    flip_score=2,
    same_suit_score=2,
    win_score=100,
    floor_games=frozenset(),
    auto_flip=False,
    face_down_column_is_empty=True,
    deal_with_empty_column=True,
    undo_depth=1,
    undo_after_flip=False,
    undo_after_deal=False,
)

PAVOUK = Ruleset(
    name="pavouk",
    app=N_("the rules of Pasiáns Pavouk, a browser Spider"),
    games=frozenset({"spider"}),
    suits=frozenset({1, 2, 4}),
    move_rules=frozenset({"classic", "permissive"}),
    start_score=0,
    move_score=0,
    deal_score=0,
    run_score=100,
    flip_score=5,
    same_suit_score=0,
    win_score=0,
    floor_games=frozenset(),
    auto_flip=True,
    face_down_column_is_empty=False,
    deal_with_empty_column=False,
    undo_depth=400,
    undo_after_flip=True,
    undo_after_deal=True,
)

# KDE KPatience's Spider, as its source (src/spider.cpp, src/dealer.cpp) plays it: the classic
# move rule (a group of one suit moves; any card or group goes on one rank higher, of any suit,
# or into an empty column), automatic flips, complete runs removed at once, dealing allowed while
# a column is empty, undo back to the first move. KPat keeps no score for Spider: spidercli
# scores its games the classic way, floor and all.
KPAT = Ruleset(
    name="kpat",
    app=N_("KDE KPatience's Spider; KPat keeps no score, so scored the classic way"),
    games=frozenset({"spider"}),
    suits=frozenset({1, 2, 4}),
    move_rules=frozenset({"classic"}),  # KPat moves a group only when it is one suit
    start_score=500,
    move_score=-1,
    deal_score=-1,
    run_score=100,
    flip_score=0,
    same_suit_score=0,
    win_score=0,
    floor_games=frozenset({"spider"}),
    auto_flip=True,
    face_down_column_is_empty=False,
    deal_with_empty_column=True,
    undo_depth=sys.maxsize,  # unlimited: KPat undoes back to the deal
    undo_after_flip=True,
    undo_after_deal=True,
)

RULESETS: dict[str, Ruleset] = {r.name: r for r in (CLASSIC, DUEL, PAVOUK, KPAT)}


def lookup_ruleset(name: str, blanks: str = " \t") -> Ruleset | None:
    """The preset of this name (case-insensitive, ``blanks`` around it ignored), or None."""
    # ASCII first: str.lower() maps some other letters to ASCII ones (K, U+212A, to k).
    return RULESETS.get(name.strip(blanks).lower()) if name.isascii() else None


def unknown_ruleset(where: str, name: str, typed: str) -> str:
    """The sentence refusing a ruleset name: ``where`` it was given (``--rules``, ``rules``),
    ``name`` as echoed (quoted), ``typed`` as given (to name the closest ruleset, if any)."""
    return N_(
        "{where}: unknown ruleset {name}{hint}; expected one of {choices}",
        where=where,
        name=name,
        hint=did_you_mean(typed.strip(), RULESETS),
        choices=", ".join(RULESETS),
    )


def ruleset_named(name: str, where: str = "--rules") -> Ruleset:
    """The preset of this name (case-insensitive); ``ValueError`` naming the choices otherwise."""
    rules = lookup_ruleset(name)
    if rules is None:
        raise ValueError(unknown_ruleset(where, quoted(name), name))
    return rules


class Dealt(Protocol):
    """What ``check_playable`` reads of a deal (``codes.Setup`` is one)."""

    @property
    def game(self) -> GameKind: ...

    @property
    def suits(self) -> int: ...

    @property
    def permissive(self) -> bool: ...

    @property
    def classic_name(self) -> str | None:
        """The same cards' game code under the classic move rule; None for a written-out deal."""
        ...


def check_playable(rules: Ruleset, deal: Dealt) -> None:
    """Raise ``ValueError`` when ``rules`` does not play this deal: its game, its suit count or
    its move rule."""
    game, suits = deal.game, deal.suits
    if game.name not in rules.games:
        titles = [GAMES[g].title for g in sorted(rules.games, reverse=True)]
        plays = (
            titles[0]
            if len(titles) == 1
            else N_("{one} and {other}", one=titles[0], other=titles[1])
        )
        raise ValueError(
            N_(
                "ruleset {name!r} plays {plays} only, not {game}",
                name=rules.name,
                plays=plays,
                game=game.title,
            )
        )
    if suits not in rules.suits:
        numbers = [str(s) for s in sorted(rules.suits)]
        counts = (
            numbers[0]
            if len(numbers) == 1
            else N_("{some} or {last}", some=", ".join(numbers[:-1]), last=numbers[-1])
        )
        raise ValueError(
            N_(
                "ruleset {name!r} plays {counts} suits only, not {suits}",
                name=rules.name,
                counts=counts,
                suits=suits,
            )
        )
    if deal.permissive and suits > 1 and "permissive" not in rules.move_rules:
        classic = deal.classic_name
        raise ValueError(
            N_(
                "ruleset {name!r} plays the classic move rule only (a group moves only when it "
                "is one suit; to play the same cards under it, use the game code {code}), not "
                "the permissive one",
                name=rules.name,
                code=classic,
            )
            if classic is not None
            else N_(
                "ruleset {name!r} plays the classic move rule only (a group moves only when it "
                "is one suit; to play the same cards under it, write 'rule: classic' in the "
                "deal), not the permissive one",
                name=rules.name,
            )
        )
