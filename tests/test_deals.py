"""Explicit deals (``deal:`` instead of ``game:``), deal IDs, and the plain-text descriptions.

The two seed boards are checked against the seeds' own paragraphs: the Czech and Finnish
sentences below are copied from ``shared/seeds/000_*.txt`` and ``001_*.txt`` and read by a small
translator, so the test compares facts (stock, deals left, runs, each column's hidden count and
face-up card), not wording. Word for word, the Czech paragraph is the page's; the Finnish one
is the page's with the glossary's words for the stock and a run (``docs/i18n.md``).
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from syrupy.assertion import SnapshotAssertion

from spidercli.game.cards import parse_card
from spidercli.game.codes import Setup, canonical_layout, deal_layout, parse_code
from spidercli.game.engine import Game
from spidercli.game.rules import CLASSIC
from spidercli.logs.reader import load_log, parse_log
from spidercli.logs.yamlreader import LogError
from spidercli.play.replay import replay
from spidercli.report.text import describe
from tests.helpers import FIXTURES, run

SEED_000 = (
    "Dobírací balíček: 24 karet, zbývající rozdání: 4; žádná postupka nebyla odebrána. "
    "Sloupec 1: skryté karty: 0, dále křížová 4; sloupec 2: skryté karty: 1, dále křížové eso; "
    "sloupec 3: skryté karty: 2, dále srdcová 10; sloupec 4: skryté karty: 3, dále kárová dáma; "
    "sloupec 5: skryté karty: 4, dále srdcová 3; sloupec 6: skryté karty: 5, dále pikové eso; "
    "sloupec 7: skryté karty: 6, dále srdcová 5."
)
SEED_001 = (
    "Jakopakka: 50 korttia, 5 jakoa jäljellä; yhtään suoraa ei ole poistettu. Sarake 1: 5 "
    "piilossa, sitten pata-10; sarake 2: 5 piilossa, sitten ruutuässä; sarake 3: 5 piilossa, "
    "sitten herttakuningas; sarake 4: 5 piilossa, sitten patasotilas; sarake 5: 4 piilossa, "
    "sitten pata-3; sarake 6: 4 piilossa, sitten ruutu-8; sarake 7: 4 piilossa, sitten pataässä; "
    "sarake 8: 4 piilossa, sitten herttakuningas; sarake 9: 4 piilossa, sitten hertta-2; "
    "sarake 10: 4 piilossa, sitten pata-9."
)

Facts = tuple[int, int, int, list[tuple[int, int]]]  # stock, deals left, runs, (hidden, card)

_CS_SUITS = {"pik": "S", "srdc": "H", "kár": "D", "kříž": "C"}
_CS_RANKS = {"eso": "A", "dáma": "Q", "král": "K", "kluk": "J", "10": "T"}
_FI_SUITS = {"pata": "S", "hertta": "H", "ruutu": "D", "risti": "C"}
_FI_RANKS = {"ässä": "A", "kuningas": "K", "kuningatar": "Q", "sotilas": "J", "10": "T"}


def _czech(text: str) -> Facts:
    stock, deals = map(int, re.search(r"(\d+) karet, zbývající rozdání: (\d+)", text).groups())  # type: ignore[union-attr]
    runs = 0 if "žádná postupka" in text else -1
    cols = []
    for hidden, suit, rank in re.findall(r"skryté karty: (\d+), dále (\w+?)[áé] (\w+)", text):
        card = _CS_RANKS.get(rank, rank) + _CS_SUITS[suit.replace("ov", "").rstrip("o")]
        cols.append((int(hidden), parse_card(card)))
    return stock, deals, runs, cols


def _finnish(text: str) -> Facts:
    stock, deals = map(int, re.search(r"(\d+) korttia, (\d+) jakoa", text).groups())  # type: ignore[union-attr]
    runs = 0 if "yhtään suoraa ei ole poistettu" in text else -1
    cols = []
    for hidden, name in re.findall(r"(\d+) piilossa, sitten ([\w-]+)", text):
        suit = next(s for s in _FI_SUITS if name.startswith(s))
        rank = name[len(suit) :].lstrip("-")
        cols.append((int(hidden), parse_card(_FI_RANKS.get(rank, rank) + _FI_SUITS[suit])))
    return stock, deals, runs, cols


_EN_RANKS = {"Ace": "A", "Jack": "J", "Queen": "Q", "King": "K", "10": "T"}


def _english(text: str) -> Facts:
    """Read our own description back into facts."""
    m = re.match(r"Stock: (\d+) cards?, (\d+) deals? left; (no runs|\d+ of \d+ runs)", text)
    assert m is not None, text
    runs = 0 if m.group(3) == "no runs" else int(m.group(3).split()[0])
    cols = []
    pattern = r"[Cc]olumn \d+: (?:(\d+) face-down, then )?the (\w+) of (\w)"  # no count: none
    for hidden, rank, suit in re.findall(pattern, text):
        cols.append((int(hidden or 0), parse_card(_EN_RANKS.get(rank, rank) + suit.upper())))
    return int(m.group(1)), int(m.group(2)), runs, cols


@pytest.mark.parametrize(
    ("fixture", "seed"),
    [
        ("seed000-spiderette-board.yaml", _czech(SEED_000)),
        ("seed001-spider-board.yaml", _finnish(SEED_001)),
    ],
)
def test_seed_boards_state_the_seeds_facts(fixture: str, seed: Facts) -> None:
    assert len(seed[3]) in (7, 10)  # the translator read every column
    log = load_log(FIXTURES / fixture)
    text = describe(Game.from_setup(log.deal, CLASSIC))
    assert _english(text) == seed
    cli = run("replay", f"fixtures/{fixture}", "--describe")
    assert text in cli.stdout


def test_describe_after_play_counts_runs_and_empty_columns() -> None:
    log = load_log(FIXTURES / "spiderette-1suit-win.yaml")
    game = replay(log).game
    text = describe(game)
    assert text.startswith("Stock: 0 cards, 0 deals left; 4 of 4 runs removed (spades, ")
    assert "Column 1: empty; column 2: empty;" in text
    assert text.endswith("Moves: 118; score: 782.")


def test_describe_says_only_what_is_there() -> None:
    """A column with no face-down card is its face-up cards alone (no "0 face-down"), and the
    runs removed are counted out of the game's runs ("1 of 8 runs", not "a run of 8")."""
    game = Game.from_setup(load_log(FIXTURES / "seed000-spiderette-board.yaml").deal, CLASSIC)
    text = describe(game)
    assert "Column 1: the 4 of clubs; column 2: 1 face-down, then the Ace of clubs;" in text
    assert "0 face-down" not in text
    game.removed = [0]
    assert "; 1 of 4 runs removed (spades). Column 1:" in describe(game)


