"""The rules as data: the two games' geometry and each app's house rules.

A newcomer changes a score value here and nowhere else. ``docs/rules.md`` explains each field and
the decisions taken where the rule texts are silent.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Protocol

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
