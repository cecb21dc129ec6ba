"""``spidercli import kpat``: a KDE KPatience saved Spider game turned into a move log.

KPat saves a game (File > Save, and the file it keeps when "remember state on exit" is on) as
``<kpat-game game-type="spider" game-type-options="SUITS" deal-number="N">`` holding one ``<state>``
per step of its undo history. The first state places every card; each later one lists only the
cards that changed, as ``<move pile="stack3" position="5">`` with the ``<card id=... suit=...
rank=... [turn="face-up"]/>`` elements that now lie in that pile from that position up. The
state marked ``current="true"`` is the one on the table; the states after it are KPat's redo stack.
The older position-only format (``<dealer id=... options=... number=...>`` with ``<pile>`` and
``<card suit= value= faceup=>``) holds no history. ``docs/kpat.md`` describes both in full.

The importer rebuilds each state's position, then finds the one action (a card move or a deal)
of the ``kpat`` ruleset that turns the position before into it, so every imported log replays
by construction; automatic flips and run removals are not actions. The save is read as logs
are (``files.read_limited``: a regular file or ``-``, never blocking, at most ``MAX_SAVE_BYTES``),
and parsed with ``defusedxml``'s expat reader refusing any DTD (but the bare ``<!DOCTYPE kpat>``
of KPat's older saves), entity and external reference; the limits on elements, states, depth
and attributes are checked as each element starts, so a hostile save is refused where it passes
one, before the rest is read.
"""

from __future__ import annotations

import io
import re
import xml.sax
import xml.sax.handler
import xml.sax.xmlreader
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import defusedxml
from defusedxml.expatreader import DefusedExpatParser

from spidercli.errors import InputError
from spidercli.game.actions import Action, Deal, Move
from spidercli.game.codes import GameCode, Layout, Setup, deal_layout
from spidercli.game.engine import Game
from spidercli.game.kpatdeal import KPAT_MAX_DEAL, KPAT_SUIT_NAMES, card_of_id, kpat_ids
from spidercli.game.rules import KPAT, SPIDER
from spidercli.logs.files import (
    MAX_LOG_BYTES,
    STDIN,
    STDIN_NAME,
    FileKind,
    Unreadable,
    read_limited,
    too_big,
)
from spidercli.logs.writer import format_log
from spidercli.text.messages import N_
from spidercli.text.words import CardWords

if TYPE_CHECKING:
    from spidercli.play.logtypes import MoveLog

# The limits of a save, each checked as the XML is read (docs/kpat.md has the measurements).
# A save holds some 150-350 bytes a step (KPat's own saves: 254-343), so 1 MiB, the limit of a
# move log too, holds some 3,000-7,000 steps: four times or more the 750 of a 7-minute game by
# KPat's demo, fifteen times the longest save of the fixtures.
MAX_SAVE_BYTES = MAX_LOG_BYTES
MAX_ELEMENTS = 50_000  # over twice what 1 MiB of KPat's saves holds (some 22,000: 47 bytes each)
MAX_STATES = 20_000  # steps in one game; more than 1 MiB of honest steps can hold
MAX_DEPTH = 4  # <kpat-game>, <state>, <move>, <card>; the older format nests 3 deep
MAX_ATTRIBUTES = 8  # KPat writes at most 6 on an element (the older format's <dealer>)
MAX_DOUBLE_STEPS = 50  # states holding two actions (two quick moves KPat recorded together)

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


class SaveError(InputError):
    """A KPat save that cannot be imported: names the file and, where one applies, the line."""


# ------------------------------------------------------------------------ reading the XML


@dataclass
class Element:
    """An XML element as the importer needs it: name, attributes, line, children."""

    name: str
    attrs: dict[str, str]
    line: int
    children: list[Element] = field(default_factory=list)


class _SaveKind(FileKind):
    """A KPat save, in the messages of ``files.read_limited``."""

    def directory(self) -> str:
        return N_("is a directory, not a KPat save")

    def too_big(self, size: str, limit: str) -> str:
        return N_(
            "is larger ({size}) than the limit of {limit} for a KPat save (some 3,000 steps of "
            "a game or more; a 7-minute game has 750)",
            size=size,
            limit=limit,
        )


SAVE = _SaveKind()


