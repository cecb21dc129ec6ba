"""PySol's game numbers as game codes: PS<suits>-<number> deals exactly PySolFC's cards.

The vectors (tests/data/pysol/pysolfc-spider-deals.json) were dealt by PySolFC's own code, run
without its window (docs/pysol.md says how): each is the number as typed into PySolFC's "Select
new game number" dialog, the generator PySolFC chose, the number as its status bar shows it, and
the ten columns and the stock in PySolFC's own card names (its clubs included).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from syrupy.assertion import SnapshotAssertion

from spidercli.game.cards import cards_str
from spidercli.game.codes import (
    CodeError,
    Setup,
    deal_layout,
    ordered_deck,
    parse_code,
    shuffled_deck,
)
from spidercli.game.pysoldeal import (
    PYSOL_COLUMN_SIZES,
    PYSOL_LC_BELOW,
    PYSOL_MAX_MS,
    PYSOL_MAX_NUMBER,
    generator_of,
    lc31_draws,
    pysol_deal_ids,
    pysol_deck,
)
from spidercli.game.rules import SPIDER
from tests.helpers import ROOT, run

DATA = ROOT / "tests" / "data" / "pysol"
VECTORS: dict[str, Any] = json.loads((DATA / "pysolfc-spider-deals.json").read_text())
DEALS: list[dict[str, Any]] = VECTORS["deals"]
WIN = DATA / "ps1-1-win.yaml"

# How spidercli names PySolFC's cards in each game: its 1- and 2-suit decks are spades (and
# hearts), where PySolFC's are clubs (and hearts).
OUR_SUIT = {1: {"C": "S"}, 2: {"C": "S", "H": "H"}, 4: {"C": "C", "S": "S", "H": "H", "D": "D"}}


def _ours(cards: str, suits: int) -> str:
    return " ".join(c[0] + OUR_SUIT[suits][c[1]] for c in cards.split())


def _number(deal: dict[str, Any]) -> int:
    return int(deal["number"].removeprefix("ms"))


def test_the_vectors_come_from_pysolfc() -> None:
    source = VECTORS["source"]
    assert len(source["pysolfc_commit"]) == 40
    assert len(DEALS) == 207
    assert Counter(d["suits"] for d in DEALS) == {1: 69, 2: 69, 4: 69}
    games = {d["suits"]: (d["pysolfc_game_id"], d["pysolfc_game"]) for d in DEALS}
    assert games == {1: (269, "Spider (1 Suit)"), 2: (270, "Spider (2 Suits)"), 4: (11, "Spider")}
    # PySolFC's own suits: clubs only with one suit, clubs and hearts with two.
    for d in DEALS:
        suits = {c[1] for c in " ".join([*d["columns"], d["stock"]]).split()}
        assert suits == {1: {"C"}, 2: {"C", "H"}, 4: {"C", "S", "H", "D"}}[d["suits"]]


def test_the_vectors_cover_every_boundary() -> None:
    """Each generator's first and last number, and both sides of every switch, for each suit
    count: plain 31999 | 32000 (LCRandom31 | MTRandom), 10^20 (the last), 20-digit random-game
    numbers; ms numbers 2^31-1 | 2^31 and 2^32-1 | 2^32 (LCRandom31's three draws), 2^33-1."""
    typed = {(d["suits"], d["number"]) for d in DEALS}
    must = ["1", "31999", "32000", "99999999999999999999", str(PYSOL_MAX_NUMBER)]
    must += [f"ms{n}" for n in (1, 31999, 32000, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**33 - 1)]
    must += ["00014934", "00000000000000032000", "ms012"]  # leading zeros, as PySolFC shows
    for suits in (1, 2, 4):
        assert {(suits, n) for n in must} <= typed
        twenty = [d for d in DEALS if d["suits"] == suits and len(d["number"]) == 20]
        assert len(twenty) >= 5
    for d in DEALS:
        assert d["generator"] == generator_of(_number(d), d["number"].startswith("ms"))


@pytest.mark.parametrize("deal", DEALS, ids=[f"PS{d['suits']}-{d['number']}" for d in DEALS])
def test_code_deals_pysolfcs_cards(deal: dict[str, Any]) -> None:
    suits = deal["suits"]
    code = parse_code(f"PS{suits}-{deal['number']}")
    layout = Setup.from_code(code).layout
    assert [cards_str(col) for col in layout.columns] == [
        _ours(col, suits) for col in deal["columns"]
    ]
    assert cards_str(layout.stock) == _ours(deal["stock"], suits)
    # What PySolFC shows for the number ("ms14934", "00000000000000032000") is the same code.
    assert parse_code(f"PS{suits}-{deal['shown']}") == code


def test_ms_below_32000_is_the_plain_number() -> None:
    """PySolFC deals a plain number below 32000 with the ms numbers' generator: one game."""
    assert parse_code("PS4-ms14934") == parse_code("PS4-14934")
    assert parse_code("PS4-MS31999").canonical == "PS4-31999"
    assert parse_code("PS4-ms32000").canonical == "PS4-MS32000"
    assert deal_layout(parse_code("PS4-MS32000")) != deal_layout(parse_code("PS4-32000"))


def test_freecell_generator_check_value() -> None:
    """LCRandom31 below 2^31 is Microsoft's rand(): after srand(1) it gives 41, 18467, 6334."""
    assert lc31_draws(1, 4) == [41, 18467, 6334, 26500]
    assert all(d >= 0x8000 for d in lc31_draws(2**31, 50))
    assert all(1 <= d <= 0x10000 for d in lc31_draws(2**32, 50))
    for bad in (0, PYSOL_MAX_MS + 1):
        with pytest.raises(ValueError, match="LCRandom31 seeds"):
            lc31_draws(bad, 1)


def test_deck_and_deal_shape() -> None:
    assert pysol_deck(4)[:14] == [(0, r) for r in range(1, 14)] + [(1, 1)]  # clubs first
    assert {s for s, _ in pysol_deck(2)} == {0, 2}  # clubs and hearts
    columns, stock = pysol_deal_ids(14934, 4)
    assert tuple(len(c) for c in columns) == PYSOL_COLUMN_SIZES == (6, 5, 5, 6, 5, 5, 6, 5, 5, 6)
    assert len(stock) == 50
    assert sorted([*(i for c in columns for i in c), *stock]) == list(range(104))
    with pytest.raises(ValueError, match="1, 2 or 4 suits"):
        pysol_deal_ids(1, 3)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("PS4-14934", "PS4-14934"),
        ("ps4-14934", "PS4-14934"),
        ("  Ps2-1\t", "PS2-1"),
        ("PS1-00014934", "PS1-14934"),
        ("PS4-ms14934", "PS4-14934"),
        ("PS4-Ms00014934", "PS4-14934"),
        ("PS4-00000000000000032000", "PS4-32000"),
        ("PS2-12345678901234567890", "PS2-12345678901234567890"),
        ("PS2-100000000000000000000", "PS2-100000000000000000000"),
        ("ps1-ms40000", "PS1-MS40000"),
        ("PS4-ms8589934591", "PS4-MS8589934591"),
    ],
)
def test_canonical_form(text: str, canonical: str) -> None:
    code = parse_code(text)
    assert code.canonical == canonical
    assert code.algorithm in ("PS", "PSMS")
    assert not code.permissive and code.game is SPIDER
    assert parse_code(canonical) == code
    assert Setup.from_code(code).name == canonical


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        ("PS4-0", "game number 0 is out of range"),
        ("PS4-000", "game number 0 is out of range"),
        ("PS4-ms0", "game number ms0 is out of range"),
        ("PS4-100000000000000000001", "number 100000000000000000001 is out of range"),
        ("PS4-ms8589934592", "ms8589934592 is out of range"),
        ("PS4-99999999999999999999999999", "out of range"),
        ("PS4-" + "9" * 5000, "out of range"),
        ("PS4-ms" + "9" * 5000, "out of range"),
        ("PS3-17", "PS codes take 1, 2 or 4 suits, not 3"),
        ("PS5-17", "PS codes take 1, 2 or 4 suits, not 5"),
        ("PS0-17", "PS codes take 1, 2 or 4 suits, not 0"),
        ("PS", "not a game code: a PySol deal is PS"),
        ("PS4", "not a game code"),
        ("PS4-", "not a game code"),
        ("PS4-ms", "not a game code"),
        ("PS-14934", "not a game code"),
        ("PS4--14934", "not a game code"),
        ("PS4-+14934", "not a game code"),
        ("PS4-#14934", "not a game code"),  # PySolFC's '#' before a number is not the number
        ("PS4-14,934", "not a game code"),
        ("PS4-14934a", "not a game code"),
        ("PS4-1 4934", "not a game code"),
        ("PS4 14934", "not a game code"),
        ("PS4-msms1", "not a game code"),
        ("PS4-m14934", "not a game code"),
        ("PS4-١٧", "not a game code"),  # Arabic-Indic digits are not game numbers
        ("PS12-17", "not a game code"),
        ("PS4-S1C-AAAAAAA", "not a game code"),
    ],
)
def test_bad_ps_codes(bad: str, why: str) -> None:
    with pytest.raises(CodeError, match=why):
        parse_code(bad)


