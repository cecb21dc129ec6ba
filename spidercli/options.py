"""Command-line option values read into library values, independent of Typer.

``--show`` names the boards a text report draws: ``every``, ``none``, or entry numbers, ``start``
(entry 0) and ``final``, separated by commas. Each sentence refusing a value lives here, once.
"""

from __future__ import annotations

from spidercli.messages import N_, Nn_, quoted

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


__all__ = ["Show", "check_show", "parse_show"]