class _Refused(Exception):
    """Raised inside the parser's handlers: the save is refused at once, for this reason."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


class _Parser(DefusedExpatParser):
    """defusedxml's expat reader refusing any document type declaration, except the bare
    ``<!DOCTYPE kpat>`` of KPat's older saves (it declares nothing: no entity, no default
    attribute, no external subset)."""

    def defused_start_doctype_decl(
        self, name: str, sysid: str | None, pubid: str | None, has_internal_subset: bool
    ) -> None:
        if name == "kpat" and sysid is None and pubid is None and not has_internal_subset:
            return
        raise _Refused(
            N_(
                "refused: the XML has a document type declaration (<!DOCTYPE {name} ...>); "
                "KPat's saves have none (its older format only a bare <!DOCTYPE kpat>), and a "
                "DTD's declarations can make a small file costly",
                name=_clip(name),
            ),
            getattr(getattr(self, "_parser", None), "CurrentLineNumber", None),
        )


class _Builder(xml.sax.handler.ContentHandler):
    """The element tree, with KPat's limits checked as each element starts: a save that passes
    one is refused there, before the rest is read."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[Element] = []
        self.root: Element | None = None
        self.count = 0
        self.states = 0
        self.locator: xml.sax.xmlreader.Locator | None = None

    def setDocumentLocator(self, locator: xml.sax.xmlreader.Locator) -> None:
        self.locator = locator

    def startElement(self, name: str, attrs: xml.sax.xmlreader.AttributesImpl) -> None:
        line = (self.locator.getLineNumber() or 0) if self.locator is not None else 0
        self.count += 1
        if self.count > MAX_ELEMENTS:
            raise _Refused(
                N_(
                    "holds more than {n:,} XML elements: not a KPat save of Spider",
                    n=MAX_ELEMENTS,
                ),
                line,
            )
        if len(self.stack) >= MAX_DEPTH:
            raise _Refused(
                N_(
                    "<{name}> lies {depth} elements deep: KPat's saves nest {most} deep at most "
                    "(<kpat-game>, <state>, <move>, <card>)",
                    name=_clip(name),
                    depth=len(self.stack) + 1,
                    most=MAX_DEPTH,
                ),
                line,
            )
        names = attrs.getNames()
        if len(names) > MAX_ATTRIBUTES:
            raise _Refused(
                N_(
                    "<{name}> has {n:,} attributes: KPat writes at most {most} on an element",
                    name=_clip(name),
                    n=len(names),
                    most=MAX_ATTRIBUTES,
                ),
                line,
            )
        if len(self.stack) == 1:  # a step of the game (or a pile of the older format)
            self.states += 1
            if self.states > MAX_STATES:
                raise _Refused(
                    N_(
                        "holds more than {most:,} elements in <{root}> (a <state> a step); "
                        "spidercli imports games of up to {most:,} steps",
                        most=MAX_STATES,
                        root=self.stack[0].name,
                    ),
                    line,
                )
        # No name or value KPat writes is long: clipping the long ones keeps messages short.
        element = Element(_clip(name), {k: _clip(attrs[k]) for k in names}, line)
        if self.stack:
            self.stack[-1].children.append(element)
        else:
            self.root = element
        self.stack.append(element)

    def endElement(self, name: str) -> None:
        self.stack.pop()


def _shown_name(path: str | Path) -> str:
    """The name messages and the log use for the save (``<stdin>`` for ``-``)."""
    return STDIN_NAME if str(path) == STDIN else str(path)


def _clip(text: str) -> str:
    return text if len(text) <= 64 else text[:60] + "..."


SAVE_NAME = "<save>"  # what messages call a save given as bytes, unless told its name


def _source_name(source: str | Path | bytes, name: str | None) -> str:
    """What messages call the save: ``name`` when given, else its path (``<stdin>`` for ``-``,
    ``<save>`` for bytes)."""
    if name is not None:
        return name
    return SAVE_NAME if isinstance(source, bytes) else _shown_name(source)