def test_deal_describe_and_replay_describe(snapshot: SnapshotAssertion) -> None:
    result = run("deal", "SP2-S1C-AAAAABD", "--describe")
    assert result.exit_code == 0
    assert result.stdout == snapshot
    result = run("replay", "fixtures/spider-2suit-open.yaml", "--describe", "--show", "0,3,final")
    assert result.exit_code == 0
    assert "##" not in result.stdout
    assert result.stdout == snapshot


# ------------------------------------------------------------------------ deal IDs


def test_explicit_deal_replays_like_its_code() -> None:
    coded = run("replay", "fixtures/spiderette-1suit-win.yaml", "--json")
    written = run("replay", "fixtures/spiderette-1suit-win-explicit.yaml", "--json")
    assert coded.exit_code == written.exit_code == 0
    a, b = json.loads(coded.stdout), json.loads(written.stdout)
    assert a["game"] == "SD1-S1-AAAAABD" and b["game"] is None
    assert a["deal_id"] == b["deal_id"]
    del a["game"], b["game"]
    assert a == b


def test_deal_id_is_the_hash_of_the_canonical_layout() -> None:
    import hashlib

    code = parse_code("SD1-S1-AAAAABD")
    layout = deal_layout(code)
    text = canonical_layout(layout, False)
    assert text.startswith("SD C|JS|QS KS|9S 8S 4S|")
    assert text.endswith(
        "|stock 8S 4S 3S 4S 5S JS 9S 8S 9S 7S TS 5S 5S 7S 9S 2S 2S TS QS 4S 3S 6S QS KS"
    )
    assert Setup.from_code(code).deal_id == hashlib.sha256(text.encode()).hexdigest()[:16]
    assert Setup.from_code(code).deal_id == "353515dfcb94f2f4"  # pinned: scripts store these


