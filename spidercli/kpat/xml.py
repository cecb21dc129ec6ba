"""KPat's saves read as XML, hardened: ``read_xml`` parses with ``defusedxml``'s expat reader,
refusing any DTD (but the bare ``<!DOCTYPE kpat>`` of KPat's older saves), entity and external
reference; the limits on elements, states, depth and attributes are checked as each element
starts, so a hostile save is refused where it passes one, before the rest is read. The save is
read as logs are (``files.read_limited``: a regular file or ``-``, never blocking, at most
``MAX_SAVE_BYTES``). ``SaveError`` is a save that cannot be imported, with its file and line.
"""

from __future__ import annotations

import io
import xml.sax
import xml.sax.handler
import xml.sax.xmlreader
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import defusedxml
from defusedxml.expatreader import DefusedExpatParser

from spidercli.errors import InputError
from spidercli.logs.files import (
    MAX_LOG_BYTES,
    STDIN,
    STDIN_NAME,
    FileKind,
    Unreadable,
    read_limited,
    too_big,
)
from spidercli.text.messages import N_

if TYPE_CHECKING:
    pass

# The limits of a save, each checked as the XML is read (docs/kpat.md has the measurements).
# A save holds some 150-350 bytes a step (KPat's own saves: 254-343), so 1 MiB, the limit of a
# move log too, holds some 3,000-7,000 steps: four times or more the 750 of a 7-minute game by
# KPat's demo, fifteen times the longest save of the fixtures.
MAX_SAVE_BYTES = MAX_LOG_BYTES
MAX_ELEMENTS = 50_000  # over twice what 1 MiB of KPat's saves holds (some 22,000: 47 bytes each)
MAX_STATES = 20_000  # steps in one game; more than 1 MiB of honest steps can hold
MAX_DEPTH = 4  # <kpat-game>, <state>, <move>, <card>; the older format nests 3 deep
MAX_ATTRIBUTES = 8  # KPat writes at most 6 on an element (the older format's <dealer>)


class SaveError(InputError):
    """A KPat save that cannot be imported: names the file and, where one applies, the line."""


@dataclass
class Element:
    """An XML element as the importer needs it: name, attributes, line, children."""

    name: str
    attrs: dict[str, str]
    line: int
    children: list[Element] = field(default_factory=list)


class _SaveKind(FileKind):
    """A KPat save, in the messages of ``files.read_limited``."""

    def directory(self) -> str:
        return N_("is a directory, not a KPat save")

    def too_big(self, size: str, limit: str) -> str:
        return N_(
            "is larger ({size}) than the limit of {limit} for a KPat save (some 3,000 steps of "
            "a game or more; a 7-minute game has 750)",
            size=size,
            limit=limit,
        )


SAVE = _SaveKind()


class _Refused(Exception):
    """Raised inside the parser's handlers: the save is refused at once, for this reason."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


class _Parser(DefusedExpatParser):
    """defusedxml's expat reader refusing any document type declaration, except the bare
    ``<!DOCTYPE kpat>`` of KPat's older saves (it declares nothing: no entity, no default
    attribute, no external subset)."""

    def defused_start_doctype_decl(
        self, name: str, sysid: str | None, pubid: str | None, has_internal_subset: bool
    ) -> None:
        if name == "kpat" and sysid is None and pubid is None and not has_internal_subset:
            return
        raise _Refused(
            N_(
                "refused: the XML has a document type declaration (<!DOCTYPE {name} ...>); "
                "KPat's saves have none (its older format only a bare <!DOCTYPE kpat>), and a "
                "DTD's declarations can make a small file costly",
                name=_clip(name),
            ),
            getattr(getattr(self, "_parser", None), "CurrentLineNumber", None),
        )


class _Builder(xml.sax.handler.ContentHandler):
    """The element tree, with KPat's limits checked as each element starts: a save that passes
    one is refused there, before the rest is read."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[Element] = []
        self.root: Element | None = None
        self.count = 0
        self.states = 0
        self.locator: xml.sax.xmlreader.Locator | None = None

    def setDocumentLocator(self, locator: xml.sax.xmlreader.Locator) -> None:
        self.locator = locator

    def startElement(self, name: str, attrs: xml.sax.xmlreader.AttributesImpl) -> None:
        line = (self.locator.getLineNumber() or 0) if self.locator is not None else 0
        self.count += 1
        if self.count > MAX_ELEMENTS:
            raise _Refused(
                N_(
                    "holds more than {n:,} XML elements: not a KPat save of Spider",
                    n=MAX_ELEMENTS,
                ),
                line,
            )
        if len(self.stack) >= MAX_DEPTH:
            raise _Refused(
                N_(
                    "<{name}> lies {depth} elements deep: KPat's saves nest {most} deep at most "
                    "(<kpat-game>, <state>, <move>, <card>)",
                    name=_clip(name),
                    depth=len(self.stack) + 1,
                    most=MAX_DEPTH,
                ),
                line,
            )
        names = attrs.getNames()
        if len(names) > MAX_ATTRIBUTES:
            raise _Refused(
                N_(
                    "<{name}> has {n:,} attributes: KPat writes at most {most} on an element",
                    name=_clip(name),
                    n=len(names),
                    most=MAX_ATTRIBUTES,
                ),
                line,
            )
        if len(self.stack) == 1:  # a step of the game (or a pile of the older format)
            self.states += 1
            if self.states > MAX_STATES:
                raise _Refused(
                    N_(
                        "holds more than {most:,} elements in <{root}> (a <state> a step); "
                        "spidercli imports games of up to {most:,} steps",
                        most=MAX_STATES,
                        root=self.stack[0].name,
                    ),
                    line,
                )
        # No name or value KPat writes is long: clipping the long ones keeps messages short.
        element = Element(_clip(name), {k: _clip(attrs[k]) for k in names}, line)
        if self.stack:
            self.stack[-1].children.append(element)
        else:
            self.root = element
        self.stack.append(element)

    def endElement(self, name: str) -> None:
        self.stack.pop()


