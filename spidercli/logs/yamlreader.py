"""The strict YAML reader that move logs and tournament manifests share.

The YAML is composed into nodes (libyaml's C parser when present) and checked by hand, so each
error names the line and says what was expected. Aliases, merge keys and custom tags are refused
anywhere in a document; a ``Checker`` reads mappings (unknown or duplicate keys refused), text,
keywords, whole numbers and ruleset names, each with its line. Every failure is a ``LogError``:
a standard tag on a node of another kind (``!!seq`` on a scalar, ``!!int`` on a list) too, and a
number that YAML's own constructors cannot make (``!!int _``, ``!!float ""``), whatever they
raise.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from spidercli.errors import InputError
from spidercli.game.rules import lookup_ruleset, unknown_ruleset
from spidercli.logs.files import MAX_LOG_BYTES, STDIN, STDIN_NAME, Unreadable, read_limited
from spidercli.logs.yamlpure import PureSafeLoader
from spidercli.text.messages import N_, ascii_note, did_you_mean, quoted, shown

CONSTRUCTOR = yaml.constructor.SafeConstructor()

# ``SPIDERCLI_PURE_YAML=1`` reads with the pure-Python loader even where libyaml is present, as
# spidercli reads where PyYAML was built without it (the tests run the readers both ways).
PURE_YAML_VARIABLE = "SPIDERCLI_PURE_YAML"


_RESOLVED: dict[tuple[str, Any], Any] = {}


class _Memo:
    """The safe loader with its tag resolution memoised: logs repeat the same few hundred
    scalars (``deal``, ``3>7``), and resolving each by regular expressions is a tenth of a
    replay's time. Bounded (short scalars, 4096 of them); the result is the loader's own."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if kind is yaml.ScalarNode and isinstance(value, str) and len(value) <= 64:
            key = (value, implicit)
            tag = _RESOLVED.get(key)
            if tag is None:
                tag = super().resolve(kind, value, implicit)  # type: ignore[misc]
                if len(_RESOLVED) >= 4096:
                    _RESOLVED.clear()
                _RESOLVED[key] = tag
            return tag
        return super().resolve(kind, value, implicit)  # type: ignore[misc]


class PureLoader(_Memo, PureSafeLoader):
    """PyYAML's pure-Python loader, reading tabs as libyaml does (``spidercli.logs.yamlpure``)."""


def choose_loader() -> type:
    """libyaml's loader (several times faster) when PyYAML has it and ``SPIDERCLI_PURE_YAML`` is
    not ``1``; else ``PureLoader``. Either reads every log the same way."""
    if os.environ.get(PURE_YAML_VARIABLE) != "1":
        try:  # libyaml's, where PyYAML was built with it
            from yaml import CSafeLoader
        except ImportError:  # pragma: no cover - depends on how PyYAML was built
            pass
        else:
            return type("CLoader", (_Memo, CSafeLoader), {})
    return PureLoader


LOADER = choose_loader()  # the loader in use; the tests swap it
_C_LOADER: type | None = getattr(yaml, "CSafeLoader", None)


BLANKS = " \t\r\n"  # the blanks around a keyword, code or card: ASCII ones only

STR_TAG = "tag:yaml.org,2002:str"
INT_TAG = "tag:yaml.org,2002:int"
NULL_TAG = "tag:yaml.org,2002:null"
FLOAT_TAG = "tag:yaml.org,2002:float"
MAP_TAG = "tag:yaml.org,2002:map"
SEQ_TAG = "tag:yaml.org,2002:seq"
_STANDARD = {
    STR_TAG,
    INT_TAG,
    NULL_TAG,
    MAP_TAG,
    SEQ_TAG,
    "tag:yaml.org,2002:bool",
    FLOAT_TAG,
    "tag:yaml.org,2002:timestamp",
    "tag:yaml.org,2002:binary",
}
# The standard tags that tag a single value (a scalar), and the one each collection takes.
_SCALAR_TAGS = _STANDARD - {MAP_TAG, SEQ_TAG}
_COLLECTION_TAG: dict[type, str] = {yaml.SequenceNode: SEQ_TAG, yaml.MappingNode: MAP_TAG}
_KIND = {
    INT_TAG: N_("an integer"),
    NULL_TAG: N_("nothing (null)"),
    MAP_TAG: N_("a mapping"),
    SEQ_TAG: N_("a list"),
    "tag:yaml.org,2002:bool": N_("a boolean"),
    FLOAT_TAG: N_("a number"),
    "tag:yaml.org,2002:timestamp": N_("a date"),
    "tag:yaml.org,2002:binary": N_("binary data"),
    STR_TAG: N_("text"),
}


