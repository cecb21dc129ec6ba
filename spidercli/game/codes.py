"""Game codes: spidercli's own (``SP2-S1C-AAAAABD``, deal algorithm S1) and other apps' numbered
Spider deals: KDE KPatience's (``KP2-17``, dealt by ``spidercli.game.kpatdeal``) and PySolFC's
(``PS4-14934``, ``PS4-MS40000``, dealt by ``spidercli.game.pysoldeal``)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property

from spidercli.game.cards import cards_str, make_card
from spidercli.game.kpatdeal import KPAT_MAX_DEAL, kpat_cards
from spidercli.game.pysoldeal import PYSOL_LC_BELOW, PYSOL_MAX_MS, PYSOL_MAX_NUMBER, pysol_cards
from spidercli.game.rules import SPIDER, SPIDERETTE, GameKind
from spidercli.text.messages import N_, ascii_note, quoted

_CODE_RE = re.compile(r"(SP|SD)([124])-S1([CP]?)-([A-Z]{7})")
_KP_RE = re.compile(r"KP([0-9])-([0-9]+)")
_PS_RE = re.compile(r"PS([0-9])-(MS)?([0-9]+)")
_MASK = (1 << 64) - 1
_BLANKS = " \t\r\n"  # ASCII blanks only


class CodeError(ValueError):
    """A game code that does not follow the grammar."""


@dataclass(frozen=True)
class GameCode:
    """A parsed code. ``algorithm`` is ``S1`` (``seed`` the 7 letters' value), or names an app's
    numbered deals (``seed`` the number; always Spider, always the classic move rule): ``KP``
    KPat's, ``PS`` PySol's plain game numbers, ``PSMS`` PySol's ``ms`` numbers from 32000 on
    (below 32000 an ``ms`` number is the plain number's game, and its code is ``PS``)."""

    game: GameKind
    suits: int
    permissive: bool
    seed: int
    algorithm: str = "S1"

    @cached_property  # each report names it: worked out once per code
    def canonical(self) -> str:
        numbered = _NUMBERED.get(self.algorithm)
        if numbered is not None:
            return f"{numbered.prefix}{self.suits}-{numbered.before_number}{self.seed}"
        if self.game is SPIDER:
            rule = "P" if self.permissive else "C"
        else:
            rule = "P" if self.permissive else ""
        return f"{self.game.prefix}{self.suits}-S1{rule}-{seed_letters(self.seed)}"

    def __str__(self) -> str:
        return self.canonical


def seed_letters(seed: int) -> str:
    letters = []
    for _ in range(7):
        seed, digit = divmod(seed, 26)
        letters.append(chr(65 + digit))
    return "".join(reversed(letters))


def parse_code(text: str) -> GameCode:
    """Parse a game code (ASCII, case-insensitive, spaces and tabs around it ignored)."""
    if not isinstance(text, str):
        raise CodeError(N_("a game code must be text, not {type}", type=type(text).__name__))
    # ASCII first: str.upper() maps some other letters to ASCII ones (U+017F to S, U+0131 to I).
    stripped = text.strip(_BLANKS)
    upper = stripped.upper() if text.isascii() else ""
    # An app's numbered deal is told by its two ASCII letters, so that a code with other digits
    # after them (PS4-١٢٣, KP4-１２３) hears what a PS or KP code expects.
    head = stripped[:2]
    numbered = _PARSERS.get(head.upper()) if head.isascii() else None
    if numbered is not None:
        return numbered(stripped, upper)
    m = _CODE_RE.fullmatch(upper) if upper else None
    if m is None:
        raise CodeError(
            N_(
                "{code} is not a game code{note}: expected SP or SD, the suit count 1, 2 or 4, "
                "'-S1', the move rule C or P (optional for SD), '-' and 7 letters A-Z, "
                "as in SP2-S1C-AAAAABD or SD1-S1-AAAAABD",
                code=quoted(text.strip(_BLANKS)),
                note=ascii_note(text),
            )
        )
    prefix, suits, rule, letters = m.groups()
    game = SPIDER if prefix == "SP" else SPIDERETTE
    seed = 0
    for ch in letters:
        seed = seed * 26 + (ord(ch) - 65)
    n_suits = int(suits)
    permissive = rule == "P" and n_suits > 1  # with one suit both move rules are the same game
    return GameCode(game, n_suits, permissive, seed)


def _numbered_suits(text: str, prefix: str, digit: str) -> int:
    """The suit count of an app's numbered deal (``KP``, ``PS``): 1, 2 or 4."""
    suits = int(digit)
    if suits not in (1, 2, 4):
        raise CodeError(
            N_(
                "{code} is not a game code: {prefix} codes take 1, 2 or 4 suits, not {suits}",
                code=quoted(text),
                prefix=prefix,
                suits=suits,
            )
        )
    return suits


def _number(digits: str, last: int) -> int | None:
    """A deal number without its leading zeros, or None when it is 0 or above ``last``: a
    number too long to be in range is never converted."""
    digits = digits.lstrip("0")
    if not digits or len(digits) > len(str(last)) or int(digits) > last:
        return None
    return int(digits)


def _shown(digits: str, last: int) -> str:
    """A number as an error message quotes it: leading zeros dropped, one two digits longer than
    ``last`` cut short."""
    digits = digits.lstrip("0")
    keep = len(str(last)) + 2
    return digits[:keep] + "..." if len(digits) > keep else digits or "0"


def _parse_kpat(text: str, upper: str) -> GameCode:
    """``KP<suits>-<number>``: KPat's Spider deal ``number`` (1 to 2^31-1; leading zeros are
    dropped) with 1, 2 or 4 suits."""
    m = _KP_RE.fullmatch(upper)
    if m is None:
        raise CodeError(
            N_(
                "{code} is not a game code{note}: a KPat deal is KP, the suit count 1, 2 or 4, "
                "'-' and KPat's deal number 1 to {last}, as in KP2-17",
                code=quoted(text),
                note=ascii_note(text),
                last=KPAT_MAX_DEAL,
            )
        )
    if m.group(1) == "3":
        raise CodeError(
            N_(
                "{code}: KPat's 3-suit Spider has no spidercli deck; KP codes take 1, 2 or 4 suits",
                code=quoted(text),
            )
        )
    suits = _numbered_suits(text, "KP", m.group(1))
    number = _number(m.group(2), KPAT_MAX_DEAL)
    if number is None:
        raise CodeError(
            N_(
                "{code}: deal number {number} is out of range; KPat numbers its deals 1 to {last}",
                code=quoted(text),
                number=_shown(m.group(2), KPAT_MAX_DEAL),
                last=KPAT_MAX_DEAL,
            )
        )
    return GameCode(SPIDER, suits, False, number, "KP")


def _parse_pysol(text: str, upper: str) -> GameCode:
    """``PS<suits>-<number>`` or ``PS<suits>-MS<number>``: PySol's Spider game ``number``
    (1 to 10^20, or ms1 to ms2^33-1; leading zeros are dropped) with 1, 2 or 4 suits."""
    m = _PS_RE.fullmatch(upper)
    if m is None:
        raise CodeError(
            N_(
                "{code} is not a game code{note}: a PySol deal is PS, the suit count 1, 2 or 4, "
                "'-' and PySol's game number, 1 to {last} or ms1 to ms{ms_last}, as in PS4-14934",
                code=quoted(text),
                note=ascii_note(text),
                last=PYSOL_MAX_NUMBER,
                ms_last=PYSOL_MAX_MS,
            )
        )
    suits = _numbered_suits(text, "PS", m.group(1))
    ms = m.group(2) is not None
    last = PYSOL_MAX_MS if ms else PYSOL_MAX_NUMBER
    number = _number(m.group(3), last)
    if number is None:
        raise CodeError(
            N_(
                "{code}: game number {number} is out of range; PySol numbers its games "
                "1 to {last} and ms1 to ms{ms_last}",
                code=quoted(text),
                number=("ms" if ms else "") + _shown(m.group(3), last),
                last=PYSOL_MAX_NUMBER,
                ms_last=PYSOL_MAX_MS,
            )
        )
    # Below 32000 PySol deals a plain number with the ms numbers' generator: one game, one code.
    algorithm = "PSMS" if ms and number >= PYSOL_LC_BELOW else "PS"
    return GameCode(SPIDER, suits, False, number, algorithm)


_PARSERS: dict[str, Callable[[str, str], GameCode]] = {"KP": _parse_kpat, "PS": _parse_pysol}


@dataclass(frozen=True)
class _Numbered:
    """An app's numbered Spider deals: the code's form and the app's deal."""

    app: str  # the app's name
    prefix: str  # the code's letters before the suit count
    before_number: str  # what the canonical code writes before the number
    cards: Callable[[int, int], tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]]


_NUMBERED: dict[str, _Numbered] = {
    "KP": _Numbered("KPat", "KP", "", kpat_cards),
    "PS": _Numbered("PySol", "PS", "", pysol_cards),
    "PSMS": _Numbered("PySol", "PS", "MS", lambda number, suits: pysol_cards(number, suits, True)),
}


_GAMMA = 0x9E3779B97F4A7C15  # SplitMix64's increment of its state, each step


def splitmix64(state: int) -> tuple[int, int]:
    """One SplitMix64 step: ``(new_state, output)``."""
    state = (state + _GAMMA) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def splitmix64_output(seed: int, n: int) -> int:
    """The output of the ``n``-th SplitMix64 step (from 1) from ``seed``, at once: the state
    after ``n - 1`` steps is ``seed`` plus ``n - 1`` increments (mod 2^64), so none is run."""
    return splitmix64((seed + (n - 1) * _GAMMA) & _MASK)[1]


def ordered_deck(game: GameKind, suits: int) -> list[int]:
    """Step 1: for each suit (S H D C, the first ``suits``), for each copy, A..K."""
    copies = game.cards // (13 * suits)
    return [make_card(r, s) for s in range(suits) for _ in range(copies) for r in range(1, 14)]


def shuffled_deck(code: GameCode) -> list[int]:
    """Steps 1-3: the ordered deck, Fisher-Yates shuffled from the end by SplitMix64."""
    numbered = _NUMBERED.get(code.algorithm)
    if numbered is not None:
        raise ValueError(f"{code.canonical} is a {numbered.app} deal: deal_layout deals it, not S1")
    deck = ordered_deck(code.game, code.suits)
    state = code.seed
    for i in range(len(deck) - 1, 0, -1):
        state, x = splitmix64(state)
        j = (x * (i + 1)) >> 64
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@dataclass(frozen=True)
class Layout:
    """A starting position: columns bottom to top (the last card face-up), and the stock."""

    game: GameKind
    columns: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]  # in dealing order