def test_deal_id_tells_deals_and_move_rules_apart() -> None:
    ids = {
        Setup.from_code(parse_code(c)).deal_id
        for c in ("SP2-S1C-AAAAABD", "SP2-S1P-AAAAABD", "SP2-S1C-AAAAABE", "SP4-S1C-AAAAABD")
    }
    assert len(ids) == 4
    # one suit: both move rules are the same game, so the same deal
    assert (
        Setup.from_code(parse_code("SP1-S1C-AAAAABD")).deal_id
        == Setup.from_code(parse_code("SP1-S1P-AAAAABD")).deal_id
    )


def _written(code: str, rule: str | None = None, stock_as_text: bool = False) -> str:
    layout = deal_layout(parse_code(code))
    lines = ["deal:", f"  game: {layout.game.name}"]
    if rule:
        lines.append(f"  rule: {rule}")
    lines.append("  columns:")
    lines.extend(f"    - {' '.join(card_names(col))}" for col in layout.columns)
    if stock_as_text:
        lines.append(f"  stock: {' '.join(card_names(layout.stock))}")
    else:
        lines.append("  stock:")
        lines.extend(f"    - {name}" for name in card_names(layout.stock))
    lines.append("moves: []")
    return "\n".join(lines) + "\n"


def card_names(cards: tuple[int, ...]) -> list[str]:
    from spidercli.game.cards import card_str

    return [card_str(c) for c in cards]


@pytest.mark.parametrize(
    "code", ["SP2-S1P-AAAAABD", "SP4-S1C-AAAAAAA", "SD2-S1P-AAAAABD", "SD4-S1-AAAAAAC"]
)
def test_written_out_code_has_the_codes_deal_id(code: str) -> None:
    rule = "permissive" if "P-" in code else None
    for as_text in (False, True):
        log = parse_log(_written(code, rule, as_text))
        assert log.code is None
        assert log.deal.deal_id == Setup.from_code(parse_code(code)).deal_id
        assert log.deal.suits == int(code[2])
        assert log.deal.permissive == (rule is not None)


def test_explicit_deal_under_duel_and_against_a_code_in_a_duel() -> None:
    from spidercli.judging.duel import check_pair

    written = parse_log(
        _written("SP2-S1C-AAAAABD").replace("moves: []", "rules: duel\nmoves: []"), "a.yaml"
    )
    coded = parse_log("game: SP2-S1C-AAAAABD\nrules: duel\nmoves: []\n", "b.yaml")
    check_pair(written, coded)  # same cards: one duel


@pytest.mark.parametrize(
    ("edit", "line", "words"),
    [
        (lambda t: t.replace("game: spider", "game: spider\n  suits: 3"), 3, "deal.suits: 3 suits"),
        (
            lambda t: t.replace("  columns:\n    - ", "  columns:\n    - XX "),
            5,
            "'XX' is not a card",
        ),
        (lambda t: t.replace("rule: permissive", "rule: loose"), 3, "not a move rule"),
        (
            lambda t: re.sub(r"  columns:\n(    - .*\n)+", "  columns: 5\n", t),
            4,
            "must be a list of 10 columns",
        ),
        (
            lambda t: t.replace("  stock:\n    - ", "  stock:\n    - 2H "),
            15,
            "deal.stock has 51 cards",
        ),
        (lambda t: t.replace("  game: spider\n", ""), 2, "deal has no 'game' key"),
        (
            lambda t: t.replace("  stock:\n    - ", "  stock:\n    - {a: 1}\n    - "),
            16,
            "must be text",
        ),
        (
            lambda t: re.sub(r"  stock:\n(    - .*\n)+", "  stock: 12\n", t),
            15,
            "deal.stock must be cards",
        ),
    ],
)
def test_broken_explicit_deals_name_the_line(edit: object, line: int, words: str) -> None:
    text = edit(_written("SP2-S1P-AAAAABD", "permissive"))  # type: ignore[operator]
    with pytest.raises(LogError) as err:
        parse_log(text, "x.yaml")
    assert words in err.value.message
    assert err.value.line == line


