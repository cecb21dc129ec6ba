"""Fuzzing of the parts issue 18 hardened, as a hostile submitter and a hostile environment would.

Seven campaigns, each a property that must hold for every input:

- ``api``: ``spidercli.parse_log`` (bytes, and ``str`` with lone surrogates), ``replay``,
  ``Report.to_json``, ``record_text`` and ``duel`` on random bytes, mutated logs and logs of
  random games: only ``InputError`` or ``IllegalLogError`` is raised, and a log that reads
  replays.
- ``yaml``: the two YAML readers, libyaml's and the pure-Python one (``SPIDERCLI_PURE_YAML=1``),
  on random YAML-ish texts and mutated logs: one verdict (the same log, or a refusal on the
  same line, with the same message when it is about a tab).
- ``tags``: explicit YAML tags (``!!int``, ``!!float``, ``!!seq``, ``!!python/...``, unknown ones)
  on odd values at every value of the log format, of a written-out deal and of a tournament
  manifest: read, or refused with an ``InputError`` and its line, the same by both loaders.
- ``kpat``: ``import kpat`` on KPat's saves mutated at the XML level (DTDs, entities, external
  references, huge attributes and texts, deep nesting, many elements, truncation, encodings,
  states swapped, dropped or doubled, attributes respelt): ``InputError`` or an import whose log
  replays as valid under ``kpat`` rules, in under a second of CPU each.
- ``record``: ``record`` while another program acts on the file (a link retargeted, the file
  edited with its time put back, appended to, replaced by rename, removed, a link, FIFO or
  folder put in its place): recorded only when the file is still the one read, refused with
  exit status 2 otherwise, the other player's log never touched, no temporary file left.
- ``verify``: ``verify --jobs 2..4`` against ``--jobs 1`` (real processes under a timeout) on
  folders of logs with long paths and long player names and a log of random size (up to the
  1 MiB limit) on standard input: the same bytes out, the same exit status, no hang.
- ``full``: random command lines of every command with standard output on ``/dev/full``: exit
  status 2 and the one line ``cannot write to standard output: No space left on device``
  (when the command writes to stdout at all; else what it does with stdout usable), never a
  traceback, never a hang.
- ``sweep``: ``sweep`` resuming an output file of real records, some with a field of the wrong
  type or size, a forged certificate (another deal's code, deal ID or log, other moves, the
  log edited), the bytes cut, NULs, bytes that are not UTF-8, a BOM, CR LF, blank, doubled or
  swapped lines, lines past the limit or nested deep; half with ``--manifest``: refused naming
  the file (and the line), the file left as it was, or resumed, the earlier records kept, one
  record a deal, and every certificate written a win of its own deal.

    .venv/bin/python -m tests.fuzz_hostile api --seconds 300 --seed 1 --out /tmp/f

Each failing input is written to ``--out`` (``hostile-<campaign>-N.*``) and printed with what
went wrong; a line of counts every ``--progress`` cases. Exit status 1 when anything failed.
``make fuzz`` runs every campaign for a few minutes each; ``tests/test_hostile_fuzz.py`` runs a
small fixed sample of each in ``make test``.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import io
import json
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

import spidercli
from spidercli.errors import InputError
from spidercli.logs import yamlreader
from spidercli.logs.yamlreader import PureLoader
from tests import fuzz_fastpaths as fast
from tests.helpers import sweep_to_end
from tests.tools.limits import hostile_saves

ROOT = Path(__file__).resolve().parents[1]
LIBYAML: Any = getattr(yaml, "CSafeLoader", None)
NO_SPACE = os.strerror(errno.ENOSPC)
STDOUT_FULL = f"spidercli: error: cannot write to standard output: {NO_SPACE}\n"
TAB_MESSAGE = "not valid YAML: a tab at column"


class Hang(Exception):
    """A case ran past its time guard."""


@contextlib.contextmanager
def guard(seconds: float) -> Iterator[None]:
    """``Hang`` when the block runs longer than ``seconds`` (wall time, SIGALRM)."""

    def ring(signum: int, frame: object) -> None:
        raise Hang(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# ---------------------------------------------------------------------------- byte mutations


def byte_mutate(rng: random.Random, data: bytes) -> bytes:
    """One to four edits at the byte level: a byte flipped, inserted or deleted, a stretch
    repeated, the text cut short, bytes that are not UTF-8, a NUL, a BOM."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(out) + 1)
        kind = rng.randrange(9)
        if kind == 0 and out:
            out[min(at, len(out) - 1)] ^= 1 << rng.randrange(8)
        elif kind == 1:
            out[at:at] = bytes([rng.randrange(256)])
        elif kind == 2 and out:
            del out[at : at + rng.randint(1, 16)]
        elif kind == 3 and out:
            end = min(len(out), at + rng.randint(1, 40))
            out[at:at] = out[at:end] * rng.randint(2, 50)
        elif kind == 4:
            del out[at:]
        elif kind == 5:
            out[at:at] = rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"])
        elif kind == 6:
            out[at:at] = b"\x00"
        elif kind == 7:
            out[at:at] = rng.choice([b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe"])
        else:
            out[at:at] = rng.choice([b"\r", b"\r\n", b"\xc2\x85", b"\xe2\x80\xa8", b"\t"])
    return bytes(out)


def log_input(rng: random.Random, seeds: list[bytes]) -> bytes:
    """A log: fuzz_fastpaths' inputs (mutated corpus files and random games), now and then
    mutated further at the byte level, or random bytes."""
    roll = rng.random()
    if roll < 0.05:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(200)))
    data = fast.case(rng, seeds)
    if roll < 0.35:
        data = byte_mutate(rng, data)
    return data


# ------------------------------------------------------------------------------ campaign: api


def check_api(rng: random.Random, data: bytes) -> list[str]:
    """The public API on ``data``: only the documented errors, and a log that reads replays."""
    from spidercli import IllegalLogError

    found: list[str] = []
    allowed = (InputError, IllegalLogError)
    text: str | bytes = data
    if rng.random() < 0.3:
        text = data.decode("utf-8", "surrogateescape")  # lone surrogates stay in the str
    try:
        log = spidercli.parse_log(text, name=rng.choice(["<log>", "a\x1b[2J.yaml"]))
    except allowed:
        log = None
    except Exception as err:  # any other error is what is looked for
        return [f"parse_log raised {type(err).__name__}: {err!s:.300}"]
    if log is not None:
        for rules in (None, rng.choice(["classic", "duel", "pavouk", "kpat"])):
            for on_illegal in ("stop", "skip"):
                try:
                    report = spidercli.replay(log, rules, on_illegal)
                    json.dumps(report.to_json())
                except allowed:
                    pass
                except Exception as err:
                    what = f"replay({rules}, {on_illegal})"
                    found.append(f"{what} raised {type(err).__name__}: {err!s:.300}")
        try:
            spidercli.duel(log, log)
        except allowed:
            pass
        except Exception as err:
            found.append(f"duel raised {type(err).__name__}: {err!s:.300}")
    try:
        spidercli.record_text(text)
    except allowed:
        pass
    except Exception as err:
        found.append(f"record_text raised {type(err).__name__}: {err!s:.300}")
    return found


# ----------------------------------------------------------------------------- campaign: yaml

_TOKENS = [
    " ", "  ", "\t", "\n", "\n", "\n  ", "\n- ", "- ", "-", "-\t", "? ", ": ", ":", ":\t", ",",
    ", ", ",\t", "[", "]", "{", "}", "'", '"', "''", '"\\t"', "# c", "\t# c", " #", "#",
    "&a ", "*a", "!!str ", "!!seq ", "!t ", "! ", "|", "|-", ">", ">+2", "---", "...", "---\n",
    "%YAML 1.1\n", "%TAG ! tag:x,1:\n", "game", "moves", "player", "expect", "deal", "undo",
    "7>1", "3>4:2", "tap 3", "tap\t3", "SP1-S1C-AAAAABD", "result", "open", "1", "0x1", "1_0",
    "~", "null", "yes", "a b", "\\", "\r\n", "\r", "\u2028", "\x85", "\ufeff", "é", "\xa0",
]  # fmt: skip