def test_bad_code_message_is_short() -> None:
    for number in ("9" * 5000, "ms" + "9" * 5000):
        with pytest.raises(CodeError) as err:
            parse_code("PS4-" + number)
        assert len(str(err.value)) < 5000 + 250
        assert "1 to 100000000000000000000 and ms1 to ms8589934591" in str(err.value)
        assert "99999999999999999999999..." in str(err.value)  # 23 digits, then cut


def test_kp_codes_keep_their_messages() -> None:
    """The suit-count check is shared by KP and PS codes: KP's words did not change."""
    with pytest.raises(CodeError, match=r"^'KP5-17' is not a game code: KP codes take 1, 2 or 4"):
        parse_code("KP5-17")
    with pytest.raises(CodeError, match="KPat's 3-suit Spider"):
        parse_code("KP3-17")


def test_errors_are_translated() -> None:
    from spidercli.text import i18n
    from spidercli.text.messages import said

    for bad, cs, fi in [
        ("PS4-0", "číslo hry 0 je mimo rozsah", "pelin numero 0 on sallitun alueen ulkopuolella"),
        ("PS3-1", "kódy PS mají 1, 2 nebo 4 barvy, ne 3", "PS-koodeissa on 1, 2 tai 4 maata"),
        ("PS4-x", "kód hry z PySol tvoří PS", "PySolin pelin koodissa on PS"),
    ]:
        with pytest.raises(CodeError) as err:
            parse_code(bad)
        try:
            i18n.use("cs")
            assert cs in said(err.value.args[0])
            i18n.use("fi")
            assert fi in said(err.value.args[0])
        finally:
            i18n.use("en")


