"""`spidercli record` is lossless: only the expect block changes, whatever the line breaks, byte
order marks, indentation or scalar styles; the writer checks its own output before it replaces
the file; and, for any log that replays, the recorded log replays to the same verdict with the
same player and moves (a property test)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from spidercli.cli.app import app
from spidercli.game.actions import UNDO
from spidercli.game.codes import parse_code
from spidercli.game.engine import Game
from spidercli.game.rules import CLASSIC
from spidercli.judging import record as record_module
from spidercli.judging.record import Edit, check, record, rewrite
from spidercli.logs.reader import parse_log
from spidercli.logs.yamlreader import LogError
from spidercli.play.replay import replay
from tests.helpers import FIXTURES, run

runner = CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1"})
GAME = "game: SD1-S1-AAAABIW"
EXPECT = "expect:{nl}  result: open{nl}  moves: 1{nl}  score: 499{nl}  runs: 0{nl}"

# (what, the log, the log once recorded)
CASES = [
    (
        "lone CR",
        f"{GAME}\rplayer: bob\rmoves: [7>1]\r",
        f"{GAME}\rplayer: bob\r" + EXPECT.format(nl="\r") + "moves: [7>1]\r",
    ),
    (
        "mixed CRLF and LF",
        f"{GAME}\r\nplayer: bob\nexpect:\r\n  result: won\nmoves: [7>1]\r\n",
        f"{GAME}\r\nplayer: bob\n" + EXPECT.format(nl="\r\n") + "moves: [7>1]\r\n",
    ),
    (
        "NEL and U+2028 in a quoted player",
        f'{GAME}\nplayer: "a\x85b\u2028c"\nmoves: [7>1]\n',
        f'{GAME}\nplayer: "a\x85b\u2028c"\n' + EXPECT.format(nl="\n") + "moves: [7>1]\n",
    ),
    (
        "a literal block scalar in expect",
        f"{GAME}\nexpect:\n  result: |\n    won\nplayer: bob\nmoves: [7>1]\n",
        f"{GAME}\n" + EXPECT.format(nl="\n") + "player: bob\nmoves: [7>1]\n",
    ),
    (
        "a folded block scalar in expect, a blank line after it",
        f"{GAME}\nexpect:\n  runs: 0\n  result: >-\n    won\n\nplayer: bob\nmoves: [7>1]\n",
        f"{GAME}\n" + EXPECT.format(nl="\n") + "\nplayer: bob\nmoves: [7>1]\n",
    ),
    (
        "an indented top-level mapping",
        f"  {GAME}\n  player: bob\n  moves: [7>1]\n",
        f"  {GAME}\n  player: bob\n"
        + "  expect:\n    result: open\n    moves: 1\n    score: 499\n    runs: 0\n"
        + "  moves: [7>1]\n",
    ),
    (
        "a double byte order mark",
        f"\ufeff\ufeff{GAME}\nmoves: [7>1]\n",
        f"\ufeff\ufeff{GAME}\n" + EXPECT.format(nl="\n") + "moves: [7>1]\n",
    ),
    (
        "expect last, no line break at the end",
        f"{GAME}\nmoves: [7>1]\nexpect: {{result: won}}",
        f"{GAME}\nmoves: [7>1]\n" + EXPECT.format(nl="\n")[:-1],
    ),
    (
        "comments kept, above moves and inside the old block's neighbours",
        f"# head\n{GAME}\nexpect:   # old\n  moves: 9  # wrong\n# about moves\nmoves:\n  - 7>1\n",
        f"# head\n{GAME}\n" + EXPECT.format(nl="\n") + "# about moves\nmoves:\n  - 7>1\n",
    ),
    (
        "a comment block above moves stays with it",
        f"{GAME}\nplayer: bob\n\n# the moves\n# (one)\nmoves: [7>1]\n",
        f"{GAME}\nplayer: bob\n\n"
        + EXPECT.format(nl="\n")
        + "# the moves\n# (one)\nmoves: [7>1]\n",
    ),
]


@pytest.mark.parametrize(("what", "before", "after"), CASES, ids=[c[0] for c in CASES])
def test_record_changes_only_the_expect_block(
    tmp_path: Path, what: str, before: str, after: str
) -> None:
    log = tmp_path / "log.yaml"
    log.write_bytes(before.encode("utf-8"))
    result = runner.invoke(app, ["record", str(log)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("recorded")
    assert log.read_bytes().decode("utf-8") == after
    again = runner.invoke(app, ["record", str(log)])
    assert again.stdout.startswith("unchanged") and log.read_bytes().decode("utf-8") == after
    replayed = runner.invoke(app, ["replay", str(log), "--json"])
    assert replayed.exit_code == 0 and json.loads(replayed.stdout)["expect"]["ok"]


def test_the_self_check_refuses_a_text_that_reads_back_differently() -> None:
    text = f"{GAME}\nplayer: bob\nmoves: [7>1]\n"
    values: dict[str, object] = {"result": "open", "moves": 1, "score": 499, "runs": 0}
    good = rewrite(text, values)
    check(text, good, values, "t.yaml")  # the real edit passes
    block = "expect:\n  result: open\n  moves: 1\n  score: 499\n  runs: 0\n"
    lost_player = Edit(f"{GAME}\n{block}moves: [7>1]\n", len(GAME) + 1, len(GAME) + 13, block)
    with pytest.raises(LogError, match="read back differently outside 'expect'"):
        check(text, lost_player, values, "t.yaml")
    moved = Edit(f"{GAME}\nplayer: bob\n{block}\nmoves: [7>1]\n", 33, 33, block)
    with pytest.raises(LogError, match="read back differently"):  # moves a line further down
        check(text, moved, values, "t.yaml")
    wrong = Edit(good.new.replace("score: 499", "score: 500"), good.start, good.end, good.block)
    with pytest.raises(LogError, match="would not read back as written"):
        check(text, wrong, values, "t.yaml")
    broken = Edit(good.new.replace("moves: [7>1]", "moves: [7>1"), good.start, good.end, block)
    with pytest.raises(LogError, match="would not read back"):
        check(text, broken, values, "t.yaml")


def test_record_leaves_the_file_alone_when_the_check_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "log.yaml"
    log.write_text(f"{GAME}\nplayer: bob\nmoves: [7>1]\n")
    before = log.read_bytes()

    def lossy(text: str, values: dict[str, object], path: str = "<log>") -> Edit:
        edit = rewrite(text, values, path)
        return Edit(edit.new.replace("player: bob\n", ""), edit.start, edit.end, edit.block)

    monkeypatch.setattr(record_module, "rewrite", lossy)
    result = runner.invoke(app, ["record", str(log)])
    assert result.exit_code == 2
    assert "cannot be recorded in place" in result.stderr and "left as it was" in result.stderr
    assert log.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.yaml"]


# --------------------------------------------------------------------- the round trip

CODES = ["SD1-S1-AAAABIW", "SP1-S1C-AAAAAAB", "SP2-S1C-AAAAABD", "SD2-S1-AAAAAAC"]
BREAKS = ["\n", "\r\n", "\r"]
PLAYER_CHARS = st.characters(
    blacklist_categories=("Cs", "Cc", "Cn"), blacklist_characters='"\\\ufeff'
) | st.sampled_from(["\x85", "\u2028", "\u2029", "\t", " ", "é", "♠"])


@st.composite
def played(draw: Any) -> tuple[str, list[str]]:
    """A game code and legal actions on it (with some undos)."""
    code = draw(st.sampled_from(CODES))
    game = Game.from_code(parse_code(code), CLASSIC)
    actions: list[str] = []
    for choice in draw(st.lists(st.integers(0, 10**6), max_size=25)):
        if actions and choice % 7 == 0:
            if game.play(UNDO) is None:
                actions.append("undo")
            continue
        legal = game.legal_actions()
        if not legal:
            break
        action = legal[choice % len(legal)]
        assert game.play(action) is None
        actions.append(str(action))
    return code, actions


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@st.composite
def logs(draw: Any) -> str:
    """A move log that replays, written in many ways: line breaks (one kind, or mixed), byte
    order marks, indentation, key order, comments, a player with odd characters, an old expect
    block in block, flow, literal or folded style, moves in flow or block style."""
    code, actions = draw(played())
    indent = " " * draw(st.sampled_from([0, 0, 1, 2]))
    breaks = draw(st.lists(st.sampled_from(BREAKS), min_size=1, max_size=3))
    entries: list[tuple[str, list[str]]] = [("game", [f"game: {code}"])]
    if draw(st.booleans()):
        player = draw(st.text(PLAYER_CHARS, min_size=1, max_size=12))
        entries.append(("player", [f"player: {_quoted(player)}"]))
    if draw(st.booleans()):
        entries.append(("rules", ["rules: classic"]))
    style = draw(st.sampled_from([None, "block", "flow", "literal", "folded", "comment"]))
    if style == "block":
        entries.append(("expect", ["expect:", "  result: won", "  moves: 3  # a guess"]))
    elif style == "flow":
        entries.append(("expect", ["expect: {result: won, score: 1}"]))
    elif style == "literal":
        entries.append(("expect", ["expect:", "  moves: 2", "  result: |", "    open"]))
    elif style == "folded":
        entries.append(("expect", ["expect:", "  result: >-", "    won", "", "  runs: 1"]))
    elif style == "comment":
        entries.append(("expect", ["expect:", "  # nothing yet", "  score: 5"]))
    quote = draw(st.sampled_from(["", "'", '"']))
    shown = [f"{quote}{a}{quote}" for a in actions]
    if draw(st.booleans()) or not actions:
        moves = ["moves: [" + ", ".join(shown) + "]"]
    else:
        moves = ["moves:"] + [f"  - {a}" for a in shown]
    if draw(st.booleans()):
        moves = ["# the moves", *moves]
    entries.append(("moves", moves))
    order = draw(st.permutations(range(len(entries))))
    lines: list[str] = []
    if draw(st.booleans()):
        lines.append("# a submitted log")
    for i in order:
        lines.extend(entries[i][1])
    text = ""
    for n, line in enumerate(lines):
        text += (indent + line if line else line) + breaks[n % len(breaks)]
    if draw(st.booleans()):  # no line break at the end
        text = text.rstrip("\r\n")
    bom: str = draw(st.sampled_from(["", "\ufeff", "\ufeff\ufeff"]))
    return bom + text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs())
def test_record_round_trip(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "log.yaml")
        with open(path, "wb") as handle:
            handle.write(text.encode("utf-8"))
        before = parse_log(text.lstrip("\ufeff"), path)
        old = replay(before)
        assert not old.illegal  # the strategy plays legal actions only
        done = record(path)
        with open(path, "rb") as handle:
            raw = handle.read()
        new_text = raw.decode("utf-8")
        bom = text[: len(text) - len(text.lstrip("\ufeff"))]
        assert new_text.startswith(bom) and not new_text[len(bom) :].startswith("\ufeff")
        after = parse_log(new_text.lstrip("\ufeff"), path)
        new = replay(after)
        assert new.ok and new.mismatches == ()  # the recorded log replays valid
        assert (new.result, new.game.moves, new.game.score, new.game.runs) == (
            old.result,
            old.game.moves,
            old.game.score,
            old.game.runs,
        )
        assert after.player == before.player
        assert after.rules == before.rules and after.deal == before.deal
        assert [e.text for e in after.entries] == [e.text for e in before.entries]
        shift = {e.line - b.line for e, b in zip(after.entries, before.entries, strict=True)}
        assert len(shift) <= 1  # the moves moved together, if at all
        assert done.expect == {
            "result": old.result,
            "moves": old.game.moves,
            "score": old.game.score,
            "runs": old.game.runs,
        }
        assert record(path).changed is False  # a second record changes nothing


# ------------------------------------------------------------- the record command, end to end

COMMENTED = """\
# A game in progress; keep this comment.
game: SD1-S1-AAAABIW   # the deal
player: alice

