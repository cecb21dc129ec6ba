"""Move logs: YAML text to a typed ``MoveLog`` (``spidercli.play.logtypes``) whose every entry
keeps its line number.

The usual log (a plain ``moves:`` list last) is read quickly by ``spidercli.logs.plain``;
anything else by the strict YAML reader (``spidercli.logs.yamlreader``), so each error names the
line and says what was expected. Unknown or duplicate keys, aliases, custom tags and wrong types
are refused with ``LogError``. An explicit ``deal:`` block is read by
``spidercli.logs.dealblock``; logs are written by ``spidercli.logs.writer``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from spidercli.game.actions import ActionSyntaxError, parse_action
from spidercli.game.codes import CodeError, Setup, parse_code
from spidercli.logs.dealblock import parse_deal
from spidercli.logs.files import MAX_LOG_BYTES
from spidercli.logs.plain import quick_log
from spidercli.logs.yamlreader import (
    FLOAT_TAG,
    INT_TAG,
    NULL_TAG,
    STR_TAG,
    Checker,
    LogError,
    compose,
    display_name,
    line_of,
    node_kind,
    read_text,
    yaml_number,
)
from spidercli.play.logtypes import EXPECT_KEYS, RESULTS, TOP_KEYS, Entry, Expect, MoveLog
from spidercli.text.messages import N_, ascii_note, did_you_mean, message_of, prefixed, quoted


def parse_log(text: str | bytes, path: str = "<log>") -> MoveLog:
    """Parse a move log's text; ``LogError`` names the line and what was expected."""
    if isinstance(text, str):  # the usual shape (a plain ``moves:`` list last) read quickly
        quick = quick_log(text, path, parse_yaml_log)
        if quick is not None:
            return quick
    return parse_yaml_log(text, path)


def parse_yaml_log(text: str | bytes, path: str = "<log>") -> MoveLog:
    """``parse_log`` by the strict YAML reader alone, whatever the log's shape."""
    root = compose(text, path)
    if root is None:
        raise LogError(
            N_("the file is empty: expected a mapping with at least 'game' and 'moves'"), path=path
        )
    c = Checker(path, text)
    c.check(root)
    top = c.mapping(root, N_("the log"), TOP_KEYS)
    if "game" in top and "deal" in top:
        raise c.fail(
            N_("give either 'game' (a game code) or 'deal' (the cards written out), not both"),
            top["deal"][0],
        )
    for required in ("game", "moves"):
        if required not in top and not (required == "game" and "deal" in top):
            raise c.fail(
                N_(
                    "the log has no {key!r} key: expected 'game' (a game code, or 'deal' "
                    "with the cards written out) and 'moves' (a list of actions)",
                    key=required,
                ),
                root,
            )

    if "game" in top:
        game_node = top["game"][1]
        try:
            deal = Setup.from_code(parse_code(c.text(game_node, "game")))
        except CodeError as err:
            raise c.fail(prefixed("game", message_of(err)), game_node) from err
    else:
        game_node = top["deal"][0]
        deal = parse_deal(c, top["deal"][1])

    rules = rules_line = None
    if "rules" in top:
        node = top["rules"][1]
        rules = c.ruleset(node)
        rules_line = line_of(node)

    player = None
    if "player" in top:
        node = top["player"][1]
        if not isinstance(node, yaml.ScalarNode) or node.tag == NULL_TAG:
            raise c.fail(N_("player must be text, not {kind}", kind=node_kind(node)), node)
        player = str(node.value)

    seconds = None
    if "time" in top:
        node = top["time"][1]
        if not isinstance(node, yaml.ScalarNode) or node.tag not in (INT_TAG, FLOAT_TAG):
            raise c.fail(
                N_("time must be a number of seconds, not {kind}", kind=node_kind(node)), node
            )
        try:
            if not node.value.isascii() or len(node.value) > 40:  # float() takes "١" too
                raise ValueError(node.value)
            seconds = float(yaml_number(node))  # a whole number of 40 digits is a finite float
        except ValueError as err:
            raise c.fail(
                N_(
                    "time: {value} is not a usable number{note}",
                    value=quoted(node.value),
                    note=ascii_note(node.value),
                ),
                node,
            ) from err
        if not 0 <= seconds < float("inf"):
            raise c.fail(
                N_("time: {value} must be 0 seconds or more", value=quoted(node.value)), node
            )

    expect = None
    if "expect" in top:
        expect = _expect(c, top["expect"][1])

    moves_node = top["moves"][1]
    if not isinstance(moves_node, yaml.SequenceNode):
        raise c.fail(
            N_(
                "moves must be a list of actions (use [] for none), not {kind}",
                kind=node_kind(moves_node),
            ),
            moves_node,
        )
    entries = []
    for i, node in enumerate(moves_node.value, start=1):
        if not isinstance(node, yaml.ScalarNode) or node.tag != STR_TAG:
            raise c.fail(
                N_(
                    "moves, entry {i}: expected an action such as '3>7' or 'deal', not {kind}",
                    i=i,
                    kind=node_kind(node),
                ),
                node,
            )
        try:
            action = parse_action(node.value)
        except ActionSyntaxError as err:
            raise c.fail(prefixed(N_("moves, entry {i}", i=i), message_of(err)), node) from err
        entries.append(Entry(i, line_of(node), node.value, action))
    return MoveLog(
        path, deal, line_of(game_node), rules, rules_line, player, expect, tuple(entries), seconds
    )


def _expect(c: Checker, node: yaml.Node) -> Expect:
    fields = c.mapping(node, "expect", EXPECT_KEYS)
    values: dict[str, Any] = {}
    for name, (_, value) in fields.items():
        if name == "result":
            result = c.word(value, "expect.result")
            if result not in RESULTS:
                raise c.fail(
                    N_(
                        "expect.result: {result} is not a result{note}{hint}; expected one of "
                        "{choices}",
                        result=quoted(result),
                        note=ascii_note(result),
                        hint=did_you_mean(result, RESULTS),
                        choices=", ".join(RESULTS),
                    ),
                    value,
                )
            values[name] = result
        else:
            values[name] = c.integer(value, f"expect.{name}")
    return Expect(**values, line=line_of(node))


def load_log(path: str | Path, max_bytes: int = MAX_LOG_BYTES) -> MoveLog:
    """Read and parse a log file (``-``: standard input); every failure is a ``LogError``
    naming the file."""
    return parse_log(read_text(path, max_bytes), display_name(path))


__all__ = ["load_log", "parse_log", "parse_yaml_log"]