def deal_layout(code: GameCode) -> Layout:
    """Steps 4-5: deal the shuffled deck row by row into the columns; the rest is the stock.
    An app's numbered deal (KP, PS) is dealt the way that app deals it instead."""
    numbered = _NUMBERED.get(code.algorithm)
    if numbered is not None:
        return Layout(code.game, *numbered.cards(code.seed, code.suits))
    deck = shuffled_deck(code)
    sizes = code.game.column_sizes
    columns: list[list[int]] = [[] for _ in sizes]
    pos = 0
    for row in range(max(sizes)):
        for c, size in enumerate(sizes):
            if row < size:
                columns[c].append(deck[pos])
                pos += 1
    return Layout(code.game, tuple(tuple(c) for c in columns), tuple(deck[pos:]))


_DEALT: dict[GameCode, Setup] = {}  # Setup.from_code's recent results


@dataclass(frozen=True)
class Setup:
    """A game to play: the starting layout, the suit count and move rule, and its code if any.

    A log names its deal by a game code (``code`` set, the layout dealt by S1) or writes the
    layout out (``code`` None). ``deal_id`` is the same hash for both, so a script can group
    every submission of one deal however it was given.
    """

    layout: Layout
    suits: int
    permissive: bool
    code: GameCode | None = None
    deal_id: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "deal_id", deal_id(self.layout, self.permissive and self.suits > 1)
        )

    @classmethod
    def from_code(cls, code: GameCode) -> Setup:
        """The deal a code names. Setups are immutable, so the last few hundred are kept: a
        batch of logs of the same deals deals and hashes each deal's cards once."""
        setup = _DEALT.get(code)
        if setup is None or type(setup) is not cls:
            setup = cls(deal_layout(code), code.suits, code.permissive, code)
            if len(_DEALT) >= 256:
                _DEALT.clear()
            _DEALT[code] = setup
        return setup

    @property
    def game(self) -> GameKind:
        return self.layout.game

    @property
    def classic_name(self) -> str | None:
        """The game code of the same cards under the classic move rule (the code itself when it
        is classic); None for a written-out layout."""
        if self.code is None:
            return None
        return replace(self.code, permissive=False).canonical

    @property
    def name(self) -> str:
        """The game code, or ``explicit deal <id>`` for a written-out layout."""
        if self.code is not None:
            return self.code.canonical
        return N_("explicit deal {id}", id=self.deal_id)


def canonical_layout(layout: Layout, permissive: bool) -> str:
    """The text the deal ID hashes: game, move rule, each column bottom to top, the stock.

    ``SP C|5S 9S 2S 4S KS 7S|...|stock AS 3S ...``: cards in the two-character form, columns
    separated by ``|``. The move rule is part of it (the same cards under the other rule are
    another game); with one suit both rules are the same game and the rule is always C.
    """
    rule = "P" if permissive else "C"
    parts = [f"{layout.game.prefix} {rule}"]
    parts.extend(cards_str(col) for col in layout.columns)
    parts.append("stock " + cards_str(layout.stock))
    return "|".join(parts)


def deal_id(layout: Layout, permissive: bool) -> str:
    """16 hex digits: the first 64 bits of the SHA-256 of ``canonical_layout``."""
    text = canonical_layout(layout, permissive)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:16]


__all__ = [
    "CodeError",
    "GameCode",
    "Layout",
    "Setup",
    "canonical_layout",
    "deal_id",
    "deal_layout",
    "ordered_deck",
    "parse_code",
    "shuffled_deck",
    "splitmix64",
    "splitmix64_output",
]