def _shown_name(path: str | Path) -> str:
    """The name messages and the log use for the save (``<stdin>`` for ``-``)."""
    return STDIN_NAME if str(path) == STDIN else str(path)


def _clip(text: str) -> str:
    return text if len(text) <= 64 else text[:60] + "..."


SAVE_NAME = "<save>"  # what messages call a save given as bytes, unless told its name


def source_name(source: str | Path | bytes, name: str | None) -> str:
    """What messages call the save: ``name`` when given, else its path (``<stdin>`` for ``-``,
    ``<save>`` for bytes)."""
    if name is not None:
        return name
    return SAVE_NAME if isinstance(source, bytes) else _shown_name(source)


def read_xml(source: str | Path | bytes, name: str | None = None) -> Element:
    """The save's root element, from its path (``-``: standard input) or its bytes (``name``: what
    messages call it); ``SaveError`` for a file that is missing, not a regular file, too large,
    not XML, or hostile (a DTD, entities, external references, more elements, states, depth or
    attributes than a KPat save holds)."""
    name = source_name(source, name)
    try:
        if isinstance(source, bytes):
            if len(source) > MAX_SAVE_BYTES:
                raise too_big(MAX_SAVE_BYTES, len(source), SAVE)
            data = source
        else:
            data = read_limited(source, MAX_SAVE_BYTES, SAVE)
    except Unreadable as err:
        raise SaveError(err.message, path=name) from err
    if not data.strip():
        raise SaveError(N_("is empty: expected KPat's saved game (XML)"), path=name)
    builder = _Builder()
    parser = _Parser(forbid_dtd=True, forbid_entities=True, forbid_external=True)
    parser.setContentHandler(builder)
    stream = xml.sax.xmlreader.InputSource()
    stream.setByteStream(io.BytesIO(data))
    try:
        parser.parse(stream)
    except _Refused as err:
        raise SaveError(err.message, path=name, line=err.line) from err
    except defusedxml.EntitiesForbidden as err:  # pragma: no cover - a DTD is refused first
        raise SaveError(
            N_(
                "refused: the XML declares an entity ({entity!r}); KPat's saves declare none, "
                "and entities can blow up in memory",
                entity=_clip(str(err.name)),
            ),
            path=name,
        ) from err
    except defusedxml.DefusedXmlException as err:  # pragma: no cover - a DTD is refused first
        raise SaveError(N_("refused: {reason}", reason=str(err)), path=name) from err
    except xml.sax.SAXParseException as err:
        column = (err.getColumnNumber() or 0) + 1
        raise SaveError(
            N_(
                "is not well-formed XML: {problem} (column {column})",
                problem=err.getMessage(),
                column=column,
            ),
            path=name,
            line=err.getLineNumber(),
        ) from err
    except xml.sax.SAXException as err:
        raise SaveError(
            N_("cannot be read as XML: {problem}", problem=str(err)), path=name
        ) from err
    except (LookupError, ValueError) as err:
        # <?xml encoding="TF-8"?>: a codec Python does not know; "UTF-32" or "cp932": a
        # multi-byte one expat cannot read.
        raise SaveError(
            N_("cannot be read as XML: {problem}", problem=_clip(str(err))), path=name
        ) from err
    assert builder.root is not None  # a well-formed document has a root
    return builder.root


__all__ = [
    "MAX_ATTRIBUTES",
    "MAX_DEPTH",
    "MAX_ELEMENTS",
    "MAX_SAVE_BYTES",
    "MAX_STATES",
    "SAVE",
    "SAVE_NAME",
    "Element",
    "SaveError",
    "read_xml",
    "source_name",
]
