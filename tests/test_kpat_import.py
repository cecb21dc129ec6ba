"""`spidercli import kpat`: real KPat saves (captured from Debian's KPat 22.12, its demo playing)
import as logs that replay under kpat and end where the save ends; hand-made hostile saves are
refused with a clear message naming the file."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spidercli.game.codes import Setup, parse_code
from spidercli.game.engine import Game
from spidercli.game.kpatdeal import kpat_deal_ids
from spidercli.game.rules import KPAT
from spidercli.kpat.match import import_save
from spidercli.kpat.saves import read_save
from spidercli.kpat.xml import (
    MAX_ATTRIBUTES,
    MAX_DEPTH,
    MAX_ELEMENTS,
    MAX_SAVE_BYTES,
    MAX_STATES,
    SaveError,
)
from spidercli.logs.files import MAX_LOG_BYTES
from spidercli.logs.reader import parse_log
from spidercli.play.replay import replay
from tests.helpers import run
from tests.kpat_saves import KPAT_FIXTURES, ROOT, card_xml, replay_states, save_xml

SAVES = sorted(KPAT_FIXTURES.glob("*.xml"))


def _normalised(board: tuple[list[list[tuple[int, bool]]], int, int]) -> tuple[Any, ...]:
    """A save's board as the kpat rules leave it: complete runs off, the top card face-up."""
    cols, stock, runs = board
    out_cols, out_down = [], []
    for col in cols:
        col = list(col)
        while len(col) >= 13 and all(up for _, up in col[-13:]):
            top = [c for c, _ in col[-13:]]
            if top != list(range(top[0], top[0] - 13, -1)) or top[0] & 15 != 13:
                break
            del col[-13:]
            runs += 13
        if col and not col[-1][1]:
            col[-1] = (col[-1][0], True)
        out_cols.append([c for c, _ in col])
        out_down.append(sum(1 for _, up in col if not up))
    return out_cols, out_down, stock, runs


def _deal_attrs(path: Path) -> tuple[int, int]:
    head = path.read_text()[:300]
    m = re.search(r'game-type-options="([0-9])" deal-number="([0-9]+)"', head)
    assert m is not None
    return int(m.group(1)), int(m.group(2))


# ------------------------------------------------------------------------ real saves


def test_fixture_set() -> None:
    names = {p.name for p in SAVES}
    for suits in (1, 2, 4):
        assert f"spider-{suits}suit-fresh.xml" in names
        assert f"spider-{suits}suit-demo-part.xml" in names


@pytest.mark.parametrize("path", SAVES, ids=lambda p: p.stem)
def test_real_save_imports_replays_and_ends_where_the_save_ends(path: Path) -> None:
    imported = import_save(path)
    log = parse_log(imported.log_text, str(path))
    assert log.rules == "kpat"
    # The deal: the code of the save's deal number, same cards and deal ID.
    suits, number = _deal_attrs(path)
    code = f"KP{suits}-{number}"
    assert log.deal.name == code
    assert log.deal.deal_id == Setup.from_code(parse_code(code)).deal_id
    assert imported.warning is None
    # Every action legal under kpat.
    report = replay(log)
    assert report.ruleset is KPAT and report.rules == "kpat"
    assert report.illegal == ()
    assert report.actions == len(log.entries) == len(imported.actions)
    # The end: the save's current state, read independently of the importer.
    boards, current = replay_states(path)
    cols, down, stock, runs = _normalised(boards[current])
    game = report.game
    assert [list(c) for c in game.cols] == cols
    assert list(game.down) == down
    assert len(game.stock_left) == stock
    assert game.runs * 13 == runs


@pytest.mark.parametrize("suits", [1, 2, 4])
def test_fresh_saves_have_no_moves(suits: int) -> None:
    imported = import_save(KPAT_FIXTURES / f"spider-{suits}suit-fresh.xml")
    assert imported.actions == ()
    assert "moves: []" in imported.log_text


@pytest.mark.parametrize("suits", [1, 2, 4])
def test_demo_games_have_moves_and_deals(suits: int) -> None:
    imported = import_save(KPAT_FIXTURES / f"spider-{suits}suit-demo-part.xml")
    assert len(imported.actions) >= 20
    assert all(re.fullmatch(r"([0-9]+>[0-9]+:[0-9]+|deal)", a) for a in imported.actions)


