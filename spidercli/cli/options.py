"""Command-line option values read into library values, independent of Typer.

``--show`` names the boards a text report draws: ``every``, ``none``, or entry numbers, ``start``
(entry 0) and ``final``, separated by commas. Each sentence refusing a value lives here, once:
``--show``'s, and the plain sentence for a number out of its range or a word that is none of an
option's choices (``refused_value``, which the command line's coercion says instead of the
validation library's words).
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from spidercli.text.messages import N_, Nn_, did_you_mean, quoted

Show = str | set[object]  # "every", "none", or the entry numbers (0 the start) and "final"


def parse_show(value: str) -> Show:
    """``--show``'s value; ``ValueError`` naming the token not understood."""
    given = value.strip()
    value = given.lower()
    if value in ("every", "none"):
        return value
    which: set[object] = set()
    for written in given.split(","):
        token = written.strip().lower()
        if token in ("final", "start"):
            which.add("final" if token == "final" else 0)
        elif token.isdigit() and token.isascii() and len(token) < 10:
            which.add(int(token))
        else:
            raise ValueError(
                N_(
                    "--show: {token} is not understood; expected final, every, none, or entry "
                    "numbers such as 0,12,final (0 is the start)",
                    token=quoted(written.strip()),  # as written, escaped and cut
                )
            )
    return which


def check_show(which: Show, entries: int, name: str) -> None:
    """``ValueError`` when ``which`` names an entry past the end of the log ``name`` (shown as
    given), which has ``entries`` entries."""
    if not isinstance(which, set):
        return
    past = sorted(n for n in which if isinstance(n, int) and n > entries)
    if past:
        raise ValueError(
            Nn_(
                "--show: entry {entry} is past the end of {name}, which has {entries} entry "
                "(0 is the start)",
                "--show: entry {entry} is past the end of {name}, which has {entries} entries "
                "(0 is the start)",
                entries,
                entry=past[0],
                name=name,
                entries=entries,
            )
        )


def _bounds(low: object, high: object) -> str:
    if low is not None and high is not None:
        return f" from {low} to {high}"
    if low is not None:
        return f" of {low} or more"
    if high is not None:
        return f" of {high} or less"
    return ""


def refused_value(kind: Any, value: object, low: object = None, high: object = None) -> str | None:
    """The plain sentence refusing an option's ``value`` of the type ``kind`` (a whole number,
    a number, one of an ``Enum``'s values) between ``low`` and ``high`` when given, instead of
    the validation library's own (``Input should be greater than or equal to 1``, ``Value
    error, 'x' is not one of ...``); None for another type. English, as the rest of the command
    line's usage errors: ``Invalid value for '--jobs' / '-j': '0' is not a whole number of 1 or
    more``."""
    shown_value = quoted(value if isinstance(value, str) else str(value))
    if kind is int:
        return f"{shown_value} is not a whole number{_bounds(low, high)}"
    if kind is float:
        return f"{shown_value} is not a number{_bounds(low, high)}"
    if isinstance(kind, type) and issubclass(kind, Enum):
        choices = [str(member.value) for member in kind]
        typed = value if isinstance(value, str) else str(value)
        hint = did_you_mean(typed, choices)
        return f"{shown_value} is not one of {', '.join(choices)}{hint}"
    return None


__all__ = ["Show", "check_show", "parse_show", "refused_value"]