def yamlish(rng: random.Random) -> str:
    """Random text of YAML's tokens, tabs and blanks; half of them in the shape of a log."""
    body = "".join(rng.choice(_TOKENS) for _ in range(rng.randint(1, 40)))
    if rng.random() < 0.5:
        head = "game: SP1-S1C-AAAAABD\n"
        if rng.random() < 0.5:
            return head + "moves:" + body + "\n"
        return head + body + "\nmoves: [deal]\n"
    return body


def _nodes(node: yaml.Node | None) -> Any:
    if node is None:
        return None
    mark = (node.start_mark.line, node.start_mark.column)
    if isinstance(node, yaml.ScalarNode):
        return (node.tag, node.value, mark, node.style or None)
    if isinstance(node, yaml.SequenceNode):
        return (node.tag, mark, [_nodes(n) for n in node.value])
    return (node.tag, mark, [(_nodes(k), _nodes(v)) for k, v in node.value])


def composed(text: str, loader: Any) -> Any:
    try:
        return ("nodes", _nodes(yaml.compose(text, Loader=loader)))
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        return ("refused", mark and mark.line)
    except yaml.YAMLError as err:
        return ("refused", type(err).__name__)


def verdict(text: str, loader: Any) -> Any:
    """The log as spidercli reads it with ``loader`` (quick reader first, as always), or the
    refusal's line and message."""
    from spidercli.logs.reader import parse_log

    old = yamlreader.LOADER
    yamlreader.LOADER = loader
    try:
        log = parse_log(text, "t.yaml")
    except InputError as err:
        return ("refused", err.line, err.message)
    finally:
        yamlreader.LOADER = old
    return (
        "ok",
        log.deal.deal_id,
        log.game_line,
        log.rules,
        log.player,
        log.expect,
        tuple(log.entries),
        log.time,
    )


def check_yaml(text: str) -> tuple[list[str], bool, bool]:
    """The verdicts of both readers on ``text`` (the problems, whether the nodes agree, whether
    the libyaml reader took it as a log)."""
    c = verdict(text, LIBYAML)
    pure = verdict(text, PureLoader)
    found = []
    if c[0] == "refused" or pure[0] == "refused":
        same = c[:2] == pure[:2]
        if same and (TAB_MESSAGE in c[2] or TAB_MESSAGE in pure[2]):
            same = c == pure
    else:
        same = c == pure
    if not same:
        found.append(f"libyaml {c!r:.400}\n  pure    {pure!r:.400}")
    return found, composed(text, LIBYAML) == composed(text, PureLoader), c[0] == "ok"


# ----------------------------------------------------------------------------- campaign: tags

# Explicit tags: YAML's own (PyYAML's safe constructors make these), the other yaml.org types,
# Python's (never constructed), local and verbatim ones, and a tag alone.
TAGS = ["!!int", "!!float", "!!bool", "!!timestamp", "!!binary", "!!str", "!!null", "!!seq",
        "!!map", "!!set", "!!omap", "!!pairs", "!!merge", "!!value", "!!yaml",
        "!!python/object:os.system", "!!python/name:os.system", "!!python/tuple",
        "!!python/object/apply:os.system", "!x", "!", "!<tag:yaml.org,2002:int>",
        "!<tag:yaml.org,2002:float>", "!<tag:yaml.org,2002:str>", "!<x>",
        "!<tag:yaml.org,2002:seq>", "!!\u00e9", "!!int:x"]  # fmt: skip
# Scalars at the edge of what each tag's constructor takes (empty, a sign or prefix alone, one
# underscore, sexagesimal, out of range, non-ASCII digits, bad dates and base64) and values the
# log's keys take, plain and in flow collections.
ODD_SCALARS = ["_", "__", '""', "''", "-", "+", "-_", "+_", "0x", "0b", "0o", "0x_", "0b2",
               "0b102", "09", "08.5", ":", "1:", ":1", "1::2", "1:2:3", "1:60", "-1:30", "0:0",
               ".", "-.", "e", ".e", "1e", "1e400", "-1e400", "1e-400", ".inf", "-.inf", ".nan",
               ".NaN", "0", "-0", "1.", "1_000", "1" * 41, "9" * 20, "0x" + "f" * 38,
               "\u0661", "\uff11", "2001-13-45", "2001-02-29", "2001-01-01 25:00:00",
               "2001-12-14t21:59:43.10-99:00", "aGk=", "a", "!!!", '"\\0"', "'\\x00'",
               "~", "null", "yes", "No", "true", "deal", "3>7", "SP1-S1C-AAAAAAD", "KP1-1",
               "classic", "won", "9S 8H", "[]", "{}", "[a, 1]", "{a: 1}", "[_]", "{_: _}",
               '"\\u202e"', "'\x1b[2J'", "=1+1"]  # fmt: skip

# Every value of the log format (and of a tournament manifest), as {slots} of one template:
# a slot's default may hold other slots; the slot attacked takes a tagged odd value instead.
_DEAL_COLUMNS = "".join(
    "\n    - " + c
    for c in ["[JS]", "[QS, KS]", "[9S, 8S, 4S]", "[KS, 6S, 5S, KS]", "[2S, JS, 8S, AS, AS]",
              "[2S, QS, TS, JS, 3S, 7S]", "{column}"]
)  # fmt: skip
_DEAL_STOCK = "".join(
    "\n    - " + line
    for line in ["8S 4S 3S 4S 5S JS 9S", "8S 9S 7S TS 5S 5S 7S", "{stock line}", "6S QS KS"]
)
_LOG_SLOTS = {
    "game": "SP1-S1C-AAAAAAD",
    "rules": "classic",
    "player": "alice",
    "time": "754.5",
    "expect": "\n  result: {expect.result}\n  {expect key}: {expect.moves}\n  score: {expect.score}"
    "\n  runs: {expect.runs}",
    "expect key": "moves",
    "expect.result": "open",
    "expect.moves": "2",
    "expect.score": "498",
    "expect.runs": "0",
    "moves": "\n  - {entry}\n  - deal\n  - {entry 2}",
    "entry": "deal",
    "entry 2": "undo",
    "key": "player",
    "deal": "\n  game: {deal.game}\n  rule: {deal.rule}\n  suits: {deal.suits}"
    "\n  columns:{deal.columns}\n  stock:{deal.stock}",
    "deal.game": "spiderette",
    "deal.rule": "classic",
    "deal.suits": "1",
    "deal.columns": _DEAL_COLUMNS,
    "column": "[TS, 3S, AS, {card}, 7S, 6S, 6S]",
    "card": "AS",
    "deal.stock": _DEAL_STOCK,
    "stock line": "9S 2S 2S TS QS 4S 3S",
}
_LOG_WITH_CODE = (
    "game: {game}\nrules: {rules}\n{key}: {player}\ntime: {time}\nexpect:{expect}\nmoves:{moves}\n"
)
_LOG_WITH_DEAL = "deal:{deal}\nplayer: {player}\nmoves: [{entry}]\n"
_MANIFEST_SLOTS = {
    "name": "Winter cup",
    "rules": "classic",
    "deals": "\n  - {deals: an entry}\n  - KP1-2\n  - 5ddb4182f02e74e2",
    "deals: an entry": "SP1-S1C-AAAAAAA",
    "manifest key": "name",
}
_MANIFEST = "{manifest key}: {name}\nrules: {rules}\ndeals:{deals}\n"
_COLLECTIONS = {"expect", "moves", "deal", "deal.columns", "deal.stock", "deals"}
TEMPLATES = {
    "log": (_LOG_WITH_CODE, _LOG_SLOTS),
    "log with a deal": (_LOG_WITH_DEAL, _LOG_SLOTS),
    "manifest": (_MANIFEST, _MANIFEST_SLOTS),
}


