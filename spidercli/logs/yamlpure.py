"""PyYAML's pure-Python loader, reading tabs exactly as libyaml does.

spidercli composes logs with libyaml's C parser when PyYAML was built with it, and with PyYAML's
own Python scanner otherwise. The two disagree about tabs: libyaml takes a tab as separation
wherever YAML allows one (between the tokens of a line, after a key's ``:``, in flow collections,
before a comment, after a tag, an anchor or a document marker), while the Python scanner takes
only spaces there and refuses the tab ("found character '\\t' that cannot start any token"). One
log must get one verdict on every machine, so this scanner follows libyaml's rules (its
``scanner.c``), in the same places:

- between tokens (``scan_to_next_token``), a tab is skipped in a flow collection, and in the
  block context wherever a simple key cannot start: not at the start of a line (indentation),
  and not right after ``-``, ``?`` or a complex key's ``:``;
- inside a plain scalar, tabs are blanks like spaces (``tap<TAB>3`` keeps its tab; a trailing tab
  is dropped); on a continuation line, a tab left of the scalar's indentation is an error;
- after a tag, a block scalar's header, or in a directive, a tab separates like a space (and a
  directive other than ``%YAML`` and ``%TAG`` is refused, as libyaml refuses it);
- a block scalar's indentation is spaces: a tab where an indentation space is expected is an
  error, as in libyaml.

It also nests collections no deeper than the libyaml PyYAML bundles (``MAX_NESTING``), refusing
deeper ones with its message, and composes the nodes without recursion (``FlatComposer``), so
that what libyaml's loader composes this one composes too.

Everything else (quoted scalars, comments, the tokens themselves) is PyYAML's, unchanged: a tab
inside a quoted scalar or a comment stays as written. ``tests/test_yamlreader.py`` compares this
loader with libyaml's over every placement of a tab in a set of logs.
"""

from __future__ import annotations

from types import MethodType
from typing import TYPE_CHECKING, Any

import yaml
from yaml.scanner import ScannerError
from yaml.tokens import DirectiveToken, ScalarToken, TagToken

_BREAKS = "\r\n\x85\u2028\u2029"
# The nesting libyaml (as PyYAML bundles it) allows: 1,000 collections, fewer than 1,000 of them
# block collections. Deeper YAML is refused with its message, at the same place.
MAX_NESTING = 1000
_BLANKZ = "\0 \t" + _BREAKS


