"""Text from a log, a file name or the command line, made safe to put in a message.

Logs come from strangers: a player name or a broken action may hold a megabyte of text, terminal
escapes (``ESC [ 2 J`` clears the screen), bidirectional overrides, line separators, or bytes of a
file name that are not UTF-8. Every message shows such text through ``shown`` or ``quoted``:
at most ``LIMIT`` characters of it, every character that is not printable written as an escape
(``\\x1b``, ``\\u202e``; an undecodable byte of a file name as ``\\xff``), never raw. And every
error that points into a file is written ``path:line: message`` by ``located``, in one place.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from spidercli.text.suggest import close_match

LIMIT = 200  # characters of user text echoed in one message
_SURROGATES = re.compile("[\ud800-\udfff]")


def utf8_safe(text: str) -> str:
    """``text`` with every lone surrogate (what Python makes of the bytes of a file name that
    is not UTF-8) replaced by U+FFFD, so that it always encodes as UTF-8 (JSON, CSV, XML)."""
    return _SURROGATES.sub("\ufffd", text)


def is_utf8(text: str) -> bool:
    """Whether ``text`` holds no lone surrogate (what Python makes of bytes that are not UTF-8,
    in a file name or an argument), so that UTF-8 can write it as it is."""
    return _SURROGATES.search(text) is None


def _escape(ch: str) -> str:
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8, kept by os.fsdecode as a surrogate
        return f"\\x{code - 0xDC00:02x}"
    if ch == "\t":
        return "\\t"
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _escaped(text: str) -> str:
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in text)


def shown(text: str, limit: int = LIMIT) -> str:
    """``text`` to echo: non-printable characters escaped, cut to about ``limit`` characters
    (``...`` and how many more when cut)."""
    if len(text) <= limit:
        return _escaped(text)
    return f"{_escaped(text[:limit])}... ({len(text) - limit:,} more characters)"


def brief(text: str, limit: int = 24) -> str:
    """``text`` in a ``repr``: escaped as ``shown`` does, at most ``limit`` characters in all
    (cut ones end in ``...``), so that the ``repr`` stays one short line."""
    safe = _escaped(text)
    return safe if len(safe) <= limit else f"{safe[: limit - 3]}..."


def counted(n: int, word: str, words: str | None = None) -> str:
    """``n`` and an English noun in a ``repr``: ``1 move``, ``2 moves`` (``words``: the plural,
    when it is not ``word`` + ``s``)."""
    return f"{n} {word if n == 1 else words or word + 's'}"


def quoted(text: str, limit: int = LIMIT) -> str:
    """``shown`` in single quotes: ``'5 to 7'``."""
    return f"'{shown(text, limit)}'"


def ascii_note(text: str) -> str:
    """For a value that must be ASCII: ``" (U+017F is not ASCII)"`` naming its first non-ASCII
    character, or ``""``."""
    for ch in text:
        if ord(ch) > 0x7F:
            return N_(" ({code} is not ASCII)", code="U+" + format(ord(ch), "04X"))
    return ""


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """For a ``word`` that names none of ``choices``: ``" (did you mean 'expect'?)"`` naming the
    closest one (``suggest.close_match``), or ``""`` when none is close."""
    guess = close_match(word, choices)
    return "" if guess is None else N_(" (did you mean {guess}?)", guess=quoted(guess))


def shown_path(path: str, limit: int | None = LIMIT) -> str:
    """A file name to print, in every text output (messages, reports, verify's formats): every
    character that is not printable escaped as ``shown`` does (``\\x1b``, ``\\u202e``, a byte
    that is not UTF-8 as ``\\xff``); one longer than ``limit`` keeps its start and its end.
    ``limit=None`` keeps the whole name (a format whose readers open the file: ``concise``)."""
    if limit is None or len(path) <= limit:
        return _escaped(path)
    half = limit // 2
    return f"{_escaped(path[:half])}...{_escaped(path[-half:])}"


class Text(str):
    """A message for people that is English as a string and can be said in another language.

    ``N_("expected {what}", what=...)`` is the English sentence, a ``str`` like any other: JSON,
    JSONL, CSV, JUnit and every machine format use it, so they stay the same bytes in every
    language. ``said(text)`` is the same sentence in the language in use (``--lang``): the
    catalog's translation of the message id, formatted with the same fields (a field that is
    itself a ``Text`` is said too). Plain strings pass through ``said`` unchanged.
    """

    msgid: str
    fields: dict[str, Any]

    def __new__(cls, msgid: str, /, **fields: Any) -> Text:
        made = super().__new__(cls, msgid.format(**fields))
        made.msgid = msgid
        made.fields = fields
        return made

    def __getnewargs_ex__(self) -> tuple[tuple[str], dict[str, Any]]:  # pickled to workers
        return (self.msgid,), self.fields

    def said(self) -> str:
        # i18n is imported only when a text is said: the engine imports cards, and so this
        # module, and the engine loads no language.
        from spidercli.text.i18n import _, language

        if language() == "en":
            return str(self)
        fields = {k: said(v) if isinstance(v, str) else v for k, v in self.fields.items()}
        return _(self.msgid).format(**fields)


class Plural(Text):
    """A ``Text`` with a singular and a plural: said through the language's plural rule for
    ``n`` (Czech has three forms: 1 tah, 2 tahy, 5 tahů)."""

    plural: str
    n: int

    def __new__(cls, singular: str, plural: str, n: int, /, **fields: Any) -> Plural:
        made = str.__new__(cls, (singular if n == 1 else plural).format(**fields))
        made.msgid = singular
        made.plural = plural
        made.n = n
        made.fields = fields
        return made

    def __getnewargs_ex__(self) -> tuple[tuple[str, str, int], dict[str, Any]]:  # type: ignore[override]
        return (self.msgid, self.plural, self.n), self.fields

    def said(self) -> str:
        from spidercli.text.i18n import language, ngettext  # when said (see Text.said)

        if language() == "en":
            return str(self)
        fields = {k: said(v) if isinstance(v, str) else v for k, v in self.fields.items()}
        return ngettext(self.msgid, self.plural, self.n).format(**fields)


class Located(Text):
    """``path:line: message``: the place stays as it is, the message is said."""

    def __new__(cls, where: str, message: str) -> Located:
        made = str.__new__(cls, f"{where}: {message}")
        made.msgid = "{where}: {message}"
        made.fields = {"where": where, "message": message}
        return made

    def __getnewargs_ex__(self) -> tuple[tuple[str, str], dict[str, Any]]:  # type: ignore[override]
        return (self.fields["where"], self.fields["message"]), {}

    def said(self) -> str:
        return f"{said(self.fields['where'])}: {said(self.fields['message'])}"


class Joined(Text):
    """Several messages joined by ``sep`` (``"; "``), each said in turn."""

    def __new__(cls, sep: str, items: list[str]) -> Joined:
        made = str.__new__(cls, sep.join(items))
        made.msgid = sep
        made.fields = {"items": list(items)}
        return made

    def __getnewargs_ex__(self) -> tuple[tuple[str, list[str]], dict[str, Any]]:  # type: ignore[override]
        return (self.msgid, self.fields["items"]), {}

    def said(self) -> str:
        return self.msgid.join(said(item) for item in self.fields["items"])


def N_(msgid: str, /, **fields: Any) -> Text:
    """A ``Text``: ``msgid`` formatted with ``fields`` in English, said later in any language."""
    return Text(msgid, **fields)


def Nn_(singular: str, plural: str, n: int, /, **fields: Any) -> Plural:
    """``N_`` with a plural: the form for ``n``, chosen again in the language it is said in."""
    return Plural(singular, plural, n, **fields)


def prefixed(where: str, message: str) -> str:
    """``where: message`` (``game: ...``, ``moves, entry 3: ...``); a ``Text`` message, or a
    ``Text`` place, stays one."""
    if isinstance(message, Text) or isinstance(where, Text):
        return Located(where, message)
    return f"{where}: {message}"


def message_of(err: BaseException) -> str:
    """An exception's message, still a ``Text`` when it was raised with one (``str(err)`` would
    turn it into a plain string)."""
    if type(err).__str__ is not BaseException.__str__:  # its own (InputError: path:line: ...)
        return str(err)
    first = err.args[0] if len(err.args) == 1 else None
    return first if isinstance(first, Text) else str(err)


def said(text: str) -> str:
    """``text`` in the language in use when it is a ``Text``; other strings as they are."""
    return text.said() if isinstance(text, Text) else text


def located(path: str | None, line: int | None, message: str) -> str:
    """``path:line: message`` (``path: message`` when no line applies); a ``Text`` message
    stays one, so that it can still be said in another language."""
    where = shown_path(path) if path is not None else "<log>"
    if line is not None:
        where += f":{line}"
    if isinstance(message, Text):
        return Located(where, message)
    return f"{where}: {message}"


def error_json(message: str, line: int | None) -> dict[str, object]:
    """The JSON object of an input error: ``{"error": {"message": ..., "line": ...}}``."""
    return {"error": {"message": message, "line": line}}


__all__ = [
    "LIMIT",
    "N_",
    "Joined",
    "Located",
    "Nn_",
    "Plural",
    "Text",
    "ascii_note",
    "brief",
    "counted",
    "did_you_mean",
    "error_json",
    "is_utf8",
    "located",
    "message_of",
    "prefixed",
    "quoted",
    "said",
    "shown",
    "shown_path",
]