def test_long_saves_stop_one_step_short_of_a_win() -> None:
    longs = sorted(KPAT_FIXTURES.glob("*-win-less-one.xml"))
    assert longs, "no long game fixture"
    for path in longs:
        boards, current = replay_states(path)
        # The step after the current one (KPat's redo stack) wins: all 104 cards in runs.
        assert current == len(boards) - 2
        assert _normalised(boards[-1])[3] == 104
        report = replay(parse_log(import_save(path).log_text, str(path)))
        assert report.illegal == ()
        # KPat's demo sends a completed run off as a step of its own; when that is the undone
        # step, the run still lies on the table in the save, and kpat rules remove it at once:
        # the imported game is then won.
        left_on_table = _normalised(boards[current])[3] > boards[current][2]
        assert report.game.runs == (8 if left_on_table else 7)
        assert report.result == ("won" if left_on_table else "open")


def test_only_steps_up_to_the_current_one(tmp_path: Path) -> None:
    """States after the current one are KPat's redo stack: not imported."""
    path = KPAT_FIXTURES / "spider-2suit-demo-part.xml"
    pieces = path.read_text().replace(' current="true"', "").split("<state")
    pieces[6] = ' current="true"' + pieces[6]  # the 6th state is on the table
    partial = import_save(_write(tmp_path / "undone.xml", "<state".join(pieces)))
    whole = import_save(path)
    assert len(partial.save.states) == len(whole.save.states)
    assert partial.save.current == 5
    assert 0 < len(partial.actions) <= 5
    assert partial.actions == whole.actions[: len(partial.actions)]


def test_no_current_state_means_the_last(tmp_path: Path) -> None:
    path = KPAT_FIXTURES / "spider-4suit-demo-part.xml"
    text = path.read_text().replace(' current="true"', "")
    assert import_save(_write(tmp_path / "x.xml", text)).actions == import_save(path).actions


def _write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


# ------------------------------------------------------------------ hand-made saves


def _move_state(cols: list[list[int]], moves: list[tuple[int, int, int]]) -> str:
    """One <state> for card moves (0-based source, target, count) on KPat id columns, each
    turning the source's new top card up, as KPat writes them."""
    parts = []
    for s, t, k in moves:
        group = cols[s][-k:]
        del cols[s][-k:]
        parts.append(
            f'<move pile="stack{t}" position="{len(cols[t])}">'
            + "".join(card_xml(c) for c in group)
            + "</move>"
        )
        cols[t].extend(group)
        if cols[s]:
            parts.append(
                f'<move pile="stack{s}" position="{len(cols[s]) - 1}">'
                f"{card_xml(cols[s][-1], 'face-up')}</move>"
            )
    return "<state>" + "".join(parts) + "</state>"


def test_hand_made_moves_import(tmp_path: Path) -> None:
    # KP2-17's tops: 6S KS 3H QH 8S 4H 4H 6S 8S 2H. 3H goes on 4H, then on the other 4H.
    cols, _ = kpat_deal_ids(17, 2)
    states = _move_state(cols, [(2, 5, 1)]) + _move_state(cols, [(5, 6, 1)])
    imported = import_save(_write(tmp_path / "s.xml", save_xml(17, 2, states=states)))
    assert imported.actions == ("3>6:1", "6>7:1")
    assert imported.setup.name == "KP2-17"


def test_two_actions_in_one_state(tmp_path: Path) -> None:
    """KPat takes a state once the cards stop moving: two quick moves can share one."""
    cols, _ = kpat_deal_ids(17, 2)
    states = _move_state(cols, [(2, 5, 1), (3, 1, 1)])  # 3H on 4H, QH on KS
    imported = import_save(_write(tmp_path / "s.xml", save_xml(17, 2, states=states)))
    assert sorted(imported.actions) == ["3>6:1", "4>2:1"]