def read_xml(source: str | Path | bytes, name: str | None = None) -> Element:
    """The save's root element, from its path (``-``: standard input) or its bytes (``name``: what
    messages call it); ``SaveError`` for a file that is missing, not a regular file, too large,
    not XML, or hostile (a DTD, entities, external references, more elements, states, depth or
    attributes than a KPat save holds)."""
    name = _source_name(source, name)
    try:
        if isinstance(source, bytes):
            if len(source) > MAX_SAVE_BYTES:
                raise too_big(MAX_SAVE_BYTES, len(source), SAVE)
            data = source
        else:
            data = read_limited(source, MAX_SAVE_BYTES, SAVE)
    except Unreadable as err:
        raise SaveError(err.message, path=name) from err
    if not data.strip():
        raise SaveError(N_("is empty: expected KPat's saved game (XML)"), path=name)
    builder = _Builder()
    parser = _Parser(forbid_dtd=True, forbid_entities=True, forbid_external=True)
    parser.setContentHandler(builder)
    stream = xml.sax.xmlreader.InputSource()
    stream.setByteStream(io.BytesIO(data))
    try:
        parser.parse(stream)
    except _Refused as err:
        raise SaveError(err.message, path=name, line=err.line) from err
    except defusedxml.EntitiesForbidden as err:  # pragma: no cover - a DTD is refused first
        raise SaveError(
            N_(
                "refused: the XML declares an entity ({entity!r}); KPat's saves declare none, "
                "and entities can blow up in memory",
                entity=_clip(str(err.name)),
            ),
            path=name,
        ) from err
    except defusedxml.DefusedXmlException as err:  # pragma: no cover - a DTD is refused first
        raise SaveError(N_("refused: {reason}", reason=str(err)), path=name) from err
    except xml.sax.SAXParseException as err:
        column = (err.getColumnNumber() or 0) + 1
        raise SaveError(
            N_(
                "is not well-formed XML: {problem} (column {column})",
                problem=err.getMessage(),
                column=column,
            ),
            path=name,
            line=err.getLineNumber(),
        ) from err
    except xml.sax.SAXException as err:
        raise SaveError(
            N_("cannot be read as XML: {problem}", problem=str(err)), path=name
        ) from err
    except (LookupError, ValueError) as err:
        # <?xml encoding="TF-8"?>: a codec Python does not know; "UTF-32" or "cp932": a
        # multi-byte one expat cannot read.
        raise SaveError(
            N_("cannot be read as XML: {problem}", problem=_clip(str(err))), path=name
        ) from err
    assert builder.root is not None  # a well-formed document has a root
    return builder.root


# ---------------------------------------------------------------------------- the save


Pile = list[tuple[int, bool]]  # (KPat card id, face up), bottom to top
Piles = dict[str, Pile]


@dataclass(frozen=True)
class SaveState:
    """One step of the save: the position after it, and the line of its ``<state>``."""

    line: int
    piles: dict[str, tuple[tuple[int, bool], ...]]


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
    name = _source_name(source, name)
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
        states.append(SaveState(state.line, dict(piles)))  # unchanged piles shared
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
    return KPatSave(name, suits, number, (SaveState(root.line, piles),), 0, legacy=True)


# ------------------------------------------------------------------- positions and moves


@dataclass(frozen=True)
class Position:
    """A position as the engine holds it: columns, face-down counts, deals made, runs removed."""

    cols: tuple[tuple[int, ...], ...]
    down: tuple[int, ...]
    deals_done: int
    runs: int


# A column as the engine holds it: its cards, how many are face-down, the run cards taken off.
Column = tuple[tuple[int, ...], int, int]