class TabScanner(yaml.scanner.Scanner):
    """``yaml.scanner.Scanner`` with libyaml's reading of tabs (see the module's docstring)."""

    # What the base class and its reader give (PyYAML's stubs leave them untyped or out).
    flow_level: int
    allow_simple_key: bool
    indent: int
    index: int
    line: int
    column: int
    if TYPE_CHECKING:

        def peek(self, index: int = 0) -> str: ...
        def prefix(self, length: int = 1) -> str: ...
        def forward(self, length: int = 1) -> None: ...
        def get_mark(self) -> Any: ...
        def scan_line_break(self) -> str: ...
        def scan_tag_handle(self, name: str, start_mark: Any) -> str: ...
        def scan_tag_uri(self, name: str, start_mark: Any) -> str: ...
        def scan_yaml_directive_number(self, start_mark: Any) -> int: ...
        def stale_possible_simple_keys(self) -> None: ...

    indents: list[int]

    def add_indent(self, column: int) -> bool:
        if self.indent < column and len(self.indents) >= MAX_NESTING - 1:
            raise self._too_deep("while increasing block level")
        return bool(super().add_indent(column))

    def fetch_flow_collection_start(self, TokenClass: Any) -> None:
        if self.flow_level + 1 + len(self.indents) > MAX_NESTING:
            raise self._too_deep("while increasing flow level")
        super().fetch_flow_collection_start(TokenClass)

    def _too_deep(self, context: str) -> ScannerError:
        return ScannerError(context, None, "exceeded maximum nesting depth", self.get_mark())

    def scan_to_next_token(self) -> None:
        if self.index == 0 and self.peek() == "\ufeff":
            self.forward()
        while True:
            # libyaml skips a byte order mark at the start of any line, not only the first.
            if self.column == 0 and self.peek() == "\ufeff":
                self.forward()
            while self.peek() == " " or (
                self.peek() == "\t" and (self.flow_level or not self.allow_simple_key)
            ):
                self.forward()
            if self.peek() == "#":
                while self.peek() not in "\0" + _BREAKS:
                    self.forward()
            if self.scan_line_break():
                if not self.flow_level:
                    self.allow_simple_key = True
            else:
                return

    def fetch_stream_end(self) -> None:
        # libyaml ends a stream whose last line has no line break on a line of its own: a
        # refusal there (a key without its ':', an unclosed '[') names the line after the last.
        # A possible key on that last line that must be one (at the block's indentation) and
        # found no ':' is refused there too, as libyaml looks at its keys once more.
        if self.column:
            self.column = 0
            self.line += 1
            self.stale_possible_simple_keys()
        super().fetch_stream_end()

    def scan_plain(self) -> ScalarToken:
        # PyYAML's, but where a plain scalar ends in a flow collection as in libyaml: not at '?'
        # ('[a?b]' is one scalar), and a ':' followed by one of ',?[]{}' is an error there.
        chunks: list[str] = []
        start_mark = self.get_mark()
        end_mark = start_mark
        indent = self.indent + 1
        spaces: list[str] | None = []
        while True:
            length = 0
            if self.peek() == "#":
                break
            while True:
                ch = self.peek(length)
                if ch in _BLANKZ or (self.flow_level and ch in ",[]{}"):
                    break
                if ch == ":":
                    after = self.peek(length + 1)
                    if self.flow_level and after in ",?[]{}":
                        self.forward(length)
                        raise ScannerError(
                            "while scanning a plain scalar",
                            start_mark,
                            "found unexpected ':'",
                            self.get_mark(),
                        )
                    if after in _BLANKZ:
                        break
                length += 1
            if length == 0:
                break
            self.allow_simple_key = False
            chunks.extend(spaces or ())
            chunks.append(self.prefix(length))
            self.forward(length)
            end_mark = self.get_mark()
            spaces = self.scan_plain_spaces(indent, start_mark)
            if not spaces or self.peek() == "#" or (not self.flow_level and self.column < indent):
                break
        return ScalarToken("".join(chunks), True, start_mark, end_mark)

    def scan_plain_spaces(self, indent: int, start_mark: Any) -> list[str] | None:
        chunks: list[str] = []
        length = 0
        while self.peek(length) in " \t":
            length += 1
        whitespaces = self.prefix(length)
        self.forward(length)
        ch = self.peek()
        if ch in _BREAKS:
            line_break = self.scan_line_break()
            self.allow_simple_key = True
            prefix = self.prefix(3)
            if (prefix in ("---", "...")) and self.peek(3) in _BLANKZ:
                return None
            breaks = []
            while self.peek() in " \t" + _BREAKS:
                ch = self.peek()
                if ch == "\t" and self.column < indent:
                    raise ScannerError(
                        "while scanning a plain scalar",
                        start_mark,
                        "found a tab character that violates indentation",
                        self.get_mark(),
                    )
                if ch in " \t":
                    self.forward()
                else:
                    breaks.append(self.scan_line_break())
                    prefix = self.prefix(3)
                    if (prefix in ("---", "...")) and self.peek(3) in _BLANKZ:
                        return None
            if line_break != "\n":
                chunks.append(line_break)
            elif not breaks:
                chunks.append(" ")
            chunks.extend(breaks)
        elif whitespaces:
            chunks.append(whitespaces)
        return chunks

    def scan_tag(self) -> TagToken:
        start_mark = self.get_mark()
        ch = self.peek(1)
        handle: str | None
        if ch == "<":
            handle = None
            self.forward(2)
            suffix = self.scan_tag_uri("tag", start_mark)
            if self.peek() != ">":
                raise ScannerError(
                    "while parsing a tag",
                    start_mark,
                    f"expected '>', but found {self.peek()!r}",
                    self.get_mark(),
                )
            self.forward()
        elif ch in _BLANKZ:
            handle = None
            suffix = "!"
            self.forward()
        else:
            length = 1
            use_handle = False
            while ch not in _BLANKZ:
                if ch == "!":
                    use_handle = True
                    break
                length += 1
                ch = self.peek(length)
            if use_handle:
                handle = self.scan_tag_handle("tag", start_mark)
            else:
                handle = "!"
                self.forward()
            suffix = self.scan_tag_uri("tag", start_mark)
        ch = self.peek()
        if ch not in _BLANKZ:
            raise ScannerError(
                "while scanning a tag",
                start_mark,
                f"expected ' ', but found {ch!r}",
                self.get_mark(),
            )
        return TagToken((handle, suffix), start_mark, self.get_mark())

    def scan_block_scalar_indicators(self, start_mark: Any) -> tuple[bool | None, int | None]:
        chomping: bool | None = None
        increment: int | None = None
        ch = self.peek()
        if ch in "+-":
            chomping = ch == "+"
            self.forward()
            ch = self.peek()
            if ch in "0123456789":
                increment = self._increment(start_mark)
        elif ch in "0123456789":
            increment = self._increment(start_mark)
            ch = self.peek()
            if ch in "+-":
                chomping = ch == "+"
                self.forward()
        # libyaml reads blanks and a comment next, with no blank needed before the comment.
        return chomping, increment

    def _increment(self, start_mark: Any) -> int:
        value = int(self.peek())
        if value == 0:
            raise ScannerError(
                "while scanning a block scalar",
                start_mark,
                "expected indentation indicator in the range 1-9, but found 0",
                self.get_mark(),
            )
        self.forward()
        return value

    def scan_block_scalar_ignored_line(self, start_mark: Any) -> None:
        self._ignored_line("while scanning a block scalar", start_mark)

    def scan_directive_ignored_line(self, start_mark: Any) -> None:
        self._ignored_line("while scanning a directive", start_mark)

    def _ignored_line(self, context: str, start_mark: Any) -> None:
        while self.peek() in " \t":
            self.forward()
        if self.peek() == "#":
            while self.peek() not in "\0" + _BREAKS:
                self.forward()
        ch = self.peek()
        if ch not in "\0" + _BREAKS:
            raise ScannerError(
                context,
                start_mark,
                f"expected a comment or a line break, but found {ch!r}",
                self.get_mark(),
            )
        self.scan_line_break()

    def _tab_in_indentation(self) -> ScannerError:
        return ScannerError(
            "while scanning a block scalar",
            None,
            "found a tab character where an indentation space is expected",
            self.get_mark(),
        )

    def scan_block_scalar_indentation(self) -> tuple[list[str], int, Any]:
        chunks: list[str] = []
        max_indent = 0
        end_mark = self.get_mark()
        while True:
            while self.peek() == " ":
                self.forward()
            max_indent = max(max_indent, self.column)
            if self.peek() == "\t":  # the indentation is not known yet: any tab is in it
                raise self._tab_in_indentation()
            if self.peek() not in _BREAKS:
                return chunks, max_indent, end_mark
            chunks.append(self.scan_line_break())
            end_mark = self.get_mark()

    def scan_block_scalar_breaks(self, indent: int) -> tuple[list[str], Any]:
        chunks: list[str] = []
        end_mark = self.get_mark()
        while True:
            while self.column < indent and self.peek() == " ":
                self.forward()
            if self.column < indent and self.peek() == "\t":
                raise self._tab_in_indentation()
            if self.peek() not in _BREAKS:
                return chunks, end_mark
            chunks.append(self.scan_line_break())
            end_mark = self.get_mark()

    def scan_directive(self) -> DirectiveToken:
        start_mark = self.get_mark()
        self.forward()
        name = self.scan_directive_name(start_mark)
        value: tuple[Any, Any]
        if name == "YAML":
            value = self.scan_yaml_directive_value(start_mark)
        elif name == "TAG":
            value = self.scan_tag_directive_value(start_mark)
        else:  # PyYAML skips a directive it does not know; libyaml refuses it
            raise ScannerError(
                "while scanning a directive",
                start_mark,
                "found unknown directive name",
                self.get_mark(),
            )
        end_mark = self.get_mark()
        self.scan_directive_ignored_line(start_mark)
        return DirectiveToken(name, value, start_mark, end_mark)

    def scan_directive_name(self, start_mark: Any) -> str:
        length = 0
        ch = self.peek(length)
        while ch.isascii() and (ch.isalnum() or ch in "-_"):
            length += 1
            ch = self.peek(length)
        if not length or ch not in _BLANKZ:
            raise ScannerError(
                "while scanning a directive",
                start_mark,
                f"expected alphabetic or numeric character, but found {ch!r}",
                self.get_mark(),
            )
        value = self.prefix(length)
        self.forward(length)
        return str(value)

    def scan_yaml_directive_value(self, start_mark: Any) -> tuple[int, int]:
        while self.peek() in " \t":
            self.forward()
        major = self.scan_yaml_directive_number(start_mark)
        if self.peek() != ".":
            raise ScannerError(
                "while scanning a directive",
                start_mark,
                f"expected a digit or '.', but found {self.peek()!r}",
                self.get_mark(),
            )
        self.forward()
        minor = self.scan_yaml_directive_number(start_mark)
        if self.peek() not in _BLANKZ:
            raise ScannerError(
                "while scanning a directive",
                start_mark,
                f"expected a digit or ' ', but found {self.peek()!r}",
                self.get_mark(),
            )
        return major, minor

    def scan_tag_directive_value(self, start_mark: Any) -> tuple[str, str]:
        while self.peek() in " \t":
            self.forward()
        handle = self.scan_tag_handle("directive", start_mark)
        if self.peek() not in " \t":
            raise ScannerError(
                "while scanning a directive",
                start_mark,
                f"expected ' ', but found {self.peek()!r}",
                self.get_mark(),
            )
        while self.peek() in " \t":
            self.forward()
        prefix = self.scan_tag_uri("directive", start_mark)
        if self.peek() not in _BLANKZ:
            raise ScannerError(
                "while scanning a directive",
                start_mark,
                f"expected ' ', but found {self.peek()!r}",
                self.get_mark(),
            )
        return handle, prefix