def test_a_deal_state(tmp_path: Path) -> None:
    """A state moving the first stock pile's ten cards onto the columns is a deal."""
    cols, piles = kpat_deal_ids(17, 2)
    parts = [
        f'<move pile="stack{c}" position="{len(cols[c])}">{card_xml(card, "face-up")}</move>'
        for c, card in enumerate(piles[0])
    ]
    states = '<state game-specific-state="1">' + "".join(parts) + "</state>"
    imported = import_save(_write(tmp_path / "s.xml", save_xml(17, 2, states=states)))
    assert imported.actions == ("deal",)


BAD_SAVES: dict[str, tuple[str | bytes, str]] = {
    "not-xml": ("this is not XML\n", r"not well-formed XML"),
    "truncated": (save_xml()[:3000], r":\d+: is not well-formed XML"),
    "billion-laughs": (
        '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
        ' <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\n]>\n'
        '<kpat-game game-type="spider">&lol2;</kpat-game>\n',
        r":2: refused: the XML has a document type declaration \(<!DOCTYPE lolz ...>\)",
    ),
    "external-entity": (
        '<?xml version="1.0"?>\n<!DOCTYPE kpat [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'
        '<kpat-game game-type="spider">&xxe;</kpat-game>\n',
        r":2: refused: the XML has a document type declaration \(<!DOCTYPE kpat ...>\)",
    ),
    "not-utf8": (b'<?xml version="1.0" encoding="UTF-8"?>\n<kpat-game a="\xff\xfe"/>', "XML"),
    "other-root": ("<html><body/></html>", r"root element is <html>, expected <kpat-game>"),
    "klondike": (
        '<kpat-game game-type="klondike" deal-number="5"><state/></kpat-game>',
        r"a KPat save of klondike, not of Spider",
    ),
    "no-game-type": ("<kpat-game><state/></kpat-game>", r"an unnamed game, not of Spider"),
    "three-suits": (
        '<kpat-game game-type="spider" game-type-options="3" deal-number="5"/>',
        r"KPat's 3-suit Spider: spidercli has no such deck",
    ),
    "no-suits": (
        '<kpat-game game-type="spider" deal-number="5"/>',
        r"game-type-options is missing: expected Spider's suit count 1, 2 or 4",
    ),
    "bad-suits": (
        '<kpat-game game-type="spider" game-type-options="two"/>',
        r"game-type-options is 'two'",
    ),
    "no-states": (
        '<kpat-game game-type="spider" game-type-options="2" deal-number="5"/>',
        r"holds no <state>",
    ),
    "not-a-state": (
        '<kpat-game game-type="spider" game-type-options="2"><turn/></kpat-game>',
        r":1: expected a <state> element, found <turn>",
    ),
    "not-a-move": (
        save_xml(states="<state><card/></state>"),
        r"expected a <move> element in <state>, found <card>",
    ),
    "bad-pile": (
        save_xml(states='<state><move pile="stack10" position="0"/></state>'),
        r"<move pile='stack10'> is not a pile of KPat's Spider",
    ),
    "bad-position": (
        save_xml(states='<state><move pile="stack1" position="-1"/></state>'),
        r"<move position='-1'>: expected a position 0 to 103",
    ),
    "not-a-card": (
        save_xml(states='<state><move pile="stack1" position="6"><joker/></move></state>'),
        r"expected a <card> element in <move>, found <joker>",
    ),
    "unknown-card": (
        save_xml(
            states='<state><move pile="stack1" position="6"><card id="9999999"/></move></state>'
        ),
        r"<card id='9999999'> is not a card of KPat's 2-suit Spider deck",
    ),
    "clubs-in-two-suits": (
        save_xml(
            states='<state><move pile="stack1" position="6"><card id="0000001"/></move></state>'
        ),
        r"not a card of KPat's 2-suit Spider deck",
    ),
    "suit-disagrees": (
        save_xml().replace('suit="hearts" rank="ace"', 'suit="spades" rank="ace"', 1),
        r"is the ace of hearts, but its suit says 'spades'",
    ),
    "bad-turn": (
        save_xml().replace('turn="face-down"', 'turn="sideways"', 1),
        r"<card turn='sideways'>: expected face-up or face-down",
    ),
    "first-state-incomplete": (
        re.sub(r'<move pile="redeals4".*?</move>', "", save_xml(), flags=re.S),
        r"the first state places 94 cards, not the deck's 104 \(10 missing\)",
    ),
    "no-turn-at-first": (
        save_xml().replace(' turn="face-down"', "", 1),
        r"appears for the first time without turn=",
    ),
    "two-cards-one-slot": (
        save_xml(
            states='<state><move pile="stack0" position="0">'
            f"{card_xml(kpat_deal_ids(17, 2)[0][1][-1])}</move></state>"
        ),
        r"two cards lie at position 0 of stack0: the save is corrupt",
    ),
    "gap": (
        save_xml(
            states='<state><move pile="stack0" position="9">'
            f"{card_xml(kpat_deal_ids(17, 2)[0][1][-1])}</move></state>"
        ),
        r"stack0 has no card at position 6 but cards above it",
    ),
    "illegal-step": (
        save_xml(  # 3H onto 6S: no KPat action does that
            states='<state><move pile="stack0" position="6">'
            f"{card_xml(kpat_deal_ids(17, 2)[0][2][-1])}</move></state>"
        ),
        r"state 2 is not a card move or a deal away from the state before",
    ),
    "face-down-over-face-up": (
        save_xml(  # the third card of column 1 turned up, the fourth still down
            states='<state><move pile="stack0" position="2">'
            f"{card_xml(kpat_deal_ids(17, 2)[0][0][2], 'face-up')}</move></state>"
        ),
        r"column 1 has a face-down card above a face-up one",
    ),
    "stock-out-of-order": (
        save_xml(
            states='<state><move pile="stack0" position="6">'
            + "".join(card_xml(c, "face-up") for c in kpat_deal_ids(17, 2)[1][1][:1])
            + "</move></state>"
        ),
        r"the stock piles hold \[10, 9, 10, 10, 10\] cards",
    ),
    "face-up-option": (
        save_xml(face_up=True),
        r"dealt with KPat's 'Face Up' stack option",
    ),
    "not-a-fresh-deal": (
        save_xml()
        .replace(
            '<move pile="stack9" position="0">',
            '<move pile="stack9" position="0">'
            + card_xml(kpat_deal_ids(17, 2)[0][0][0], "face-down"),
        )
        .replace(
            '<move pile="stack0" position="0">'
            + card_xml(kpat_deal_ids(17, 2)[0][0][0], "face-down"),
            '<move pile="stack0" position="0">',
        ),
        r"the first state is not a fresh deal \(column 1 holds 5 cards",
    ),
    "legacy-not-spider": (
        '<!DOCTYPE kpat>\n<dealer id="3" options="" number="5"/>',
        r"older format\) of game id '3', not of Spider",
    ),
    "legacy-three-suits": ('<dealer id="50" number="5"/>', r"3-suit Spider"),
    "legacy-general-no-options": ('<dealer id="17" number="5"/>', r"names no suit count"),
    "legacy-bad-pile": (
        '<dealer id="15" number="5"><pile index="99"/></dealer>',
        r"expected <pile index=N> with N 1-23",
    ),
    "legacy-bad-card": (
        '<dealer id="15" number="5"><pile index="6"><card suit="0" value="1" faceup="1"/>'
        "</pile></dealer>",
        r"<card suit='0' value='1' faceup='1'> is not a card of KPat's 2-suit Spider deck",
    ),
    "legacy-too-many": (
        '<dealer id="14" number="5"><pile index="6">'
        + '<card suit="3" value="1" faceup="1"/>' * 9
        + "</pile></dealer>",
        r"the ace of spades appears more often than the deck holds it \(8 times\)",
    ),
    "legacy-incomplete": (
        '<dealer id="14" number="5"><pile index="6"><card suit="3" value="1" faceup="1"/>'
        "</pile></dealer>",
        r"places 1 cards, not the deck's 104",
    ),
}


