"""Differential fuzzing of verify's fast paths against the general ones.

A hostile submitter's logs: the corpus (fixtures/, tests/hostile, tests/data) and logs of random
games, mutated at the byte and token level (line breaks, BOMs, quoting, flow lists, odd item
spacing, tabs, comments, anchors, tags, duplicate keys, keys in other orders, ``moves:`` not
last, document markers, long lines, non-ASCII and control characters, YAML 1.1's other readings
of numbers and words, ``expect`` variations). For each one, three comparisons:

- ``compare_reader``: the quick reader (``parse_log``) against the YAML reader
  (``parse_yaml_log``): the same log (entries one by one, lines, keys) or the same error (message
  and line);
- ``compare_engine``: ``Game.play_all`` (with and without undo records, resumed after each
  refusal as replay does) against ``Game.play`` one action at a time: the same refusals, the
  same position, score, counter, undo count, result (and history where both keep it);
- ``compare_cli``: the whole CLI (``replay``, ``replay --json``, ``verify -f jsonl/json/csv``,
  other languages and rulesets) on the file, with every fast path on and with each swapped for
  its general path (``general_paths``): the same exit status and the same bytes out.

``tests/test_fuzz_fastpaths.py`` runs a fixed sample of it in ``make test``; a long run::

    .venv/bin/python -m tests.fuzz_fastpaths --cases 20000 --seed 1 [--cli-every 5]

prints each divergence it finds (the case is written to ``fuzz-divergence-N.yaml``) and a count.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any
from unittest import mock

from spidercli.errors import InputError
from spidercli.game import codes
from spidercli.game.actions import Action, Move, Undo
from spidercli.game.codes import Setup, parse_code, seed_letters
from spidercli.game.engine import Game, Refusal
from spidercli.game.rules import RULESETS, Ruleset
from spidercli.logs import dealblock
from spidercli.logs import plain as plainlog
from spidercli.logs import reader as movelog
from spidercli.logs.plain import quick_log
from spidercli.logs.reader import parse_log, parse_yaml_log
from spidercli.logs.yamlreader import decode
from spidercli.play.logtypes import MoveLog
from spidercli.play.replay import Report

ROOT = Path(__file__).resolve().parents[1]


def corpus() -> list[bytes]:
    """Every log of the checkout's fixtures and hostile tests, as bytes."""
    found: list[Path] = []
    for folder in ("fixtures", "tests/hostile", "tests/data"):
        for pattern in ("*.yaml", "*.yml"):
            found.extend((ROOT / folder).rglob(pattern))
    return [p.read_bytes() for p in sorted(set(found)) if p.is_file()]


# ------------------------------------------------------------------ the general paths


def slow_play_all(
    self: Game, actions: Sequence[Action], start: int = 0, *, record: bool = True
) -> tuple[int, Refusal | None]:
    """``play_all`` as its docstring defines it: ``play`` on each action in turn."""
    for i in range(start, len(actions)):
        refusal = self.play(actions[i])
        if refusal is not None:
            return i, refusal
    return len(actions), None


def _never_plain(self: Game, action: Move) -> int:
    """``_plainly_legal`` that always doubts: ``play`` checks every move with ``check_move``."""
    return 0


def _json_text(self: Report, **first: object) -> str:
    return json.dumps({**first, **self.to_json()}, ensure_ascii=False)


class _NoCache(dict[Any, Any]):
    """A memo that never remembers."""

    def get(self, key: Any, default: Any = None) -> Any:
        return default

    def __setitem__(self, key: Any, value: Any) -> None:
        pass


@contextlib.contextmanager
def general_paths() -> Iterator[None]:
    """Every fast path swapped for its general one: the YAML reader for every log, ``play`` one
    action at a time and every move through ``check_move`` (no ``_plainly_legal``),
    ``json.dumps`` for verify's JSON records, the whole deck check for written deals, no memo of
    dealt codes."""
    from spidercli.cli import quickparams
    from spidercli.game import actions
    from spidercli.judging import record

    with contextlib.ExitStack() as stack:
        enter = stack.enter_context
        enter(mock.patch.object(movelog, "parse_log", parse_yaml_log))
        enter(mock.patch.object(record, "parse_log", parse_yaml_log))
        enter(mock.patch.object(Game, "play_all", slow_play_all))
        enter(mock.patch.object(Game, "_plainly_legal", _never_plain))
        enter(mock.patch.object(Report, "json_text", _json_text))
        enter(mock.patch.object(dealblock, "_deck_fits", lambda *args: False))
        enter(mock.patch.object(codes, "_DEALT", _NoCache()))
        enter(mock.patch.object(plainlog, "_DEALS", _NoCache()))
        enter(mock.patch.object(actions, "_PARSED", _NoCache()))
        enter(mock.patch.object(quickparams, "quick_value", lambda *args: quickparams._NOT_QUICK))
        yield


# ------------------------------------------------------------------ the comparisons


def reader_outcome(reader: Callable[[str, str], MoveLog], text: str) -> tuple[Any, ...]:
    """The log and what replay reads of it, or the error's message and line."""
    try:
        log = reader(text, "log.yaml")
    except InputError as err:
        return ("error", str(err), err.line, err.exit_status)
    entries = tuple(log.entries)
    return ("ok", log, entries, tuple(log.actions), log.has_undo)