def test_s1_shuffle_refuses_a_ps_code() -> None:
    with pytest.raises(ValueError, match="PySol deal"):
        shuffled_deck(parse_code("PS2-17"))


numbers = st.one_of(
    st.integers(1, PYSOL_LC_BELOW - 1).map(str),
    st.integers(PYSOL_LC_BELOW, PYSOL_MAX_NUMBER).map(str),
    st.integers(10**16, 10**20 - 1).map(lambda n: f"{n:020d}"),
    st.integers(1, PYSOL_MAX_MS).map(lambda n: f"ms{n}"),
)


@given(numbers, st.sampled_from([1, 2, 4]))
def test_any_number_deals_the_whole_deck(number: str, suits: int) -> None:
    code = parse_code(f"PS{suits}-{number}")
    layout = deal_layout(code)
    assert tuple(len(c) for c in layout.columns) == PYSOL_COLUMN_SIZES
    assert len(layout.stock) == 50
    dealt = [c for col in layout.columns for c in col] + list(layout.stock)
    assert Counter(dealt) == Counter(ordered_deck(SPIDER, suits))


def test_code_in_a_log() -> None:
    from spidercli.logs.reader import parse_log

    log = parse_log("game: ps4-ms14934\nmoves: []\n", "x.yaml")
    assert log.deal.name == "PS4-14934"
    assert log.rules is None  # classic, the default


def test_bad_code_in_a_log_names_the_line() -> None:
    from spidercli.logs.reader import parse_log
    from spidercli.logs.yamlreader import LogError

    with pytest.raises(LogError, match=r"x\.yaml:2: game: .*game number 0 is out of range"):
        parse_log("rules: classic\ngame: PS4-0\nmoves: []\n", "x.yaml")


def test_explicit_deal_of_a_ps_code_has_its_deal_id() -> None:
    """PySol's columns hold 6 5 5 6 5 5 6 5 5 6 cards: written out as a deal: block they are
    read back as the same deal."""
    from spidercli.logs.reader import parse_log
    from spidercli.logs.writer import deal_lines

    for code in ("PS1-1", "PS2-5", "PS4-14934", "PS4-MS40000"):
        setup = Setup.from_code(parse_code(code))
        log = parse_log("\n".join(deal_lines(setup)) + "\nmoves: []\n", "x.yaml")
        assert log.deal.layout == setup.layout
        assert log.deal.deal_id == setup.deal_id
        assert log.deal.suits == setup.suits


def _explicit(sizes: list[int]) -> str:
    deck = [f"{r}S" for r in "A23456789TJQK"] * 8
    lines = ["deal:", "  game: spider", "  columns:"]
    pos = 0
    for size in sizes:
        lines.append("    - " + " ".join(deck[pos : pos + size]))
        pos += size
    lines.append("  stock: " + " ".join(deck[pos:]))
    return "\n".join(lines) + "\nmoves: []\n"


