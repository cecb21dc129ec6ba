"""verify's output formats: each a ``Writer`` of verdicts as they come, all of them in one table,
``FORMATS``, from which the command line's --format choice and its help are made.

File names, player names and actions come from strangers. Every writer makes them safe for its
format: valid UTF-8 everywhere, no formula in a CSV cell, no character XML forbids, no line
break or workflow-command syntax in a GitHub annotation. And no character that is not printable
reaches the output raw (a terminal escape, ``ESC [ 2 J``, would clear the screen of whoever reads
it; U+202E would turn the rest of the line around): the text formats show a name through
``messages.shown_path``, as every message and report does (``\\x1b[2J``, ``\\u202e``), and the
JSON formats write such a character as a JSON escape, so that the name reads back exactly.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import IO

from spidercli.errors import OutputError, unwritable
from spidercli.judging.verdict import Verdict
from spidercli.play.replay import EXPECT_FAILED, ILLEGAL, INVALID_INPUT, STATUSES, VALID
from spidercli.text.i18n import _, ngettext
from spidercli.text.messages import N_, said, shown, shown_path, utf8_safe
from spidercli.text.words import result_word, status_count

# ------------------------------------------------------------------ text safe for each format

# XML 1.0's characters: tab, LF, CR, U+0020-U+D7FF, U+E000-U+FFFD, U+10000-U+10FFFF.
# Compiled on first use (a few milliseconds of every verify's start-up otherwise).
_NOT_XML = functools.cache(
    lambda: re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
)
# OWASP's CSV-injection rule: a text cell starting with one of these is read as a formula.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


_XML_CR = {"\r": "&#13;"}  # kept as it is: a parser reads a raw CR in text as LF


def xml_safe(text: str) -> str:
    """``text`` with every character XML 1.0 forbids (controls, lone surrogates, U+FFFE/FFFF)
    replaced by U+FFFD; escaping ``<&"`` is the caller's (``escape``/``quoteattr``)."""
    return _NOT_XML().sub("\ufffd", text)


def csv_cell(value: object) -> str:
    """One CSV cell. Numbers (``int``, ``float``) are written as they are, a negative score
    included: a spreadsheet reads ``-12`` as the number it is. Text starting with ``=``, ``+``,
    ``-``, ``@``, a tab or a CR gets a leading ``'`` so that no spreadsheet runs it as a formula;
    text holding a comma, a quote, a CR or an LF is quoted (``"`` doubled); a NUL becomes U+FFFD.
    ``None`` is empty."""
    if value is None:
        return ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    text = utf8_safe(str(value)).replace("\0", "\ufffd")  # many CSV readers stop at a NUL
    if text.startswith(_FORMULA_START):
        text = "'" + text
    if any(c in text for c in ',"\r\n'):
        text = '"' + text.replace('"', '""') + '"'
    return text


def csv_row(values: Iterable[object]) -> str:
    """One CSV record, ``\n``-terminated (a record's line breaks are inside quotes)."""
    line = ",".join(csv_cell(v) for v in values)
    return (line or '""') + "\n"  # one empty cell, written so that it reads back as one


def json_printable(text: str) -> str:
    """JSON text (``json.dumps``' output, which escapes the C0 controls but leaves DEL, the C1
    controls, bidirectional overrides, line separators and the like raw) with every character
    that is not printable written as a JSON escape (``\\u202e``; a pair of them past U+FFFF):
    the same value read back, nothing raw for a terminal. Lone surrogates (the bytes of a file
    name that are not UTF-8) become U+FFFD first, as ``utf8_safe`` does."""
    text = utf8_safe(text)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _json_escape(c) for c in text)


def _json_escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _name(v: Verdict) -> str:
    """The verdict's file name as the text formats print it: escaped (``shown_path``), whole."""
    return shown_path(v.file, None)


def _one_line(text: str) -> str:
    """A message on one line: CR and LF shown as ``\\r`` and ``\\n``."""
    return utf8_safe(text).replace("\r", "\\r").replace("\n", "\\n")


