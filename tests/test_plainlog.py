"""The quick reading of a plain ``moves:`` list (spidercli/plainlog.py) against the strict YAML
reader: over generated logs, usual and odd, both give the same MoveLog (entries, lines, keys) or
the same error (message and line)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spidercli.errors import InputError
from spidercli.movelog import PlainEntries, parse_log, parse_yaml_log
from spidercli.plainlog import quick_log
from tests.helpers import ROOT

CORPUS = sorted(
    p
    for folder in (
        "fixtures",
        "fixtures/batch",
        "fixtures/bad",
        "fixtures/illegal",
        "tests/hostile",
    )
    for p in (ROOT / folder).glob("*.yaml")
)


def outcome(reader: Any, text: str) -> tuple[Any, ...]:
    """The log and what replay reads of it (its entries one by one, its actions, whether it
    has an undo), or the error's message and line."""
    try:
        log = reader(text, "log.yaml")
    except InputError as err:
        return ("error", str(err), err.line)
    entries = tuple(log.entries)
    indexed = tuple(log.entries[i] for i in range(-len(entries), len(entries)))
    assert indexed == entries + entries
    return ("ok", log, entries, log.actions, log.has_undo)


def heads(paths: list[Path]) -> list[str]:
    """The part of each file before its last ``moves:``, or the whole file."""
    found = []
    for path in paths:
        text = path.read_bytes().decode("utf-8", "replace")
        at = text.rfind("\nmoves:")
        found.append(text[: at + 1] if at >= 0 else text)
    return found


HEADS = heads(CORPUS)
PIECES = [
    "game: SP1-S1C-AAAAABD\n",
    "game: SP4-S1C-AAAAABD\n",
    "rules: classic\n",
    "rules: nonsense\n",
    "player: |\n  Ann\n",
    "player: Ann\n",
    "expect:\n  moves: 3\n",
    "expect:\n",
    "time: 1.5\n",
    "moves: [3>7]\n",
    "moves:\n",
    "...\n",
    "---\n",
    "player: [a,\n",
    "player: {a: 1,\n",
    "player: 'a\n",
    'player: "a\n',
    "# a comment\n",
    "player: x\x85",
    "player: x\u2028",
    "player: x\r\n",
    "  - 1>2\n",
    "\ufeff",
    "\t",
    "",
]
TOKENS = [
    "10>9",
    "1>2:3",
    "3>7",
    "deal",
    "undo",
    "finish",
    "flip 4",
    "tap 3",
    "tap 3:2",
    "'6>2:2'",
    "'deal'",
    "'flip 2'",
    '"deal"',
    "3>77777",
    "0>0",
    "99>1",
    "1 > 2",
    "3:7",
    "1>2:",
    "'it''s'",
    "- 1>2",
    "# c",
    "",
    "1>2 # c",
    "1>2 ",
    "yes",
    "null",
    "~",
    "!!str 1>2",
    "&a 1>2",
    "*a",
    "[1>2]",
    "deal\r",
    "Deal",
    "flip  4",
    "1>2:0",
    "'1>2",
]
MARKERS = ["moves:\n", "moves:\n", "moves:\n", "moves: \n", "moves:  # c\n", "moves: []\n"]


GOOD_HEADS = heads(sorted((ROOT / "fixtures").glob("*.yaml")))  # the fixture games'
GOOD_TOKENS = TOKENS[:12]  # the spellings the quick path takes