def compare_reader(text: str) -> str | None:
    """None, or what differs between the quick reader and the YAML reader."""
    quick = reader_outcome(parse_log, text)
    full = reader_outcome(parse_yaml_log, text)
    if quick != full:
        return f"reader: quick {quick!r:.600}\n  yaml {full!r:.600}"
    return None


def compare_deck_check(text: str) -> str | None:
    """None, or what differs in reading a log with a written-out deal between the quick deck
    test and the card-by-card check alone."""
    if "deal" not in text:
        return None
    quick = reader_outcome(parse_yaml_log, text)
    with mock.patch.object(dealblock, "_deck_fits", lambda *args: False):
        full = reader_outcome(parse_yaml_log, text)
    if quick != full:
        return f"deck check: quick {quick!r:.600}\n  card by card {full!r:.600}"
    return None


def _state(game: Game) -> tuple[Any, ...]:
    return (
        game.key(),
        game.undoable,
        game.result,
        tuple(game.stock_left),
        game.deals_done,
        game.runs,
    )


def _played(log: MoveLog, rules: Ruleset) -> tuple[Game, list[tuple[int, Refusal | None]]]:
    """The game after ``play`` on each action in turn (refused ones skipped), and the refusals."""
    game = Game.from_setup(log.deal, rules)
    steps: list[tuple[int, Refusal | None]] = []
    for i, action in enumerate(log.actions):
        refusal = game.play(action)
        if refusal is not None:
            steps.append((i, refusal))
    return game, steps


def engine_runs(log: MoveLog, rules: Ruleset) -> Iterator[str]:
    """What differs between ``play_all`` and ``play`` over the log's actions under ``rules``."""
    actions = log.actions
    one, steps = _played(log, rules)
    has_undo = any(type(a) is Undo for a in actions)
    for record in (True, False) if not has_undo else (True,):
        fast = Game.from_setup(log.deal, rules)
        got: list[tuple[int, Refusal | None]] = []
        at = 0
        while True:
            stop, refusal = fast.play_all(actions, at, record=record)
            if refusal is None:
                break
            got.append((stop, refusal))
            at = stop + 1
        if got != steps:
            yield f"engine ({rules.name}, record={record}): refusals {got!r:.300} != {steps!r:.300}"
        if _state(fast) != _state(one):
            yield f"engine ({rules.name}, record={record}): state {_state(fast)!r:.300}"
        if record and fast.history != one.history:
            yield f"engine ({rules.name}): history differs"
        if record:  # the undo records are exact: undoing everything both ways agrees
            other, _ = _played(log, rules)
            for game in (fast, other):
                while game.history:
                    game.undo()
            if _state(fast) != _state(other):
                yield f"engine ({rules.name}): undone to different positions"
    # stop at the first refusal, as replay --on-illegal stop does
    stopped = Game.from_setup(log.deal, rules)
    stop, refusal = stopped.play_all(actions, 0, record=has_undo)
    first = steps[0] if steps else (len(actions), None)
    if (stop, refusal) != first:
        yield f"engine ({rules.name}): stops at {stop} {refusal}, play at {first}"


def variants(rules: Ruleset) -> list[Ruleset]:
    """The ruleset, and two made-up ones on its basis: a low start under a floor for every game
    (the floor reached often), and its policies turned around (flips, empty columns, undo)."""
    both = frozenset({"spider", "spiderette"})
    return [
        rules,
        dataclasses.replace(rules, name="floored", start_score=2, floor_games=both),
        dataclasses.replace(
            rules,
            name="turned",
            start_score=3,
            move_score=-2,
            deal_score=-5,
            flip_score=-1,
            same_suit_score=1 if rules.same_suit_score else 3,
            win_score=7,
            floor_games=frozenset() if rules.floor_games else both,
            auto_flip=not rules.auto_flip,
            face_down_column_is_empty=not rules.face_down_column_is_empty,
            deal_with_empty_column=not rules.deal_with_empty_column,
            undo_depth=2 if rules.undo_depth > 2 else 50,
            undo_after_flip=not rules.undo_after_flip,
            undo_after_deal=not rules.undo_after_deal,
        ),
    ]


def compare_engine(log: MoveLog) -> list[str]:
    """What differs between ``play_all`` and ``play``, under every ruleset that plays the deal
    (and made-up variants of each: ``variants``)."""
    from spidercli.game.rules import check_playable

    found: list[str] = []
    for rules in RULESETS.values():
        try:
            check_playable(rules, log.deal)
        except ValueError:
            continue
        for variant in variants(rules):
            found.extend(engine_runs(log, variant))
    return found


CLI_RUNS = (
    ("replay", "{}", "--json"),
    ("replay", "{}"),
    ("replay", "{}", "--show", "none", "--on-illegal", "skip"),
    ("replay", "{}", "--json", "--on-illegal", "skip"),
    ("replay", "{}", "--json", "--rules", "duel"),
    ("replay", "{}", "--json", "--rules", "pavouk", "--on-illegal", "skip"),
    ("replay", "{}", "--show", "none", "--lang", "cs"),
    ("verify", "{}", "-f", "jsonl", "-j", "1"),
    ("verify", "{}", "-f", "json", "-j", "1", "--rules", "kpat"),
    ("verify", "{}", "-f", "csv", "-j", "1"),
    ("verify", "{}", "-f", "concise", "-j", "1", "--lang", "fi"),
    ("duel", "{}", "{}", "--json"),
    ("tournament", "{}", "-f", "json", "-j", "1"),
    ("record", "{}"),
)
# Option values at the edge of the quick coercion of command-line values (quickparams.py),
# each a single process's worth (no --jobs above 1).
MAX_BYTES = ["1_000_000", "0x100000", "+1048576", " 1048576", "1048576 ", "010", "0", "-1",
             "\u0661\u0660\u0660\u0660\u0660\u0660\u0660", "1e6", "99999999999999999999",
             "9" * 19, ""]  # fmt: skip
