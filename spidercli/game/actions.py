"""The actions a player takes, as values, and their one-line text form from the move log.

The grammar is the contract's (``shared/cli-contract.md``): ``S>T[:K]``, ``deal``, ``undo``,
``tap S[:K]``, ``flip N``, ``finish``; keywords are case-insensitive and blanks are allowed around
``>`` and ``:``. Column numbers are 1-based, as the player sees them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from spidercli.text.messages import N_, ascii_note, quoted


class ActionSyntaxError(ValueError):
    """Text that is not an action at all (as opposed to an action the rules refuse)."""


@dataclass(frozen=True, slots=True)
class Move:
    """``S>T:K`` (``count`` given) or ``S>T`` (``count`` is None: inferred as the contract says)."""

    source: int
    target: int
    count: int | None = None

    def __str__(self) -> str:
        tail = "" if self.count is None else f":{self.count}"
        return f"{self.source}>{self.target}{tail}"


@dataclass(frozen=True, slots=True)
class Tap:
    """``tap S[:K]``: send a group to the best column."""

    source: int
    count: int | None = None

    def __str__(self) -> str:
        tail = "" if self.count is None else f":{self.count}"
        return f"tap {self.source}{tail}"


@dataclass(frozen=True, slots=True)
class Flip:
    """``flip N``: turn column N's face-down last card (``duel`` only)."""

    column: int

    def __str__(self) -> str:
        return f"flip {self.column}"


@dataclass(frozen=True, slots=True)
class Deal:
    def __str__(self) -> str:
        return "deal"


@dataclass(frozen=True, slots=True)
class Undo:
    def __str__(self) -> str:
        return "undo"


@dataclass(frozen=True, slots=True)
class Finish:
    def __str__(self) -> str:
        return "finish"


Action = Move | Tap | Flip | Deal | Undo | Finish

DEAL = Deal()
UNDO = Undo()
FINISH = Finish()

# ASCII only: digits 0-9, and blanks that are spaces and tabs (``\s`` and ``str.strip`` would
# take any Unicode blank, and ``str.lower`` maps some non-ASCII letters to ASCII ones).
_NUM = r"([0-9]+)"
_B = r"[ \t]"
_MOVE_RE = re.compile(rf"{_NUM}{_B}*>{_B}*{_NUM}(?:{_B}*:{_B}*{_NUM})?")
_TAP_RE = re.compile(rf"tap{_B}+{_NUM}(?:{_B}*:{_B}*{_NUM})?")
_FLIP_RE = re.compile(rf"flip{_B}+{_NUM}")
_WORDS: dict[str, Action] = {"deal": DEAL, "undo": UNDO, "finish": FINISH}

# Numbers past this are out of every range anyway; capping them keeps int() cheap and bounded.
_HUGE = 10**18


def _num(digits: str) -> int:
    digits = digits.lstrip("0") or "0"
    return _HUGE if len(digits) > 18 else int(digits)


def _opt(digits: str | None) -> int | None:
    return None if digits is None else _num(digits)


def parse_action(text: str) -> Action:
    """Parse one log entry; ``ActionSyntaxError`` says what was expected.

    Actions are immutable values and a log repeats a few hundred texts at most, so parsed
    actions are memoised (bounded), which matters when thousands of logs are verified."""
    action = _PARSED.get(text)
    if action is None:
        action = _parse(text)
        if len(_PARSED) >= 4096:
            _PARSED.clear()
        _PARSED[text] = action
    return action


_PARSED: dict[str, Action] = {}


def _parse(text: str) -> Action:
    s = text.strip(" \t").lower() if text.isascii() else ""
    word = _WORDS.get(s)
    if word is not None:
        return word
    m = _MOVE_RE.fullmatch(s)
    if m:
        return Move(_num(m[1]), _num(m[2]), _opt(m[3]))
    m = _TAP_RE.fullmatch(s)
    if m:
        return Tap(_num(m[1]), _opt(m[2]))
    m = _FLIP_RE.fullmatch(s)
    if m:
        return Flip(_num(m[1]))
    raise ActionSyntaxError(
        N_(
            "{action} is not an action{note}: expected S>T, S>T:K, deal, undo, tap S, tap S:K, "
            "flip N or finish (S, T, N column numbers, K a card count)",
            action=quoted(text),
            note=ascii_note(text),
        )
    )