def slots_of(template: str, slots: dict[str, str]) -> list[str]:
    """The slots a template reaches (through its slots' defaults), in the order met."""
    found: list[str] = []
    todo = [template]
    while todo:
        text = todo.pop(0)
        for name in slots:
            if "{" + name + "}" in text and name not in found:
                found.append(name)
                todo.append(slots[name])
    return found


def tagged(kind: str, attacks: dict[str, str]) -> str:
    """The document ``kind`` (a key of ``TEMPLATES``) with each slot of ``attacks`` given its
    value there and every other slot its default."""
    template, slots = TEMPLATES[kind]
    text = template
    for _ in range(8):  # the defaults nest a few deep
        for name, default in slots.items():
            text = text.replace("{" + name + "}", attacks.get(name, default))
    return text


def tag_value(slot: str, tag: str, scalar: str | None) -> str:
    """A tag on a slot's value: on an odd scalar, or (``scalar`` None) on the slot's own value,
    a collection's block kept under it (``expect: !!set`` then its keys)."""
    if scalar is None:
        default = {**_LOG_SLOTS, **_MANIFEST_SLOTS}[slot]
        return f" {tag}{default}" if slot in _COLLECTIONS else f"{tag} {default}"
    value = f"{tag} {scalar}".strip()
    return " " + value if slot in _COLLECTIONS else value


def tag_case(rng: random.Random) -> tuple[str, str]:
    """A document of a random kind with one to three of its values tagged (a key now and then)."""
    kind = rng.choice(list(TEMPLATES))
    template, slots = TEMPLATES[kind]
    names = slots_of(template, slots)
    attacks: dict[str, str] = {}
    for slot in rng.sample(names, min(len(names), rng.choice([1, 1, 1, 2, 3]))):
        scalar = None if rng.random() < 0.2 else rng.choice(ODD_SCALARS)
        attacks[slot] = tag_value(slot, rng.choice(TAGS), scalar)
    return kind, tagged(kind, attacks)


def _read(kind: str, text: str, loader: Any, folder: Path) -> Any:
    """How spidercli reads ``text`` as a ``kind`` document with ``loader``: the log or manifest,
    or the refusal's line and message."""
    from spidercli.judging.tournament import load_manifest

    old = yamlreader.LOADER
    yamlreader.LOADER = loader
    try:
        if kind == "manifest":
            path = folder / "manifest.yaml"
            path.write_text(text, encoding="utf-8")
            return ("ok", load_manifest(str(path)))
        return ("ok", spidercli.parse_log(text, name="t.yaml"))
    except InputError as err:
        return ("refused", err.line, str(err.message))
    finally:
        yamlreader.LOADER = old


def check_tags(kind: str, text: str, folder: Path, cli: bool = False) -> tuple[list[str], bool]:
    """``text`` read as a ``kind`` document with each YAML loader: only ``InputError`` (with the
    line), the same verdict from both; a log also through ``record_text`` and ``replay``, and
    with ``cli``, through ``replay``, ``verify`` and ``tournament`` (exit 0, 1 or 2, never an
    internal error). Returns the problems and whether the document was read."""
    from spidercli import IllegalLogError

    found: list[str] = []
    verdicts = []
    for loader in (LIBYAML, PureLoader) if LIBYAML is not None else (PureLoader,):
        try:
            verdicts.append(_read(kind, text, loader, folder))
        except Exception as err:  # any other error is what is looked for
            found.append(f"{loader.__name__}: {type(err).__name__}: {err!s:.300}")
    if found:
        return found, False
    for got in verdicts:
        if got[0] == "refused" and got[1] is None:
            found.append(f"refused without a line: {got[2]!r:.300}")
    first = verdicts[0]
    for other in verdicts[1:]:
        # The two parsers word a syntax error each in its own way; its line must agree.
        syntax = first[0] == "refused" and first[2].startswith("not valid YAML")
        if (first[:2] != other[:2]) if syntax else (first != other):
            found.append(f"libyaml {first!r:.300}\n  pure    {other!r:.300}")
    if first[0] == "ok":
        found.extend(_misfits(text))
    if kind != "manifest":
        try:
            spidercli.record_text(text)
        except (InputError, IllegalLogError):
            pass
        except Exception as err:
            found.append(f"record_text raised {type(err).__name__}: {err!s:.300}")
        if first[0] == "ok":
            try:
                spidercli.replay(first[1], on_illegal="skip").to_json()
            except InputError:
                pass
            except Exception as err:
                found.append(f"replay raised {type(err).__name__}: {err!s:.300}")
    if cli:
        found.extend(_tags_cli(kind, text, folder))
    return found, first[0] == "ok"


_FOR_SCALARS = {"str", "int", "float", "bool", "null", "timestamp", "binary"}


def _misfits(text: str) -> list[str]:
    """A document spidercli took must hold no standard tag on a node of another kind (YAML's
    constructors refuse ``!!seq`` on a scalar, ``!!str`` on a list)."""
    found = []
    loader: Any = PureLoader
    todo = [yaml.compose(text, Loader=loader)]
    while todo:
        node = todo.pop()
        if node is None:
            continue
        name = node.tag.removeprefix("tag:yaml.org,2002:")
        if isinstance(node, yaml.ScalarNode):
            fits = name in _FOR_SCALARS
        elif isinstance(node, yaml.SequenceNode):
            fits = name == "seq"
            todo.extend(node.value)
        else:
            fits = name == "map"
            todo.extend(child for pair in node.value for child in pair)
        if not fits:
            found.append(f"taken, with {node.tag} on a {type(node).__name__}")
    return found


def _tags_cli(kind: str, text: str, folder: Path) -> list[str]:
    from typer.testing import CliRunner

    from spidercli.cli.app import app
    from spidercli.text import i18n

    path = folder / ("manifest.yaml" if kind == "manifest" else "log.yaml")
    path.write_text(text, encoding="utf-8")
    if kind == "manifest":
        runs = [["tournament", "fixtures/batch", "--manifest", str(path)]]
    else:
        runs = [["replay", str(path)], ["verify", str(path), "-f", "concise", "--jobs", "1"]]
    runner = CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1", "LANG": "C.UTF-8"})
    found = []
    for args in runs:
        result = runner.invoke(app, args)
        i18n.use("en")
        crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
        if crashed or result.exit_code not in (0, 1, 2) or "internal error" in result.output:
            found.append(f"{' '.join(args)}: exit {result.exit_code}: {result.output[-400:]!r}")
    return found


# ----------------------------------------------------------------------------- campaign: kpat

KPAT_SAVES = sorted((ROOT / "fixtures" / "kpat").glob("*.xml"))
_SMALL_HOSTILE: list[bytes] = []


def _hostile(rng: random.Random) -> bytes:
    """One of the 1 MiB attacks of tests/tools/limits.py."""
    if not _SMALL_HOSTILE:
        _SMALL_HOSTILE.extend(t.encode() for t in hostile_saves().values())
    return rng.choice(_SMALL_HOSTILE)


_HEAD = b'<?xml version="1.0" encoding="UTF-8"?>\n'
_DTDS = [
    b"<!DOCTYPE kpat>",
    b"<!DOCTYPE kpat-game>",
    b"<!DOCTYPE kpat-game []>",
    b'<!DOCTYPE kpat-game [<!ENTITY a "b">]>',
    b'<!DOCTYPE kpat-game [<!ENTITY % p "x"> %p;]>',
    b'<!DOCTYPE kpat-game [<!ATTLIST card turn CDATA "face-up">]>',
    b'<!DOCTYPE kpat-game [<!ATTLIST state x CDATA "' + b"A" * 5000 + b'">]>',
    b'<!DOCTYPE kpat-game SYSTEM "file:///dev/zero">',
    b'<!DOCTYPE kpat-game PUBLIC "-//x//y" "http://example.invalid/x.dtd">',
    b'<!DOCTYPE kpat-game [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
    b"<!DOCTYPE kpat-game [<!ELEMENT kpat-game ANY>]>",
    b"<!DOCTYPE kpat [",  # unfinished
]


