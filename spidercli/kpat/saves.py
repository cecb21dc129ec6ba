"""KPat's two save formats, read into a ``KPatSave``: each state's piles.

KPat saves a game (File > Save, and the file it keeps when "remember state on exit" is on) as
``<kpat-game game-type="spider" game-type-options="SUITS" deal-number="N">`` holding one ``<state>``
per step of its undo history. The first state places every card; each later one lists only the
cards that changed, as ``<move pile="stack3" position="5">`` with the ``<card id=... suit=...
rank=... [turn="face-up"]/>`` elements that now lie in that pile from that position up. The
state marked ``current="true"`` is the one on the table; the states after it are KPat's redo stack.
The older position-only format (``<dealer id=... options=... number=...>`` with ``<pile>`` and
``<card suit= value= faceup=>``) holds no history. ``docs/kpat.md`` describes both in full.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from spidercli.game.kpatdeal import KPAT_MAX_DEAL, KPAT_SUIT_NAMES, card_of_id, kpat_ids
from spidercli.kpat.xml import Element, SaveError, read_xml, source_name
from spidercli.text.messages import N_
from spidercli.text.words import CardWords

if TYPE_CHECKING:
    pass

RANK_WORDS = (
    "ace",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
)
_PILE_RE = re.compile(r"(redeals|stack|legs)([0-9])")
_PILE_COUNTS = {"redeals": 5, "stack": 10, "legs": 8}
_INT_RE = re.compile(r"-?[0-9]{1,10}")
# Legacy saves number the piles (PatPile::index): stock piles 1-5, columns 6-15, runs 16-23.
_LEGACY_PILES = {i: f"redeals{i - 1}" for i in range(1, 6)}
_LEGACY_PILES.update({i: f"stack{i - 6}" for i in range(6, 16)})
_LEGACY_PILES.update({i: f"legs{i - 16}" for i in range(16, 24)})
# Legacy game ids of Spider (DealerInfo::GameIds) and the suits the specific ones imply.
_LEGACY_SPIDER_IDS = {14: 1, 15: 2, 16: 4, 17: None, 50: 3}


Pile = list[tuple[int, bool]]  # (KPat card id, face up), bottom to top
Piles = dict[str, Pile]


@dataclass(frozen=True)
class SaveState:
    """One step of the save: the position after it, and the line of its ``<state>``."""

    line: int
    piles: Mapping[str, tuple[tuple[int, bool], ...]]  # read-only


@dataclass(frozen=True)
class KPatSave:
    path: str
    suits: int
    number: int | None  # the deal number it names, when it names a usable one
    states: tuple[SaveState, ...]
    current: int  # index of the state on the table
    legacy: bool = False


def _int(text: str | None) -> int | None:
    if text is None or not _INT_RE.fullmatch(text.strip()):
        return None
    return int(text)


def _card_words(suit: int, rank: int) -> CardWords:
    """A KPat card in a message: KPat's own words in English (``the ten of spades``), said in
    the language in use as the text report names cards."""
    english = f"the {RANK_WORDS[rank - 1]} of {KPAT_SUIT_NAMES[suit]}"
    return CardWords(card_of_id(suit << 8 | rank), english)


class _Reader:
    def __init__(self, path: str) -> None:
        self.path = path

    def fail(self, message: str, element: Element | None = None) -> SaveError:
        return SaveError(message, path=self.path, line=element.line if element else None)

    def suits(self, text: str | None, root: Element, attr: str) -> int:
        value = _int(text)
        if value == 3:
            raise self.fail(
                N_(
                    "is KPat's 3-suit Spider: spidercli has no such deck (it plays 1, 2 or 4 suits)"
                ),
                root,
            )
        if value not in (1, 2, 4):
            shown = N_("missing") if text is None else repr(text)
            raise self.fail(
                N_(
                    "{attr} is {value}: expected Spider's suit count 1, 2 or 4",
                    attr=attr,
                    value=shown,
                ),
                root,
            )
        return value

    def number(self, text: str | None) -> int | None:
        value = _int(text)
        return value if value is not None and 1 <= value <= KPAT_MAX_DEAL else None


def read_save(source: str | Path | bytes, name: str | None = None) -> KPatSave:
    """Read a KPat save (either format: its path, or its bytes called ``name``) into its
    positions; ``SaveError`` for anything else."""
    name = source_name(source, name)
    root = read_xml(source, name)
    if root.name == "kpat-game":
        return _read_game(name, root)
    if root.name == "dealer":
        return _read_legacy(name, root)
    raise SaveError(
        N_(
            "is not a KPat save: its root element is <{root}>, expected <kpat-game> (or "
            "<dealer>, KPat's older format)",
            root=root.name,
        ),
        path=name,
        line=root.line,
    )


def _read_game(name: str, root: Element) -> KPatSave:
    r = _Reader(name)
    game_type = root.attrs.get("game-type")
    if game_type != "spider":
        raise r.fail(
            N_(
                "is a KPat save of {game}, not of Spider: spidercli imports Spider only",
                game=game_type or N_("an unnamed game"),
            ),
            root,
        )
    suits = r.suits(root.attrs.get("game-type-options"), root, "game-type-options")
    number = r.number(root.attrs.get("deal-number"))
    deck = kpat_ids(suits)
    known = set(deck)
    where: dict[int, tuple[str, int, bool]] = {}  # card id -> (pile, position, face up)
    members: dict[str, set[int]] = {}  # pile -> the cards in it
    piles: dict[str, tuple[tuple[int, bool], ...]] = {}  # the piles after the latest state
    states: list[SaveState] = []
    current: int | None = None
    for state in root.children:
        touched: set[str] = set()  # the piles this state changes: only they are rebuilt
        if state.name != "state":
            raise r.fail(
                N_("expected a <{want}> element, found <{found}>", want="state", found=state.name),
                state,
            )
        if current is None and state.attrs.get("current") == "true":
            current = len(states)
        for move in state.children:
            if move.name != "move":
                raise r.fail(
                    N_(
                        "expected a <{want}> element in <{parent}>, found <{found}>",
                        want="move",
                        parent="state",
                        found=move.name,
                    ),
                    move,
                )
            pile = move.attrs.get("pile", "")
            m = _PILE_RE.fullmatch(pile)
            if m is None or int(m.group(2)) >= _PILE_COUNTS[m.group(1)]:
                raise r.fail(
                    N_(
                        "<move pile={pile!r}> is not a pile of KPat's Spider: expected stack0-9 "
                        "(the columns), redeals0-4 (the stock) or legs0-7 (the completed runs)",
                        pile=pile,
                    ),
                    move,
                )
            position = _int(move.attrs.get("position"))
            if position is None or not 0 <= position < 104:
                raise r.fail(
                    N_(
                        "<move position={position!r}>: expected a position 0 to 103 in the pile",
                        position=move.attrs.get("position"),
                    ),
                    move,
                )
            for i, card in enumerate(move.children):
                card_id = _card_id(r, card, known, suits)
                turn = card.attrs.get("turn")
                if turn not in (None, "face-up", "face-down"):
                    raise r.fail(
                        N_(
                            "<card turn={turn!r}>: expected face-up or face-down (or no turn)",
                            turn=turn,
                        ),
                        card,
                    )
                if turn is None:
                    if card_id not in where:
                        raise r.fail(
                            N_(
                                "card {card} appears for the first time without turn=: a save's "
                                "first state places every card, face-up or down",
                                card=card.attrs.get("id"),
                            ),
                            card,
                        )
                    up = where[card_id][2]
                else:
                    up = turn == "face-up"
                before = where.get(card_id)
                if before is not None:
                    members[before[0]].discard(card_id)
                    touched.add(before[0])
                members.setdefault(pile, set()).add(card_id)
                touched.add(pile)
                where[card_id] = (pile, position + i, up)
        if not states and len(where) != len(deck):
            missing = len(deck) - len(where)
            raise r.fail(
                N_(
                    "the first state places {placed} cards, not the deck's {deck} ({missing} "
                    "missing): the first state must deal every card",
                    placed=len(where),
                    deck=len(deck),
                    missing=missing,
                ),
                state,
            )
        _update_piles(r, piles, touched, members, where, state)
        # unchanged piles shared; each state's own copy of the table, read-only
        states.append(SaveState(state.line, MappingProxyType(dict(piles))))
    if not states:
        raise r.fail(N_("holds no <state>: a KPat save has one per step of the game"), root)
    if current is None:  # KPat then takes the last state as the current one
        current = len(states) - 1
    return KPatSave(name, suits, number, tuple(states), current)


def _card_id(r: _Reader, card: Element, known: set[int], suits: int) -> int:
    if card.name != "card":
        raise r.fail(
            N_(
                "expected a <{want}> element in <{parent}>, found <{found}>",
                want="card",
                parent="move",
                found=card.name,
            ),
            card,
        )
    text = card.attrs.get("id")
    card_id = _int(text)
    if card_id is None or card_id not in known:
        raise r.fail(
            N_(
                "<card id={id!r}> is not a card of KPat's {suits}-suit Spider deck (an id is the "
                "card's number in the deck * 65536 + suit * 256 + rank)",
                id=text,
                suits=suits,
            ),
            card,
        )
    suit = KPAT_SUIT_NAMES[(card_id >> 8) & 0xFF]
    rank = RANK_WORDS[(card_id & 0xFF) - 1]
    for attr, want in (("suit", suit), ("rank", rank)):
        got = card.attrs.get(attr)
        if got is not None and got != want:
            raise r.fail(
                N_(
                    "<card id={id!r}> is {card}, but its {attr} says {got!r}",
                    id=text,
                    card=_card_words((card_id >> 8) & 0xFF, card_id & 0xFF),
                    attr=attr,
                    got=got,
                ),
                card,
            )
    return card_id


def _piles(
    r: _Reader, where: dict[int, tuple[str, int, bool]], state: Element
) -> dict[str, tuple[tuple[int, bool], ...]]:
    """Every pile's cards bottom to top (``_pile`` for each)."""
    by_pile: dict[str, dict[int, tuple[str, int, bool]]] = {}
    for card_id, place in where.items():
        by_pile.setdefault(place[0], {})[card_id] = place
    return {pile: _pile(r, pile, cards, state) for pile, cards in sorted(by_pile.items())}


