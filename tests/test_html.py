"""The HTML replay page and the SVG boards.

The page is opened in a real headless Chromium (tests/browser.py) and its DOM, after the page's
script has drawn it, is compared with the engine's own positions, played here entry by entry
without the page's code. Without Chromium these tests are skipped, except in CI (``CI=true``),
where a missing browser fails them.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from spidercli.game.cards import card_str
from spidercli.game.codes import Setup, parse_code
from spidercli.game.engine import Game
from spidercli.logs.reader import load_log, parse_log
from spidercli.logs.writer import format_log
from spidercli.play.replay import choose_rules, replay
from spidercli.report.page import Recorder, page_name, replay_page, script_json
from spidercli.report.svg import BoardView, board_body
from spidercli.report.text import describe
from spidercli.text import i18n
from tests.browser import DOM, Browser, dom
from tests.helpers import ROOT, run

EXAMPLE = ROOT / "fixtures" / "example-spider-1suit-117.yaml"


# --------------------------------------------------------------- the engine's own positions


def engine_positions(log_path: Path, skip: bool) -> dict[int, dict[str, Any]]:
    """Each entry's position as the engine reaches it (the board before a refused entry), played
    entry by entry with ``Game.play``: what the page must show at ``#N``."""
    log = load_log(log_path)
    game = Game.from_setup(log.deal, choose_rules(log))

    def state(rule: str | None) -> dict[str, Any]:
        return {
            "cols": [
                ["down"] * game.down[c] + [card_str(x) for x in game.face_up(c)]
                for c in range(game.kind.columns)
            ],
            "moves": game.moves,
            "score": game.score,
            "refused": rule,
            "words": describe(game),
        }

    positions = {0: state(None)}
    for entry in log.entries:
        refusal = game.play(entry.action)
        positions[entry.index] = state(None if refusal is None else refusal.rule)
        if refusal is not None and not skip:
            break
    return positions


def with_refusals(tmp: Path) -> Path:
    """The 117-move example with three refused entries slipped in (entries 6, 19 and 40)."""
    log = load_log(EXAMPLE)
    moves = [e.text for e in log.entries]
    moves.insert(5, "3>3")  # same-column
    moves.insert(18, "12>1")  # no-such-column
    moves.insert(39, "flip 2")  # nothing to flip
    path = tmp / "refusals.yaml"
    path.write_text(format_log("SP1-S1C-AAAAABD", moves, rules="classic"))
    return path


# ------------------------------------------------------------------------- the browser


def assert_shows(seen: dict[str, Any], n: int, want: dict[str, Any]) -> None:
    ncols = len(want["cols"])
    assert [c[0] for c in seen["cols"]] == [str(c) for c in range(1, ncols + 1)]
    assert [c[1] for c in seen["cols"]] == want["cols"], f"columns at #{n}"
    assert seen["counters"] == [[str(n), str(want["moves"]), str(want["score"])]]
    assert seen["words"] == want["words"]
    assert seen["boardHidden"] == "true"
    assert seen["hash"] == f"#{n}"
    if want["refused"] is None:
        assert seen["refusal"] is None
    else:
        assert want["refused"] in seen["refusal"]


def make_page(log_path: Path, out: Path, *extra: str) -> Path:
    result = run("replay", str(log_path), "--html", str(out), "--show", "none", *extra)
    assert result.exit_code in (0, 1), result.output
    return out


@pytest.fixture(scope="module")
def example_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_page(EXAMPLE, tmp_path_factory.mktemp("html") / "example.html")


@pytest.mark.parametrize("n", [0, 1, 17, 60, 99, 117])
def test_page_at_fragment_shows_the_engines_position(
    browser: Browser, example_page: Path, n: int
) -> None:
    want = engine_positions(EXAMPLE, skip=False)
    browser.open(f"{example_page.as_uri()}#{n}")
    assert_shows(dom(browser), n, want[n])


def test_page_without_fragment_opens_at_the_start_and_clamps_beyond_the_end(
    browser: Browser, example_page: Path
) -> None:
    want = engine_positions(EXAMPLE, skip=False)
    browser.open(example_page.as_uri())
    assert_shows(dom(browser), 0, want[0])
    browser.open(f"{example_page.as_uri()}#5000")
    assert_shows(dom(browser), 117, want[117])


def test_keys_buttons_and_slider_step_and_update_the_fragment(
    browser: Browser, example_page: Path
) -> None:
    want = engine_positions(EXAMPLE, skip=False)
    browser.open(f"{example_page.as_uri()}#10")
    browser.press("ArrowRight")
    assert_shows(dom(browser), 11, want[11])
    browser.press("ArrowLeft")
    browser.press("ArrowLeft")
    assert_shows(dom(browser), 9, want[9])
    browser.press("End")
    assert_shows(dom(browser), 117, want[117])
    browser.press("ArrowRight")  # nothing after the last entry
    assert_shows(dom(browser), 117, want[117])
    browser.press("Home")
    assert_shows(dom(browser), 0, want[0])
    browser.click("#next")
    assert_shows(dom(browser), 1, want[1])
    browser.click("#last")
    browser.click("#prev")
    assert_shows(dom(browser), 116, want[116])
    browser.click("#first")
    assert_shows(dom(browser), 0, want[0])
    browser.evaluate(
        "(() => { const s = document.getElementById('slider'); s.value = 42;"
        " s.dispatchEvent(new Event('input')); })()"
    )
    assert_shows(dom(browser), 42, want[42])
    browser.evaluate("location.hash = '#70'")  # a link followed within the page
    browser.evaluate("new Promise(r => setTimeout(r, 50))")
    assert_shows(dom(browser), 70, want[70])