_NO_KEY: Any = object()  # a mapping waiting for its next key


class FlatComposer(yaml.composer.Composer):
    """``yaml.composer.Composer`` without recursion: the same nodes, built with a stack of the
    open collections, so that YAML nested as deep as libyaml allows is composed as libyaml's
    own composer composes it (PyYAML's recursive one stops at Python's recursion limit, about
    a third as deep)."""

    anchors: dict[Any, yaml.Node]
    _opened: Any
    if TYPE_CHECKING:  # the parser's and the resolver's, in the loader

        def check_event(self, *choices: Any) -> bool: ...
        def peek_event(self) -> Any: ...
        def get_event(self) -> Any: ...
        def descend_resolver(self, parent: Any, index: Any) -> None: ...
        def ascend_resolver(self) -> None: ...
        def resolve(self, kind: Any, value: Any, implicit: Any) -> Any: ...

    def compose_node(self, parent: Any, index: Any) -> Any:
        open_: list[list[Any]] = []  # [collection, pending key or _NO_KEY]
        while True:
            if open_:
                collection, key = open_[-1]
                here = len(collection.value) if key is _NO_KEY else key
                if isinstance(collection, yaml.MappingNode) and key is _NO_KEY:
                    here = None
                done = self._start(collection, here)
            else:
                done = self._start(parent, index)
            if done is None:  # a collection opened: compose its first child (or close it)
                open_.append([self._opened, _NO_KEY])
            while True:
                if done is not None:
                    if not open_:
                        return done
                    top = open_[-1]
                    if isinstance(top[0], yaml.SequenceNode):
                        top[0].value.append(done)
                    elif top[1] is _NO_KEY:
                        top[1] = done
                    else:
                        top[0].value.append((top[1], done))
                        top[1] = _NO_KEY
                    done = None
                top = open_[-1]
                end = (
                    yaml.SequenceEndEvent
                    if isinstance(top[0], yaml.SequenceNode)
                    else yaml.MappingEndEvent
                )
                if top[1] is not _NO_KEY or not self.check_event(end):
                    break
                top[0].end_mark = self.get_event().end_mark
                open_.pop()
                self.ascend_resolver()
                done = top[0]

    def _start(self, parent: Any, index: Any) -> Any:
        """The next node when it is complete (an alias or a scalar); None when it opens a
        collection (then ``_opened``), as ``Composer.compose_node`` begins them."""
        if self.check_event(yaml.AliasEvent):
            event = self.get_event()
            if event.anchor not in self.anchors:
                raise yaml.composer.ComposerError(
                    None, None, f"found undefined alias {event.anchor!r}", event.start_mark
                )
            return self.anchors[event.anchor]
        event = self.peek_event()
        anchor = event.anchor
        if anchor is not None and anchor in self.anchors:
            raise yaml.composer.ComposerError(
                f"found duplicate anchor {anchor!r}; first occurrence",
                self.anchors[anchor].start_mark,
                "second occurrence",
                event.start_mark,
            )
        self.descend_resolver(parent, index)
        if self.check_event(yaml.ScalarEvent):
            node = self.compose_scalar_node(anchor)
            self.ascend_resolver()
            return node
        start = self.get_event()
        tag = start.tag
        kind: Any = (
            yaml.SequenceNode if isinstance(start, yaml.SequenceStartEvent) else yaml.MappingNode
        )
        if tag is None or tag == "!":
            tag = self.resolve(kind, None, start.implicit)
        self._opened = kind(tag, [], start.start_mark, None, flow_style=start.flow_style)
        if anchor is not None:
            self.anchors[anchor] = self._opened
        return None