# The strict reader's errors are input errors; ``LogError`` is the name log readers know them by.
LogError = InputError


def line_of(node: yaml.Node) -> int:
    return int(node.start_mark.line) + 1


def node_kind(node: yaml.Node) -> str:
    return _KIND.get(node.tag) or N_("a value tagged {tag}", tag=shown(node.tag, 80))


def _short_tag(tag: str) -> str:
    """A standard tag as it is written in a log: ``!!int`` for ``tag:yaml.org,2002:int``."""
    return "!!" + tag.removeprefix("tag:yaml.org,2002:")


def _fits(node: yaml.Node) -> bool:
    """Whether a node's standard tag is for its kind of node: a scalar's for a single value
    (not ``!!seq``, ``!!map``), a list's ``!!seq``, a mapping's ``!!map``."""
    if type(node) is yaml.ScalarNode:
        return node.tag in _SCALAR_TAGS
    return _COLLECTION_TAG.get(type(node)) == node.tag


def _node_kind(node: yaml.Node) -> str:
    if isinstance(node, yaml.SequenceNode):
        return N_("a list")
    if isinstance(node, yaml.MappingNode):
        return N_("a mapping")
    return N_("a single value")


def yaml_number(node: yaml.ScalarNode) -> int | float:
    """The number a scalar tagged ``!!int`` or ``!!float`` stands for, as YAML's constructors
    make it (``1_000``, ``0x1f``, ``1:30``, ``.inf``); ``ValueError`` for one they cannot make.

    PyYAML's constructors fail in their own ways on odd text (``IndexError`` for ``!!int _``
    and ``!!float ""``, ``ValueError`` for ``!!int 0x``): each is a ``ValueError`` here, so that
    the caller refuses the value with its line. They are called directly, not through
    ``construct_object``, which would keep every node it made (or failed on) for good."""
    try:
        if node.tag == INT_TAG:
            return int(CONSTRUCTOR.construct_yaml_int(node))
        if node.tag == FLOAT_TAG:
            return float(CONSTRUCTOR.construct_yaml_float(node))
    except Exception as err:  # whatever a constructor raises on odd text: see above
        raise ValueError(f"{node.value!r}: {type(err).__name__}: {err}") from err
    raise ValueError(f"{node.tag} is not a number's tag")