def test_page_with_skipped_refusals_highlights_each(browser: Browser, tmp_path: Path) -> None:
    log = with_refusals(tmp_path)
    page = make_page(log, tmp_path / "skip.html", "--on-illegal", "skip")
    want = engine_positions(log, skip=True)
    assert [n for n, p in want.items() if p["refused"]] == [6, 19, 40]
    assert want[6]["cols"] == want[5]["cols"]  # a refused entry leaves the board as it was
    for n in (5, 6, 7, 19, 40, 41, len(want) - 1):
        browser.open(f"{page.as_uri()}#{n}")
        seen = dom(browser)
        assert_shows(seen, n, want[n])
    browser.open(f"{page.as_uri()}#19")
    seen = dom(browser)
    assert seen["action"] == "Entry 19: 12>1 (line 22)"
    assert "no-such-column" in seen["refusal"]
    assert browser.evaluate("document.body.classList.contains('refused')") is True


STEP_ALL = (
    "(() => { const seen = []; const next = document.getElementById('next'); for (;;) {"
    f" seen.push({DOM.strip()[len('JSON.stringify(') : -1]});"
    " if (next.disabled) return JSON.stringify(seen); next.click(); } })()"
)


@pytest.mark.parametrize(
    "lang",
    ["en", pytest.param("cs", marks=pytest.mark.slow), pytest.param("fi", marks=pytest.mark.slow)],
)
def test_every_entry_shows_the_engines_position_and_words(
    browser: Browser, tmp_path: Path, lang: str
) -> None:
    """Each entry of logs with every kind of change and its undo (runs removed, a win, deals,
    flips, refusals), stepped through with the Next button: the columns, counters and the
    paragraph in words, byte for byte what ``--describe`` says, in each language."""
    win = tmp_path / "win-undo.yaml"
    win.write_text(
        format_log(
            "SD1-S1-AAAAABD", walk_with_undo(ROOT / "fixtures" / "spiderette-1suit-win.yaml")
        )
    )
    mixed = tmp_path / "four-suits.yaml"
    mixed.write_text(random_log("SP4-S1C-AAAAABD", 150, seed=3))
    for log, skip in ((win, False), (mixed, False), (with_refusals(tmp_path), True)):
        extra = ("--on-illegal", "skip") if skip else ()
        page = make_page(log, tmp_path / f"{log.stem}-{lang}.html", "--lang", lang, *extra)
        i18n.use(lang)
        want = engine_positions(log, skip)
        i18n.use("en")
        browser.open(f"{page.as_uri()}#0")
        seen = json.loads(browser.evaluate(STEP_ALL))
        assert browser.problems() == []
        assert len(seen) == len(want)
        for n, shown in enumerate(seen):
            # Chromium ignores history.replaceState beyond 200 calls in 10 s, so the address is
            # left out here (the other tests check it, stepping as a person does).
            shown["hash"] = f"#{n}"
            assert_shows(shown, n, want[n])


def test_page_that_stops_ends_at_the_refused_entry(browser: Browser, tmp_path: Path) -> None:
    log = with_refusals(tmp_path)
    page = make_page(log, tmp_path / "stop.html")
    want = engine_positions(log, skip=False)
    assert max(want) == 6
    browser.open(f"{page.as_uri()}#5000")
    seen = dom(browser)
    assert_shows(seen, 6, want[6])
    assert seen["cols"] == [[str(c + 1), col] for c, col in enumerate(want[5]["cols"])]
    assert "same-column" in seen["refusal"]
    assert browser.evaluate("document.getElementById('slider').max") == "6"


def test_page_of_an_illegal_log_opens_at_its_refused_entry(
    browser: Browser, tmp_path: Path
) -> None:
    """Without ``#N`` the page opened at entry 0, far from what the verdict is about: it opens at
    the refused entry (with ``--on-illegal skip``, the first of them); ``#N`` still wins."""
    log = with_refusals(tmp_path)
    for extra, skip in (((), False), (("--on-illegal", "skip"), True)):
        page = make_page(log, tmp_path / f"open-{skip}.html", *extra)
        want = engine_positions(log, skip=skip)
        browser.open(page.as_uri())
        seen = dom(browser)
        assert_shows(seen, 6, want[6])  # the fragment now says where it is, too
        assert "same-column" in seen["refusal"]
        browser.open(f"{page.as_uri()}#3")
        assert_shows(dom(browser), 3, want[3])
        browser.open(f"{page.as_uri()}#0")
        assert_shows(dom(browser), 0, want[0])
    pages = tmp_path / "pages"
    result = run("verify", str(log), "--html-dir", str(pages))
    assert result.exit_code == 1
    (written,) = [p for p in pages.iterdir() if p.name != "index.html"]
    browser.open(written.as_uri())
    assert_shows(dom(browser), 6, engine_positions(log, skip=False)[6])