def _tags(data: bytes) -> list[int]:
    return [i for i in range(len(data)) if data[i : i + 1] == b"<"]


def xml_mutate(rng: random.Random, data: bytes) -> bytes:
    """One XML-level attack on a save."""
    kind = rng.randrange(16)
    tags = _tags(data)
    body = data.split(b"?>", 1)[-1] if data.startswith(b"<?xml") else data
    if kind == 0:  # a DTD, or one of its tricks
        return _HEAD + rng.choice(_DTDS) + b"\n" + body
    if kind == 1:  # an entity or character reference in a value or text
        ref = rng.choice([b"&a;", b"&lt;", b"&#65;", b"&#x0;", b"&#1114112;", b"&amp;", b"&"])
        at = rng.choice(tags) + 1 if tags and rng.random() < 0.3 else rng.randrange(len(data))
        return data[:at] + ref + data[at:]
    if kind == 2:  # a huge attribute
        at = data.find(b"<state")
        size = rng.choice([1000, 100_000, 900_000])
        if at < 0:
            at = data.find(b"<kpat-game")
        return data[: at + 6] + b' x="' + b"A" * size + b'"' + data[at + 6 :]
    if kind == 3:  # deep nesting
        depth = rng.choice([5, 50, 1000, 100_000])
        at = data.find(b"<state")
        at = at if at >= 0 else len(data) // 2
        return data[:at] + b"<a>" * depth + b"</a>" * depth + data[at:]
    if kind == 4:  # cut short
        return data[: rng.randrange(len(data) + 1)]
    if kind == 5:  # another encoding
        enc = rng.choice(["UTF-16", "ISO-8859-1", "ascii", "TF-8", "UTF-32", "cp1252"])
        head = f'<?xml version="1.0" encoding="{enc}"?>'.encode()
        if rng.random() < 0.5 and enc in ("UTF-16", "UTF-32", "ISO-8859-1", "ascii"):
            try:
                text = head.decode() + body.decode("utf-8", "replace")
                return text.encode(enc.lower(), "replace")
            except LookupError:  # pragma: no cover
                pass
        return head + body
    if kind in (6, 7, 8):  # states dropped, doubled or swapped
        parts = data.split(b"<state")
        if len(parts) > 3:
            i, j = rng.randrange(1, len(parts)), rng.randrange(1, len(parts))
            if kind == 6:
                del parts[i]
            elif kind == 7:
                parts.insert(i, parts[i])
            else:
                parts[i], parts[j] = parts[j], parts[i]
            return b"<state".join(parts)
        return data
    if kind == 9:  # an attribute's value respelt
        words = [b"spider", b"2", b"4", b"3", b"0", b"-1", b"99999999999", b"face-up", b"", b"x"]
        quote = [i for i in range(len(data)) if data[i : i + 1] == b'"']
        if len(quote) >= 2:
            k = rng.randrange(len(quote) // 2) * 2
            a, b = quote[k], quote[k + 1]
            return data[: a + 1] + rng.choice(words) + data[b:]
        return data
    if kind == 10:  # many elements or attributes
        unit = rng.choice([b"<a/>", b"<state/>", b"<!---->", b"<?pi x?>", b"<![CDATA[x]]>"])
        at = data.rfind(b"</kpat-game>")
        at = at if at >= 0 else len(data)
        return data[:at] + unit * rng.choice([10, 1000, 60_000]) + data[at:]
    if kind == 11:  # a namespace, an odd root
        return data.replace(b"<kpat-game", rng.choice([b"<x:kpat-game", b"<kpat-game xmlns='x'"]))
    if kind == 12:  # an element's tag closed wrongly
        if tags:
            at = rng.choice(tags)
            return data[:at] + rng.choice([b"</x>", b"<", b"<>", b"</state>"]) + data[at:]
        return data
    if kind == 13:  # one of the 1 MiB attacks
        return _hostile(rng)
    if kind == 14:  # a <move> between the wrong piles or positions
        out = data.replace(b'pile="play', rng.choice([b'pile="redeals', b'pile="xplay']), 1)
        return out.replace(b'position="0"', b'position="' + str(rng.randrange(200)).encode(), 1)
    return byte_mutate(rng, data)


def kpat_input(rng: random.Random) -> bytes:
    data = rng.choice(KPAT_SAVES).read_bytes()
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        data = xml_mutate(rng, data)
    return data[: 2 * 1024 * 1024]


def check_kpat(data: bytes, budget: float = 1.0) -> tuple[list[str], bool, float]:
    """``import kpat`` on ``data``: an input error, or a log that replays as valid under
    kpat rules; a refusal within ``budget`` seconds of CPU (an import of an honest save may
    take longer: it is timed, not failed)."""
    start = cpu()
    try:
        with guard(30):
            imported = spidercli.import_kpat(data, name="save.xml")
    except InputError:
        spent = cpu() - start
        if spent > budget:
            return [f"refused after {spent:.2f} s of CPU"], False, spent
        return [], False, spent
    except Exception as err:
        return [f"import raised {type(err).__name__}: {err!s:.300}"], False, cpu() - start
    spent = cpu() - start
    log = spidercli.parse_log(imported.log_text, name="imported.yaml")
    report = spidercli.replay(log)
    if report.status != "valid" and report.illegal:
        return [f"the imported log does not replay: {report.illegal[0]}"], True, spent
    return [], True, spent


# --------------------------------------------------------------------------- campaign: record

RECORDABLE = [
    p.read_bytes()
    for p in sorted((ROOT / "fixtures").glob("*.yaml"))
    if not p.name.startswith(("duel-", "tournament"))
]


def without_expect(data: bytes) -> bytes:
    """``data`` without its ``expect`` block (a block mapping at the top), so that ``record``
    has something to write."""
    out: list[bytes] = []
    skipping = False
    for line in data.splitlines(keepends=True):
        if line.startswith(b"expect:"):
            skipping = line.rstrip() == b"expect:"
            continue
        if skipping and line[:1] in (b" ", b"\t"):
            continue
        skipping = False
        out.append(line)
    return b"".join(out)


# What another program does to the file while record runs, and whether record may still
# write (the file left the one read, with the bytes read).
INTERFERENCES = {
    "nothing": True,
    "retarget-link": True,  # the link named on the command line now points at b.yaml
    "rewrite-same": True,  # the same bytes written over it, its time put back
    "edit-same-size": False,
    "append": False,
    "touch": False,
    "rename-over": False,
    "remove": False,
    "link-in-place": False,
    "fifo-in-place": False,
    "folder-in-place": False,
    "rename-folder": False,
}


def interfere(kind: str, folder: Path) -> None:
    a, link = folder / "a.yaml", folder / "link.yaml"
    if kind == "retarget-link":
        link.unlink()
        link.symlink_to("b.yaml")
    elif kind in ("rewrite-same", "edit-same-size"):
        info = a.stat()
        data = a.read_bytes()
        if kind == "edit-same-size":
            data = data.replace(b"game", b"gamf", 1) if b"game" in data else b"x" * len(data)
        a.write_bytes(data)
        os.utime(a, ns=(info.st_atime_ns, info.st_mtime_ns))
    elif kind == "append":
        with a.open("ab") as handle:
            handle.write(b"# edited\n")
    elif kind == "touch":
        info = a.stat()
        os.utime(a, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000_000))
    elif kind == "rename-over":
        (folder / "new").write_bytes(b"game: SD1-S1-AAAABIW\nmoves: [7>1]  # saved\n")
        os.replace(folder / "new", a)
    elif kind == "remove":
        a.unlink()
    elif kind == "link-in-place":
        a.unlink()
        a.symlink_to("b.yaml")
    elif kind == "fifo-in-place":
        a.unlink()
        os.mkfifo(a)
    elif kind == "folder-in-place":
        a.unlink()
        a.mkdir()
    elif kind == "rename-folder":
        os.rename(folder, str(folder) + "-moved")
        folder.mkdir()