# the actions, in order
moves:
  - 7>1     # first
  - deal
"""


def test_record_adds_and_refreshes_the_expect_block(tmp_path: Path) -> None:
    log = tmp_path / "game.yaml"
    log.write_text(COMMENTED)
    result = run("record", str(log))
    assert result.exit_code == 0 and result.stdout.startswith("recorded")
    text = log.read_text()
    assert text == COMMENTED.replace(
        "# the actions",
        "expect:\n  result: open\n  moves: 2\n  score: 498\n  runs: 0\n# the actions",
    )
    assert run("replay", str(log)).exit_code == 0
    again = run("record", str(log))
    assert again.stdout.startswith("unchanged") and log.read_text() == text
    log.write_text(
        text.replace("score: 498", "score: 1000").replace("  - deal\n", "  - deal\n  - 5>3\n")
    )
    run("record", str(log))
    assert "  moves: 3\n  score: 497\n" in log.read_text()
    assert log.read_text().count("expect:") == 1 and "# first" in log.read_text()


def test_record_keeps_crlf_and_a_flow_expect(tmp_path: Path) -> None:
    log = tmp_path / "crlf.yaml"
    log.write_bytes(b"game: SD1-S1-AAAABIW\r\nexpect: {result: won}  # old\r\nmoves: [7>1]\r\n")
    assert run("record", str(log)).exit_code == 0
    assert log.read_bytes() == (
        b"game: SD1-S1-AAAABIW\r\nexpect:\r\n  result: open\r\n  moves: 1\r\n  score: 499\r\n"
        b"  runs: 0\r\nmoves: [7>1]\r\n"
    )


def test_record_refuses_illegal_and_unusable_logs(tmp_path: Path) -> None:
    illegal = tmp_path / "illegal.yaml"
    shutil.copyfile(FIXTURES / "batch" / "b-illegal.yaml", illegal)
    before = illegal.read_text()
    result = run("record", str(illegal))
    assert result.exit_code == 1 and "same-column" in result.stderr
    assert illegal.read_text() == before
    bad = tmp_path / "bad.yaml"
    shutil.copyfile(FIXTURES / "batch" / "d-unusable.yaml", bad)
    result = run("record", str(bad), str(tmp_path / "missing.yaml"))
    assert (
        result.exit_code == 2
        and "bad.yaml:3: " in result.stderr
        and "no such file" in result.stderr
    )
    assert list(tmp_path.glob(".*.tmp")) == []  # no temporary file left behind


def test_record_refuses_a_flow_style_log(tmp_path: Path) -> None:
    log = tmp_path / "flow.yaml"
    log.write_text("{game: SD1-S1-AAAABIW, moves: [7>1]}\n")
    result = run("record", str(log))
    assert result.exit_code == 2 and "flow style" in result.stderr
    assert log.read_text() == "{game: SD1-S1-AAAABIW, moves: [7>1]}\n"


def test_rewrite_only_touches_the_expect_lines() -> None:
    text = "game: SD1-S1-AAAAAAA\nexpect:\n  result: won\n  moves: 4\n# after\nmoves: []\n"
    out = rewrite(text, {"result": "open", "moves": 0}).new
    assert out == "game: SD1-S1-AAAAAAA\nexpect:\n  result: open\n  moves: 0\n# after\nmoves: []\n"


def test_record_keeps_a_byte_order_mark(tmp_path: Path) -> None:
    log = tmp_path / "bom.yaml"
    log.write_bytes(b"\xef\xbb\xbfgame: SD1-S1-AAAABIW\nmoves: [7>1]\n")
    assert run("record", str(log)).exit_code == 0
    data = log.read_bytes()
    assert data.startswith(b"\xef\xbb\xbfgame: SD1-S1-AAAABIW\nexpect:\n  result: open\n")
    assert run("replay", str(log)).exit_code == 0


# ------------------------------------------------------------ changes made while record runs
#
# Between reading a log and replacing it, record replays it and checks its edit: another program
# may act on the file meanwhile. The hook below does so deterministically, just before record's
# own check of its edit (the last step before the file is replaced).


def _meanwhile(monkeypatch: pytest.MonkeyPatch, act: Any) -> None:
    """Run ``act()`` while record is between reading the log and replacing it."""
    real = record_module.check

    def check_after_act(old: str, edit: Edit, values: dict[str, object], path: str) -> None:
        act()
        real(old, edit, values, path)

    monkeypatch.setattr(record_module, "check", check_after_act)


def _point(link: Path, target: Path) -> None:
    """Point the symbolic link ``link`` at ``target``, in one rename."""
    fresh = link.with_name(link.name + ".new")
    fresh.symlink_to(target)
    os.replace(fresh, link)


def test_a_link_pointed_elsewhere_meanwhile_changes_nothing_but_the_file_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The path is resolved once: the log read (ann's, through the link) is the log written;
    bob's log, which the link points at by the time the file is replaced, is left alone."""
    ann, bob = tmp_path / "ann.yaml", tmp_path / "bob.yaml"
    ann.write_text(f"{GAME}\nplayer: ann\nmoves: [7>1]\n")
    bob.write_text(f"{GAME}\nplayer: bob\nmoves: [7>1, 1>7]\n")
    theirs = bob.read_bytes()
    link = tmp_path / "current.yaml"
    link.symlink_to(ann)
    _meanwhile(monkeypatch, lambda: _point(link, bob))
    result = runner.invoke(app, ["record", str(link)])
    assert result.exit_code == 0, result.output
    assert ann.read_text() == f"{GAME}\nplayer: ann\n" + EXPECT.format(nl="\n") + "moves: [7>1]\n"
    assert bob.read_bytes() == theirs
    assert link.is_symlink() and link.resolve() == bob
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ann.yaml", "bob.yaml", "current.yaml"]