def test_page_draws_what_the_svg_writer_draws(browser: Browser, example_page: Path) -> None:
    """One drawing: the page's script and spidercli/report/svg.py give the same elements."""
    log = load_log(EXAMPLE)
    recorder = Recorder()
    replay(log, visitor=recorder)
    frames = list(recorder.frames.frames())
    for n in (0, 33, 117):
        browser.open(f"{example_page.as_uri()}#{n}")
        drawn = browser.evaluate("document.getElementById('board').innerHTML")
        assert canonical(drawn) == canonical(board_body(frames[n].view))


def canonical(markup: str) -> list[Any]:
    root = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{markup}</svg>')

    def walk(node: ET.Element) -> list[Any]:
        return [node.tag, sorted(node.attrib.items()), node.text, [walk(c) for c in node]]

    return [walk(child) for child in root]


def test_page_makes_no_request(browser: Browser, example_page: Path) -> None:
    browser.open(f"{example_page.as_uri()}#3")
    assert browser.evaluate("performance.getEntriesByType('resource').length") == 0
    assert browser.problems() == []  # nothing refused by the page's policy either
    text = example_page.read_text()
    assert "Content-Security-Policy" in text and "default-src 'none'" in text
    urls = set(re.findall(r"https?://[^\s\"'<>]+", text))
    assert urls == {"http://www.w3.org/2000/svg"}  # a namespace name, never fetched


HOSTILE = '</script><script>window.pwned=1</script><img src=x onerror="window.pwned=2">{{data}}'


def hostile_log(tmp: Path) -> Path:
    folder = tmp / "<b>x&amp;"
    folder.mkdir()
    path = folder / "hostile.yaml"
    player = json.dumps(HOSTILE)  # a YAML double-quoted scalar
    path.write_text(f"game: SP1-S1C-AAAAABD\nplayer: {player}\nmoves:\n  - 10>9\n  - 3>3\n")
    return path


def test_hostile_log_cannot_inject_into_the_page(browser: Browser, tmp_path: Path) -> None:
    log = hostile_log(tmp_path)
    page = make_page(log, tmp_path / "hostile.html")
    browser.open(f"{page.as_uri()}#2")
    assert browser.evaluate("window.pwned === undefined") is True
    assert browser.evaluate("document.querySelectorAll('img, b').length") == 0
    assert browser.evaluate("document.scripts.length") == 2  # the data and the page's own
    facts = browser.evaluate("document.querySelector('.facts').textContent")
    assert HOSTILE in facts
    assert "<b>x&amp;" in browser.evaluate("document.querySelector('.file').textContent")
    seen = dom(browser)
    assert seen["counters"] == [["2", "1", "499"]]


# --------------------------------------------------------------------- without a browser


def test_hostile_values_are_escaped_in_the_markup(tmp_path: Path) -> None:
    log = load_log(hostile_log(tmp_path))
    recorder = Recorder()
    report = replay(log, visitor=recorder)
    text = replay_page(report, recorder.frames)
    assert "<img" not in text and "<b>" not in text
    assert text.count("</script>") == 2
    assert "&lt;/script&gt;&lt;script&gt;window.pwned=1" in text  # the header
    assert "{{data}}" in text  # a value is never expanded as a template slot


BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def bidi_logs(tmp: Path) -> tuple[Path, Path]:
    """An illegal log and an unusable one, whose file and player names hold every
    bidirectional control."""
    folder = tmp / f"logs{BIDI}"
    folder.mkdir()
    illegal = folder / "game\u202egpj.yaml"
    player = json.dumps(f"Eve \u202edrow\u2066 {BIDI}")
    illegal.write_text(f"game: SP1-S1C-AAAAABD\nplayer: {player}\nmoves:\n  - 10>9\n  - 3>3\n")
    unusable = folder / "bad\u2067.yaml"
    unusable.write_text("game: [\n")
    return illegal, unusable


def test_bidirectional_controls_are_escaped_in_the_page(browser: Browser, tmp_path: Path) -> None:
    log, _ = bidi_logs(tmp_path)
    page = make_page(log, tmp_path / "bidi.html")
    text = page.read_text()
    assert not any(ch in text for ch in BIDI)  # not in the markup, not in the data
    browser.open(f"{page.as_uri()}#2")
    facts = browser.evaluate("document.querySelector('.facts').textContent")
    assert "Eve \\u202edrow\\u2066 \\u202a\\u202b" in facts  # as the text report shows it
    shown = browser.evaluate("document.querySelector('.file').textContent")
    assert "logs\\u202a" in shown and "game\\u202egpj.yaml" in shown
    assert not any(ch in facts + shown for ch in BIDI)
    report = run("replay", str(log))
    assert "Eve \\u202edrow\\u2066" in report.stdout


