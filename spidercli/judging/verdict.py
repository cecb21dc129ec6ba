"""Judging one log: read, parse and replay it, and say what was found as a ``Verdict`` (its
status, the figures its replay established, the first refused action's rule, line and sentence,
the JSON record when a format needs it). ``verify_one`` never raises for bad input: an unusable
log is a verdict too (``invalid``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from spidercli.errors import InputError
from spidercli.logs.files import MAX_LOG_BYTES
from spidercli.logs.reader import load_log, parse_log
from spidercli.logs.yamlreader import decode, display_name
from spidercli.play.refusals import sentence
from spidercli.play.replay import INVALID_INPUT, VALID, choose_rules, replay
from spidercli.text.messages import (
    N_,
    Joined,
    counted,
    error_json,
    prefixed,
    shown_path,
    utf8_safe,
)


@dataclass(frozen=True, slots=True)
class Replayed:
    """What the replay of a usable log established, as the formats print it: the ``game`` code
    (None for a written-out deal), ``deal_id``, ``rules``, ``player``, ``result``, ``moves``,
    ``score``, ``runs``, ``deals_left`` and ``actions`` (entries applied)."""

    game: str | None  # the game code; None for a log that writes its deal out
    deal_id: str
    rules: str
    player: str | None
    result: str
    moves: int
    score: int
    runs: int
    deals_left: int
    actions: int  # entries applied

    def __repr__(self) -> str:
        return (
            f"<Replayed {self.game or f'deal {self.deal_id}'} {self.rules}: {self.result}, "
            f"{counted(self.actions, 'action')}, {counted(self.moves, 'move')}, "
            f"score {self.score}, {counted(self.runs, 'run')}>"
        )


@dataclass(frozen=True, slots=True)
class Verdict:
    """One log's verification, as a worker sends it back: the ``file`` as found, its
    ``status`` (``valid``, ``illegal``, ``expect-failed`` or ``invalid-input``), what its replay
    established (``replayed``, None for unusable input), the first refused action's ``rule``,
    the ``line`` the ``message`` points at, the ``message`` saying why the log is not valid,
    the HTML ``page`` written for it (with ``html_dir``) and the ``seconds`` it took.
    ``to_json()`` is its line of ``verify --format jsonl``."""

    file: str
    status: str
    replayed: Replayed | None  # None for a log that could not be used (invalid input)
    rule: str | None = None  # the first refused action's rule
    line: int | None = None  # the line the message points at
    message: str | None = None  # why the log is not valid
    json: str | None = None  # the JSON record (report + file + status), when the format needs it
    page: str | None = None  # the HTML page's file name, with --html-dir for a non-valid log
    seconds: float = 0.0  # the time the worker took for this log (JUnit's ``time``)

    def __repr__(self) -> str:
        where = "" if self.line is None else f" at line {self.line}"
        rule = "" if self.rule is None else f" ({self.rule})"
        result = "" if self.replayed is None else f", {self.replayed.result}"
        return f"<Verdict {shown_path(self.file, 40)}: {self.status}{where}{rule}{result}>"

    def to_json(self) -> dict[str, Any]:
        """The verdict's record: ``json.loads`` of its line of ``verify --format jsonl`` (the
        report with ``file`` and ``status`` first, or ``file``, ``status`` and ``error`` for
        unusable input). ``ValueError`` when it was made without (``with_json=False``)."""
        if self.json is None:
            raise ValueError("this verdict was made without its JSON record (with_json=False)")
        record: dict[str, Any] = json.loads(utf8_safe(self.json))
        return record


def verify_one(
    path: str,
    rules: str | None = None,
    want_json: bool = True,
    max_bytes: int | None = None,
    content: bytes | str | None = None,
    html_dir: str | None = None,
) -> Verdict:
    """Read, parse and replay one log (``content``: its bytes, already read, or why they could
    not be); never raises for bad input. With ``html_dir``, a log that is not valid gets an
    HTML page there."""
    limit = MAX_LOG_BYTES if max_bytes is None else max_bytes
    try:
        if content is None:
            log = load_log(path, limit)
        elif isinstance(content, str):
            raise InputError(content, path=display_name(path))
        elif len(content) > limit:  # read by the parent (standard input): limit + 1 bytes at most
            raise InputError(
                N_(
                    "is larger than the limit of {limit:,} bytes for one log; --max-log-bytes "
                    "raises it",
                    limit=limit,
                ),
                path=display_name(path),
            )
        else:
            name = display_name(path)
            log = parse_log(decode(content, name), name)
        ruleset = choose_rules(log, rules)  # RulesError is a InputError
    except InputError as err:
        verdict = invalid(path, str(err), err.line, want_json)
        if html_dir is None:
            return verdict
        from spidercli.report.page import error_page, write_page  # html_dir alone

        page = write_page(html_dir, path, error_page(path, str(err), err.line))
        return replace(verdict, page=page)
    recorder = None
    if html_dir is not None:
        from spidercli.report.page import Recorder  # html_dir alone

        recorder = Recorder()
    report = replay(log, rules=ruleset, visitor=recorder)
    status = report.status
    rule = line = message = None
    if report.illegal:
        first = report.illegal[0]
        rule = first.refusal.rule
        line = first.entry.line
        message = prefixed(first.named, sentence(first.refusal))  # English as str; said too
    elif report.mismatches:
        line = log.expect.line if log.expect is not None else None
        message = Joined(
            "; ",
            [
                N_(
                    "{key}: expected {expected}, got {actual}",
                    key=m.key,
                    expected=m.expected,
                    actual=m.actual,
                )
                for m in report.mismatches
            ],
        )
    text = None
    if want_json:
        text = report.json_text(file=path, status=status)
    page = None
    if recorder is not None and status != VALID:
        from spidercli.report.page import replay_page, write_page  # html_dir alone

        page = write_page(html_dir or ".", path, replay_page(report, recorder.frames))
    g = report.game
    replayed = Replayed(
        None if log.code is None else log.code.canonical,
        log.deal.deal_id,
        report.rules,
        log.player,
        report.result,
        g.moves,
        g.score,
        g.runs,
        g.deals_left,
        report.actions,
    )
    return Verdict(path, status, replayed, rule, line, message, text, page)


def invalid(path: str, message: str, line: int | None, want_json: bool) -> Verdict:
    """The verdict of a log that could not be used: ``message`` says why (``line``: where)."""
    text = None
    if want_json:
        record = {
            "file": path,
            "status": INVALID_INPUT,
            **error_json(message, line),
        }
        text = json.dumps(record, ensure_ascii=False)
    return Verdict(path, INVALID_INPUT, None, line=line, message=message, json=text)