OPTION_RUNS = (
    *(("replay", "{}", "--json", "--max-log-bytes", value) for value in MAX_BYTES),
    ("verify", "{}", "-f", "JSONL", "-j", "01"),
    ("verify", "{}", "-f", "Csv", "-j", "+1"),
    ("verify", "{}", "-f", "jsonl", "-j", "0"),
    ("verify", "{}", "-f", "jsonl", "-j", "0_1"),
    ("verify", "{}", "-f", "jsonl", "-j", " 1"),
    ("verify", "{}", "-f", "xml", "-j", "1"),
    ("replay", "{}", "--json", "--on-illegal", "SKIP"),
    ("replay", "{}", "--json", "--on-illegal", "Stop "),
    ("replay", "{}", "--json", "--rules", "DUEL"),
    ("replay", "{}", "--json", "--rules", ""),
    ("replay", "{}", "--show", "0,1,final", "--lang", "CS"),
    ("replay", "{}", "--json", "--lang", "xx"),
)


def cli_outcomes(path: str, data: bytes, runs: Sequence[tuple[str, ...]] = CLI_RUNS) -> list[Any]:
    """Each run's arguments, exit status, stdout, stderr and exception raised (a traceback),
    and the file as the run left it (``record`` rewrites it); the file holds ``data`` before
    each run."""
    from typer.testing import CliRunner

    from spidercli.cli.app import app
    from spidercli.text import i18n

    runner = CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1", "LANG": "C.UTF-8"})
    out = []
    for run in runs:
        Path(path).write_bytes(data)
        args = [a.format(path) for a in run]
        result = runner.invoke(app, args)
        i18n.use("en")
        error = None if result.exception is None else type(result.exception).__name__
        if isinstance(result.exception, SystemExit):
            error = None
        after = Path(path).read_bytes()
        out.append((args, result.exit_code, result.stdout_bytes, result.stderr_bytes, error, after))
    return out


def compare_cli(data: bytes, folder: str, runs: Sequence[tuple[str, ...]] = CLI_RUNS) -> list[str]:
    """What differs in the CLI's outputs on a file of ``data`` between the fast and general
    paths; a traceback is reported too."""
    path = str(Path(folder) / "log.yaml")
    fast = cli_outcomes(path, data, runs)
    with general_paths():
        slow = cli_outcomes(path, data, runs)
    found = []
    for a, b in zip(fast, slow, strict=True):
        if a != b:
            found.append(f"cli {' '.join(a[0])}: fast {a[1:]!r:.500}\n  general {b[1:]!r:.500}")
        elif a[4] is not None:
            found.append(f"cli {' '.join(a[0])}: {a[4]} raised (exit {a[1]})")
    return found


# ------------------------------------------------------------------ generated logs

RULE_NAMES = list(RULESETS)


def random_game(rng: random.Random) -> tuple[str, str | None, list[str]]:
    """A game code, a ruleset (or None) and the text of a random game's actions: mostly legal
    moves (in each spelling), with deals, flips, undos, taps, finishes and illegal ones."""
    from spidercli.game.rules import check_playable

    while True:
        prefix = rng.choice(["SP", "SP", "SD"])
        suits = rng.choice([1, 2, 4])
        rule = rng.choice(["C", "P"]) if prefix == "SP" else rng.choice(["", "P"])
        code = f"{prefix}{suits}-S1{rule}-{seed_letters(rng.randrange(26**7))}"
        roll = rng.random()
        if roll < 0.1:
            code = f"KP{suits}-{rng.randrange(1, 2**31)}"
        elif roll < 0.2:
            number = rng.choice([rng.randrange(1, 32000), rng.randrange(32000, 10**20 + 1)])
            code = f"PS{suits}-{rng.choice(['', 'ms'])}{number % 2**33 or 1}"
        rules_name = rng.choice([None, *RULE_NAMES])
        deal = Setup.from_code(parse_code(code))
        rules = RULESETS[rules_name or "classic"]
        playable = True
        try:
            check_playable(rules, deal)
        except ValueError:
            if rng.random() < 0.9:
                continue
            playable = False  # a log the readers refuse: its moves are made under classic
        break
    game = Game.from_setup(deal, rules if playable else RULESETS["classic"])
    texts: list[str] = []
    for _ in range(rng.choice([5, 20, 60, 200, 400])):
        roll = rng.random()
        if roll < 0.05:
            text = "undo"
        elif roll < 0.08:
            text = rng.choice(["deal", "finish" if rng.random() < 0.1 else "deal"])
        elif roll < 0.12:
            text = f"flip {rng.randrange(0, game.kind.columns + 2)}"
        elif roll < 0.15:
            text = f"tap {rng.randrange(1, game.kind.columns + 1)}"
        elif roll < 0.22:
            n = game.kind.columns + 1
            text = f"{rng.randrange(0, n + 1)}>{rng.randrange(0, n + 1)}"
            if rng.random() < 0.5:
                text += f":{rng.randrange(0, 15)}"
        else:
            legal = game.legal_actions()
            if not legal:
                text = "deal"
            else:
                action = rng.choice(legal)
                text = str(action)
                if text.count(":") and rng.random() < 0.5:
                    text = text.split(":")[0]  # S>T, the count inferred
        texts.append(text)
        try:
            from spidercli.game.actions import parse_action

            game.play(parse_action(text))
        except ValueError:
            pass
    return code, rules_name, texts