def test_bidirectional_controls_are_escaped_in_the_index(tmp_path: Path) -> None:
    illegal, unusable = bidi_logs(tmp_path)
    out = tmp_path / "pages"
    result = run("verify", str(illegal.parent), "--html-dir", str(out))
    assert result.exit_code == 2
    pages = {p.name: p.read_text() for p in out.iterdir()}
    assert len(pages) == 3
    for name, text in pages.items():
        assert not any(ch in text for ch in BIDI), name
    index = pages["index.html"]
    assert "game\\u202egpj.yaml" in index and "bad\\u2067.yaml" in index
    error = pages[page_name(str(unusable))]
    assert "bad\\u2067.yaml" in error


def test_script_json_escapes_bidirectional_controls() -> None:
    text = script_json({"a": BIDI})
    assert not any(ch in text for ch in BIDI)
    assert json.loads(text) == {"a": BIDI}


def test_script_json_never_closes_the_script() -> None:
    text = script_json({"a": "</script><!-- & \u2028"})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == {"a": "</script><!-- & \u2028"}


def page_data(text: str) -> dict[str, Any]:
    match = re.search(r'<script type="application/json" id="data">(.*?)</script>', text)
    assert match is not None
    data: dict[str, Any] = json.loads(match.group(1))
    return data


def test_page_data_is_compact_and_complete() -> None:
    log = load_log(EXAMPLE)
    recorder = Recorder()
    report = replay(log, visitor=recorder)
    text = replay_page(report, recorder.frames)
    data = page_data(text)
    assert len(data["frames"]) == 117
    assert data["start"]["c"][0] == [5, "F"]  # 5 face-down, then the 6 of spades
    # Entry 1 (line 11): the Jack (K) onto column 9; column 10 loses it and the face-down card
    # under it, which comes back face up (the King, M).
    assert data["frames"][0] == ["10>9", "8K;9-2M", 1, -1, 11]
    # Entry 17, a deal: a card on each column (one letter each), then 4 deals left.
    assert data["frames"][16] == ["deal", "*AGMACEGIGD;k4", 1, -1, 1]
    # The paragraphs are the script's: only the start's is in the page (for readers without it).
    words = [frame.words for frame in recorder.frames.frames()]
    assert words[0] in text and not any(w in text for w in words[1:])
    assert text.count('id="data"') == 1
    assert len(text) < 45_000, len(text)


def walk_with_undo(path: Path) -> list[str]:
    """A log's actions with every action undone once and played again: each kind of change
    (a move, a flip, a deal, a run removed, the game won) and its undo."""
    out = []
    for entry in load_log(path).entries:
        out += [entry.text, "undo", entry.text]
    return out


def random_log(code: str, entries: int, seed: int) -> str:
    """A legal log of ``entries`` actions, undo included, from a fixed seed."""
    setup = Setup.from_code(parse_code(code))
    rng = random.Random(seed)
    game = Game.from_setup(setup, choose_rules(parse_log(f"game: {code}\nmoves: []\n")))
    played: list[str] = []
    while len(played) < entries and game.over is None:
        action = rng.choice(game.legal_actions())
        game.apply(action)
        played.append(str(action))
    return format_log(setup, played)


def decoding_cases(tmp: Path) -> list[tuple[Path, bool]]:
    win = tmp / "win-undo.yaml"
    win.write_text(
        format_log("SP1-S1C-AAAAAAD", walk_with_undo(ROOT / "fixtures" / "spider-1suit-win.yaml"))
    )
    ette = tmp / "spiderette-undo.yaml"
    ette.write_text(
        format_log(
            "SD1-S1-AAAAABD", walk_with_undo(ROOT / "fixtures" / "spiderette-1suit-win.yaml")
        )
    )
    cases = [(win, False), (ette, False), (with_refusals(tmp), True), (with_refusals(tmp), False)]
    for i, code in enumerate(["SP4-S1C-AAAAABD", "SP2-S1P-AAAAABD", "SD2-S1-AAAAABD"]):
        path = tmp / f"random-{i}.yaml"
        path.write_text(random_log(code, 400, seed=i))
        cases.append((path, False))
    for path in sorted((ROOT / "fixtures" / "illegal").glob("*.yaml")):
        cases.append((path, True))
    return cases


def test_the_recorded_steps_give_the_engines_positions(tmp_path: Path) -> None:
    """Decoded as the page's script decodes them, the steps give every position the engine
    reaches: the columns, counters, words, and refusals."""
    for path, skip in decoding_cases(tmp_path):
        want = engine_positions(path, skip)
        recorder = Recorder()
        replay(load_log(path), on_illegal="skip" if skip else "stop", visitor=recorder)
        frames = list(recorder.frames.frames())
        assert [f.index for f in frames] == sorted(want), path
        for frame in frames:
            w = want[frame.index]
            cols = [["down"] * down + list(up) for down, up in frame.view.columns]
            assert cols == w["cols"], (path, frame.index)
            assert (frame.moves, frame.score, frame.words) == (w["moves"], w["score"], w["words"])
            assert (frame.refusal and frame.refusal[0]) == (w["refused"] or None)


