"""The strict YAML reader's node check (no aliases, merge keys, custom tags, or standard tags on
a node of another kind) against a plain recursive reference, on random documents: the same
verdict, message and line for each."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from spidercli.logs.yamlreader import Checker, InputError, compose

# Every test runs with libyaml's loader and with the pure-Python one (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("yaml_loader")

_STANDARD_TAGS = {
    "tag:yaml.org,2002:" + name
    for name in ("str", "int", "null", "map", "seq", "bool", "float", "timestamp", "binary")
}


def _reference(checker: Checker, node: yaml.Node, seen: set[int]) -> None:
    """The check written as plainly as possible: every node visited by a call, depth first."""
    if id(node) in seen:
        raise InputError(
            "YAML aliases (*name) are not allowed in a move log",
            path=checker.path,
            line=checker.alias_line(),
        )
    seen.add(id(node))
    if node.tag == "tag:yaml.org,2002:merge":
        raise checker.fail("YAML merge keys (<<) are not allowed in a move log", node)
    if node.tag not in _STANDARD_TAGS:
        raise checker.fail(f"custom YAML tags ({node.tag}) are not allowed in a move log", node)
    name = node.tag.removeprefix("tag:yaml.org,2002:")
    kinds: dict[type, str] = {yaml.SequenceNode: "seq", yaml.MappingNode: "map"}
    collection = kinds.get(type(node))
    if (name in ("seq", "map") or collection is not None) and name != collection:
        raise checker.fail(f"the YAML tag !!{name} does not match its value", node)
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            _reference(checker, key, seen)
            _reference(checker, value, seen)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _reference(checker, item, seen)


def _value(anchors: int) -> st.SearchStrategy[str]:
    plain = st.sampled_from(["3>7", "deal", "12", "1.5", "null", "true", "'quoted'", "x y"])
    odd = st.sampled_from(["!custom x", "!!str y", "!!int 3", "[1, 2]", "{k: v}", "[]"])
    misfit = st.sampled_from(["!!seq x", "!!map x", "!!str [1]", "!!int {k: v}", "!!map [1]"])
    alias = st.integers(0, max(anchors - 1, 0)).map(lambda i: f"*a{i}")
    nested = st.sampled_from(["[1, *a0]", "{k: *a0}", "[!x 1, 2]", "{<<: {m: 1}}"])
    if anchors:
        return st.one_of(plain, odd, misfit, nested, alias)
    return st.one_of(plain, odd, misfit)


@st.composite
def _documents(draw: st.DrawFn) -> str:
    lines = []
    anchors = 0
    for i in range(draw(st.integers(1, 8))):
        value = draw(_value(anchors))
        if draw(st.booleans()):
            value = f"&a{anchors} {value}" if not value.startswith("*") else value
            anchors += 0 if value.startswith("*") else 1
        if draw(st.integers(0, 9)) == 0:
            lines.append(f"<<: {{m{i}: 1}}")
        lines.append(f"k{i}: {value}")
    return "\n".join(lines) + "\n"


@settings(max_examples=300, deadline=None)
@given(_documents())
def test_the_node_check_agrees_with_a_plain_recursive_one(text: str) -> None:
    try:
        root = compose(text, "doc.yaml")
    except InputError:
        return  # not YAML at all (an alias to an anchor not yet defined): nothing to check
    assert root is not None
    checker = Checker("doc.yaml", text)
    try:
        _reference(checker, root, set())
        want = None
    except InputError as err:
        want = (err.message.split(" (")[0].split(":")[0], err.line)
    try:
        Checker("doc.yaml", text).check(root)
        got = None
    except InputError as err:
        got = (err.message.split(" (")[0].split(":")[0], err.line)
    assert got == want, text
