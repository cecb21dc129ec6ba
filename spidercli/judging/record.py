"""``spidercli record``: write or refresh a log's ``expect`` block from its replay, in place.

Only the lines of the old ``expect`` block change (or a new block goes in just before
``moves:``): comments, key order, quoting, byte order marks and line endings elsewhere stay as
they were. The lines to replace are found from YAML's own node positions (character offsets into
the text) and YAML's own line breaks (CR LF, CR, LF, NEL, U+2028, U+2029), never by counting
``\\n``. Before the file is touched, the new text is parsed again and must read back the same as
the old one in everything but ``expect`` (the same keys in the same order, the same values, the
same moves on the same lines, shifted by the lines the block gained or lost); if it does not,
the log is not recorded and the file is left as it was. The file is replaced atomically. A log
with a refused action is not recorded: an ``expect`` block cannot pin an illegal game, and
recording one would hide the refusal.

The file written is the file read: its path is resolved once, before it is read (a symbolic link
pointed elsewhere meanwhile changes nothing), and just before the rename it must still be that
file (device, inode, size, modification time) with the same bytes (their SHA-256, read again):
an edit saved while ``record`` ran is kept, and the log is not recorded (exit status 2).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import yaml

from spidercli.logs.files import (
    MAX_LOG_BYTES,
    STDIN,
    STDIN_NAME,
    Changed,
    Unreadable,
    read_to_rewrite,
    write_atomic,
)
from spidercli.logs.reader import parse_log
from spidercli.logs.writer import expect_lines
from spidercli.logs.yamlreader import LogError, compose, decode
from spidercli.play.logtypes import stated_figure
from spidercli.play.replay import IllegalLogError, choose_rules, replay
from spidercli.text.messages import N_, shown_path


@dataclass(frozen=True)
class Recorded:
    """A log recorded in place: its ``path``, whether the file ``changed``, and the ``expect``
    figures written (``result``, ``moves``, ``score``, ``runs``)."""

    path: str
    changed: bool
    expect: Mapping[str, object]  # read-only

    def __repr__(self) -> str:
        figures = ", ".join(stated_figure(key, value) for key, value in self.expect.items())
        changed = "changed" if self.changed else "unchanged"
        return f"<Recorded {shown_path(self.path, 40)}: {changed}, {figures}>"


class NotRecorded(IllegalLogError):
    """The log replays with a refused action: it is not recorded (exit status 1)."""


_FLOW = N_("its top level is in flow style ({{...}}): write it in block style to record it")
_BREAKS = "\r\n\x85\u2028\u2029"  # YAML's line break characters (CR LF counts as one break)
_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


@dataclass(frozen=True)
class Edit:
    """``text[start:end]`` replaced by ``block``: the new text is ``new``."""

    new: str
    start: int
    end: int
    block: str


def expect_block(values: dict[str, object], newline: str, indent: int = 0) -> str:
    return newline.join(expect_lines(values, " " * indent)) + newline


def _line_start(text: str, index: int) -> int:
    """The offset where the line holding ``text[index]`` starts."""
    while index > 0 and text[index - 1] not in _BREAKS:
        index -= 1
    return index


def _line_break(text: str, index: int) -> re.Match[str] | None:
    """The line break that ends the line holding ``text[index]``."""
    return _BREAK.search(text, index)


def _previous_break(text: str, at: int) -> int:
    """Where the line break just before the line starting at ``at`` begins."""
    return at - 2 if text[max(at - 2, 0) : at] == "\r\n" else at - 1


def _last_node(node: yaml.Node) -> yaml.Node:
    """The node written last inside ``node`` (itself for a scalar or an empty collection)."""
    while True:
        if isinstance(node, yaml.MappingNode) and node.value:
            node = node.value[-1][1]
        elif isinstance(node, yaml.SequenceNode) and node.value:
            node = node.value[-1]
        else:
            return node


def _refuse(path: str, why: str) -> LogError:
    return LogError(
        N_("cannot be recorded in place: {why}; the file is left as it was", why=why), path=path
    )


def rewrite(text: str, values: dict[str, object], path: str = "<log>") -> Edit:
    """``text`` with its top-level ``expect`` block replaced by (or given) ``values``.

    ``LogError`` when the top level is in flow style (``{...}``): its lines cannot be edited."""
    root = compose(text, path)
    if not isinstance(root, yaml.MappingNode) or not root.value:
        raise _refuse(path, N_("its top level is not a mapping"))
    if root.flow_style:  # `{game: ..., moves: [...]}`: no lines of its own to edit
        raise LogError(_FLOW, path=path)
    keys = {k.value: (k, v) for k, v in root.value}
    indent = int(root.value[0][0].start_mark.column)  # the top-level mapping may be indented
    if "expect" in keys:
        key, value = keys["expect"]
        at = int(key.start_mark.index)
        start = _line_start(text, at)
        end = int(_last_node(value).end_mark.index)
        if not (end > start and text[end - 1] in _BREAKS):  # a block scalar ends past its break
            found = _line_break(text, end)
            end = len(text) if found is None else found.end()
        # A block scalar (`|`, `>-`) ends after the blank lines that follow it: they stay.
        while end > at and text[end - 1] in _BREAKS:
            brk = _previous_break(text, end)
            blank = _line_start(text, brk)
            if blank <= at or text[blank:brk].strip(" \t"):
                break
            end = blank
        ends_with_break = end > start and text[end - 1] in _BREAKS
    else:
        key = keys["moves"][0]
        at = int(key.start_mark.index)
        start = _line_start(text, at)
        # Keep the comment lines right above `moves:` with it.
        while start > 0:
            brk = _previous_break(text, start)
            above = _line_start(text, brk)
            if not text[above:brk].lstrip(" \t").startswith("#"):
                break
            start = above
        end = start
        ends_with_break = True
    if text[_line_start(text, at) : at].strip(" "):
        raise _refuse(path, N_("the 'expect' or 'moves' key does not start its line"))
    found = _line_break(text, at)
    newline = found.group() if found is not None else "\n"
    block = expect_block(values, newline, indent)
    if not ends_with_break:
        block = block[: -len(newline)]
    return Edit(text[:start] + block + text[end:], start, end, block)


def _tree(node: yaml.Node, end: int, delta: int) -> object:
    """What a node reads as, with its line (``delta`` added when it starts at ``end`` or
    later): the text of everything but the edited block must read back the same."""
    line = int(node.start_mark.line) + (delta if node.start_mark.index >= end else 0)
    if isinstance(node, yaml.ScalarNode):
        return (node.tag, node.value, line)
    if isinstance(node, yaml.SequenceNode):
        return (node.tag, line, [_tree(item, end, delta) for item in node.value])
    assert isinstance(node, yaml.MappingNode)
    return (node.tag, line, [(_tree(k, end, delta), _tree(v, end, delta)) for k, v in node.value])


def _outside_expect(text: str, end: int, delta: int, path: str) -> list[object]:
    root = compose(text, path)
    assert isinstance(root, yaml.MappingNode)
    return [
        (_tree(k, end, delta), _tree(v, end, delta)) for k, v in root.value if k.value != "expect"
    ]


def check(old: str, edit: Edit, values: dict[str, object], path: str) -> None:
    """``LogError`` unless ``edit.new`` reads back as ``old`` in everything but ``expect``, and
    its ``expect`` block reads back as ``values``."""
    delta = len(_BREAK.findall(edit.block)) - len(_BREAK.findall(old, edit.start, edit.end))
    try:
        before = _outside_expect(old, edit.end, delta, path)
        after = _outside_expect(edit.new, len(edit.new) + 1, 0, path)
        expect = parse_log(edit.new, path).expect
    except LogError as err:
        raise _refuse(
            path, N_("the rewritten log would not read back ({error})", error=err.message)
        ) from err
    if before != after:
        raise _refuse(path, N_("the rewritten log would read back differently outside 'expect'"))
    if expect is None or dict(expect.items()) != values:
        raise _refuse(path, N_("the new 'expect' block would not read back as written"))


def recorded(raw: bytes, path: str = "<log>") -> tuple[str, dict[str, object]]:
    """The text of the log whose bytes are ``raw`` with its ``expect`` block written from its
    replay, and the figures written; no file is touched (``LogError`` for bad input,
    ``NotRecorded`` when an action is refused)."""
    log = parse_log(decode(raw, path), path)  # LogError names the file (and line)
    report = replay(log, rules=choose_rules(log))
    if report.illegal:
        first = report.illegal[0]
        raise NotRecorded(
            first.refused(N_("not recorded")), path=path, line=first.entry.line, report=report
        )
    values = report.figures()
    full = raw.decode("utf-8")
    # Byte order marks stay as they are; YAML parsers disagree on whether a leading one counts
    # in node positions, so the text is edited without them.
    body = full.lstrip("\ufeff")
    marks = full[: len(full) - len(body)]
    edit = rewrite(body, values, path)
    check(body, edit, values, path)
    return marks + edit.new, values


def record(path: str, max_bytes: int = MAX_LOG_BYTES) -> Recorded:
    """Replay ``path`` and write its ``expect`` block (``LogError`` for bad input, ``NotRecorded``
    when an action is refused or the file changed meanwhile, ``OSError`` when it cannot be
    replaced)."""
    if path == STDIN:
        raise LogError(
            N_("record rewrites files in place: standard input cannot be recorded"),
            path=STDIN_NAME,
        )
    try:
        raw, snapshot = read_to_rewrite(path, max_bytes)  # the path resolved once, here
    except Unreadable as err:
        raise LogError(err.message, path=path) from err
    new, values = recorded(raw, path)
    changed = new.encode("utf-8") != raw
    if changed:
        try:
            write_atomic(path, new, unchanged=snapshot)
        except Changed as err:  # saved by someone else meanwhile: theirs stays
            raise _refuse(path, err.message) from err
    return Recorded(path, changed, MappingProxyType(values))


__all__ = ["Edit", "NotRecorded", "Recorded", "check", "record", "recorded", "rewrite"]
