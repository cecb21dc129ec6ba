"""``spidercli record``: write or refresh a log's ``expect`` block from its replay, in place.

Only the lines of the old ``expect`` block change (or a new block goes in just before
``moves:``): comments, key order, quoting and line endings elsewhere stay as they were. The file
is replaced atomically. A log with a refused action is not recorded: an ``expect`` block cannot
pin an illegal game, and recording one would hide the refusal.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from spidercli.files import write_atomic
from spidercli.movelog import LogError, compose, parse_log, read_text
from spidercli.replay import choose_rules, replay


@dataclass(frozen=True)
class Recorded:
    path: str
    changed: bool
    expect: dict[str, object]


class NotRecorded(ValueError):
    """The log replays with a refused action (exit status 1)."""


_FLOW = "its top level is in flow style ({...}): write it in block style to record it"


def expect_block(values: dict[str, object], newline: str) -> str:
    lines = ["expect:"] + [f"  {k}: {v}" for k, v in values.items()]
    return newline.join(lines) + newline


def _offset(text: str, line: int, column: int) -> int:
    """The character offset of a 0-based line and column."""
    pos = 0
    for _ in range(line):
        pos = text.index("\n", pos) + 1
    return pos + column


def rewrite(text: str, values: dict[str, object], path: str = "<log>") -> str:
    """``text`` with its top-level ``expect`` block replaced by (or given) ``values``.

    ``LogError`` when the top level is in flow style (``{...}``): its lines cannot be edited."""
    newline = "\r\n" if "\r\n" in text else "\n"
    block = expect_block(values, newline)
    root = compose(text, path)
    assert isinstance(root, yaml.MappingNode)
    if root.flow_style:  # `{game: ..., moves: [...]}`: no lines of its own to edit
        raise LogError(_FLOW, path=path)
    keys = {k.value: (k, v) for k, v in root.value}
    if "expect" in keys:
        key, value = keys["expect"]
        start = _offset(text, key.start_mark.line, 0)
        last = value
        while isinstance(last, yaml.MappingNode) and last.value:
            last = last.value[-1][1]
        end = _offset(text, last.end_mark.line, last.end_mark.column)
        nl = text.find("\n", end)
        end = len(text) if nl < 0 else nl + 1
        return text[:start] + block + text[end:]
    key = keys["moves"][0]
    at = _offset(text, key.start_mark.line, 0)
    # Keep the comment lines right above `moves:` with it.
    lines_before = text[:at].split(newline)
    while len(lines_before) > 1 and lines_before[-2].lstrip().startswith("#"):
        at -= len(lines_before[-2]) + len(newline)
        lines_before.pop()
    return text[:at] + block + text[at:]


def record(path: str) -> Recorded:
    """Replay ``path`` and write its ``expect`` block (``LogError`` for bad input, ``NotRecorded``
    when an action is refused)."""
    text = read_text(path)  # LogError names the file (and line)
    log = parse_log(text, path)
    raw = Path(path).read_bytes()
    report = replay(log, rules=choose_rules(log))
    if report.illegal:
        first = report.illegal[0]
        raise NotRecorded(
            f"{path}, line {first.entry.line}: entry {first.entry.index} `{first.entry.text}` is "
            f"refused ({first.refusal.rule}): not recorded"
        )
    g = report.game
    values: dict[str, object] = {
        "result": report.result,
        "moves": g.moves,
        "score": g.score,
        "runs": g.runs,
    }
    new = rewrite(text, values, path)
    if raw.startswith(b"\xef\xbb\xbf"):
        new = "\ufeff" + new
    changed = new.encode("utf-8") != raw
    if changed:
        write_atomic(path, new)
    return Recorded(path, changed, values)


__all__ = ["NotRecorded", "Recorded", "record", "rewrite"]