def _update_piles(
    r: _Reader,
    piles: dict[str, tuple[tuple[int, bool], ...]],
    touched: set[str],
    members: dict[str, set[int]],
    where: dict[int, tuple[str, int, bool]],
    state: Element,
) -> None:
    """``_piles`` for the ``touched`` piles only, in place: a long save costs each state what it
    changes, not the whole deck."""
    for pile in sorted(touched):
        cards = members.get(pile, ())
        if not cards:
            piles.pop(pile, None)
            continue
        piles[pile] = _pile(r, pile, {card: where[card] for card in cards}, state)


def _pile(
    r: _Reader, pile: str, cards: dict[int, tuple[str, int, bool]], state: Element
) -> tuple[tuple[int, bool], ...]:
    """One pile's cards bottom to top; they must fill its positions 0, 1, 2... exactly."""
    at: dict[int, tuple[int, bool]] = {}
    for card_id, (_, position, up) in cards.items():
        if position in at:
            raise r.fail(
                N_(
                    "after this state two cards lie at position {position} of {pile}: the save "
                    "is corrupt",
                    position=position,
                    pile=pile,
                ),
                state,
            )
        at[position] = (card_id, up)
    if len(at) != max(at) + 1:
        gap = min(set(range(len(at))) - set(at))
        raise r.fail(
            N_(
                "after this state {pile} has no card at position {gap} but cards above it: "
                "the save is corrupt",
                pile=pile,
                gap=gap,
            ),
            state,
        )
    return tuple(at[i] for i in range(len(at)))