@pytest.mark.parametrize("name", sorted(BAD_SAVES))
def test_bad_saves_are_refused(name: str, tmp_path: Path) -> None:
    text, message = BAD_SAVES[name]
    path = _write(tmp_path / f"{name}.xml", text)
    with pytest.raises(SaveError, match=message) as err:
        import_save(path)
    assert str(err.value).startswith(str(path))
    # And through the command line: exit 2, one paragraph naming the file, no traceback.
    result = run("import", "kpat", str(path))
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"spidercli: error: {path}")
    assert result.stderr.count("\n") == 1
    assert result.stdout == ""


# ------------------------------------------------- reading the file: the safe reader of logs


def test_huge_file_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.xml"
    with open(path, "wb") as handle:
        handle.write(b"<kpat-game>")
        handle.truncate(MAX_SAVE_BYTES + 1)
    with pytest.raises(SaveError, match=r"is larger \(1,048,577 bytes\) than the limit of 1 MiB"):
        read_save(path)
    assert MAX_SAVE_BYTES == MAX_LOG_BYTES


def _import_elsewhere(path: str | Path, stdin: bytes | None = None) -> Any:
    """``spidercli import kpat PATH`` in another process, given 60 s: a read that blocks fails
    the test instead of hanging it."""
    return subprocess.run(
        [sys.executable, "-m", "spidercli", "import", "kpat", str(path)],
        input=stdin,
        capture_output=True,
        timeout=60,
        check=False,
    )


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "save.kpat"
    os.mkfifo(fifo)  # nobody writes to it: an open() for reading would wait forever
    result = _import_elsewhere(fifo)
    assert result.returncode == 2
    assert result.stderr.decode() == (
        f"spidercli: error: {fifo}: is a FIFO (named pipe), not a regular file: only regular "
        "files and - (standard input) are read\n"
    )


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_device_is_refused_unread(tmp_path: Path) -> None:
    link = tmp_path / "save.kpat"
    link.symlink_to("/dev/zero")
    for path in ("/dev/zero", str(link)):
        result = run("import", "kpat", path)
        assert result.exit_code == 2
        assert f"{path}: is a character device, not a regular file" in result.stderr


