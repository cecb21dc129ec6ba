"""The quick reading of a plain ``moves:`` list (spidercli/logs/plain.py) against the strict YAML
reader: over generated logs, usual and odd, both give the same MoveLog (entries, lines, keys) or
the same error (message and line)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from yaml.resolver import Resolver

from spidercli.errors import InputError
from spidercli.logs.plain import _text, quick_head, quick_log
from spidercli.logs.reader import parse_log, parse_yaml_log
from spidercli.logs.yamlreader import STR_TAG
from spidercli.play.logtypes import Expect, PlainEntries
from tests.helpers import ROOT

# Every test runs with libyaml's loader and with the pure-Python one (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("yaml_loader")

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


@settings(max_examples=600, deadline=None)  # a shared machine: timing is not the point
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


# ------------------------------------------------------------- the keys before the list
# Lines a head is made of: the usual ones, and near misses of each kind (spelling, value, indent,
# YAML's other readings of a plain word), so that the quick head reader and the YAML reader are
# compared where they could part.
HEAD_LINES = [
    "game: SP1-S1C-AAAAABD",
    "game: SD2-S1P-AAAAAAB",
    "game:   SP4-S1C-AAAAAAA",
    "game: sp1-s1c-aaaaabd",
    "game: SP1-S1C-AAAAABD ",
    "game: SP9-S1C-AAAAABD",
    "game: SP1-S1C-AAAAABD # c",
    "game: 'SP1-S1C-AAAAABD'",
    "game: yes",
    "game:",
    "Game: SP1-S1C-AAAAABD",
    "rules: classic",
    "rules: DUEL",
    "rules: pavouk",
    "rules: kpat",
    "rules: nonsense",
    "rules: on",
    "rules:",
    "player: Ann",
    "player: Ann Smith",
    "player: Ann  Smith",
    "player: a.b-c_d",
    "player: 123",
    "player: 1.5",
    "player: 2026-11-30",
    "player: null",
    "player: Null",
    "player: yes",
    "player: -x",
    "player: x -y",
    "player:",
    "time: 12.5",
    "expect:",
    "expect: {}",
    "expect: ",
    "  result: won",
    "  result: Open",
    "  result: blocked",
    "  result: resigned",
    "  result: lost",
    "  result: no",
    "  result: 3",
    "  moves: 117",
    "  moves: -0",
    "  moves: 007",
    "  moves: 0x10",
    "  moves: 1_000",
    "  moves: +3",
    "  moves: 1e3",
    "  moves: 9999999999999999",
    "  moves: abc",
    "  score: -12",
    "  score: 0",
    "  runs: 8",
    "  runs: 8.0",
    "    runs: 8",
    "   score: 1",
    "  moves: 3 # c",
    "  moves:",
    "# a comment",
    "  # an indented comment",
    "",
    " ",
    "---",
    "deal: x",
    "moves: []",
]
USUAL_HEAD = ["game: SP1-S1C-AAAAABD", "rules: classic", "player: Ann", "expect:"]
USUAL_EXPECT = ["  result: won", "  moves: 117", "  score: -12", "  runs: 8"]


@st.composite
def plain_heads(draw: st.DrawFn) -> str:
    """Head lines in any order: mostly usual ones (each key once, an expect block under its
    key), with now and then a near miss anywhere."""
    lines = draw(st.permutations(USUAL_HEAD))[: draw(st.integers(1, 4))]
    if "expect:" in lines:
        at = lines.index("expect:") + 1
        lines[at:at] = draw(st.permutations(USUAL_EXPECT))[: draw(st.integers(0, 4))]
    for _ in range(draw(st.integers(0, 2))):
        lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(HEAD_LINES)))
    return "".join(line + "\n" for line in lines)


@settings(max_examples=800, deadline=None)
@given(head=plain_heads(), body=st.sampled_from(["  - 3>7\n", "- deal\n  - undo\n", "  - 1>2\n"]))
def test_the_quick_head_reading_is_the_yaml_readers(head: str, body: str) -> None:
    text = head + "moves:\n" + body
    assert outcome(parse_log, text) == outcome(parse_yaml_log, text)


def test_the_quick_head_reader_reads_the_usual_heads() -> None:
    """The quick head reader answers for the fixture games' heads and refuses a near miss (else
    the test above compares the YAML reader with itself)."""
    read = [head for head in GOOD_HEADS if quick_head(head, "log.yaml", ()) is not None]
    assert len(read) >= len(GOOD_HEADS) - 4  # the written-out deals go to the YAML reader
    head = "game: SP1-S1C-AAAAABD\nrules: Duel\nplayer: Ann Smith\nexpect:\n  moves: -0\n"
    log = quick_head(head, "log.yaml", ())
    assert log is not None
    assert (log.rules, log.rules_line, log.player, log.expect) == (
        "duel",
        2,
        "Ann Smith",
        Expect(moves=0, line=5),
    )
    for odd in ("player: null\n", "expect:\n", "expect:\n  moves: 007\n", "rules: x\n", " \n"):
        assert quick_head("game: SP1-S1C-AAAAABD\n" + odd, "log.yaml", ()) is None, odd


@given(st.from_regex(r"[A-Za-z][\w.-]{0,8}", fullmatch=True))
def test_a_plain_word_taken_as_text_is_text_to_yaml(word: str) -> None:
    if _text(word):
        tag = Resolver().resolve(yaml.ScalarNode, word, (True, False))  # type: ignore[no-untyped-call]
        assert tag == STR_TAG


def test_yamls_other_readings_of_plain_words_are_not_text() -> None:
    """Each spelling YAML 1.1 reads as a boolean or null is known not to be text."""
    for word in ("yes", "no", "true", "false", "on", "off", "null", "y", "n", "nan", "e1", "x"):
        for spelling in {word, word.capitalize(), word.upper()}:
            tag = Resolver().resolve(yaml.ScalarNode, spelling, (True, False))  # type: ignore[no-untyped-call]
            assert _text(spelling) == (tag == STR_TAG), spelling


def test_each_near_miss_anywhere_in_a_usual_head_reads_the_same_both_ways() -> None:
    """Every head line of the list above, at every place in a usual head (after a line, and in
    place of it): the same log or error both ways. Deterministic, beside the property test."""
    usual = USUAL_HEAD + USUAL_EXPECT
    for odd in HEAD_LINES:
        for at in range(len(usual) + 1):
            for lines in ([*usual[:at], odd, *usual[at:]], [*usual[:at], odd, *usual[at + 1 :]]):
                text = "".join(line + "\n" for line in lines) + "moves:\n  - 3>7\n"
                assert outcome(parse_log, text) == outcome(parse_yaml_log, text), text