@st.composite
def logs(draw: st.DrawFn) -> str:
    """A log near the usual shape (half of them) or anywhere around it."""
    if draw(st.booleans()):  # usual: a fixture's head, good actions, now and then one odd thing
        head = draw(st.sampled_from(GOOD_HEADS))
        tokens = draw(st.lists(st.sampled_from(GOOD_TOKENS), min_size=1, max_size=12))
        if draw(st.integers(0, 3)) == 0:
            at = draw(st.integers(0, len(tokens)))
            tokens.insert(at, draw(st.sampled_from(TOKENS)))
        indent = draw(st.sampled_from(["", "  ", "    "]))
        rows = [f"{indent}- {token}" for token in tokens]
        marker = "moves:\n"
        tail = draw(st.sampled_from(["\n", "\n", ""]))
    else:
        head = draw(st.sampled_from(HEADS))
        if draw(st.booleans()):
            head += "".join(draw(st.lists(st.sampled_from(PIECES), max_size=3)))
        indent = draw(st.sampled_from(["", "  ", "    "]))
        rows = []
        for token in draw(st.lists(st.sampled_from(TOKENS), max_size=12)):
            odd = draw(st.sampled_from(["", "", "", "", "", " ", "\t", "-"]))
            rows.append(f"{indent}{odd}- {token}" if odd != "-" else token)
        marker = draw(st.sampled_from(MARKERS))
        tail = draw(st.sampled_from(["\n", "\n", "", "\n\n", "\n# end\n"]))
    return head + marker + "\n".join(rows) + (tail if rows else "")


@settings(max_examples=600)
@given(text=logs())
def test_the_quick_reading_is_the_yaml_readers(text: str) -> None:
    assert outcome(parse_log, text) == outcome(parse_yaml_log, text)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(ROOT)))
def test_each_corpus_file_reads_the_same_both_ways(path: Path) -> None:
    text = path.read_bytes().decode("utf-8", "replace")
    assert outcome(parse_log, text) == outcome(parse_yaml_log, text)


def test_the_usual_logs_take_the_quick_path() -> None:
    """The quick path is taken (else the tests above compare the YAML reader with itself)."""
    taken = [
        p.name
        for p in sorted((ROOT / "fixtures").glob("*.yaml"))
        if quick_log(p.read_text(encoding="utf-8"), p.name, parse_yaml_log) is not None
    ]
    assert "example-spider-1suit-117.yaml" in taken
    assert "spider-1suit-win.yaml" in taken  # quoted '6>2:2' entries
    assert "duel-1suit-win.yaml" in taken  # flip N entries
    text = "game: SP1-S1C-AAAAABD\nmoves:\n  - 10>9\n  - deal\n"
    quick = quick_log(text, "log.yaml", parse_yaml_log)
    assert quick is not None
    assert [(e.index, e.line, e.text) for e in quick.entries] == [(1, 3, "10>9"), (2, 4, "deal")]
    for odd in ("\r\n", "  - 10>9 # c\n", '  - "deal"\n', "   - deal\n", "\n"):
        assert quick_log(text + odd, "log.yaml", parse_yaml_log) is None, odd


def test_how_often_generated_logs_take_the_quick_path() -> None:
    """The generator reaches the quick path as well as the fallback."""
    quick = slow = 0

    @settings(max_examples=300, database=None)
    @given(text=logs())
    def count(text: str) -> None:
        nonlocal quick, slow
        if quick_log(text, "log.yaml", parse_yaml_log) is None:
            slow += 1
        else:
            quick += 1

    count()
    assert quick >= 20
    assert slow >= 20


def test_plain_entries_are_a_sequence_of_entries() -> None:
    """The quick reader's entries, made on demand, behave as the tuple the YAML reader gives."""
    text = "game: SP1-S1C-AAAAABD\nmoves:\n  - 10>9\n  - 'deal'\n  - undo\n"
    quick = quick_log(text, "log.yaml", parse_yaml_log)
    assert quick is not None
    plain = quick.entries
    assert isinstance(plain, PlainEntries)
    yaml_entries = parse_yaml_log(text, "log.yaml").entries
    assert isinstance(yaml_entries, tuple)
    assert plain == yaml_entries
    assert yaml_entries == plain
    assert plain != yaml_entries[:2]
    assert plain != [*yaml_entries]  # as a tuple: equal to a tuple only
    assert hash(plain) == hash(yaml_entries)
    assert repr(plain) == repr(yaml_entries)
    assert len(plain) == 3
    assert plain[1:] == yaml_entries[1:]
    assert plain[-1] == yaml_entries[2]
    assert [e.line for e in plain] == [3, 4, 5]
    for past in (3, -4):
        with pytest.raises(IndexError):
            plain[past]
    assert quick.actions == [e.action for e in yaml_entries]
    assert quick.has_undo
    assert not parse_log("game: SP1-S1C-AAAAABD\nmoves:\n  - 10>9\n", "log.yaml").has_undo