def render_log(rng: random.Random, code: str, rules: str | None, texts: list[str]) -> str:
    """A log of the game in one of the usual layouts (as spidercli writes them, or by hand)."""
    lines = []
    if rng.random() < 0.3:
        lines.append("# a game")
    head = [f"game: {code}"]
    if rng.random() < 0.15:  # the deal written out, card by card
        from spidercli.logs.writer import deal_lines

        head = ["\n".join(deal_lines(Setup.from_code(parse_code(code))))]
    if rules is not None:
        head.append(f"rules: {rng.choice([rules, rules.upper(), rules.title()])}")
    if rng.random() < 0.4:
        head.append(f"player: {rng.choice(['Ann', 'Ann Smith', 'x.y-z', 'yes', '12', 'No'])}")
    if rng.random() < 0.5:
        sub = [
            f"  result: {rng.choice(['won', 'open', 'blocked', 'resigned', 'Won'])}",
            f"  moves: {rng.randrange(0, 500)}",
            f"  score: {rng.randrange(-50, 1500)}",
            f"  runs: {rng.randrange(0, 9)}",
        ]
        rng.shuffle(sub)
        head.append("expect:\n" + "\n".join(sub[: rng.randrange(1, 5)]))
    rng.shuffle(head)
    lines.extend(head)
    if not texts:
        lines.append("moves: []")
    else:
        lines.append("moves:")
        indent = rng.choice(["  ", "  ", "", "    "])
        for text in texts:
            quote = (":" in text and rng.random() < 0.7) or rng.random() < 0.05
            lines.append(f"{indent}- '{text}'" if quote else f"{indent}- {text}")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ mutations

BREAKS = ["\r\n", "\r", "\x85", "\u2028", "\u2029"]
ODD_CHARS = [
    "\ufeff",
    "\x01",
    "\x07",
    "\x0b",
    "\x0c",
    "\x1b",
    "\x7f",
    "\x80",
    "\x9f",
    "\xa0",
    "\u00e9",
    "\u3000",
    "\ufffe",
    "\uffff",
    "\ufffd",
    "\U0001f600",
    "\u200b",
    "\u202e",
    "\u0661",
    "\uff11",
    "\u212a",
    "\u017f",
    "\t",
    " ",
    "#",
    ":",
    "-",
    "'",
    '"',
    "[",
    "]",
    "{",
    "}",
    "&",
    "*",
    "!",
    "|",
    ">",
    "%",
    "@",
    "`",
    ",",
    "?",
    "\\",
    "\n",
    "~",
]
NUMBERS = [
    "1_0",
    "0x1",
    "+1",
    "0o7",
    "010",
    "1:0",
    "1.0",
    "1e1",
    "-0",
    "0",
    "00",
    "٣",
    "1 0",
    "9" * 16,
    "-12",
    ".5",
    "0b1",
    "~",
    "null",
    "''",
    '""',
    "[]",
    "{}",
    "!!int 3",
    "!!str 3",
    "&n 3",
]
WORDS = [
    "yes",
    "No",
    "ON",
    "off",
    "y",
    "n",
    "~",
    "null",
    "Null",
    "true",
    "FALSE",
    "=",
    "<<",
    ".inf",
    ".NaN",
    "2026-11-30",
    "'Ann'",
    '"Ann"',
    "Ann # c",
    "Ann  Smith",
    "[Ann]",
    "{a: 1}",
    "!!str yes",
    "&a Ann",
    "*a",
    "|\n  Ann",
    ">-\n  Ann",
    "-x",
    "x:y",
    "x: y",
    "Ann\t",
    "Ann ",
    "\u00c5sa",
    "\u212alassic",
    "CLASSIC",
    "Duel",
    " pavouk",
    "kpat.",
]
ACTION_SPELLINGS = [
    "10>9",
    "10 > 9",
    "10>9:1",
    "10>9: 1",
    "010>9",
    "10>09:01",
    "Deal",
    "DEAL",
    "deal ",
    " deal",
    "undo",
    "UNDO",
    "finish",
    "Finish",
    "flip 1",
    "flip  1",
    "FLIP 2",
    "tap 3",
    "tap 3:2",
    "tap3",
    "1>2:0",
    "99999>1",
    "1>2:99999",
    "0>0",
    "1>1",
    "3:7",
    "1>2:",
    "'deal'",
    '"deal"',
    "'1>2:3'",
    "!!str deal",
    "&x deal",
    "*x",
    "[deal]",
    "deal # c",
    "deal#c",
    "- deal",
    "\u0661>2",
    "1\u00a0>2",
    "deal\t",
    "",
    "''",
]


def _lines(text: str) -> list[str]:
    return text.split("\n")