def _state(folder: Path, temporary: bool = True) -> dict[str, Any]:
    """What the folder holds (without record's own temporary file unless ``temporary``)."""
    out: dict[str, Any] = {}
    for p in sorted(folder.iterdir()):
        if not temporary and p.name.endswith(".tmp"):
            continue
        if p.is_symlink():
            out[p.name] = ("link", os.readlink(p))
        elif p.is_fifo():
            out[p.name] = "fifo"
        elif p.is_dir():
            out[p.name] = "dir"
        else:
            out[p.name] = p.read_bytes()
    return out


def check_record(rng: random.Random, root: Path, data: bytes) -> tuple[list[str], str]:
    """``record`` on ``data`` while an interference happens at a random moment."""
    from typer.testing import CliRunner

    from spidercli.cli.app import app
    from spidercli.judging import record as record_module
    from spidercli.logs import files
    from spidercli.text import i18n

    folder = root / "logs"
    for old in (folder, Path(str(folder) + "-moved")):
        if old.exists():
            subprocess.run(["rm", "-rf", str(old)], check=True)
    folder.mkdir()
    other = b"game: SD1-S1-AAAABIW\nplayer: other\nmoves: [7>1]\n"
    (folder / "a.yaml").write_bytes(data)
    (folder / "b.yaml").write_bytes(other)
    (folder / "link.yaml").symlink_to("a.yaml")
    via_link = rng.random() < 0.5
    kind = rng.choice(list(INTERFERENCES))
    if kind == "retarget-link" and not via_link:
        kind = "nothing"
    when = rng.choice(["replay", "check"])
    try:
        expected: str | None = spidercli.record_text(data, name="a.yaml")
    except (InputError, spidercli.IllegalLogError):
        expected = None
    done: list[Any] = []

    real_replay = getattr(record_module, "replay")  # noqa: B009 - not exported
    real_check = files._check_unchanged

    def replay_then(*args: Any, **kwargs: Any) -> Any:
        if when == "replay" and not done:
            interfere(kind, folder)
            done.append(_state(folder, temporary=False))
        return real_replay(*args, **kwargs)

    def check_after(snapshot: Any) -> None:
        if when == "check" and not done:
            interfere(kind, folder)
            done.append(_state(folder, temporary=False))
        real_check(snapshot)

    setattr(record_module, "replay", replay_then)  # noqa: B010
    setattr(files, "_check_unchanged", check_after)  # noqa: B010
    try:
        runner = CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1", "LANG": "C.UTF-8"})
        with guard(60):
            given = folder / ("link.yaml" if via_link else "a.yaml")
            result = runner.invoke(app, ["record", str(given)])
        i18n.use("en")
    finally:
        setattr(record_module, "replay", real_replay)  # noqa: B010
        setattr(files, "_check_unchanged", real_check)  # noqa: B010
    label = f"{kind} at {when}{' via a link' if via_link else ''}"
    found: list[str] = []
    out = result.stdout + result.stderr
    if "Traceback" in out or "internal error" in out:
        found.append(f"{label}: {out!r:.500}")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        found.append(f"{label}: raised {type(result.exception).__name__}: {result.exception}")
    after = _state(folder)
    if any(name.endswith(".tmp") for name in after):
        found.append(f"{label}: a temporary file was left: {sorted(after)}")
    b_now = (folder / "b.yaml").read_bytes() if (folder / "b.yaml").is_file() else None
    if b_now not in (other, None):
        found.append(f"{label}: the other player's log was changed")
    if expected is None or not done:
        # Refused before the interference (an unusable or illegal log), or nothing to write.
        if result.exit_code == 0 and expected is None:
            found.append(f"{label}: recorded a log record_text refuses")
        return found, label + (" (not reached)" if not done else "")
    left = done[0]
    may_write = INTERFERENCES[kind]
    if expected.encode() == data:  # nothing to write: the file is left as it is
        if result.exit_code != 0 or after != left:
            found.append(f"{label}: nothing to record, yet exit {result.exit_code}: {out!r:.400}")
    elif may_write:
        if result.exit_code != 0:
            found.append(f"{label}: exit {result.exit_code}: {out!r:.400}")
        elif (folder / "a.yaml").read_bytes() != expected.encode():
            found.append(f"{label}: a.yaml is not the recorded log")
    else:
        said = ("cannot be recorded in place", "cannot be written: is a", "no such file")
        if result.exit_code != 2 or not any(s in result.stderr for s in said):
            found.append(f"{label}: exit {result.exit_code}, not refused: {out!r:.400}")
        if after != left:
            found.append(f"{label}: the file was not left as the other program left it")
    return found, label


# --------------------------------------------------------------------------- campaign: verify


def _spidercli() -> list[str]:
    return [sys.executable, "-m", "spidercli"]