def _append(log: Path) -> None:
    with log.open("a") as handle:
        handle.write("# a note saved meanwhile\n")


def _same_size_same_time(log: Path) -> None:
    """An edit that keeps the size and the modification time (a file system that counts time
    coarsely, or a program that sets it back): only the bytes tell."""
    info = log.stat()
    log.write_bytes(log.read_bytes().replace(b"ann", b"amy"))
    os.utime(log, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert log.stat().st_size == info.st_size and log.stat().st_mtime_ns == info.st_mtime_ns


def _saved_by_rename(log: Path) -> None:
    """An editor's save: a new file renamed over the old one (the same bytes, another file)."""
    fresh = log.with_name("editor.tmp")
    fresh.write_bytes(log.read_bytes())
    os.replace(fresh, log)


def _removed(log: Path) -> None:
    log.unlink()


def _replaced_by_a_link(log: Path) -> None:
    _point(log, log.with_name("bob.yaml"))


@pytest.mark.parametrize(
    ("act", "why"),
    [
        (_append, "changed by another program"),
        (_same_size_same_time, "changed by another program"),
        (_saved_by_rename, "replaced by another file"),
        (_removed, "removed or renamed"),
        (_replaced_by_a_link, "replaced by another file"),
    ],
    ids=["appended", "same-size-same-time", "saved-by-rename", "removed", "replaced-by-a-link"],
)
def test_a_change_made_meanwhile_is_kept_and_the_log_not_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, act: Any, why: str
) -> None:
    log, bob = tmp_path / "ann.yaml", tmp_path / "bob.yaml"
    log.write_text(f"{GAME}\nplayer: ann\nmoves: [7>1]\n")
    bob.write_text(f"{GAME}\nplayer: bob\nmoves: [7>1, 1>7]\n")
    theirs = bob.read_bytes()
    after: dict[str, bytes | None] = {}

    def act_and_note() -> None:
        act(log)
        after["log"] = log.read_bytes() if log.exists() or log.is_symlink() else None

    _meanwhile(monkeypatch, act_and_note)
    result = runner.invoke(app, ["record", str(log)])
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"spidercli: error: {log}: cannot be recorded in place: it was {why} while it was being "
        "recorded; the file is left as it was\n"
    )
    assert result.stdout == ""
    now = log.read_bytes() if log.exists() or log.is_symlink() else None
    assert now == after["log"]  # what the other program left, as it left it
    assert bob.read_bytes() == theirs
    assert not list(tmp_path.glob(".*.tmp"))  # no temporary file left behind


def test_a_change_meanwhile_to_one_log_costs_only_that_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    for log in (first, second):
        log.write_text(f"{GAME}\nmoves: [7>1]\n")
    acts: list[Callable[[], None]] = [lambda: _append(first), lambda: None]
    _meanwhile(monkeypatch, lambda: acts.pop(0)())
    result = runner.invoke(app, ["record", str(first), str(second)])
    assert result.exit_code == 2
    assert first.read_text() == f"{GAME}\nmoves: [7>1]\n# a note saved meanwhile\n"
    assert second.read_text() == f"{GAME}\n" + EXPECT.format(nl="\n") + "moves: [7>1]\n"
    assert result.stdout.startswith("recorded  ")