def _read_legacy(name: str, root: Element) -> KPatSave:
    r = _Reader(name)
    game_id = _int(root.attrs.get("id"))
    if game_id not in _LEGACY_SPIDER_IDS:
        raise r.fail(
            N_(
                "is a KPat save (older format) of game id {id!r}, not of Spider (ids {ids}): "
                "spidercli imports Spider only",
                id=root.attrs.get("id"),
                ids=", ".join(map(str, sorted(_LEGACY_SPIDER_IDS))),
            ),
            root,
        )
    options = root.attrs.get("options")
    implied = _LEGACY_SPIDER_IDS[game_id]
    if options:
        suits = r.suits(options, root, "options")
    elif implied is not None:
        suits = r.suits(str(implied), root, "id")
    else:
        raise r.fail(N_("names no suit count (options=): expected 1, 2 or 4"), root)
    known = set(kpat_ids(suits))
    free = {cid & 0xFFFF: 0 for cid in known}  # how many of each suit/rank are placed
    where: dict[int, tuple[str, int, bool]] = {}
    for pile in root.children:
        index = _int(pile.attrs.get("index"))
        if pile.name != "pile" or index not in _LEGACY_PILES:
            raise r.fail(
                N_(
                    "expected <pile index=N> with N 1-23 (KPat's Spider piles), found <{name}> "
                    "index={index!r}",
                    name=pile.name,
                    index=pile.attrs.get("index"),
                ),
                pile,
            )
        pile_name = _LEGACY_PILES[index]
        for position, card in enumerate(pile.children):
            suit = _int(card.attrs.get("suit"))
            rank = _int(card.attrs.get("value"))
            up = card.attrs.get("faceup")
            low = ((suit or 0) & 0xFF) << 8 | ((rank or 0) & 0xFF)
            if (
                card.name != "card"
                or suit is None
                or rank is None
                or up not in ("0", "1")
                or low not in free
            ):
                raise r.fail(
                    N_(
                        "<{name} suit={suit!r} value={value!r} faceup={up!r}> is not a card of "
                        "KPat's {suits}-suit Spider deck (suit 0-3 clubs to spades, value 1-13, "
                        "faceup 0 or 1)",
                        name=card.name,
                        suit=card.attrs.get("suit"),
                        value=card.attrs.get("value"),
                        up=up,
                        suits=suits,
                    ),
                    card,
                )
            copy = free[low]
            matches = sorted(cid for cid in known if cid & 0xFFFF == low)
            if copy >= len(matches):
                raise r.fail(
                    N_(
                        "{card} appears more often than the deck holds it ({times} times)",
                        card=_card_words(suit, rank),
                        times=len(matches),
                    ),
                    card,
                )
            card_id = matches[copy]
            free[low] = copy + 1
            where[card_id] = (pile_name, position, up == "1")
    if len(where) != len(known):
        raise r.fail(
            N_(
                "places {placed} cards, not the deck's {deck}: the save is incomplete",
                placed=len(where),
                deck=len(known),
            ),
            root,
        )
    piles = _piles(r, where, root)
    number = r.number(root.attrs.get("number"))
    state = SaveState(root.line, MappingProxyType(piles))
    return KPatSave(name, suits, number, (state,), 0, legacy=True)


__all__ = ["RANK_WORDS", "KPatSave", "Pile", "Piles", "SaveState", "read_save"]