def _github_data(text: str) -> str:
    """GitHub workflow-command escaping of a message."""
    return utf8_safe(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github_property(text: str) -> str:
    """GitHub workflow-command escaping of a property value (``file=``, ``title=``)."""
    return _github_data(text).replace(":", "%3A").replace(",", "%2C")


def _message(v: Verdict) -> str:
    """The verdict's message without the file and line the error text may start with (an
    unusable log's message is the whole error, ``path, line N: ...`` or ``path:N: ...``)."""
    message = str(v.message or "")
    if v.status == INVALID_INPUT:
        for name in {shown_path(v.file), v.file}:  # as messages show it; as it is
            prefix = re.match(re.escape(name) + r"(?:, line \d+|:\d+)?: ", message)
            if prefix:
                return message[prefix.end() :]
    return message


def _label(v: Verdict) -> str:
    """``illegal build-one-higher``: the status, and the rule when one applies."""
    return f"{v.status} {v.rule}" if v.rule else v.status


# ------------------------------------------------------------------------------- writers


@dataclass
class Tally:
    counts: dict[str, int]

    @classmethod
    def new(cls) -> Tally:
        return cls(dict.fromkeys(STATUSES, 0))

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def exit_code(self) -> int:
        if self.counts[INVALID_INPUT]:
            return 2
        if self.counts[ILLEGAL] or self.counts[EXPECT_FAILED]:
            return 1
        return 0

    def summary(self) -> str:
        n = self.total
        parts = ", ".join(status_count(s, self.counts[s]) for s in STATUSES)  # "2 valid"
        return ngettext("{n} log: {parts}", "{n} logs: {parts}", n).format(n=n, parts=parts)


class Writer:
    """Writes verdicts to ``out`` as they come; ``close`` finishes the document."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out

    def write(self, verdict: Verdict) -> None:
        raise NotImplementedError

    def close(self, tally: Tally) -> None:
        """Finish the document (the table prints the summary here)."""


class TableWriter(Writer):
    """A line a log, wrapped to the width (``COLUMNS``, else 80) under its status: the path and
    the figures, then the reason."""

    def __init__(self, out: IO[str]) -> None:
        super().__init__(out)
        from spidercli.report.text import hanging, text_width  # the table's alone

        self.width = text_width()
        self.hanging = hanging
        self.listed = False  # whether a log was listed (with --quiet, maybe none)

    def _line(self, label: str, text: str) -> None:
        self.out.write(self.hanging(f"{label:<14} ", text, 15, self.width) + "\n")
        self.listed = True

    def write(self, v: Verdict) -> None:
        r = v.replayed
        if r is None:
            self._line("INVALID-INPUT", said(v.message or ""))
            return
        else:
            detail = (
                ngettext(
                    "{result}, {moves} move, score {score}, runs {runs}",
                    "{result}, {moves} moves, score {score}, runs {runs}",
                    r.moves,
                ).format(result=result_word(r.result), moves=r.moves, score=r.score, runs=r.runs)
                + f"{' (' + shown(r.player) + ')' if r.player else ''}"
            )
            if v.message:
                where = _(" at line {line}").format(line=v.line) if v.line else ""
                detail += f"; {v.rule or 'expect'}{where}: {said(v.message)}"
        label = v.status.upper() if v.status != VALID else "valid"
        self._line(label, f"{shown_path(v.file)}  {detail}")

    def close(self, tally: Tally) -> None:
        # A blank line between the listing and the summary; none above a summary alone.
        gap = "\n" if self.listed else ""
        self.out.write(f"{gap}{tally.summary()}\n")


class JsonWriter(Writer):
    def __init__(self, out: IO[str]) -> None:
        super().__init__(out)
        self.first = True

    def write(self, v: Verdict) -> None:
        assert v.json is not None
        self.out.write(("[\n  " if self.first else ",\n  ") + json_printable(v.json))
        self.first = False

    def close(self, tally: Tally) -> None:
        self.out.write("[]\n" if self.first else "\n]\n")


class JsonlWriter(Writer):
    def write(self, v: Verdict) -> None:
        assert v.json is not None
        self.out.write(json_printable(v.json) + "\n")


CSV_FIELDS = (
    "file",
    "status",
    "game",
    "deal_id",
    "rules",
    "player",
    "result",
    "moves",
    "score",
    "runs",
    "deals_left",
    "actions",
    "rule",
    "line",
    "message",
)


class CsvWriter(Writer):
    """A header of ``CSV_FIELDS``, then a record per log (empty cells where a field does not
    apply)."""

    def __init__(self, out: IO[str]) -> None:
        super().__init__(out)
        out.write(csv_row(CSV_FIELDS))

    def write(self, v: Verdict) -> None:
        r = v.replayed
        figures: tuple[object, ...] = (
            (None,) * 10
            if r is None
            else (
                r.game,
                r.deal_id,
                r.rules,
                r.player,
                r.result,
                r.moves,
                r.score,
                r.runs,
                r.deals_left,
                r.actions,
            )
        )
        self.out.write(csv_row((_name(v), v.status, *figures, v.rule, v.line, v.message)))


class GithubWriter(Writer):
    """GitHub Actions workflow commands: one ``::error`` annotation per log that is not valid,
    ``::error file=F,line=L,title=RULE::status: message`` (``title`` is the rule, or the status
    when no rule applies)."""

    def write(self, v: Verdict) -> None:
        if v.status == VALID:
            return
        props = [f"file={_github_property(_name(v))}"]
        if v.line:
            props.append(f"line={v.line}")
        props.append(f"title={_github_property(v.rule or v.status)}")
        message = _github_data(f"{v.status}: {_message(v)}")
        self.out.write(f"::error {','.join(props)}::{message}\n")


class ConciseWriter(Writer):
    """One line per log that is not valid: ``path:line: status rule: message`` (``path:`` alone
    when no line applies, no rule for an unmet ``expect`` or unusable input)."""

    def write(self, v: Verdict) -> None:
        if v.status == VALID:
            return
        where = f"{_name(v)}:{v.line}" if v.line else _name(v)
        self.out.write(_one_line(f"{where}: {_label(v)}: {_message(v)}") + "\n")


class JunitWriter(Writer):
    """JUnit XML: one test case per log, with its ``file`` and ``time`` (seconds); the cases go
    to a spool file first (bounded memory) since the suite's counts come before them. Any file
    name or message gives well-formed XML: characters XML forbids become U+FFFD."""

    def __init__(self, out: IO[str]) -> None:
        super().__init__(out)
        self.start = time.perf_counter()
        # Open across calls and closed in ``close``, so no context manager.
        self.spool = tempfile.SpooledTemporaryFile(  # noqa: SIM115
            max_size=1 << 20, mode="w+", encoding="utf-8"
        )

    def write(self, v: Verdict) -> None:
        from xml.sax.saxutils import escape, quoteattr  # imported by JUnit output alone

        name = quoteattr(xml_safe(_name(v)))
        attrs = f'classname="spidercli.verify" name={name} file={name} time="{v.seconds:.3f}"'
        if v.status == VALID:
            self._spool(f"    <testcase {attrs}/>\n")
            return
        tag = "error" if v.status == INVALID_INPUT else "failure"
        text = xml_safe(str(v.message))
        message = quoteattr(f"{_label(v)}: {text}")
        where = f"line {v.line}: " if v.line and v.status != INVALID_INPUT else ""
        if v.rule:
            where += f"{v.rule}: "
        self._spool(
            f"    <testcase {attrs}>\n"
            f"      <{tag} type={quoteattr(v.status)} message={message}>"
            f"{escape(where + text, _XML_CR)}</{tag}>\n"
            "    </testcase>\n"
        )

    def _spool(self, text: str) -> None:
        try:
            self.spool.write(text)
        except OSError as err:  # past 1 MiB it is a temporary file: a full disk
            raise OutputError(
                N_(
                    "cannot write the JUnit report's temporary file: {reason}",
                    reason=err.strerror or str(err),
                )
            ) from err

    def close(self, tally: Tally) -> None:
        c = tally.counts
        failures = c[ILLEGAL] + c[EXPECT_FAILED]
        counts = f'tests="{tally.total}" failures="{failures}" errors="{c[INVALID_INPUT]}"'
        seconds = f'time="{time.perf_counter() - self.start:.3f}"'
        head = (
            f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f"<testsuites {counts} {seconds}>\n"
            f'  <testsuite name="spidercli verify" {counts} {seconds}>\n'
        )
        self.out.write(head)
        self.spool.seek(0)
        for block in iter(lambda: self.spool.read(1 << 16), ""):
            self.out.write(block)
        self.spool.close()
        self.out.write("  </testsuite>\n</testsuites>\n")


# ------------------------------------------------------------------------------- the formats


@dataclass(frozen=True)
class OutputFormat:
    """One of verify's output formats: its ``name`` (``--format NAME``), the ``writer`` that
    writes it, a few words on it in --format's help (``note``), whether it writes each verdict's
    JSON record (``json``: the workers make it only then), whether it lists every log even with
    --quiet (``complete``: a test report lists every test), and whether it writes the tally's
    summary itself (``summed``; else the command says it on stderr)."""

    name: str
    writer: Callable[[IO[str]], Writer]
    note: str = ""
    json: bool = False
    complete: bool = False
    summed: bool = False


FORMATS: dict[str, OutputFormat] = {
    f.name: f
    for f in (
        OutputFormat("table", TableWriter, summed=True),
        OutputFormat("json", JsonWriter, "one array", json=True),
        OutputFormat("jsonl", JsonlWriter, json=True),
        OutputFormat("csv", CsvWriter),
        OutputFormat("junit", JunitWriter, complete=True),
        OutputFormat("github", GithubWriter, "workflow annotations"),
        OutputFormat("concise", ConciseWriter, "path:line: status rule: message"),
    )
}

DEFAULT_FORMAT = "table"  # for people; the rest for programs


def formats_help() -> str:
    """--format's help: the formats in ``FORMATS``' order, each note in brackets."""
    return ", ".join(f"{f.name} ({f.note})" if f.note else f.name for f in FORMATS.values()) + "."


def write_verdicts(
    verdicts: Iterable[Verdict],
    out: IO[str],
    *,
    fmt: str = DEFAULT_FORMAT,
    tick: Callable[[Verdict], None] | None = None,
    html_dir: str | None = None,
    quiet: bool = False,
) -> Tally:
    """Write every verdict to ``out`` as it comes, in the format ``fmt``; return the tally.
    With ``html_dir`` (the folder the verdicts' pages are in), an index of the pages goes there
    too (``OutputError`` when the index cannot be written). ``quiet`` leaves valid logs out of
    the listing (JUnit aside: a test report lists every test). A verdict iterator that can be
    closed (``verdicts``) is closed on the way out: an exception here ends the workers at once."""
    chosen = FORMATS[fmt]
    writer = chosen.writer(out)
    tally = Tally.new()
    index = None
    if html_dir is not None:
        from spidercli.judging.pages import PageIndex  # --html-dir alone

        index = PageIndex(html_dir)
    with contextlib.ExitStack() as stack:
        close = getattr(verdicts, "close", None)
        if close is not None:
            stack.callback(close)
        for verdict in verdicts:
            tally.counts[verdict.status] += 1
            if not (quiet and verdict.status == VALID and not chosen.complete):
                writer.write(verdict)
            if index is not None and verdict.status != VALID:
                index.add(verdict)
            if tick is not None:
                tick(verdict)
    writer.close(tally)
    if index is not None:
        try:
            index.close(tally.summary())
        except OSError as err:  # a full disk, a read-only folder: not the logs' fault
            raise unwritable(os.path.join(html_dir or ".", "index.html"), err) from err
    return tally