def mutate(rng: random.Random, text: str) -> str:
    """One to three random edits of ``text``, mostly of the kinds a YAML reader reads in its
    own way."""
    for _ in range(rng.choice([1, 1, 1, 1, 2, 3])):
        text = rng.choice(MUTATIONS)(rng, text)
    return text


def m_breaks(rng: random.Random, text: str) -> str:
    brk = rng.choice(BREAKS)
    if rng.random() < 0.5:
        return text.replace("\n", brk)
    at = [i for i, c in enumerate(text) if c == "\n"]
    if not at:
        return text
    i = rng.choice(at)
    return text[:i] + brk + text[i + 1 :]


def m_char(rng: random.Random, text: str) -> str:
    i = rng.randrange(len(text) + 1)
    return text[:i] + rng.choice(ODD_CHARS) + text[i:]


def m_char_in_comment(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    lines.insert(i, "#" + rng.choice(["", " "]) + rng.choice(ODD_CHARS) + "x")
    return "\n".join(lines)


def m_delete(rng: random.Random, text: str) -> str:
    if not text:
        return text
    i = rng.randrange(len(text))
    return text[:i] + text[i + rng.randrange(1, 4) :]


def m_line_ops(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    j = rng.randrange(len(lines))
    op = rng.randrange(4)
    if op == 0:
        lines.insert(j, lines[i])
    elif op == 1:
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 2:
        del lines[i]
    else:
        lines.insert(j, lines.pop(i))
    return "\n".join(lines)


def m_item(rng: random.Random, text: str) -> str:
    """An item of the list respelled: its action, quoting, dash, spacing, comment."""
    lines = _lines(text)
    items = [i for i, line in enumerate(lines) if line.lstrip().startswith("- ")]
    if not items:
        return text
    i = rng.choice(items)
    indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
    word = lines[i].lstrip()[2:]
    roll = rng.randrange(6)
    if roll == 0:
        word = rng.choice(ACTION_SPELLINGS)
    elif roll == 1:
        bare = word.strip("'\"")
        word = rng.choice([f"'{bare}'", f'"{bare}"', bare, f"!!str {bare}", f"? {bare}"])
    elif roll == 2:
        word += rng.choice([" # c", "  #c", "#c", " ", "\t", " \t# c"])
    elif roll == 3:
        dash = rng.choice(["-  ", "-\t", "- \t", "-", " - ", "\t- ", "-- "])
        lines[i] = indent + dash + word
        return "\n".join(lines)
    elif roll == 4:
        indent = rng.choice(["", " ", "   ", "\t", indent + " "])
    else:
        lines.insert(i + 1, rng.choice(["", "#", "  # c", "   ", "\t", "...", "---", "moves:"]))
    lines[i] = f"{indent}- {word}"
    return "\n".join(lines)


def m_flow(rng: random.Random, text: str) -> str:
    """The block list as a flow list ``[a, b]`` (on one line or several)."""
    at = text.rfind("\nmoves:\n")
    if at < 0:
        return text
    head, body = text[: at + 1], text[at + 8 :]
    words = [line.strip()[2:] for line in body.split("\n") if line.strip().startswith("- ")]
    sep = rng.choice([", ", ",", ",\n  ", " ,"])
    return head + "moves: [" + sep.join(words) + "]" + rng.choice(["\n", "", " # c\n"])


def m_moves_not_last(rng: random.Random, text: str) -> str:
    at = text.rfind("\nmoves:")
    if at < 0:
        return text
    head, body = text[: at + 1], text[at + 1 :]
    lines = [line for line in _lines(head) if line and not line.startswith(" ")]
    if not lines:
        return text
    key = rng.choice(lines)
    head = head.replace(key + "\n", "", 1)
    return head + body.rstrip("\n") + "\n" + key + "\n"


def m_value(rng: random.Random, text: str) -> str:
    """A value of the head respelled: a number, a word, a player, a ruleset."""
    lines = _lines(text)
    keyed = [i for i, line in enumerate(lines) if ": " in line and line.lstrip()[:1] != "-"]
    if not keyed:
        return text
    i = rng.choice(keyed)
    key = lines[i].split(": ", 1)[0]
    value = rng.choice(NUMBERS if key.strip() in ("moves", "score", "runs") else WORDS)
    if rng.random() < 0.2:
        value = rng.choice(NUMBERS + WORDS)
    lines[i] = f"{key}: {value}"
    return "\n".join(lines)


def m_key(rng: random.Random, text: str) -> str:
    """A key added, doubled, respelled or quoted."""
    lines = _lines(text)
    i = rng.randrange(len(lines))
    extra = rng.choice(
        [
            "game: SP1-S1C-AAAAABD",
            "rules: classic",
            "rules: duel",
            "player: Ann",
            "time: 12.5",
            "time: -1",
            "expect:",
            "expect: {result: won}",
            "expect:\n  result: won\n  result: open",
            "expect:\n  moves: 3\n    runs: 1",
            "expect:\n    moves: 3\n  runs: 1",
            "expect:\n  moves: 3\n  bogus: 1",
            "expect:\n  # c\n  moves: 3",
            "expect:\n\n  moves: 3",
            "expect: ~",
            "expect: []",
            "'game': SP1-S1C-AAAAABD",
            '"rules": classic',
            "Game: SP1-S1C-AAAAABD",
            "? player\n: Ann",
            "player: &p Ann",
            "player: *p",
            "<<: {player: Ann}",
            "!!str player: Ann",
            "player: !custom Ann",
            "moves: []",
            "deal: SP1",
            "bogus: 1",
            "game:  SP1-S1C-AAAAABD  ",
            "game:\tSP1-S1C-AAAAABD",
            "game: sp1-s1c-aaaaabd",
            "game: SD1-S1-AAAAABD",
            "game: KP1-0017",
            "game: " + "A" * 3000,
            "player: " + "x" * 5000,
            "# " + "c" * 5000,
        ]
    )
    lines.insert(i, extra)
    return "\n".join(lines)


def m_document(rng: random.Random, text: str) -> str:
    return rng.choice(
        [
            "---\n" + text,
            "--- \n" + text,
            "%YAML 1.1\n---\n" + text,
            "%YAML 1.2\n---\n" + text,
            "%TAG !x! tag:x,2000:\n---\n" + text,
            text + "...\n",
            text + "---\n",
            text + "...\n---\ngame: x\n",
            text + "\n",
            text + "\n\n# end\n",
            text.rstrip("\n"),
            text + "   ",
            "\ufeff" + text,
            "\ufeff\ufeff" + text,
            "",
            "# only a comment\n",
            "---\n...\n",
            text.replace("\n", " \n"),
            text.replace("  ", "\t"),
            text.replace("  ", " ", 1),
        ]
    )


def m_trailing(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    lines[i] += rng.choice([" ", "\t", "  ", " #", " # c", "\u00a0", "\u3000"])
    return "\n".join(lines)


def m_anchor(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    items = [i for i, line in enumerate(lines) if line.lstrip().startswith("- ")]
    if len(items) < 2:
        return text
    i, j = sorted(rng.sample(items, 2))
    word = lines[i].lstrip()[2:]
    indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
    lines[i] = f"{indent}- &a {word}"
    lines[j] = f"{indent}- *a"
    return "\n".join(lines)


def m_benign(rng: random.Random, text: str) -> str:
    """A respelling that keeps the log's meaning (or nearly): the kind of edit that takes a
    usual log to the edge of the quick reader's shape."""
    at = text.rfind("\nmoves:\n")
    if at < 0:
        return text
    head, body = text[: at + 1], text[at + 8 :]
    heads = _lines(head)[:-1]
    roll = rng.randrange(10)
    if roll == 0:  # the head's keys in another order
        blocks: list[list[str]] = []
        for line in heads:
            if blocks and line.startswith(" "):
                blocks[-1].append(line)
            else:
                blocks.append([line])
        rng.shuffle(blocks)
        heads = [line for block in blocks for line in block]
    elif roll == 1:  # the expect block under another indent
        pad = " " * rng.randrange(1, 6)
        heads = [pad + line.lstrip(" ") if line.startswith(" ") else line for line in heads]
    elif roll == 2:  # the items under another indent
        pad = " " * rng.choice([0, 1, 3, 4, 8])
        body = "\n".join(pad + line.lstrip(" ") for line in body.split("\n") if line)
    elif roll == 3:  # every item quoted, or none
        quote = rng.choice(["'", "", '"'])
        body = "\n".join(
            line[: line.index("- ") + 2] + quote + line.split("- ", 1)[1].strip("'\"") + quote
            for line in body.split("\n")
            if "- " in line
        )
    elif roll == 4:  # more blanks after a key
        i = rng.randrange(len(heads)) if heads else 0
        if heads and ": " in heads[i]:
            heads[i] = heads[i].replace(": ", ":" + " " * rng.randrange(2, 5), 1)
    elif roll == 5:  # a comment or a blank line in the head
        heads.insert(rng.randrange(len(heads) + 1), rng.choice(["", "# c", "#", "#: x", "# - 1"]))
    elif roll == 6:  # a word in other letters' case
        i = rng.randrange(len(heads)) if heads else 0
        if heads and ": " in heads[i]:
            key, value = heads[i].split(": ", 1)
            heads[i] = f"{key}: {rng.choice([value.upper(), value.lower(), value.title()])}"
    elif roll == 7:  # the last line without its line break, or with more
        body = body.rstrip("\n") + rng.choice(["", "\n", "\n\n", "\n# end"])
        return "\n".join(heads) + "\nmoves:\n" + body
    elif roll == 8:  # a player, quoted or not
        name = rng.choice(WORDS + NUMBERS)
        heads.insert(rng.randrange(len(heads) + 1), f"player: {name}")
    else:  # an expect value as another spelling of a number
        for i, line in enumerate(heads):
            key = line.strip().split(":")[0]
            if line.startswith(" ") and key in ("moves", "score", "runs"):
                heads[i] = line.split(":")[0] + ": " + rng.choice(NUMBERS)
                break
    return "\n".join(heads) + ("\n" if heads else "") + "moves:\n" + body.rstrip("\n") + "\n"


CARD_WORDS = ["AS", "2S", "TS", "10S", "ts", "10s", "KS", "QH", "qh", "JD", "AC", "KC", "1S",
              "11S", "0S", "ZS", "AX", "A S", "9S,", "8H 7H", "", "AS AS"]  # fmt: skip


def m_deal_cards(rng: random.Random, text: str) -> str:
    """A card of a written-out deal respelled, replaced, doubled or dropped."""
    import re

    cards = list(
        re.finditer(r"(?<![A-Za-z0-9])(?:10|[2-9AKQJTakqjt])[SHDCshdc](?![A-Za-z0-9])", text)
    )
    if "deal:" not in text or not cards:
        return text
    for _ in range(rng.choice([1, 1, 2])):
        found = rng.choice(cards)
        a, b = found.span()
        if b > len(text) or text[a:b] != found.group():
            break
        word = rng.choice([*CARD_WORDS, found.group() + " " + found.group(), found.group().lower()])
        text = text[:a] + word + text[b:]
    return text


MUTATIONS = [
    m_deal_cards,
    m_deal_cards,
    m_benign,
    m_benign,
    m_benign,
    m_benign,
    m_breaks,
    m_char,
    m_char,
    m_char_in_comment,
    m_delete,
    m_line_ops,
    m_item,
    m_item,
    m_item,
    m_flow,
    m_moves_not_last,
    m_value,
    m_value,
    m_key,
    m_key,
    m_document,
    m_trailing,
    m_anchor,
]


# ------------------------------------------------------------------ heads near the quick reader's

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-"
_PLAIN_WORDS = [
    "yes",
    "No",
    "ON",
    "off",
    "null",
    "Null",
    "NULL",
    "true",
    "False",
    "y",
    "n",
    "nan",
    "inf",
    "e1",
    "x",
    "0x1F",
    "1_0",
    "0o7",
    "1e3",
    "12",
    "1.5",
    "2026-11-30",
    "-0",
    "-",
    "--",
    "...",
    "-.inf",
    ".5",
    "0b1",
    "a-",
    "Ann",
    "N/A",
]


def _plain_value(rng: random.Random) -> str:
    """A plain value of the kind the quick head reader takes: words of letters, digits and
    ``_.-`` separated by single spaces, or one of YAML 1.1's other readings."""
    words = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        if rng.random() < 0.3:
            words.append(rng.choice(_PLAIN_WORDS))
        else:
            words.append("".join(rng.choice(_LETTERS) for _ in range(rng.randrange(1, 8))))
    return " ".join(words)


def _code_text(rng: random.Random) -> str:
    prefix = rng.choice(["SP", "SD", "KP", "PS", "sp", "Sd", "kp", "pS"]) + rng.choice("1234") + "-"
    if prefix[:2].upper() == "KP":
        return prefix + rng.choice(["17", "0017", "1", "0", "2147483647", "2147483648"])
    if prefix[:2].upper() == "PS":
        return prefix + rng.choice(
            ["14934", "0001", "0", "ms40000", "MS0", "00000000000000032000", "1" + "0" * 20]
        )
    rule = rng.choice(["S1C", "S1P", "S1", "s1c", "S1X"])
    letters = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZab") for _ in range(rng.choice([7, 6])))
    return f"{prefix}{rule}-{letters}"


def random_head(rng: random.Random) -> str:
    """A log whose head is made of the lines the quick head reader reads (``game``, ``rules``,
    ``player``, an ``expect`` block, comments), with values at the edge of what it takes."""
    lines = []
    keys = rng.sample(["game", "rules", "player", "expect"], rng.randrange(1, 5))
    if "game" not in keys and rng.random() < 0.9:
        keys.append("game")
    rng.shuffle(keys)
    for key in keys:
        blank = rng.choice([" ", " ", " ", "  "])
        if key == "game":
            lines.append(
                f"game:{blank}{_code_text(rng) if rng.random() < 0.8 else _plain_value(rng)}"
            )
        elif key == "rules":
            names = ["classic", "Duel", "PAVOUK", "kpat", "kPat", _plain_value(rng)]
            lines.append(f"rules:{blank}{rng.choice(names)}")
        elif key == "player":
            lines.append(f"player:{blank}{_plain_value(rng)}")
        else:
            lines.append("expect:")
            pad = " " * rng.randrange(1, 5)
            for sub in rng.sample(["result", "moves", "score", "runs"], rng.randrange(1, 5)):
                if sub == "result":
                    results = ["won", "Won", "OPEN", "blocked", "resigned", "lost", "no"]
                    value = rng.choice([*results, _plain_value(rng)])
                else:
                    value = rng.choice(
                        [
                            str(rng.randrange(-(10**16), 10**16)),
                            str(rng.randrange(-50, 2000)),
                            *("0", "-0", "00", "1" + "0" * 15, "9" * 15),
                            _plain_value(rng),
                        ]
                    )
                lines.append(f"{pad}{sub}:{rng.choice([' ', '  '])}{value}")
        if rng.random() < 0.1:
            lines.append(rng.choice(["# c", "", "#", "#\t"]))
    body = rng.choice(["  - 3>7\n", "- deal\n- undo\n", "  - '1>2:3'\n  - flip 1\n"])
    return "\n".join(lines) + "\nmoves:\n" + body


def _item_word(rng: random.Random) -> str:
    """An action as the quick reader takes it (mostly), or a near miss of one."""

    def number() -> str:
        return str(rng.choice([0, 1, 5, 10, 11, 99, 1000, 9999, rng.randrange(10000)]))

    if rng.random() < 0.93:
        words = [f"{number()}>{number()}", f"{number()}>{number()}:{number()}", "deal", "undo"]
        words += ["finish", f"flip {number()}", f"tap {number()}"]
        word = rng.choice(words)
        return f"'{word}'" if rng.random() < 0.2 else word
    digits = ["0", "1", "9", "10", "007", "9999", "10000", "9" * 20, "", " 1", "1 "]
    roll = rng.randrange(3)
    if roll == 0:
        word = (
            rng.choice(digits) + rng.choice([">", " >", "> ", ">>", "<", "-"]) + rng.choice(digits)
        )
        word += rng.choice(["", "", ":" + rng.choice(digits), ": 1", ":", "::1"])
    elif roll == 1:
        word = rng.choice(["Deal", "DEAL", "undo ", "fin ish", "deal\\t", "finish!"])
    else:
        word = rng.choice(["flip", "tap", "Flip", "tap  ", "flip\t"]) + rng.choice([" ", "", "  "])
        word += rng.choice(digits) + rng.choice(["", ":1", ":" + rng.choice(digits)])
    quote = rng.random()
    return f"'{word}'" if quote < 0.15 else f'"{word}"' if quote < 0.2 else word


def random_body(rng: random.Random) -> str:
    """A log whose list is made of lines at the edge of the quick reader's items: odd dashes,
    indents, spellings and quotes now and then."""
    indent = rng.choice(["", "  ", "    ", " "])
    lines = []
    for _ in range(rng.randrange(1, 8)):
        dash = rng.choice(["- "] * 12 + ["-  ", "-", " - ", "-\t"])
        pad = indent if rng.random() < 0.97 else rng.choice(["", "   ", "\t"])
        lines.append(pad + dash + _item_word(rng))
    code = rng.choice(["SP2-S1C-AAAAABD", "SD1-S1-AAAABIW", "SP1-S1C-AAAAAAD"])
    return f"game: {code}\nmoves:\n" + "\n".join(lines) + rng.choice(["\n", "", "\n\n"])


# ------------------------------------------------------------------ the campaign


def case(rng: random.Random, seeds: list[bytes]) -> bytes:
    """One input: a corpus file or a random game's log, mutated (or, now and then, as is), or
    a head or a list near the quick reader's (``random_head``, ``random_body``)."""
    roll = rng.random()
    if roll < 0.1:
        return random_head(rng).encode()
    if roll < 0.17:
        return random_body(rng).encode()
    if roll < 0.4:
        data = rng.choice(seeds)
        text = data.decode("utf-8", "surrogateescape")
    else:
        text = render_log(rng, *random_game(rng))
    if rng.random() < 0.85:
        text = mutate(rng, text)
    return text.encode("utf-8", "surrogateescape")


def check(data: bytes, folder: str | None = None) -> list[str]:
    """Every divergence found on one input (the CLI compared when ``folder`` is given)."""
    found: list[str] = []
    try:
        text = decode(data, "log.yaml")
    except InputError:
        text = None
    if text is not None:
        for compare in (compare_reader, compare_deck_check):
            problem = compare(text)
            if problem:
                found.append(problem)
        try:
            log = parse_yaml_log(text, "log.yaml")
        except InputError:
            log = None
        if log is not None:
            found.extend(compare_engine(log))
    if folder is not None:
        found.extend(compare_cli(data, folder))
    return found


def campaign(
    cases: int,
    seed: int,
    cli_every: int = 0,
    seconds: float = 0,
    out: Path | None = None,
    progress: int = 0,
) -> tuple[Counter[str], list[tuple[bytes, list[str]]]]:
    """Run ``cases`` inputs (or for ``seconds``); the CLI compared on every ``cli_every``-th.
    Returns what ran (``cases``, ``quick``: read by the quick reader, ``logs``: read at all,
    ``cli``: run through the CLI) and each diverging input with what differed."""
    rng = random.Random(seed)
    seeds = corpus()
    failures: list[tuple[bytes, list[str]]] = []
    start = time.monotonic()
    stats: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as folder:
        for n in range(cases):
            if seconds and time.monotonic() - start > seconds:
                break
            data = case(rng, seeds)
            cli = folder if cli_every and n % cli_every == 0 else None
            found = check(data, cli)
            stats["cases"] += 1
            stats["cli"] += cli is not None
            text = data.decode("utf-8", "replace")
            stats["quick"] += quick_log(text, "log.yaml", parse_yaml_log) is not None
            stats["logs"] += reader_outcome(parse_yaml_log, text)[0] == "ok"
            if found:
                failures.append((data, found))
                if out is not None:
                    path = out / f"fuzz-divergence-{len(failures)}.yaml"
                    path.write_bytes(data)
                    print(f"case {n}: {path}", *found, sep="\n  ", flush=True)
            if progress and stats["cases"] % progress == 0:
                print(_summary(stats, failures, start), flush=True)
    return stats, failures


def _summary(stats: Counter[str], failures: list[Any], start: float) -> str:
    return (
        f"{stats['cases']} cases ({stats['quick']} on the quick path, {stats['logs']} read, "
        f"{stats['cli']} through the CLI), {len(failures)} diverging, "
        f"{time.monotonic() - start:.0f} s"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cli-every", type=int, default=10, help="0: never run the CLI")
    parser.add_argument("--seconds", type=float, default=0, help="stop after this long")
    parser.add_argument("--out", type=Path, default=Path("."), help="where to write cases")
    parser.add_argument("--progress", type=int, default=1000, help="a line every N cases")
    args = parser.parse_args(argv)
    start = time.monotonic()
    stats, failures = campaign(
        args.cases, args.seed, args.cli_every, args.seconds, args.out, args.progress
    )
    print(_summary(stats, failures, start), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