def run_process(
    args: list[str],
    *,
    stdin: bytes = b"",
    stdout: str | None = None,
    stderr_to: str | None = None,
    timeout: float = 180,
    cwd: Path = ROOT,
) -> tuple[int | None, bytes, bytes]:
    """A real run of spidercli in its own process group, killed (and ``None`` as its status)
    after ``timeout`` seconds."""
    env = {**os.environ, "COLUMNS": "100", "LC_ALL": "C.UTF-8", "NO_COLOR": "1"}
    with contextlib.ExitStack() as stack:
        out: Any = subprocess.PIPE
        err: Any = subprocess.PIPE
        if stdout is not None:
            out = stack.enter_context(open(stdout, "wb"))
        if stderr_to is not None:
            err = stack.enter_context(open(stderr_to, "wb"))
        proc = subprocess.Popen(
            [*_spidercli(), *args],
            stdin=subprocess.PIPE,
            stdout=out,
            stderr=err,
            cwd=cwd,
            env=env,
            start_new_session=True,
        )
        try:
            o, e = proc.communicate(stdin, timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            o, e = proc.communicate()
            return None, o or b"", e or b""
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
    return proc.returncode, o or b"", e or b""


GAMES = sorted((ROOT / "fixtures").glob("*.yaml")) + sorted(
    (ROOT / "fixtures" / "batch").glob("*.yaml")
)


def with_player(data: bytes, size: int, rng: random.Random) -> bytes:
    """``data`` with a player name of ``size`` characters (some of them escaped in reports)."""
    alphabet = "ab\u202ec\x1bd\u00e9\u2660 "
    name = "".join(rng.choice(alphabet) for _ in range(size))
    lines = [line for line in data.split(b"\n") if not line.startswith(b"player:")]
    return b"player: " + json.dumps(name).encode() + b"\n" + b"\n".join(lines)


def verify_case(rng: random.Random, root: Path) -> tuple[list[str], list[str], bytes]:
    """A folder of logs with long paths and players, and perhaps a large log on stdin."""
    folder = root / "v"
    if folder.exists():
        subprocess.run(["rm", "-rf", str(folder)], check=True)
    folder.mkdir()
    paths: list[str] = []
    for i in range(rng.choice([1, 3, 16, 17, 40, 64])):
        depth = rng.choice([0, 0, 1, 5, 14])
        sub = folder
        for d in range(depth):
            sub = sub / (f"{d}" + "d" * rng.randrange(1, 250))
        sub.mkdir(parents=True, exist_ok=True)
        name = f"{i:02}" + "n" * rng.randrange(0, 200) + ".yaml"
        data = rng.choice(GAMES).read_bytes()
        if rng.random() < 0.3:
            data = with_player(data, rng.choice([10, 5000, 70_000, 140_000, 600_000]), rng)
        if rng.random() < 0.1:
            data = byte_mutate(rng, data)
        (sub / name).write_bytes(data)
        paths.append(str(sub / name))
    stdin = b""
    args = [str(folder)]
    if rng.random() < 0.5:
        data = rng.choice(GAMES).read_bytes()
        size = rng.choice([0, 65_535, 65_536, 65_537, 200_000, 1024 * 1024 - 1, 1024 * 1024 + 1])
        size = max(size, rng.randrange(1024 * 1024 + 2)) if rng.random() < 0.3 else size
        data = data + b"#" * max(0, size - len(data) - 1) + b"\n"
        stdin = data
        args.insert(rng.randrange(2), "-")
    fmt = rng.choice(["jsonl", "json", "csv", "table", "concise", "github"])
    return [*args, "-f", fmt], paths, stdin


def check_verify(rng: random.Random, root: Path) -> tuple[list[str], str]:
    args, paths, stdin = verify_case(rng, root)
    jobs = rng.choice([2, 2, 3, 4])
    one = run_process(["verify", *args, "-j", "1"], stdin=stdin)
    many = run_process(["verify", *args, "-j", str(jobs)], stdin=stdin)
    label = f"{len(paths)} logs, stdin {len(stdin)} bytes, -j {jobs}, {args[-1]}"
    found = []
    if many[0] is None or one[0] is None:
        found.append(f"{label}: hung (-j 1: {one[0]}, -j {jobs}: {many[0]})")
    elif one != many:
        found.append(f"{label}: -j 1 exit {one[0]}, -j {jobs} exit {many[0]}; outputs differ")
    for _, out, err in (one, many):
        if b"Traceback" in err or b"internal error" in err + out:
            found.append(f"{label}: {err[-500:]!r}")
    return found, label


# ----------------------------------------------------------------------------- campaign: full

EXAMPLE = "fixtures/example-spider-1suit-117.yaml"
ILLEGAL = "fixtures/illegal/group-mixed-suits.yaml"
CODES = ["SP2-S1C-AAAAABD", "SD1-S1-AAAABIW", "KP2-17", "SP4-S1C-AAAAAAB", "bad-code"]
LOGS = [EXAMPLE, ILLEGAL, "fixtures/example-spiderette-53.yaml", "tests/hostile/long-player.yaml",
        "tests/hostile/nul.yaml", "fixtures/batch", "no-such.yaml"]  # fmt: skip


COMMANDS = ["replay", "duel", "deal", "solve", "hint", "verify", "tournament", "record", "schema",
            "import", "help", "version"]  # fmt: skip
REPLAY_OPTIONS = [["--json"], ["--show", "every"], ["--show", "final"], ["--show", "0,5"],
                  ["--show", "99999"], ["--on-illegal", "skip"], ["--rules", "kpat"],
                  ["--rules", "duel"], ["--rules", "pavouk"], ["--explain"],
                  ["--max-log-bytes", "100"]]  # fmt: skip


def command_line(rng: random.Random) -> list[str]:
    """A random command line of one of spidercli's commands."""
    cmd = rng.choice(COMMANDS)
    log = rng.choice(LOGS)
    lang = rng.choice([[], [], ["--lang", "cs"], ["--lang", "fi"]])
    if cmd == "help":
        return [*rng.choice([[], ["replay"], ["verify"], ["import", "kpat"]]), "--help"]
    if cmd == "version":
        return ["--version"]
    if cmd == "replay":
        extra = rng.sample(REPLAY_OPTIONS, rng.randint(0, 3))
        return ["replay", log, *[a for e in extra for a in e], *lang]
    if cmd == "duel":
        return ["duel", "fixtures/duel-1suit-win.yaml", "fixtures/duel-finish.yaml",
                *rng.choice([[], ["--json"]])]  # fmt: skip
    if cmd == "deal":
        return ["deal", rng.choice(CODES), *rng.choice([[], ["--json"], ["--describe"]]), *lang]
    if cmd == "solve":
        return ["solve", rng.choice(CODES[:2]), "--timeout", "1", *rng.choice([[], ["--json"]])]
    if cmd == "hint":
        return ["hint", rng.choice([EXAMPLE, ILLEGAL, "fixtures/example-spiderette-53.yaml"]),
                "--timeout", "1", *rng.choice([[], ["--json"]])]  # fmt: skip
    if cmd == "verify":
        fmt = rng.choice(["table", "json", "jsonl", "csv", "junit", "github", "concise"])
        return ["verify", log, rng.choice([EXAMPLE, "fixtures"]), "-f", fmt,
                "-j", rng.choice(["1", "2"]), *lang]  # fmt: skip
    if cmd == "tournament":
        return ["tournament", "fixtures/tournament", *rng.choice([[], ["-f", "json"]])]
    if cmd == "record":
        return ["record", "RECORD", *lang]
    if cmd == "schema":
        return ["schema", *rng.choice([[], ["--report"], ["--verify"]])]
    return ["import", "kpat", rng.choice([str(p.relative_to(ROOT)) for p in KPAT_SAVES]), *lang]


def check_full(rng: random.Random, root: Path) -> tuple[list[str], str]:
    args = command_line(rng)
    if "RECORD" in args:
        log = root / "r.yaml"
        args[args.index("RECORD")] = str(log)
        source = rng.choice(RECORDABLE)
    label = " ".join(args)
    normal_out = str(root / "out")
    results = []
    for stdout in (normal_out, "/dev/full"):
        if "record" in args:
            log.write_bytes(source)
        results.append(run_process(args, stdout=stdout, timeout=120))
    (status, _, err), (full_status, _, full_err) = results
    wrote = Path(normal_out).stat().st_size > 0
    found = []
    if full_status is None or status is None:
        return [f"{label}: hung"], label
    text = full_err.decode("utf-8", "replace")
    if "Traceback" in text or "internal error" in text:
        found.append(f"{label}: {text[-600:]!r}")
    if wrote:
        last = text.splitlines()[-1] if text else ""
        # STDOUT_FULL in English; in Czech or Finnish its words, with the system's reason.
        if full_status != 2 or not (last.startswith("spidercli: ") and last.endswith(NO_SPACE)):
            found.append(f"{label}: exit {full_status} (normally {status}): {text[-400:]!r}")
    elif (full_status, full_err) != (status, err):
        found.append(f"{label}: wrote nothing, yet exit {full_status} (normally {status})")
    return found, label


# ---------------------------------------------------------------------------- campaign: sweep

# The deals of the resumed files: won (their logs real), gave up, proven unwinnable (a lock), each
# solved once per campaign within a budget of positions (the same records on any machine).
SWEEP_DEALS = [
    ("SD1-S1-AAAAAAB", 30_000),
    ("SD1-S1-AAAAAAC", 30_000),
    ("SP1-S1C-AAAAABD", 30_000),
    ("KP1-1", 300),
    ("PS4-14934", 100),
]
SWEEP_NEW = "SD1-S1-AAAAAAD"  # a deal no file has: solved by the sweep (within 2,000 positions)
# Values of the wrong type or size, as they are written in the JSON text.
HOSTILE_VALUES = [
    '"abc"',
    '""',
    '"1"',
    '"won"',
    "1e400",
    "-1e400",
    "1e-400",
    "-0.0",
    "1.5",
    "-1",
    "0",
    str(2**63),
    str(2**64),
    "1" * 30,
    "9" * 5000,
    "true",
    "false",
    "null",
    "[]",
    "{}",
    '{"a": 1}',
    "[[[[1]]]]",
    "NaN",
    "Infinity",
    "-Infinity",
    '"\\u0000"',
    '"\\ud800"',
    '"\\udfff\\ud800"',
    '"' + "x" * 3000 + '"',
]
SWEEP_KEYS = [
    *("game", "deal_id", "rules", "result", "moves", "lower_bound", "states"),
    *("seconds", "log", "states_to_win", "error", "extra"),
]
_sweep_records: list[dict[str, Any]] = []


def sweep_corpus() -> list[dict[str, Any]]:
    """The records of ``SWEEP_DEALS`` as a sweep writes them (solved once)."""
    from spidercli.sweeps import records as sweep_records

    if not _sweep_records:
        for code, states in SWEEP_DEALS:
            _sweep_records.append(sweep_records.solve_deal((code, 60.0, states, None)))
    return _sweep_records


def _deal_id(code: str) -> str:
    from spidercli.game.codes import Setup, parse_code

    return Setup.from_code(parse_code(code)).deal_id


def _forge(rng: random.Random, record: dict[str, Any], others: list[dict[str, Any]]) -> str:
    """One change to a record that a certificate must not survive (or that keeps it whole):
    another deal's code, deal ID or log, its moves, its log edited. What was done, in words."""
    other = rng.choice(others)
    log = record.get("log")
    kind = rng.randrange(9)
    if kind == 0:
        record["game"] = other["game"]
        return "another game"
    if kind == 1:
        record["game"], record["deal_id"] = other["game"], _deal_id(other["game"])
        return "another game and its deal_id"
    if kind == 2:
        record["deal_id"] = "".join(rng.choice("0123456789abcdef") for _ in range(16))
        return "another deal_id"
    if kind == 3:
        record["log"] = other.get("log") or rng.choice(others).get("log")
        return "another log"
    if kind == 4 and isinstance(record.get("moves"), int):
        record["moves"] += rng.choice([-2, -1, 1, 7])
        return "other moves"
    if kind == 5:
        record["result"] = "won"
        return "made won"
    if kind == 6 and isinstance(log, str):
        lines = log.splitlines(keepends=True)
        at = rng.randrange(len(lines))
        edit = rng.randrange(5)
        if edit == 0:
            del lines[at]
        elif edit == 1:
            lines[at] = rng.choice(["  - 1>2\n", "  - deal\n", "  - 3>7:2\n", "  - undo\n"])
        elif edit == 2:
            lines.insert(at, rng.choice(["rules: kpat\n", "  - 10>1\n", "player: x\n"]))
        elif edit == 3:
            lines = [x.replace("result: won", "result: open") for x in lines]
        elif isinstance(record.get("game"), str):  # (an earlier change may have dropped it)
            lines = [x.replace(record["game"], other["game"]) for x in lines]
        record["log"] = "".join(lines)
        return "its log edited"
    if kind == 7:
        record["result"] = rng.choice(["gave-up", "unwinnable"])
        return "made another result"
    return "kept whole"


def sweep_file(rng: random.Random) -> tuple[bytes, list[str], list[str]]:
    """A resumed file: records of the corpus (some twice), one to three of them with a field of
    the wrong type or a forged certificate, then edits of the bytes (a cut, a missing last line
    break, NULs, bytes that are not UTF-8, a BOM, CR LF, blank lines, a line past the limit, deep
    nesting, lines doubled or swapped). Its bytes, the sweep's deals, what was done."""
    corpus = sweep_corpus()
    chosen = [dict(rng.choice(corpus)) for _ in range(rng.randint(0, 7))]
    done: list[str] = []
    raw: dict[str, str] = {}
    for _ in range(rng.randint(0, 3) if chosen else 0):
        record = rng.choice(chosen)
        if rng.random() < 0.5:
            done.append(_forge(rng, record, corpus))
        else:
            key = rng.choice(SWEEP_KEYS)
            if rng.random() < 0.1:
                record.pop(key, None)
                done.append(f"{key} dropped")
            else:
                mark = f"@@RAW{len(raw)}@@"
                raw[mark] = rng.choice(HOSTILE_VALUES)
                record[key] = mark
                done.append(f"{key}: {raw[mark][:20]}")
    text = "".join(json.dumps(r, ensure_ascii=rng.random() < 0.5) + "\n" for r in chosen)
    for mark, value in raw.items():
        text = text.replace(f'"{mark}"', value)
    data = bytearray(text.encode("utf-8", "surrogatepass"))
    for _ in range(rng.choices([0, 1, 2], [6, 3, 1])[0]):
        kind = rng.randrange(11)
        at = rng.randrange(len(data) + 1)
        if kind == 0:
            del data[at:]
            done.append("cut")
        elif kind == 1 and data.endswith(b"\n"):
            del data[-1:]
            done.append("no last line break")
        elif kind == 2:
            data[at:at] = b"\x00"
            done.append("NUL")
        elif kind == 3:
            data[at:at] = rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"])
            done.append("not UTF-8")
        elif kind == 4:
            data[0:0] = b"\xef\xbb\xbf"
            done.append("BOM")
        elif kind == 5:
            data = bytearray(bytes(data).replace(b"\n", b"\r\n"))
            done.append("CR LF")
        elif kind == 6:
            data[at:at] = rng.choice([b"\n", b"\n\n", b"   \n", b"\t\n"])
            done.append("blank line")
        elif kind == 7 and rng.random() < 0.1:
            data += b'{"game": "' + b"x" * (4 << 20) + b'", "result": "won"}\n'
            done.append("a line past the limit")
        elif kind == 8:
            depth = rng.choice([50, 5000, 200_000])
            data += b"[" * depth + b"]" * depth + b"\n"
            done.append(f"nesting {depth}")
        elif kind == 9:
            lines = bytes(data).split(b"\n")
            if len(lines) > 2:
                i, j = rng.randrange(len(lines) - 1), rng.randrange(len(lines) - 1)
                lines[i], lines[j] = lines[j], lines[i]
                data = bytearray(b"\n".join(lines))
                done.append("lines swapped")
        else:
            line = rng.choice(bytes(data).split(b"\n") or [b""])
            data[at:at] = line + b"\n"
            done.append("a line doubled")
    codes = list(dict.fromkeys(r["game"] for r in corpus if rng.random() < 0.7))
    if rng.random() < 0.3:
        codes.append(SWEEP_NEW)
    return bytes(data), codes or [SWEEP_NEW], done


def _record(line: bytes) -> dict[str, Any] | None:
    """The record on a line, checked here on its own (not by the code under test): a JSON
    object with a game and a result, its counts whole numbers from 0 below 2^63, its seconds a
    finite number from 0, its texts text, a win's moves and log given; None otherwise."""
    try:
        value = json.loads(line.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict) or not isinstance(value.get("game"), str):
        return None
    if value.get("result") not in ("won", "unwinnable", "gave-up"):
        return None
    for key in ("moves", "lower_bound", "states", "states_to_win"):
        n = value.get(key)
        if n is not None and not (type(n) is int and 0 <= n < 2**63):
            return None
    seconds = value.get("seconds")
    if seconds is not None and (
        type(seconds) not in (int, float) or not 0 <= seconds < float("inf")
    ):
        return None
    for key in ("deal_id", "rules", "log", "error"):
        text = value.get(key)
        if text is not None and (
            not isinstance(text, str) or any(0xD800 <= ord(c) < 0xE000 for c in text)
        ):
            return None
    if value["result"] == "won" and (value.get("moves") is None or value.get("log") is None):
        return None
    return value


def _records_of(data: bytes) -> tuple[list[dict[str, Any]], bool]:
    """The records a file holds (``_record``), and whether every line that is not blank is
    one."""
    records = []
    whole = True
    for line in data.split(b"\n"):
        if not line.strip():
            continue
        record = _record(line)
        if record is None:
            whole = False
        else:
            records.append(record)
    return records, whole


def _certifies(path: Path, code: str) -> bool:
    """Whether the log at ``path`` replays as a win of ``code``'s deal, every entry legal."""
    from spidercli.game.rules import CLASSIC
    from spidercli.logs.reader import parse_log
    from spidercli.play.replay import replay

    try:
        log = parse_log(path.read_text(encoding="utf-8"), str(path))
        report = replay(log, rules=CLASSIC)
    except (InputError, UnicodeDecodeError):
        return False
    return report.ok and report.result == "won" and log.deal.deal_id == _deal_id(code)


def check_sweep(
    rng: random.Random, root: Path, data: bytes, codes: list[str]
) -> tuple[list[str], str]:
    """``run_sweep`` resuming ``data`` (``--manifest`` half the time): refused with exit status
    2 naming the file (and the line of a record), the file left as it was; or resumed, the file
    then all records, the earlier ones kept byte for byte, a record for each deal of the sweep
    (a new one only for a deal that had none), and, with a manifest, every certificate written a
    log that replays as a win of its own deal. Never another exception."""
    from spidercli.errors import OutputError
    from spidercli.text import i18n

    folder = root / "sweep"
    if folder.exists():
        subprocess.run(["rm", "-rf", str(folder)], check=True)
    folder.mkdir()
    out = folder / "out.jsonl"
    out.write_bytes(data)
    manifest = folder / "cup" / "m.yml" if rng.random() < 0.5 else None
    label = f"{len(codes)} deals" + (", with a manifest" if manifest else "")
    found: list[str] = []
    stderr = io.StringIO()
    i18n.use("en")
    try:
        with guard(120):
            status = sweep_to_end(
                codes,
                timeout=30.0,
                max_states=2000,
                jobs=1,
                output=str(out),
                manifest=None if manifest is None else str(manifest),
                stdout=io.StringIO(),
                stderr=stderr,
            )
    except InputError as err:
        text = str(err)
        if "internal error" in text or err.path != str(out):
            found.append(f"refused, not naming the file: {text[:300]}")
        if out.read_bytes() != data:
            found.append(f"refused, yet the file changed: {text[:300]}")
        if manifest is not None and (manifest.exists() or any(manifest.parent.rglob("*.yaml"))):
            found.append("refused, yet a manifest or a certificate was written")
        return found, f"{label}: refused: {text[:120]}"
    except OutputError as err:
        return [f"OutputError on a writable folder: {err.message[:300]}"], label
    except Hang:
        raise
    except BaseException as err:
        return [f"raised {type(err).__name__}: {str(err)[:300]}"], label
    after = out.read_bytes()
    records, whole = _records_of(after)
    if not whole or (after and not after.endswith(b"\n")):
        found.append("resumed, yet the file is not all records")
    ended = data.rfind(b"\n") + 1
    kept = data[:ended]  # a cut last line is removed, a whole one gets its line break
    tail = data[ended:]
    if tail.strip() and _records_of(tail)[1]:
        kept = data + b"\n"
    if not after.startswith(kept):
        found.append("resumed, yet the earlier records were not kept as they were")
    before = [r["game"] for r in _records_of(kept)[0]]
    games = [r["game"] for r in records]
    for code in codes:
        if games.count(code) != max(before.count(code), 1):
            found.append(f"{code}: {games.count(code)} records, {before.count(code)} before")
    if "spidercli" in stderr.getvalue() and "Traceback" in stderr.getvalue():
        found.append("a traceback on stderr")
    certified = 0
    if manifest is not None:
        for path in sorted((manifest.parent / "certificates").glob("*.yaml")):
            certified += 1
            if not _certifies(path, path.stem):
                found.append(f"a certificate that does not hold: {path.name}")
        last = {r["game"]: r for r in records}  # a deal recorded twice: the later record counts
        won = {code for code, r in last.items() if r["result"] == "won"}
        if status == 0:
            listed = [
                line.split()[1]
                for line in manifest.read_text().splitlines()
                if line.startswith("  - ")
            ]
            for code in listed:
                if (
                    code not in won
                    or not (manifest.parent / "certificates" / f"{code}.yaml").is_file()
                ):
                    found.append(f"{code} in the manifest without a record and certificate")
        elif status != 1 or manifest.exists() or won & set(codes):
            found.append(f"exit {status} with a manifest")
    elif status != 0:
        found.append(f"exit {status}")
    return found, f"{label}: resumed ({certified} certificates)"


# ------------------------------------------------------------------------------ the campaigns


def _write(out: Path | None, name: str, data: bytes) -> str:
    if out is None:
        return "(not written)"
    path = out / name
    path.write_bytes(data)
    return str(path)


def run_campaign(
    name: str, cases: int, seed: int, seconds: float, out: Path | None, progress: int
) -> tuple[Counter[str], list[tuple[str, list[str]]]]:
    """Run ``cases`` inputs of campaign ``name`` (or for ``seconds``); the counts and each failing
    input (where it was written) with what went wrong."""
    rng = random.Random(seed)
    seeds = fast.corpus()
    stats: Counter[str] = Counter()
    failures: list[tuple[str, list[str]]] = []
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for n in range(cases):
            if seconds and time.monotonic() - start > seconds:
                break
            data = b""
            label = ""
            try:
                if name == "api":
                    data = log_input(rng, seeds)
                    with guard(60):
                        found = check_api(rng, data)
                elif name == "yaml":
                    if rng.random() < 0.6:
                        text = yamlish(rng)
                    else:
                        text = log_input(rng, seeds).decode("utf-8", "replace")
                    data = text.encode("utf-8", "surrogatepass")
                    with guard(60):
                        found, nodes_same, read = check_yaml(text)
                    stats["nodes differ"] += not nodes_same
                    if not nodes_same and out is not None:  # one verdict all the same: kept
                        _write(out, f"yaml-nodes-{stats['nodes differ']}.bin", data)
                    stats["read as logs"] += read
                elif name == "tags":
                    kind, text = tag_case(rng)
                    data = text.encode("utf-8", "surrogatepass")
                    with guard(60):
                        found, read = check_tags(kind, text, root, cli=stats["cases"] % 10 == 0)
                    stats["read"] += read
                    stats["through the CLI"] += stats["cases"] % 10 == 0
                elif name == "kpat":
                    data = kpat_input(rng)
                    found, imported, spent = check_kpat(data)
                    stats["imported"] += imported
                    key = "most CPU imported" if imported else "most CPU refused"
                    stats[key] = max(stats[key], int(spent * 1000))
                elif name == "record":
                    data = rng.choice(RECORDABLE)
                    if rng.random() < 0.8:
                        data = without_expect(data)
                    if rng.random() < 0.2:
                        data = byte_mutate(rng, data)
                    found, label = check_record(rng, root, data)
                    stats["interfered"] += "not reached" not in label
                elif name == "verify":
                    found, label = check_verify(rng, root)
                elif name == "sweep":
                    data, codes, edits = sweep_file(rng)
                    found, label = check_sweep(rng, root, data, codes)
                    label += f" ({', '.join(edits) or 'as written'})"
                    stats["refused"] += ": refused: " in label
                    stats["resumed"] += ": resumed" in label
                    stats["forged"] += any(
                        e.startswith(("another", "other", "made", "its log")) for e in edits
                    )
                    stats["with a manifest"] += "with a manifest" in label
                    if "certificates)" in label:
                        stats["certificates replayed"] += int(label.split("(")[1].split()[0])
                else:
                    found, label = check_full(rng, root)
            except Hang as err:
                found = [str(err)]
            stats["cases"] += 1
            if found:
                where = _write(out, f"hostile-{name}-{len(failures) + 1}.bin", data) if data else ""
                failures.append((where or label, found))
                print(f"{name} case {n}: {where} {label}", *found, sep="\n  ", flush=True)
            if progress and stats["cases"] % progress == 0:
                print(summary(name, stats, failures, start), flush=True)
    return stats, failures


def summary(name: str, stats: Counter[str], failures: list[Any], start: float) -> str:
    extra = ", ".join(f"{k} {v}" for k, v in sorted(stats.items()) if k != "cases")
    return (
        f"{name}: {stats['cases']} cases{', ' + extra if extra else ''}; "
        f"{len(failures)} failing, {time.monotonic() - start:.0f} s"
    )


CAMPAIGNS = ["api", "yaml", "tags", "kpat", "record", "verify", "full", "sweep"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("campaign", choices=[*CAMPAIGNS, "all"])
    parser.add_argument("--cases", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=0, help="stop after this long (each)")
    parser.add_argument("--out", type=Path, default=None, help="where to write failing inputs")
    parser.add_argument("--progress", type=int, default=100, help="a line every N cases")
    args = parser.parse_args(argv)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
    failed = False
    for name in CAMPAIGNS if args.campaign == "all" else [args.campaign]:
        start = time.monotonic()
        stats, failures = run_campaign(
            name, args.cases, args.seed, args.seconds, args.out, args.progress
        )
        print(summary(name, stats, failures, start), flush=True)
        failed = failed or bool(failures)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