def test_a_socket_and_a_directory_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.kpat"
    if len(str(path)) > 100:
        pytest.skip("socket path too long")
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        result = run("import", "kpat", str(path))
    assert result.exit_code == 2 and "is a socket, not a regular file" in result.stderr
    result = run("import", "kpat", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr == f"spidercli: error: {tmp_path}: is a directory, not a KPat save\n"


def test_dash_reads_the_save_from_standard_input() -> None:
    save = (KPAT_FIXTURES / "spider-2suit-demo-part.xml").read_bytes()
    result = run("import", "kpat", "-", stdin=save)
    assert result.exit_code == 0, result.output
    assert result.stdout == import_save(
        KPAT_FIXTURES / "spider-2suit-demo-part.xml"
    ).log_text.replace("spider-2suit-demo-part.xml", "<stdin>")
    bad = run("import", "kpat", "-", stdin=b"<kpat-game")
    assert bad.exit_code == 2 and bad.stderr.startswith("spidercli: error: <stdin>:1: is not")
    big = run("import", "kpat", "-", stdin=save + b" " * MAX_SAVE_BYTES)
    assert big.exit_code == 2
    assert big.stderr == (
        "spidercli: error: <stdin>: is larger (more than 1 MiB) than the limit of 1 MiB for a "
        "KPat save (some 3,000 steps of a game or more; a 7-minute game has 750)\n"
    )


# ------------------------------------------- the XML: no DTD, the limits checked as it is read

DTD = "refused: the XML has a document type declaration"


@pytest.mark.parametrize(
    "doctype",
    [
        # The attack, small: a default attribute expat copies into every <card>.
        '<!DOCTYPE kpat-game [<!ATTLIST card x CDATA "' + "x" * 1000 + '">]>',
        "<!DOCTYPE kpat []>",  # an empty internal subset
        '<!DOCTYPE kpat SYSTEM "file:///dev/zero">',
        '<!DOCTYPE kpat PUBLIC "-//x//y" "http://example.invalid/kpat.dtd">',
        "<!DOCTYPE kpat-game>",  # KPat writes no DOCTYPE with its current format
    ],
)
def test_a_dtd_is_refused(tmp_path: Path, doctype: str) -> None:
    text = save_xml().replace("<kpat-game", doctype + "\n<kpat-game", 1)
    with pytest.raises(SaveError, match=re.escape(f"save.xml:2: {DTD}")):
        import_save(_write(tmp_path / "save.xml", text))


def test_the_older_formats_bare_doctype_is_read(tmp_path: Path) -> None:
    """KPat before KDE 4.9 wrote ``<!DOCTYPE kpat>`` (Qt's QDomDocument("kpat")): it declares
    nothing, and is the one DOCTYPE read."""
    legacy = _legacy(17, 2)
    assert "<!DOCTYPE kpat>" in legacy
    assert import_save(_write(tmp_path / "old.kpat", legacy)).save.legacy


def _then_broken(text: str) -> str:
    """``text`` followed by XML that is not well-formed: a limit checked as the XML is read
    refuses the save before the parser gets there."""
    return text + "<unclosed"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '<kpat-game game-type="spider">' + "<state/>" * 20_001,
            r"long.xml:1: holds more than 20,000 elements in <kpat-game> \(a <state> a step\)",
        ),
        (
            '<kpat-game game-type="spider"><state>' + "<move/>" * 50_000,
            r"long.xml:1: holds more than 50,000 XML elements: not a KPat save of Spider",
        ),
        (
            "<kpat-game>\n<state>\n<move>\n<card>\n<card>",
            r"long.xml:5: <card> lies 5 elements deep: KPat's saves nest 4 deep at most",
        ),
        (
            "<kpat-game " + " ".join(f'a{i}=""' for i in range(9)) + ">",
            r"long.xml:1: <kpat-game> has 9 attributes: KPat writes at most 8 on an element",
        ),
    ],
)
def test_limits_are_checked_as_the_xml_is_read(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(SaveError, match=message):
        read_save(_write(tmp_path / "long.xml", _then_broken(text)))
    assert MAX_STATES == 20_000 and MAX_ELEMENTS == 50_000
    assert MAX_DEPTH == 4 and MAX_ATTRIBUTES == 8


def test_nothing_nests_inside_a_card(tmp_path: Path) -> None:
    """A real save with an element inside one of its cards: KPat writes none there."""
    text = (KPAT_FIXTURES / "spider-2suit-demo-part.xml").read_text()
    at = text.index("/>", text.index("<card"))
    text = text[:at] + "><joker/></card>" + text[at + 2 :]
    with pytest.raises(SaveError, match=r"<joker> lies 5 elements deep"):
        import_save(_write(tmp_path / "s.xml", text))


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (lambda p: p, "no such file"),
        (lambda p: (p.mkdir(), p)[1], "is a directory"),
        (lambda p: _write(p, ""), "is empty"),
        (lambda p: _write(p, "  \n"), "is empty"),
    ],
)
def test_unreadable_files(tmp_path: Path, setup: Any, message: str) -> None:
    path = setup(tmp_path / "save.xml")
    with pytest.raises(SaveError, match=message):
        import_save(path)


