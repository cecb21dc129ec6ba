"""Text from a log, a file name or the command line, made safe to put in a message.

Logs come from strangers: a player name or a broken action may hold a megabyte of text, terminal
escapes (``ESC [ 2 J`` clears the screen), bidirectional overrides, line separators, or bytes of a
file name that are not UTF-8. Every message shows such text through ``shown`` or ``quoted``:
at most ``LIMIT`` characters of it, every character that is not printable written as an escape
(``\\x1b``, ``\\u202e``; an undecodable byte of a file name as ``\\xff``), never raw. And every
error that points into a file is written ``path:line: message`` by ``located``, in one place.
"""

from __future__ import annotations

LIMIT = 200  # characters of user text echoed in one message


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


def quoted(text: str, limit: int = LIMIT) -> str:
    """``shown`` in single quotes: ``'5 to 7'``."""
    return f"'{shown(text, limit)}'"


def ascii_note(text: str) -> str:
    """For a value that must be ASCII: ``" (U+017F is not ASCII)"`` naming its first non-ASCII
    character, or ``""``."""
    for ch in text:
        if ord(ch) > 0x7F:
            return f" (U+{ord(ch):04X} is not ASCII)"
    return ""


def shown_path(path: str) -> str:
    """A file name to echo: escaped as ``shown``; a very long one keeps its start and its end."""
    if len(path) <= LIMIT:
        return _escaped(path)
    half = LIMIT // 2
    return f"{_escaped(path[:half])}...{_escaped(path[-half:])}"


def located(path: str | None, line: int | None, message: str) -> str:
    """``path:line: message`` (``path: message`` when no line applies)."""
    where = shown_path(path) if path is not None else "<log>"
    if line is not None:
        where += f":{line}"
    return f"{where}: {message}"


def error_json(message: str, line: int | None) -> dict[str, object]:
    """The JSON object of an input error: ``{"error": {"message": ..., "line": ...}}``."""
    return {"error": {"message": message, "line": line}}


__all__ = ["LIMIT", "ascii_note", "error_json", "located", "quoted", "shown", "shown_path"]
