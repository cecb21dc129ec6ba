"""Input that cannot be used, as one family of exceptions the command line catches at once.

An ``InputError`` is input that cannot be used: it carries its message, the file and line it
points at (when one applies) and the exit status the command ends with (2). ``str(err)`` is the
message a person reads: ``path:line: message`` (the message alone when no file or line
applies), in English (JSON and every machine format carry it); when the message is a
``messages.Text`` (made with ``N_``), ``said()`` is the same error in the language of ``--lang``.
The log reader's errors (``LogError``), a ruleset that cannot play the game, two logs that cannot
be judged together and a KPat save that cannot be imported are all ``InputError``s.
(A usable log with a refused action, where a legal game is needed, is ``replay.IllegalLogError``:
exit status 1, as for any illegal log.)

Both share ``LocatedError``, the ``path:line: message`` of an error that points into a file.

``OutputError`` is the other kind the command line reports without a traceback: output that cannot
be written (a full disk, a read-only folder), exit status 2 as well.
"""

from __future__ import annotations

from spidercli.text.messages import N_, located, message_of, said

INPUT_ERROR_STATUS = 2  # the exit status of unusable input


class LocatedError(ValueError):
    """An error that points at a file and a line of it: ``path`` and ``line`` (1-based), each
    None when none applies; ``str(err)`` is ``path:line: message``. The base of ``InputError``
    (exit status 2) and of ``replay.IllegalLogError`` (exit status 1): catch one of those, not
    this base, which would take both."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def __str__(self) -> str:
        if self.path is None and self.line is None:
            return self.message
        return located(self.path, self.line, self.message)

    def said(self) -> str:
        """``str(self)`` in the language in use (English when the message is a plain string)."""
        return said(str(self))


class InputError(LocatedError):
    """Input that cannot be used: ``path`` is the file it points at and ``line`` its 1-based
    line, each None when none applies; ``exit_status`` is 2, the command line's."""

    exit_status = INPUT_ERROR_STATUS


class OutputError(Exception):
    """Output that cannot be written: a full disk, a read-only folder, a file system's error. An
    error of the environment, not of the input nor a bug: the command says ``message`` (which
    names what could not be written, and why) and ends with exit status 2."""

    exit_status = INPUT_ERROR_STATUS

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def said(self) -> str:
        return said(self.message)


def unwritable(path: str, err: OSError) -> OutputError:
    """``path: cannot be written: reason`` for a file that ``err`` kept from being written."""
    why = N_("cannot be written: {reason}", reason=err.strerror or message_of(err))
    return OutputError(located(path, None, why))


__all__ = ["INPUT_ERROR_STATUS", "InputError", "LocatedError", "OutputError", "unwritable"]