def test_unreadable_file() -> None:
    """A read that fails (here an I/O error, which even root gets) is reported, not raised."""
    if not Path("/proc/self/mem").exists():
        pytest.skip("needs /proc")
    with pytest.raises(SaveError, match="cannot be read"):
        import_save("/proc/self/mem")


def test_two_action_states_are_limited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The costly two-action search runs a bounded number of times per save."""
    cols, _ = kpat_deal_ids(17, 2)
    states = _move_state(cols, [(2, 5, 1), (3, 1, 1)])  # 3H on 4H, QH on KS
    states += _move_state(cols, [(9, 5, 1), (5, 6, 2)])  # 2H on 3H, both on the other 4H
    path = _write(tmp_path / "s.xml", save_xml(17, 2, states=states))
    assert len(import_save(path).actions) == 4
    monkeypatch.setattr("spidercli.kpat.match.MAX_DOUBLE_STEPS", 1)
    with pytest.raises(SaveError, match=r"state 3 is not a card move or a deal away"):
        import_save(path)


def test_deal_number_that_does_not_match_is_written_out(tmp_path: Path) -> None:
    text = save_xml(17, 2).replace('deal-number="17"', 'deal-number="18"')
    imported = import_save(_write(tmp_path / "s.xml", text))
    assert imported.setup.code is None
    assert imported.warning is not None and "not KPat's deal KP2-18" in imported.warning
    assert imported.setup.deal_id == Setup.from_code(parse_code("KP2-17")).deal_id
    result = run("import", "kpat", str(tmp_path / "s.xml"))
    assert result.exit_code == 0
    assert "warning" in result.stderr
    log = parse_log(result.stdout, "out.yaml")
    assert log.deal.deal_id == Setup.from_code(parse_code("KP2-17")).deal_id


@pytest.mark.parametrize("number", ["", "0", "-4", "2147483648", "seventeen"])
def test_no_usable_deal_number_gives_an_explicit_deal(tmp_path: Path, number: str) -> None:
    text = save_xml(17, 4).replace('deal-number="17"', f'deal-number="{number}"')
    imported = import_save(_write(tmp_path / "s.xml", text))
    assert imported.setup.code is None
    assert imported.warning is None
    assert "deal:" in imported.log_text
    replayed = replay(parse_log(imported.log_text, "x.yaml"))
    assert replayed.ok


def _legacy(number: int, suits: int, *, options: str | None = None, game_id: int = 17) -> str:
    suit_no = {"clubs": 0, "diamonds": 1, "hearts": 2, "spades": 3}
    cols, piles = kpat_deal_ids(number, suits)
    words = {0: "clubs", 1: "diamonds", 2: "hearts", 3: "spades"}

    def card(cid: int, up: bool) -> str:
        suit = suit_no[words[(cid >> 8) & 0xFF]]
        return f'<card suit="{suit}" value="{cid & 0xFF}" faceup="{int(up)}" z="1"/>'

    out = [
        '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE kpat>',
        f'<dealer id="{game_id}" options="{suits if options is None else options}" '
        f'number="{number}" moves="0" started="0" data="0">',
    ]
    for p, pile in enumerate(piles):
        out.append(f'<pile index="{p + 1}" z="1">')
        out.extend(card(c, False) for c in reversed(pile))
        out.append("</pile>")
    for c, col in enumerate(cols):
        out.append(f'<pile index="{c + 6}" z="1">')
        out.extend(card(cid, i == len(col) - 1) for i, cid in enumerate(col))
        out.append("</pile>")
    out.append("</dealer>")
    return "\n".join(out)


@pytest.mark.parametrize(("game_id", "options"), [(17, None), (15, ""), (15, None)])
def test_legacy_fresh_deal_is_an_explicit_deal(
    tmp_path: Path, game_id: int, options: str | None
) -> None:
    path = _write(tmp_path / "old.kpat", _legacy(17, 2, options=options, game_id=game_id))
    imported = import_save(path)
    assert imported.actions == ()
    assert imported.save.legacy
    assert imported.setup.deal_id == Setup.from_code(parse_code("KP2-17")).deal_id
    assert "position only" in imported.log_text


def test_legacy_game_in_progress_is_refused(tmp_path: Path) -> None:
    text = _legacy(17, 2)
    # Turn the second card of column 1 face-up too: a position mid-game.
    i = text.index('<pile index="6"')
    j = text.index('faceup="0"', i)
    text = text[:j] + 'faceup="1"' + text[j + len('faceup="0"') :]
    with pytest.raises(SaveError, match=r"older save format keeps only the position"):
        import_save(_write(tmp_path / "old.kpat", text))


# ------------------------------------------------------------------------ the command


def test_cli_writes_the_log(tmp_path: Path) -> None:
    save = KPAT_FIXTURES / "spider-2suit-demo-part.xml"
    to_stdout = run("import", "kpat", str(save))
    assert to_stdout.exit_code == 0
    out = tmp_path / "game.yaml"
    to_file = run("import", "kpat", str(save), "-o", str(out))
    assert to_file.exit_code == 0
    assert to_file.stdout == ""
    assert out.read_text() == to_stdout.stdout
    assert re.fullmatch(r"spidercli: imported KP2-\d+: \d+ actions\n", to_file.stderr)
    verified = run("verify", str(out))
    assert verified.exit_code == 0, verified.output
    assert list(tmp_path.glob(".*.tmp")) == []


def test_cli_cannot_write(tmp_path: Path) -> None:
    save = KPAT_FIXTURES / "spider-1suit-fresh.xml"
    result = run("import", "kpat", str(save), "-o", str(tmp_path / "no" / "such" / "dir.yaml"))
    assert result.exit_code == 2
    assert "cannot be written" in result.stderr


def test_cli_needs_a_save() -> None:
    result = run("import", "kpat")
    assert result.exit_code == 2
    result = run("import")
    assert "kpat" in result.output


def test_a_won_game_imports_whole(tmp_path: Path) -> None:
    """A save whose last step wins (KPat's 23.04 solver's line for its deal 18, written as KPat
    records a game): every step is found, the last one too."""
    from tests.tools.kpat_history import history

    won = ROOT / "tests" / "data" / "kpat" / "kp1-18-kpat-solver-win.yaml"
    log = parse_log(won.read_text(), str(won))
    save = _write(tmp_path / "won.kpat", history(str(won), len(log.entries)))
    imported = import_save(save)
    assert list(imported.actions) == [str(e.action) for e in log.entries]
    report = replay(parse_log(imported.log_text, "x.yaml"))
    assert report.result == "won" and report.game.runs == 8


# ------------------------------------------------------------------ properties


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    number=st.integers(1, 2**31 - 1),
    suits=st.sampled_from([1, 2, 4]),
    choices=st.lists(st.integers(0, 10**6), max_size=60),
)
def test_any_kpat_game_round_trips(number: int, suits: int, choices: list[int]) -> None:
    """Random kpat play, written as KPat records it, imports as exactly the actions played."""
    from tests.tools.kpat_history import history_of

    code = f"KP{suits}-{number}"
    game = Game.from_setup(Setup.from_code(parse_code(code)), KPAT)
    played: list[str] = []
    for choice in choices:
        legal = game.legal_actions()
        if not legal:
            break
        action = legal[choice % len(legal)]
        game.apply(action)
        played.append(str(action))
    text = f"game: {code}\nrules: kpat\nmoves: {json.dumps(played)}\n"
    log = parse_log(text, "random.yaml")
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(Path(tmp) / "random.kpat", history_of(log, len(played)))
        imported = import_save(path)
    assert list(imported.actions) == played
    assert replay(parse_log(imported.log_text, "x.yaml")).game.key() == game.key()


_REAL = (KPAT_FIXTURES / "spider-2suit-demo-part.xml").read_bytes()


@settings(max_examples=150, deadline=None)
@given(
    cuts=st.lists(
        st.tuples(st.integers(0, len(_REAL) - 1), st.integers(0, 40), st.binary(max_size=12)),
        min_size=1,
        max_size=4,
    )
)
def test_damaged_saves_fail_cleanly(cuts: list[tuple[int, int, bytes]]) -> None:
    """A real save with bytes cut or replaced anywhere: imported, or refused with SaveError;
    never another exception."""
    data = bytearray(_REAL)
    for at, length, new in cuts:
        data[at : at + length] = new
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(Path(tmp) / "damaged.xml", bytes(data))
        try:
            imported = import_save(path)
        except SaveError as err:
            assert str(err).startswith(str(path))
            return
    assert replay(parse_log(imported.log_text, "x.yaml")).illegal == ()


def test_long_names_and_values_are_clipped_in_messages(tmp_path: Path) -> None:
    long = "x" * 100_000
    for text in (
        f'<kpat-game game-type="{long}"/>',
        f"<{long}/>",
        save_xml(states=f'<state><move pile="{long}" position="0"/></state>'),
    ):
        with pytest.raises(SaveError) as err:
            import_save(_write(tmp_path / "s.xml", text))
        assert len(str(err.value)) < 400


def test_legacy_deal_number_gives_the_code(tmp_path: Path) -> None:
    imported = import_save(_write(tmp_path / "old.kpat", _legacy(17, 2)))
    assert imported.setup.name == "KP2-17"
    other = _legacy(17, 2).replace('number="17"', 'number="18"')
    imported = import_save(_write(tmp_path / "old2.kpat", other))
    assert imported.setup.code is None and imported.warning is not None