class Checker:
    def __init__(self, path: str, text: str | bytes) -> None:
        self.path = path
        self.text_ = text
        self.seen: set[int] = set()

    def alias_line(self) -> int | None:
        """The first alias's line (the error path only: this parses the text again)."""
        for event in yaml.parse(self.text_, Loader=LOADER):
            if isinstance(event, yaml.AliasEvent) and event.start_mark is not None:
                return int(event.start_mark.line) + 1
        return None

    def fail(self, message: str, node: yaml.Node | None = None) -> LogError:
        return LogError(message, path=self.path, line=None if node is None else line_of(node))

    def check(self, root: yaml.Node) -> None:
        """``visit`` the whole document; too deep a nesting is an input error too."""
        try:
            self.visit(root)
        except RecursionError as err:
            raise LogError(N_("not usable: the YAML is nested too deeply"), path=self.path) from err

    def visit(self, node: yaml.Node) -> None:
        """Refuse aliases (a node met twice) and custom tags, anywhere in the document."""
        if id(node) in self.seen:
            raise LogError(
                N_("YAML aliases (*name) are not allowed in a move log"),
                path=self.path,
                line=self.alias_line(),
            )
        self.seen.add(id(node))
        if node.tag == "tag:yaml.org,2002:merge":
            raise self.fail(N_("YAML merge keys (<<) are not allowed in a move log"), node)
        if node.tag not in _STANDARD:
            raise self.fail(
                N_(
                    "custom YAML tags ({tag}) are not allowed in a move log",
                    tag=shown(node.tag, 80),
                ),
                node,
            )
        if not _fits(node):  # `!!seq x`, `!!str [a]`: YAML's constructors refuse these too
            raise self.fail(
                N_(
                    "the YAML tag {tag} does not match its value: {node} cannot be {kind}",
                    tag=_short_tag(node.tag),
                    node=_node_kind(node),
                    kind=_KIND[node.tag],
                ),
                node,
            )
        if isinstance(node, yaml.MappingNode):
            children: Iterable[yaml.Node] = (child for pair in node.value for child in pair)
        elif isinstance(node, yaml.SequenceNode):
            children = node.value
        else:
            return
        seen = self.seen
        scalar = yaml.ScalarNode
        for child in children:
            # A scalar met once with a standard scalar tag passes here, without a call (most
            # nodes are such scalars); anything else is visited, in the same order as before.
            if type(child) is scalar and child.tag in _SCALAR_TAGS and id(child) not in seen:
                seen.add(id(child))
            else:
                self.visit(child)

    def mapping(self, node: yaml.Node, what: str, allowed: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(
                N_("{what} must be a mapping, not {kind}", what=what, kind=node_kind(node)), node
            )
        out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        for key, value in node.value:
            if not isinstance(key, yaml.ScalarNode) or key.tag != STR_TAG:
                raise self.fail(
                    N_(
                        "{what}: keys must be plain words, not {kind}",
                        what=what,
                        kind=node_kind(key),
                    ),
                    key,
                )
            name = key.value
            if name in out:
                first = line_of(out[name][0])
                raise self.fail(
                    N_(
                        "{what}: duplicate key {key} (first given on line {first})",
                        what=what,
                        key=quoted(name),
                        first=first,
                    ),
                    key,
                )
            if name not in allowed:
                raise self.fail(
                    N_(
                        "{what}: unknown key {key}{hint}; expected {allowed}",
                        what=what,
                        key=quoted(name),
                        hint=did_you_mean(name, allowed),
                        allowed=", ".join(allowed),
                    ),
                    key,
                )
            out[name] = (key, value)
        return out

    def text(self, node: yaml.Node, what: str) -> str:
        if not isinstance(node, yaml.ScalarNode) or node.tag != STR_TAG:
            raise self.fail(
                N_("{what} must be text, not {kind}", what=what, kind=node_kind(node)), node
            )
        return str(node.value)

    def word(self, node: yaml.Node, what: str) -> str:
        """A keyword (a ruleset, a result...): ASCII, case-insensitive, blanks around it ignored.
        ASCII first: ``str.lower`` maps some other letters to ASCII ones (K, U+212A, to k)."""
        text = self.text(node, what)
        return text.strip(BLANKS).lower() if text.isascii() else text

    def ruleset(self, node: yaml.Node) -> str:
        """A ``rules:`` value: the name of a ruleset, case-insensitive."""
        name = self.word(node, "rules")
        if lookup_ruleset(name, BLANKS) is None:
            raise self.fail(unknown_ruleset("rules", quoted(name) + ascii_note(name), name), node)
        return name

    def integer(self, node: yaml.Node, what: str) -> int:
        if not isinstance(node, yaml.ScalarNode) or node.tag != INT_TAG:
            raise self.fail(
                N_(
                    "{what} must be a whole number, not {kind}",
                    what=what,
                    kind=node_kind(node),
                ),
                node,
            )
        if len(node.value) > 40:
            raise self.fail(
                N_("{what}: {value} is out of range", what=what, value=quoted(node.value, 40)), node
            )
        try:
            if not node.value.isascii():  # int() takes any Unicode digits ("١" is 1)
                raise ValueError(node.value)
            value = int(yaml_number(node))
        except ValueError as err:
            raise self.fail(
                N_(
                    "{what}: {value} is not a usable number{note}",
                    what=what,
                    value=quoted(node.value),
                    note=ascii_note(node.value),
                ),
                node,
            ) from err
        if abs(value) > 10**15:
            raise self.fail(
                N_("{what}: {value} is out of range", what=what, value=quoted(node.value)), node
            )
        return value


def compose(text: str | bytes, path: str) -> yaml.Node | None:
    """The YAML document's node tree (None when empty); ``LogError`` for malformed YAML."""
    try:
        return yaml.compose(text, Loader=LOADER)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = None if mark is None else int(mark.line) + 1
        problem = err.problem or err.context or "malformed YAML"
        if mark is not None and _tab_at(text, int(mark.line), int(mark.column), problem):
            # libyaml and PyYAML word a misplaced tab differently: one message for both.
            raise LogError(
                N_(
                    "not valid YAML: a tab at column {column}, where YAML allows only spaces "
                    "(indenting a line, or after a '-' or '?' that opens an entry)",
                    column=int(mark.column) + 1,
                ),
                path=path,
                line=line,
            ) from err
        raise LogError(
            N_("not valid YAML: {problem}", problem=shown(problem)), path=path, line=line
        ) from err
    except yaml.reader.ReaderError as err:  # a character YAML does not allow: name its line
        where = text if isinstance(text, str) else text.decode("utf-8", "replace")
        char = chr(err.character) if isinstance(err.character, int) else str(err.character)
        position = err.position
        if _C_LOADER is not None and issubclass(LOADER, _C_LOADER):
            # libyaml counts bytes of the UTF-8 text, PyYAML's reader characters.
            raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
            position = len(raw[:position].decode("utf-8", "replace"))
        raise LogError(
            N_(
                "not valid YAML: the character {char} (U+{code:04X}) is not allowed in YAML",
                char=shown(char),
                code=ord(char[:1] or " "),
            ),
            path=path,
            line=yaml_line(where, position),
        ) from err
    except yaml.YAMLError as err:
        raise LogError(N_("not valid YAML: {problem}", problem=shown(str(err))), path=path) from err
    except RecursionError as err:
        raise LogError(N_("not usable: the YAML is nested too deeply"), path=path) from err


def _tab_at(text: str | bytes, line: int, column: int, problem: str) -> bool:
    """Whether a YAML error is a misplaced tab: the parser stopped at a tab (0-based ``line``
    and ``column``) and says it cannot start a token or breaks the indentation."""
    if "tab" not in problem and "cannot start any token" not in problem:
        return False
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    lines = _BREAK.split(text, line + 1)
    return line < len(lines) and lines[line][column : column + 1] == "\t"


def display_name(path: str | Path) -> str:
    """The name messages use for a path (``<stdin>`` for ``-``)."""
    return STDIN_NAME if str(path) == STDIN else str(path)


def read_text(path: str | Path, max_bytes: int = MAX_LOG_BYTES) -> str:
    """A log file's text (UTF-8, a BOM dropped), from a regular file or standard input (``-``)
    of at most ``max_bytes``; every failure is a ``LogError``."""
    name = display_name(path)
    try:
        data = read_limited(path, max_bytes)
    except Unreadable as err:
        raise LogError(err.message, path=name) from err
    return decode(data, name)


def decode(data: bytes, name: str) -> str:
    """A log's bytes as text (UTF-8, a BOM dropped); ``LogError`` for binary or non-UTF-8."""
    nul = data.find(b"\0")
    if nul >= 0:
        line = yaml_line(data[:nul].decode("utf-8", "replace"), nul)
        raise LogError(
            N_("is a binary file (a NUL byte), not a YAML move log"), path=name, line=line
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = yaml_line(data[: err.start].decode("utf-8", "replace"), err.start)
        raise LogError(
            N_("is not UTF-8 text: a move log must be UTF-8 YAML"), path=name, line=line
        ) from err
    return text


_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def yaml_line(text: str, index: int) -> int:
    """The 1-based line of ``text[index]``, counting line breaks as YAML does (CR LF, CR, LF,
    NEL, U+2028 and U+2029)."""
    return len(_BREAK.findall(text, 0, index)) + 1


__all__ = [
    "CONSTRUCTOR",
    "FLOAT_TAG",
    "INT_TAG",
    "LOADER",
    "MAP_TAG",
    "NULL_TAG",
    "SEQ_TAG",
    "STR_TAG",
    "Checker",
    "InputError",
    "LogError",
    "PureLoader",
    "choose_loader",
    "compose",
    "decode",
    "display_name",
    "line_of",
    "node_kind",
    "read_text",
    "yaml_line",
    "yaml_number",
]