def test_page_header_names_game_deal_rules_player_result_and_verdict() -> None:
    log = load_log(ROOT / "fixtures" / "batch" / "b-illegal.yaml")
    recorder = Recorder()
    report = replay(log, visitor=recorder)
    text = replay_page(report, recorder.frames)
    facts = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]*)</dd>", text))
    assert facts["Game"].startswith("SD1-S1-AAAABIW (Spiderette, 1 suit")
    assert facts["Deal id"] == log.deal.deal_id
    assert facts["Rules"].startswith("classic (")
    assert facts["Player"] == "bob"
    assert facts["Result"] == "open: 1 move, score 499, runs 0/4"
    assert facts["Verdict"] == (
        "INVALID: entry 2 (line 5) refused (same-column); replay stopped there"
    )


def random_game(entries: int, seed: int) -> str:
    """A legal log of ``entries`` actions from a fixed seed (moves chosen at random)."""
    setup = Setup.from_code(parse_code("SP2-S1C-AAAAABD"))
    rng = random.Random(seed)
    rules = choose_rules(parse_log("game: SP2-S1C-AAAAABD\nmoves: []\n"))
    game = Game.from_setup(setup, rules)
    played: list[str] = []
    while len(played) < entries:
        actions = [a for a in game.legal_actions() if str(a) != "undo"]
        assert actions, "the random game is blocked; pick another seed"
        action = rng.choice(actions)
        game.apply(action)
        played.append(str(action))
    return format_log(setup, played)


def test_a_300_move_page_is_small(tmp_path: Path) -> None:
    path = tmp_path / "long.yaml"
    path.write_text(random_game(300, seed=12))
    page = make_page(path, tmp_path / "long.html")
    size = page.stat().st_size
    assert size < 60_000, size
    assert len(page_data(page.read_text())["frames"]) == 300