class BomReader(yaml.reader.Reader):
    """PyYAML's reader counting a byte order mark as a column, as libyaml does (but the one that
    starts the stream, which libyaml's reader takes as the encoding's mark): where a line's
    first key or item stands decides what it belongs to."""

    buffer: str
    pointer: int
    index: int
    column: int

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        if isinstance(stream, str) and "\ufeff" not in stream[1:]:
            # No mark to count (the usual case): PyYAML's own forward, without the look for one.
            self.__dict__["forward"] = MethodType(yaml.reader.Reader.forward, self)

    def forward(self, length: int = 1) -> None:
        if self.pointer + length + 1 >= len(self.buffer):
            self.update(length + 1)
        if self.buffer.find("\ufeff", self.pointer, self.pointer + length) < 0:
            super().forward(length)
            return
        for _ in range(length):
            counted = self.index > 0 and self.buffer[self.pointer] == "\ufeff"
            super().forward(1)
            self.column += counted


class PureSafeLoader(
    BomReader,
    TabScanner,
    yaml.parser.Parser,
    FlatComposer,
    yaml.constructor.SafeConstructor,
    yaml.resolver.Resolver,
):
    """``yaml.SafeLoader`` with ``TabScanner``: the loader spidercli uses without libyaml."""

    def __init__(self, stream: Any) -> None:
        BomReader.__init__(self, stream)
        TabScanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        FlatComposer.__init__(self)
        yaml.constructor.SafeConstructor.__init__(self)
        yaml.resolver.Resolver.__init__(self)


__all__ = ["MAX_NESTING", "BomReader", "FlatComposer", "PureSafeLoader", "TabScanner"]
