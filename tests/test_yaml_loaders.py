"""One verdict for one log on every machine: libyaml's loader, the pure-Python one (used where
PyYAML was built without libyaml) and the quick reader read tabs, and deep nesting, alike.

Every placement of a tab in a set of logs that use every part of the format (block and flow
lists, an ``expect`` block and flow mapping, an explicit deal, comments, quoted and multi-line
scalars, block scalars, tags, anchors, directives, document markers, complex keys) is read by
both loaders and by ``parse_log`` with each: the same nodes (values, tags, lines, columns), the
same log, or a refusal on the same line (a misplaced tab with one message), and the quick reader
agrees with the full one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from spidercli.logs import yamlreader
from spidercli.logs.reader import parse_log, parse_yaml_log
from spidercli.logs.yamlreader import InputError, PureLoader
from spidercli.play.logtypes import MoveLog

LIBYAML: Any = getattr(yaml, "CSafeLoader", None)
pytestmark = pytest.mark.skipif(LIBYAML is None, reason="PyYAML was built without libyaml")

# Logs that use every construct a log can hold, each line ending in a line break.
BASES = [
    "# Solved by spidercli\n"
    "game: SP2-S1C-AAAAABD   # the deal\n"
    "rules: classic\n"
    "player: Ann Lee\n"
    "time: 12.5\n"
    "expect:\n"
    "  result: open\n"
    "  moves: 4\n"
    "moves:\n"
    "  - 10>9\n"
    "  - '3>4:2'\n"
    "  - tap 3   # a tap\n"
    "  - deal\n",
    "game: SP2-S1C-AAAAABD\n"
    "expect: {result: open, moves: 2, score: 498}\n"
    "moves: [10>9, '3>4:2', tap 3, \"deal\", undo]\n",
    '---\ngame: SP2-S1C-AAAAABD\nplayer: "A\tb"\nmoves: [\n  10>9, deal,\n  undo ]\n...\n',
    "%YAML 1.1\n"
    "--- !!map\n"
    "game: !!str SP2-S1C-AAAAABD\n"
    "player: &p 'a\tb c'\n"
    "moves: !!seq\n"
    "- deal\n"
    "- !!str tap 3\n",
    "deal:\n"
    "  game: spider\n"
    "  rule: classic\n"
    "  columns:\n"
    "    - [5S, 9S, 2S]\n"
    "    - 5S 9S\n"
    "  stock:\n"
    "    - 5S 9S 2S\n"
    "moves: []\n",
    "player: |\n"
    "  line one\n"
    "    line two\n"
    "game: SP1-S1C-AAAAAAD\n"
    "time: >-\n"
    "  a\n"
    "  b\n"
    "moves:\n"
    "- deal\n",
    "player: a\n  b c\ngame: SP1-S1C-AAAAAAD\nmoves:\n  -  deal\n  - [a, b]\n  - {a: b}\n",
    '? game\n: SP1-S1C-AAAAAAD\nmoves: [a: b, "c" : d]\n',
]
TAB_MESSAGE = "not valid YAML: a tab at column"


def placements(text: str) -> Iterator[str]:
    """``text`` with a tab (alone, after or before a space) put at each place, and with each
    space in turn made a tab."""
    seen = set()
    for i in range(len(text) + 1):
        for blank in ("\t", " \t", "\t "):
            seen.add(text[:i] + blank + text[i:])
        if i < len(text) and text[i] == " ":
            seen.add(text[:i] + "\t" + text[i + 1 :])
    yield from sorted(seen)


def _nodes(node: yaml.Node | None) -> Any:
    """A node tree as plain values: tags, values, lines, columns and styles (the loaders write
    a plain style as '' or None, and a block collection's as False or None)."""
    if node is None:
        return None
    mark = (node.start_mark.line, node.start_mark.column)
    if isinstance(node, yaml.ScalarNode):
        return (node.tag, node.value, mark, node.style or None)
    if isinstance(node, yaml.SequenceNode):
        return (
            node.tag,
            mark,
            bool(getattr(node, "flow_style", None)),
            [_nodes(n) for n in node.value],
        )
    return (
        node.tag,
        mark,
        bool(getattr(node, "flow_style", None)),
        [(_nodes(k), _nodes(v)) for k, v in node.value],
    )


def composed(text: str, loader: Any) -> Any:
    try:
        return ("nodes", _nodes(yaml.compose(text, Loader=loader)))
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        return ("refused", mark and mark.line)


def read(text: str, loader: Any, monkeypatch: pytest.MonkeyPatch, *, quick: bool) -> Any:
    """The log as spidercli reads it with this loader (all of it by the YAML reader, or the
    quick reader first): its fields, or the refusal's line and message."""
    monkeypatch.setattr(yamlreader, "LOADER", loader)
    try:
        log = parse_log(text, "t.yaml") if quick else parse_yaml_log(text, "t.yaml")
    except InputError as err:
        return ("refused", err.line, err.message)
    return _fields(log)


def _fields(log: MoveLog) -> Any:
    return (
        log.deal.deal_id,
        log.game_line,
        log.rules,
        log.rules_line,
        log.player,
        log.expect,
        tuple(log.entries),
        log.time,
    )


@pytest.mark.parametrize("base", range(len(BASES)))
def test_both_loaders_compose_every_tab_placement_alike(base: int) -> None:
    assert composed(BASES[base], LIBYAML)[0] == "nodes"
    for text in placements(BASES[base]):
        assert composed(text, LIBYAML) == composed(text, PureLoader), text


@pytest.mark.parametrize("base", range(len(BASES)))
def test_every_tab_placement_gets_one_verdict(base: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same log, or a refusal on the same line; a misplaced tab is refused with one
    message whichever loader read it. The quick reader gives what the YAML reader gives."""
    for text in placements(BASES[base]):
        c = read(text, LIBYAML, monkeypatch, quick=False)
        pure = read(text, PureLoader, monkeypatch, quick=False)
        if c[0] == "refused" or pure[0] == "refused":
            assert c[:2] == pure[:2], text
            if TAB_MESSAGE in c[2] or TAB_MESSAGE in pure[2]:
                assert c == pure, text
        else:
            assert c == pure, text
        for loader in (LIBYAML, PureLoader):
            quick = read(text, loader, monkeypatch, quick=True)
            assert quick == (c if loader is LIBYAML else pure), text


# The placements the issue names, and their neighbours: each replays alike with either loader.
ACCEPTED = [
    "game: SP2-S1C-AAAAABD\nmoves: [1>2,\t3>4]\n",
    "game: SP2-S1C-AAAAABD\nmoves:\t# c\n  - 1>2\n",
    "game: SP2-S1C-AAAAABD\nmoves:\n  - deal\t# c\n",
    "game:\tSP2-S1C-AAAAABD\nmoves: [deal]\n",
    "game: SP2-S1C-AAAAABD\t\nmoves:\n  - deal\t\n",
    "game: SP2-S1C-AAAAABD\nmoves: [\n\t1>2,\n\t3>4\n]\n",
    "game: SP2-S1C-AAAAABD\nmoves:\n  - tap\t3\n",
    "game: SP2-S1C-AAAAABD\nmoves: !!seq\t[deal]\n",
    "game: SP2-S1C-AAAAABD\nexpect:\n  result:\topen\nmoves: []\n",
]
REFUSED = [
    ("game: SP2-S1C-AAAAABD\nmoves:\n  -\tdeal\n", 3, 4),
    ("game: SP2-S1C-AAAAABD\nmoves:\n\t- deal\n", 3, 1),
    ("\tgame: SP2-S1C-AAAAABD\nmoves: []\n", 1, 1),
    ("game: SP2-S1C-AAAAABD\nplayer: |\n  \tab\nmoves: []\n", 3, 3),
    ("game: SP2-S1C-AAAAABD\nplayer: a\n\tb\nmoves: []\n", 3, 1),
]


@pytest.mark.parametrize("text", ACCEPTED)
def test_separating_tabs_are_read_by_both(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for loader in (LIBYAML, PureLoader):
        assert read(text, loader, monkeypatch, quick=True)[0] != "refused", loader
    # Read as the same log with spaces for tabs (an entry's text keeps its tab: same action).
    with_tabs = read(text, PureLoader, monkeypatch, quick=True)
    spaced = read(text.replace("\t", " "), PureLoader, monkeypatch, quick=True)
    assert with_tabs[:6] == spaced[:6]
    assert [e.action for e in with_tabs[6]] == [e.action for e in spaced[6]]


@pytest.mark.parametrize(("text", "line", "column"), REFUSED)
def test_misplaced_tabs_are_refused_by_both_alike(
    text: str, line: int, column: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    message = (
        f"not valid YAML: a tab at column {column}, where YAML allows only spaces (indenting "
        "a line, or after a '-' or '?' that opens an entry)"
    )
    for loader in (LIBYAML, PureLoader):
        assert read(text, loader, monkeypatch, quick=True) == ("refused", line, message)


def test_tabs_a_player_wrote_stay_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tab inside a quoted or plain value is the player's: it is kept, by either loader."""
    text = "game: SP2-S1C-AAAAABD\t# a\tcomment\nplayer: 'Ann\tLee'\t\nmoves: [tap\t3]\n"
    for loader in (LIBYAML, PureLoader):
        fields = read(text, loader, monkeypatch, quick=True)
        assert fields[4] == "Ann\tLee"
        assert [e.text for e in fields[6]] == ["tap\t3"]


def test_the_switch_hides_libyaml(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(yamlreader.PURE_YAML_VARIABLE, "1")
    assert yamlreader.choose_loader() is PureLoader
    monkeypatch.setenv(yamlreader.PURE_YAML_VARIABLE, "0")
    assert issubclass(yamlreader.choose_loader(), LIBYAML)


@pytest.mark.parametrize("depth", [1, 334, 999, 1000, 1001])
def test_deep_nesting_is_read_alike(depth: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """As deep as libyaml nests (flow collections, block ones, both), the pure loader composes
    too, and refuses deeper YAML with libyaml's message on the same line."""
    texts = [
        "game: SD1-S1-AAAABIW\nmoves: []\nplayer: " + "[" * depth + "]" * depth + "\n",
        "game: SD1-S1-AAAABIW\nmoves: []\nplayer:\n"
        + "".join(" " * (i + 1) + "-\n" for i in range(depth))
        + " " * (depth + 1)
        + "x\n",
        "game: SD1-S1-AAAABIW\nmoves: []\nplayer:\n - - "
        + "{a: " * depth
        + "b"
        + "}" * depth
        + "\n",
    ]
    for text in texts:
        c = read(text, LIBYAML, monkeypatch, quick=True)
        assert c[0] == "refused"
        assert read(text, PureLoader, monkeypatch, quick=True) == c