@pytest.mark.parametrize(
    ("sizes", "error"),
    [
        ([6, 6, 6, 6, 5, 5, 5, 5, 5, 5], None),
        ([6, 5, 5, 6, 5, 5, 6, 5, 5, 6], None),
        # Off both: the message names the first column off Spider's own sizes.
        (
            [6, 5, 5, 6, 5, 5, 6, 5, 6, 5],
            "x.yaml:5: deal.columns, column 2 has 5 cards; Spider deals 6",
        ),
        (
            [6, 6, 6, 6, 5, 5, 5, 5, 6, 4],
            "x.yaml:12: deal.columns, column 9 has 6 cards; Spider deals 5",
        ),
        (
            [5, 6, 6, 6, 6, 5, 5, 5, 5, 5],
            "x.yaml:4: deal.columns, column 1 has 5 cards; Spider deals 6",
        ),
    ],
)
def test_explicit_column_sizes(sizes: list[int], error: str | None) -> None:
    from spidercli.logs.reader import parse_log
    from spidercli.logs.yamlreader import LogError

    if error is None:
        assert [len(c) for c in parse_log(_explicit(sizes), "x.yaml").deal.layout.columns] == sizes
    else:
        with pytest.raises(LogError) as err:
            parse_log(_explicit(sizes), "x.yaml")
        assert str(err.value).startswith(error)
        assert "(Spider's columns hold 6, 6, 6, 6, 5, 5, 5, 5, 5, 5)" in str(err.value)


@pytest.mark.parametrize(
    ("code", "valid"),
    [
        ("PS4-14934", True),
        (" ps2-0014934 ", True),
        ("PS1-100000000000000000000", True),
        ("PS4-00000000000000032000", True),
        ("PS4-ms40000", True),
        ("PS4-MS8589934591", True),
        ("PS3-17", False),
        ("PS4-0", False),
        ("PS4-ms0", False),
        ("PS4-", False),
        ("PS4-ms", False),
        ("PS4-1000000000000000000000", False),  # 22 digits
        ("PS4-ms10000000000", False),  # 11 digits
        ("PS4-17x", False),
    ],
)
def test_schema_pattern(code: str, valid: bool) -> None:
    import jsonschema

    from spidercli.logs.schema import log_schema

    validator = jsonschema.Draft202012Validator(log_schema())
    log = {"game": code, "moves": ["3>6:1", "deal"]}
    assert validator.is_valid(log) is valid


def test_deal_shows_a_ps_code(snapshot: SnapshotAssertion) -> None:
    result = run("deal", "ps2-ms00005")
    assert result.exit_code == 0
    assert result.stdout.startswith("Game     PS2-5 (Spider, 2 suits")
    assert result.stdout == snapshot
    state = json.loads(run("deal", "PS4-14934", "--json").stdout)
    assert state["game"] == "PS4-14934"
    assert [len(c["down"]) for c in state["columns"]] == [5, 4, 4, 5, 4, 4, 5, 4, 4, 5]
    assert state["columns"][0]["down"][0] == "TS" and state["columns"][0]["up"] == ["5S"]
    bad = run("deal", "PS4-0")
    assert bad.exit_code == 2 and "out of range" in bad.stderr


def test_solve_a_ps_code_and_replay_it(tmp_path: Path) -> None:
    out = tmp_path / "win.yaml"
    result = run("solve", "ps1-ms1", "--timeout", "120", "-o", str(out))
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert "game: PS1-1\nrules: classic\n" in text
    replayed = run("replay", str(out), "--json")
    assert replayed.exit_code == 0, replayed.output
    report = json.loads(replayed.stdout)
    assert report["game"] == "PS1-1" and report["result"] == "won"
    assert report["deal_id"] == Setup.from_code(parse_code("PS1-1")).deal_id


def test_a_kept_win_verifies_and_hints(tmp_path: Path) -> None:
    result = run("verify", str(WIN), "--format", "json")
    assert result.exit_code == 0, result.output
    (record,) = json.loads(result.stdout)
    assert (record["game"], record["status"], record["result"]) == ("PS1-1", "valid", "won")
    start = tmp_path / "start.yaml"
    start.write_text("game: PS2-5\nmoves: []\n")
    hint = run("hint", str(start), "--json", "--timeout", "10")
    assert hint.exit_code == 0, hint.output
    assert json.loads(hint.stdout)["wins_in"] > 0


def test_tournament_names_a_ps_deal_any_way(tmp_path: Path) -> None:
    """A manifest may name a PySol game by its code, its ms form or its deal ID."""
    setup = Setup.from_code(parse_code("PS1-1"))
    text = WIN.read_text()
    (tmp_path / "ann.yaml").write_text(text.replace("game: PS1-1", "player: ann\ngame: PS1-1"))
    (tmp_path / "bo.yaml").write_text(text.replace("game: PS1-1", "player: bo\ngame: ps1-ms01"))
    for deal in ("PS1-1", "ps1-ms1", setup.deal_id):
        manifest = tmp_path / "manifest.txt"
        manifest.write_text(f"rules: classic\ndeals:\n  - {deal}\n")
        result = run("tournament", str(tmp_path), "-m", str(manifest), "-f", "json")
        assert result.exit_code == 0, result.output
        out = json.loads(result.stdout)
        assert [(s["player"], s["wins"]) for s in out["standings"]] == [("ann", 1), ("bo", 1)]
        assert out["rejected"] == []
