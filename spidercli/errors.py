"""The two ways a log can fail a program that reads it, as exceptions the command line catches.

An ``InputError`` is input that cannot be used: it carries its message, the file and line it
points at (when one applies) and the exit status the command ends with (2). ``str(err)`` is the
message a person reads: ``path:line: message`` (the message alone when no file or line
applies), in English (JSON and every machine format carry it); when the message is a
``messages.Text`` (made with ``N_``), ``said()`` is the same error in the language of ``--lang``.
The log reader's errors (``LogError``), a ruleset that cannot play the game, two logs that cannot
be judged together and a KPat save that cannot be imported are all ``InputError``s.

An ``IllegalLogError`` is a usable log with a refused action, given to something that needs a
legal game (``hint``, ``record``): exit status 1, as for any illegal log. It carries the replay's
``Report``, whose ``illegal[0]`` is the refusal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spidercli.messages import located, said

if TYPE_CHECKING:
    from spidercli.replay import Report

INPUT_ERROR_STATUS = 2  # the exit status of unusable input
ILLEGAL_STATUS = 1  # the exit status of a refused action (or an unmet expectation)


class InputError(ValueError):
    """Input that cannot be used: ``path`` is the file it points at and ``line`` its 1-based
    line, each None when none applies; ``exit_status`` is 2, the command line's."""

    exit_status = INPUT_ERROR_STATUS

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


class IllegalLogError(ValueError):
    """A log with a refused action, where a legal game is needed (a hint, an ``expect`` block
    to record): ``path`` and ``line`` point at the refused entry, ``report`` is the replay
    (``report.illegal[0]`` the refusal), ``exit_status`` is 1, the command line's."""

    exit_status = ILLEGAL_STATUS

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        report: Report | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.report = report

    def __str__(self) -> str:
        if self.path is None and self.line is None:
            return self.message
        return located(self.path, self.line, self.message)

    def said(self) -> str:
        """``str(self)`` in the language in use."""
        return said(str(self))


__all__ = ["ILLEGAL_STATUS", "INPUT_ERROR_STATUS", "IllegalLogError", "InputError"]