def saved_position(
    save: KPatSave, index: int, seen: dict[int, tuple[object, Column]] | None = None
) -> Position:
    """State ``index`` of the save as spidercli's engine would hold it: a complete face-up run
    that KPat's demo left on a column (it removes runs as a step of its own) is taken off, and a
    face-down card left on top is turned up, as the ``kpat`` rules do at once. ``seen`` keeps
    each pile already read (a state shares the piles it did not change with the one before)."""
    state = save.states[index]
    cols: list[tuple[int, ...]] = []
    down: list[int] = []
    runs = sum(len(state.piles.get(f"legs{i}", ())) for i in range(8))
    for c in range(10):
        saved = state.piles.get(f"stack{c}", ())
        known = seen.get(id(saved)) if seen is not None else None
        if known is not None and known[0] is saved:
            column = known[1]
        else:
            column = _column(save, state, c, saved)
            if seen is not None:
                seen[id(saved)] = (saved, column)  # the pile kept alive: its id stays its own
        cols.append(column[0])
        down.append(column[1])
        runs += column[2]
    stock = [len(state.piles.get(f"redeals{p}", ())) for p in range(5)]
    if any(n not in (0, 10) for n in stock) or stock != sorted(stock):
        raise SaveError(
            N_(
                "the stock piles hold {stock} cards: KPat's stock is five piles of 10, dealt "
                "from the first",
                stock=stock,
            ),
            path=save.path,
            line=state.line,
        )
    if runs % 13:
        raise SaveError(
            N_("the completed runs do not hold a multiple of 13 cards"),
            path=save.path,
            line=state.line,
        )
    return Position(tuple(cols), tuple(down), stock.count(0), runs // 13)


def _column(
    save: KPatSave, state: SaveState, c: int, saved: tuple[tuple[int, bool], ...]
) -> Column:
    pile = [(card_of_id(cid), up) for cid, up in saved]
    runs = 0
    while len(pile) >= 13 and _is_run(pile[-13:]):
        del pile[-13:]
        runs += 13
    if pile and not pile[-1][1]:
        pile[-1] = (pile[-1][0], True)
    d = 0
    while d < len(pile) and not pile[d][1]:
        d += 1
    if any(not up for _, up in pile[d:]):
        raise SaveError(
            N_(
                "column {column} has a face-down card above a face-up one: not a position of "
                "Spider",
                column=c + 1,
            ),
            path=save.path,
            line=state.line,
        )
    return tuple(card for card, _ in pile), d, runs


def _is_run(cards: list[tuple[int, bool]]) -> bool:
    """Thirteen face-up cards King to Ace of one suit."""
    return (
        all(up for _, up in cards)
        and [c for c, _ in cards] == list(range(cards[0][0], cards[0][0] - 13, -1))
        and cards[0][0] & 15 == 13
    )


def engine_position(game: Game) -> Position:
    return Position(
        tuple(tuple(c) for c in game.cols), tuple(game.down), game.deals_done, game.runs
    )


def starting_setup(save: KPatSave) -> tuple[Setup, str | None]:
    """The deal the save starts from: KPat's deal number as a code when the first state is that
    deal, else the first state written out. The second value is a warning, or None."""
    state = save.states[0]
    cols = []
    for c in range(10):
        pile = state.piles.get(f"stack{c}", ())
        if pile and all(up for _, up in pile) and len(pile) > 1:
            raise SaveError(
                N_(
                    "was dealt with KPat's 'Face Up' stack option (every card face-up): "
                    "spidercli's Spider deals the columns face-down",
                ),
                path=save.path,
                line=state.line,
            )
        if len(pile) != SPIDER.column_sizes[c] or [up for _, up in pile] != [False] * (
            len(pile) - 1
        ) + [True]:
            fields = {
                "column": c + 1,
                "cards": len(pile),
                "up": sum(up for _, up in pile),
                "size": SPIDER.column_sizes[c],
            }
            raise SaveError(
                N_(
                    "the position on the table is not a fresh deal (column {column} holds "
                    "{cards} cards, {up} face-up; a deal gives it {size}, the last face-up): "
                    "KPat's older save format keeps only the position, not the moves that led "
                    "to it, so spidercli cannot import a game in progress from it",
                    **fields,
                )
                if save.legacy
                else N_(
                    "the first state is not a fresh deal (column {column} holds {cards} cards, "
                    "{up} face-up; a deal gives it {size}, the last face-up)",
                    **fields,
                ),
                path=save.path,
                line=state.line,
            )
        cols.append(tuple(card_of_id(cid) for cid, _ in pile))
    stock: list[int] = []
    for p in range(5):
        pile = state.piles.get(f"redeals{p}", ())
        if len(pile) != 10:
            raise SaveError(
                N_(
                    "the first state's stock pile {pile} holds {cards} cards, not 10",
                    pile=p + 1,
                    cards=len(pile),
                ),
                path=save.path,
                line=state.line,
            )
        stock.extend(card_of_id(cid) for cid, _ in reversed(pile))  # KPat deals the top first
    layout = Layout(SPIDER, tuple(cols), tuple(stock))
    if save.number is not None:
        code = GameCode(SPIDER, save.suits, False, save.number, "KP")
        if deal_layout(code) == layout:
            return Setup.from_code(code), None
        return Setup(layout, save.suits, False), (
            N_(
                "the save names deal {number}, but its cards are not KPat's deal {code}: "
                "written out as an explicit deal",
                number=save.number,
                code=code.canonical,
            )
        )
    return Setup(layout, save.suits, False), None


@dataclass(frozen=True)
class KPatImport:
    """A KPat save turned into a move log: the ``actions`` (log text, in order), a ``warning``
    when the save's deal could not be checked (else None), and ``log_text``, the log itself."""

    save: KPatSave
    setup: Setup
    actions: tuple[str, ...]
    warning: str | None

    @property
    def log_text(self) -> str:
        """The move log, as ``spidercli import kpat`` writes it (``kpat`` rules)."""
        s = self.save
        kind = "older-format save" if s.legacy else "saved game"
        steps = (
            "the position only"
            if s.legacy
            else f"{s.current + 1} of its {len(s.states)} states, up to the current one"
        )
        suits = f"{s.suits} suit{'s' * (s.suits > 1)}"
        comment = (
            f"Imported from KPat's {kind} {Path(s.path).name} (Spider, {suits}): {steps}.\n"
            "Automatic flips and run removals are not actions."
        )
        return format_log(self.setup, list(self.actions), rules=KPAT.name, comment=comment)

    @property
    def log(self) -> MoveLog:
        """``log_text`` read as a ``MoveLog`` (its ``path`` is the save's)."""
        from spidercli.logs.reader import parse_log

        return parse_log(self.log_text, self.save.path)


def import_save(source: str | Path | bytes, name: str | None = None) -> KPatImport:
    """Read a KPat save (its path, or its bytes called ``name``) and find the kpat-rules action
    behind each of its steps."""
    save = read_save(source, name)
    setup, warning = starting_setup(save)
    game = Game.from_setup(setup, KPAT)
    actions: list[str] = []
    doubles = 0
    seen: dict[int, tuple[object, Column]] = {}
    for index in range(1, save.current + 1):
        want = saved_position(save, index, seen)
        if engine_position(game) == want:
            continue  # a step that only removed a run or turned a card
        found = _find(game, want, depth=1)
        if found is None and doubles < MAX_DOUBLE_STEPS:
            doubles += 1  # the two-action search is costly: a hostile file gets few of them
            found = _find(game, want, depth=2)
        if found is None:
            raise SaveError(
                N_(
                    "state {state} is not a card move or a deal away from the state before "
                    "(under KPat's Spider rules): the save is corrupt or not KPat's",
                    state=index + 1,
                ),
                path=save.path,
                line=save.states[index].line,
            )
        for action in found:
            game.apply(action)
            actions.append(_action_text(action))
    return KPatImport(save, setup, tuple(actions), warning)


def _find(game: Game, want: Position, depth: int) -> list[Action] | None:
    """The actions (``depth`` of them) that lead from ``game`` to ``want``; ``game`` is left as
    it was. The first found in ``legal_actions``'s order."""
    actions = game.legal_actions()
    if depth == 1:  # only a move between two columns that differ, or a deal, can lead there
        changed = {c + 1 for c, col in enumerate(game.cols) if tuple(col) != want.cols[c]}
        dealt = want.deals_done != game.deals_done
        actions = [
            a
            for a in actions
            if (isinstance(a, Move) and a.source in changed and a.target in changed)
            or (dealt and isinstance(a, Deal))
        ]
    for action in actions:
        over, undoable = game.over, game.undoable
        if game.play(action) is not None:  # pragma: no cover - legal_actions lists legal ones
            continue
        try:
            if depth == 1:
                if engine_position(game) == want:
                    return [action]
            else:
                rest = _find(game, want, depth - 1)
                if rest is not None:
                    return [action, *rest]
        finally:
            game.undo()  # the exact inverse, even of a winning action
            game.over, game.undoable = over, undoable
    return None


def _action_text(action: Action) -> str:
    if isinstance(action, Deal):
        return "deal"
    assert isinstance(action, Move) and action.count is not None
    return f"{action.source}>{action.target}:{action.count}"


__all__ = [
    "MAX_ATTRIBUTES",
    "MAX_DEPTH",
    "MAX_ELEMENTS",
    "MAX_SAVE_BYTES",
    "MAX_STATES",
    "KPatImport",
    "KPatSave",
    "Position",
    "SaveError",
    "engine_position",
    "import_save",
    "read_save",
    "saved_position",
    "starting_setup",
]