def test_composition_names_the_extra_and_the_missing_card() -> None:
    text = _written("SP2-S1C-AAAAABD")
    layout = deal_layout(parse_code("SP2-S1C-AAAAABD"))
    last = card_names(layout.stock)[-1]
    other = "AS" if last != "AS" else "2S"
    lines = text.splitlines()
    lines[-2] = f"    - {other}"  # the stock's last card replaced by a fifth copy of another
    with pytest.raises(LogError) as err:
        parse_log("\n".join(lines), "x.yaml")
    assert f"{other} (" in err.value.message and "is given 5 times" in err.value.message
    assert f"{last} (" in err.value.message and "is missing" in err.value.message
    assert err.value.line == len(lines) - 1


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_any_mangled_deal_gives_a_log_or_a_log_error(data: st.DataObject) -> None:
    """Cut, duplicate or replace pieces of a good explicit deal: the reader answers with a log or
    a ``LogError`` (with a line when one applies), never anything else."""
    text = _written("SP2-S1P-AAAAABD", "permissive")
    lines = text.splitlines()
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(lines) - 1))
        op = data.draw(st.sampled_from(["drop", "dup", "swap", "edit"]))
        if op == "drop" and len(lines) > 1:
            del lines[i]
        elif op == "dup":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            junk = data.draw(st.sampled_from(["XX", "10S", "", "[", "- ", ": ", "KH, KH", "9"]))
            pos = data.draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:pos] + junk + lines[i][pos:]
    try:
        log = parse_log("\n".join(lines) + "\n", "m.yaml")
    except LogError as err:
        assert err.message
        return
    # Whatever got through is a whole deck: every card exactly as often as the deck holds it.
    layout = log.deal.layout
    cards = [card for col in layout.columns for card in col] + list(layout.stock)
    copies = layout.game.cards // (13 * log.deal.suits)
    assert len(cards) == layout.game.cards
    assert set(Counter(cards).values()) == {copies}
    assert len(Counter(cards)) == 13 * log.deal.suits


# ------------------------------------------------------- the seed paragraphs, word for word


# The Finnish page's paragraph says Jakopakka and suora where its rules (and every other line of
# a Finnish report) say nostopakka and sarja: the paragraph uses the rules' words, one a term.
SEED_001_GLOSSARY = SEED_001.replace("Jakopakka:", "Nostopakka:").replace(
    "yhtään suoraa", "yhtään sarjaa"
)


@pytest.mark.parametrize(
    ("fixture", "lang", "paragraph"),
    [
        ("seed000-spiderette-board", "cs", SEED_000),
        ("seed001-spider-board", "fi", SEED_001_GLOSSARY),
    ],
)
def test_seed_paragraph_word_for_word(fixture: str, lang: str, paragraph: str) -> None:
    """The seed pages' starting boards, described in the pages' languages, are the pages' own
    paragraphs, letter for letter, but for the two Finnish words the glossary replaces (the
    page's paragraph and its rules call the stock and a run by two names each)."""
    result = run("replay", f"fixtures/{fixture}.yaml", "--describe", "--show", "0", "--lang", lang)
    assert result.exit_code == 0
    blocks = result.stdout.split("\n\n")
    assert paragraph in blocks[1].splitlines()
    log = load_log(str(FIXTURES / f"{fixture}.yaml"))
    start = Game.from_setup(log.deal, CLASSIC)
    from spidercli.text import i18n

    i18n.use(lang)
    try:
        assert describe(start) == paragraph
    finally:
        i18n.use("en")