def heavy_logs() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Logs of the kinds whose pages are the largest for their size (tests/tools/page_limits.py
    makes them 1 MiB), 40 KB each here: the log's text and the options that replay them."""
    win = [e.text for e in load_log(ROOT / "fixtures" / "spider-1suit-win.yaml").entries]
    size = 40_000
    head = "game: SP4-S1C-AAAAAAD\nmoves: ["  # 5>1 is legal there, 1>2 refused

    def fill(start: str, unit: str) -> str:
        return start + unit * ((size - len(start)) // len(unit)) + "undo]\n"

    skip = ("--on-illegal", "skip")
    return {
        "refused-moves": (fill(head, "1>2,"), skip),
        "deal-undo": (fill(head, "deal,undo,"), ()),
        "move-undo-refusal": (fill(head, "5>1,undo,1>2,"), skip),
        "run-undo": (
            fill(f"game: SP1-S1C-AAAAAAD\nmoves: [{','.join(win[:29])},", "10>2:11,undo,"),
            (),
        ),
    }


@pytest.mark.parametrize("kind", sorted(heavy_logs()))
def test_a_pages_size_is_bounded_by_its_logs(tmp_path: Path, kind: str) -> None:
    """A page costs the fixed part (at most 48 KB: style, script, words) and at most 8 bytes for
    each byte of the log: a 1 MiB log's page stays under 9 MB (docs/html.md). Pages that
    embedded every position and its paragraph were a hundred times the log."""
    text, options = heavy_logs()[kind]
    log = tmp_path / f"{kind}.yaml"
    log.write_text(text)
    page = make_page(log, tmp_path / f"{kind}.html", *options)
    entries = len(load_log(log).entries)
    assert len(page_data(page.read_text())["frames"]) == entries > 3_000
    size = page.stat().st_size
    assert size <= 48_000 + 8 * len(text), (size, len(text))


def test_page_names_never_collide() -> None:
    paths = ["a/x.yaml", "b/x.yaml", "a-x.yaml", "a/x.yml", "x.yaml", "<x>.yaml", "a x.yaml"]
    names = [page_name(p) for p in paths]
    assert len(set(names)) == len(names)
    assert all(re.fullmatch(r"[A-Za-z0-9._-]+\.html", n) for n in names)
    assert page_name("logs/b-illegal.yaml").startswith("b-illegal-")


# ------------------------------------------------------------------------------ SVG


def test_deal_svg_snapshot(tmp_path: Path, snapshot: SnapshotAssertion) -> None:
    out = tmp_path / "deal.svg"
    result = run("deal", "SP4-S1C-AAAAABD", "--svg", str(out))
    assert result.exit_code == 0, result.output
    text = out.read_text()
    ET.fromstring(text)  # well-formed XML
    assert text.count('data-card="down"') == 44
    assert text == snapshot


def test_spiderette_svg_snapshot(tmp_path: Path, snapshot: SnapshotAssertion) -> None:
    out = tmp_path / "deal.svg"
    assert run("deal", "SD2-S1-AAAABIW", "--svg", str(out)).exit_code == 0
    text = out.read_text()
    assert text.count("data-col=") == 7
    assert text == snapshot


def test_replay_svg_shows_the_asked_position(tmp_path: Path, snapshot: SnapshotAssertion) -> None:
    out = tmp_path / "board.svg"
    result = run("replay", str(EXAMPLE.relative_to(ROOT)), "--svg", str(out), "--show", "60")
    assert result.exit_code == 0, result.output
    text = out.read_text()
    want = engine_positions(EXAMPLE, skip=False)[60]
    root = ET.fromstring(text)
    ns = "{http://www.w3.org/2000/svg}"
    cols = [
        [card.get("data-card") for card in col]
        for col in root.iter(f"{ns}g")
        if col.get("data-col") is not None
    ]
    assert cols == want["cols"]
    assert "after entry 60 `4&gt;7` (line 70)" in text
    assert text == snapshot


def test_the_svg_in_the_docs_is_what_the_command_writes(tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    run("replay", "fixtures/example-spider-2suit.yaml", "--svg", str(out), "--show", "70")
    assert out.read_text() == (ROOT / "docs" / "board-example.svg").read_text()


def test_replay_svg_is_stable(tmp_path: Path) -> None:
    a, b = tmp_path / "a.svg", tmp_path / "b.svg"
    for out in (a, b):
        run("replay", str(EXAMPLE), "--svg", str(out))
    assert a.read_bytes() == b.read_bytes()
    assert 'data-run="KS"' in a.read_text()  # the final board: eight runs removed


def test_replay_svg_marks_the_refused_cards(tmp_path: Path) -> None:
    out = tmp_path / "refused.svg"
    result = run("replay", "fixtures/illegal/group-mixed-suits.yaml", "--svg", str(out))
    assert result.exit_code == 1
    text = out.read_text()
    assert 'class="hl"' in text
    assert "before refused entry" in text


@pytest.mark.parametrize(
    ("show", "needle"),
    [("every", "one entry"), ("0,5", "one entry"), ("200", "117 entries")],
)
def test_replay_svg_needs_one_existing_position(tmp_path: Path, show: str, needle: str) -> None:
    out = tmp_path / "x.svg"
    result = run("replay", str(EXAMPLE), "--svg", str(out), "--show", show)
    assert result.exit_code == 2
    assert needle in result.stderr
    assert not out.exists()


def test_replay_svg_after_the_stop_is_refused(tmp_path: Path) -> None:
    result = run("replay", "fixtures/batch/b-illegal.yaml", "--svg", str(tmp_path / "x.svg"))
    assert result.exit_code == 1  # --show final: the board before the refused entry
    result = run(
        "replay", "fixtures/batch/b-illegal.yaml", "--svg", str(tmp_path / "y.svg"), "--show", "3"
    )
    assert result.exit_code == 2
    assert "stopped at entry 2" in result.stderr


@pytest.mark.parametrize("option", ["--html", "--svg"])
def test_unwritable_output_is_an_input_error(tmp_path: Path, option: str) -> None:
    out = tmp_path / "no-such-folder" / "x.out"
    result = run("replay", str(EXAMPLE), option, str(out))
    assert result.exit_code == 2
    assert "cannot be written" in result.stderr
    assert "Traceback" not in result.output


def test_deal_svg_bad_code_and_bad_path(tmp_path: Path) -> None:
    assert run("deal", "SP9-XX", "--svg", str(tmp_path / "x.svg")).exit_code == 2
    result = run("deal", "SP1-S1C-AAAAABD", "--svg", str(tmp_path / "none" / "x.svg"))
    assert result.exit_code == 2
    assert "cannot be written" in result.stderr


# -------------------------------------------------------------------- verify --html-dir


def test_verify_html_dir_writes_a_page_per_non_valid_log(tmp_path: Path) -> None:
    out = tmp_path / "pages"
    result = run("verify", "fixtures/batch", "--html-dir", str(out), "--jobs", "2")
    assert result.exit_code == 2
    assert f"pages in {out / 'index.html'}" in result.stderr
    pages = sorted(p.name for p in out.iterdir())
    assert pages == sorted(
        [
            page_name("fixtures/batch/b-illegal.yaml"),
            page_name("fixtures/batch/c-expect-failed.yaml"),
            page_name("fixtures/batch/d-unusable.yaml"),
            "index.html",
        ]
    )
    index = (out / "index.html").read_text()
    for name in pages[:-1]:
        assert f'href="{name}' in index
    assert "a-valid" not in index
    illegal = (out / page_name("fixtures/batch/b-illegal.yaml")).read_text()
    assert "same-column" in illegal
    expect = (out / page_name("fixtures/batch/c-expect-failed.yaml")).read_text()
    assert "score 900, got 499" in expect
    unusable = (out / page_name("fixtures/batch/d-unusable.yaml")).read_text()
    assert "line 3" in unusable and "not valid YAML" in unusable


def test_verify_html_dir_same_names_in_two_folders(tmp_path: Path) -> None:
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        text = (ROOT / "fixtures" / "batch" / "b-illegal.yaml").read_text()
        (tmp_path / folder / "game.yaml").write_text(text)
    out = tmp_path / "pages"
    result = run("verify", str(tmp_path / "one"), str(tmp_path / "two"), "--html-dir", str(out))
    assert result.exit_code == 1
    assert len(list(out.glob("game-*.html"))) == 2


def test_verify_html_dir_all_valid_writes_only_the_index(tmp_path: Path) -> None:
    out = tmp_path / "pages"
    result = run("verify", str(EXAMPLE), "--html-dir", str(out))
    assert result.exit_code == 0
    assert [p.name for p in out.iterdir()] == ["index.html"]
    assert "Every log is valid" in (out / "index.html").read_text()


def test_verify_html_dir_that_cannot_be_made(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = run("verify", str(EXAMPLE), "--html-dir", str(blocker / "pages"))
    assert result.exit_code == 2
    assert "--html-dir" in result.stderr


def test_board_view_counts_face_down_cards_only() -> None:
    game = Game.from_setup(
        Setup.from_code(parse_code("SP1-S1C-AAAAABD")),
        choose_rules(parse_log("game: SP1-S1C-AAAAABD\nmoves: []\n")),
    )
    view = BoardView.of(game)
    assert [down for down, _ in view.columns] == [5, 5, 5, 5, 4, 4, 4, 4, 4, 4]
    assert all(len(up) == 1 for _, up in view.columns)
    assert (view.stock, view.deals_left, view.removed) == (50, 5, "")


def test_a_new_page_is_readable_by_others(tmp_path: Path) -> None:
    """Pages are for publishing: a new file gets the umask's mode, not a private 0600."""
    old = os.umask(0o022)
    try:
        page = make_page(EXAMPLE, tmp_path / "page.html")
    finally:
        os.umask(old)
    assert page.stat().st_mode & 0o777 == 0o644


# ------------------------------------------------------------------- the page on a screen


def tall_game(tmp: Path) -> Path:
    """A 2-suit permissive game of random moves whose tallest column (30 cards) is taller
    than a 1280x900 window shows unsqueezed."""
    code = "SP2-S1P-AAAAABD"
    setup = Setup.from_code(parse_code(code))
    rng = random.Random(8)
    game = Game.from_setup(setup, choose_rules(parse_log(f"game: {code}\nmoves: []\n")))
    played: list[str] = []
    while len(played) < 400:
        action = rng.choice([a for a in game.legal_actions() if str(a) != "undo"])
        game.apply(action)
        played.append(str(action))
    path = tmp / "tall.yaml"
    path.write_text(format_log(setup, played))
    return path


LAYOUT = """JSON.stringify((() => {
  const board = document.getElementById('board');
  const box = board.getBoundingClientRect();
  const cards = [...document.querySelectorAll('[data-col] [data-card]')];
  const rect = e => { const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; };
  const ranks = [...document.querySelectorAll('[data-col] [data-card] .rank')];
  const scale = board.getScreenCTM().a;
  return {
    window: [innerWidth, innerHeight],
    scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
    board: rect(board),
    cap: board.getAttribute('data-cap'),
    cards: cards.map(rect),
    columns: [...document.querySelectorAll('[data-col]')].map(col =>
      [...col.children].map(card => [card.dataset.card, rect(card),
        card.querySelector('.rank') ? rect(card.querySelector('.rank')) : null])),
    rankFont: Math.min(...ranks.map(r => parseFloat(getComputedStyle(r).fontSize) * scale)),
    rankHeight: Math.min(...ranks.map(r => r.getBoundingClientRect().height)),
  };
})())"""


def tallest_entry(path: Path) -> int:
    recorder = Recorder()
    replay(load_log(path), visitor=recorder)
    frames = list(recorder.frames.frames())
    return max(frames, key=lambda f: f.view.extent).index


def test_a_wide_window_shows_the_whole_tableau_of_a_long_game(
    browser: Browser, tmp_path: Path
) -> None:
    """At 1280x900 the board takes the window's height beside the rest: every card of the
    tallest position in the game is in the window, without scrolling, each face-up card's
    rank showing (the columns squeezed, not the cards made smaller), and the drawing is the
    one the SVG writer makes squeezed as much."""
    log = tall_game(tmp_path)
    page = make_page(log, tmp_path / "tall.html")
    n = tallest_entry(log)
    browser.viewport(1280, 900)
    try:
        browser.open(f"{page.as_uri()}#{n}")
        seen = json.loads(browser.evaluate(LAYOUT))
        drawn = browser.evaluate("document.getElementById('board').innerHTML")
    finally:
        browser.viewport(900, 1000)
    assert browser.problems() == []
    assert seen["scroll"] == [1280, 900]  # nothing to scroll to
    left, top, right, bottom = seen["board"]
    assert right - left > 800 and bottom - top > 850  # the board uses the window
    assert seen["cap"] is not None  # squeezed: this game's tallest column does not fit as is
    for x0, y0, x1, y1 in seen["cards"]:
        assert x0 >= 0 and x1 <= 1280 and y0 >= 0 and y1 <= 900
    tallest = max(seen["columns"], key=len)
    assert len(tallest) >= 25
    for below, above in itertools.pairwise(tallest):
        if below[2] is not None:  # a face-up card: its rank stands above the next card's edge
            scale = (below[1][3] - below[1][1]) / 88  # a card is 88 units high
            baseline = below[1][1] + 18 * scale  # the rank's text stands on y=18 in the card
            assert baseline + 1 <= above[1][1], (below, above)
    assert seen["rankFont"] >= 14
    recorder = Recorder()
    replay(load_log(log), visitor=recorder)
    frame = list(recorder.frames.frames())[n]
    assert canonical(drawn) == canonical(board_body(frame.view, cap=int(seen["cap"])))


@pytest.mark.parametrize("log", [EXAMPLE, ROOT / "fixtures" / "example-spiderette-53.yaml"])
def test_a_phone_shows_the_board_near_the_top_with_readable_ranks(
    browser: Browser, tmp_path: Path, log: Path
) -> None:
    """At 390x844 (a phone, its own viewport rules) the board comes after the title and the
    buttons, as wide as the screen, its ranks at least 12 px high."""
    page = make_page(log, tmp_path / "phone.html")
    browser.viewport(390, 844, mobile=True)
    try:
        browser.open(f"{page.as_uri()}#12")
        seen = json.loads(browser.evaluate(LAYOUT))
    finally:
        browser.viewport(900, 1000)
    assert browser.problems() == []
    left, top, right, bottom = seen["board"]
    assert top < 160 and bottom < 844  # the whole board on the first screen
    assert left >= 0 and right <= 390 and right - left > 370
    assert seen["scroll"][0] == 390  # nothing runs off to the side
    assert seen["rankFont"] >= 12 and seen["rankHeight"] >= 12, seen


def test_play_steps_through_the_game_and_pause_stops(browser: Browser, example_page: Path) -> None:
    browser.open(f"{example_page.as_uri()}#40")
    play = "document.getElementById('play')"
    assert browser.evaluate(f"{play}.textContent") == "Play"
    browser.click("#play")
    assert browser.evaluate(f"{play}.textContent") == "Pause"
    browser.evaluate("new Promise(r => setTimeout(r, 2300))")
    browser.click("#play")
    entry = int(dom(browser)["counters"][0][0])
    assert entry == 42
    assert browser.evaluate(f"{play}.textContent") == "Play"
    browser.evaluate("new Promise(r => setTimeout(r, 1200))")
    assert int(dom(browser)["counters"][0][0]) == entry  # paused
    browser.click("#play")
    browser.press("ArrowLeft")  # a step of one's own stops the play
    browser.evaluate("new Promise(r => setTimeout(r, 1200))")
    assert int(dom(browser)["counters"][0][0]) == entry - 1
    browser.open(f"{example_page.as_uri()}#117")
    browser.click("#play")  # at the end, play starts again from the start
    assert dom(browser)["counters"][0][0] == "0"
    browser.click("#play")


# ---------------------------------------------------------------- the index of verify's pages


def test_the_index_links_each_page_at_its_refusal_in_the_chosen_language(tmp_path: Path) -> None:
    out = tmp_path / "pages"
    result = run("verify", "fixtures/batch", "--html-dir", str(out), "--lang", "cs")
    assert result.exit_code == 2
    index = (out / "index.html").read_text()
    assert '<html lang="cs">' in index
    for czech in (
        "<h1>Neplatné záznamy</h1>",
        "<th>Záznam</th>",
        "<th>Stav</th>",
        "<th>Důvod</th>",
    ):
        assert czech in index
    for english in ("Logs that are not valid", "<th>Why</th>", "<th>Status</th>"):
        assert english not in index
    assert "sloupec 3 je zdrojem i cílem zároveň" in index  # the reason, said in Czech
    expect = load_log(ROOT / "fixtures" / "batch" / "c-expect-failed.yaml")
    links = dict(re.findall(r'href="([^"#]+)(#\d+)?"', index))
    assert links[page_name("fixtures/batch/b-illegal.yaml")] == "#2"  # the refused entry
    assert links[page_name("fixtures/batch/c-expect-failed.yaml")] == f"#{len(expect.entries)}"
    assert links[page_name("fixtures/batch/d-unusable.yaml")] == ""  # no positions to show


def test_the_index_keeps_file_names_whole(browser: Browser, tmp_path: Path) -> None:
    """At 1280x900 each file name in the index is on one line (a long path may break after
    a slash, never inside a name), and the names' column is wider than its longest name."""
    out = tmp_path / "pages"
    run("verify", "fixtures/illegal", "fixtures/batch", "--html-dir", str(out))
    browser.viewport(1280, 900)
    try:
        browser.open((out / "index.html").as_uri())
        names = json.loads(
            browser.evaluate(
                "JSON.stringify([...document.querySelectorAll('td.log span')].map(s =>"
                " [s.textContent, s.getClientRects().length, s.getBoundingClientRect().width]))"
            )
        )
    finally:
        browser.viewport(900, 1000)
    assert len(names) > 30
    for text, lines, width in names:
        assert lines == 1, text
        assert width >= 6 * len(text), (text, width)  # not squeezed


@pytest.mark.parametrize(
    ("lang", "label", "rules"),
    [
        ("cs", "Pravidla", "classic (pravidla aplikací Spider a Spiderette)"),
        ("fi", "Säännöt", "classic (Spider- ja Spiderette-sovellusten säännöt)"),
    ],
)
def test_the_rules_line_is_in_the_pages_language(
    tmp_path: Path, lang: str, label: str, rules: str
) -> None:
    page = make_page(EXAMPLE, tmp_path / "page.html", "--lang", lang)
    facts = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]*)</dd>", page.read_text()))
    assert facts[label] == rules
    assert 'data-play="' in page.read_text() and ">Play<" not in page.read_text()
