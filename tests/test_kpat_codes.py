"""KPat deals as game codes: KP<suits>-<number> deals exactly KPat's cards."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spidercli.game.cards import cards_str
from spidercli.game.codes import CodeError, Setup, deal_layout, parse_code, shuffled_deck
from spidercli.game.engine import Game
from spidercli.game.kpatdeal import KPAT_MAX_DEAL, kpat_deal_ids, kpat_ids, kpat_shuffle
from spidercli.game.rules import KPAT, SPIDER
from spidercli.logs.reader import load_log, parse_log

DEALS = Path(__file__).parent / "data" / "kpat" / "deals"
DEAL_FILES = sorted(DEALS.glob("kpat-sp*-*.yaml"))


def test_the_sixty_deals_are_there() -> None:
    assert len(DEAL_FILES) == 60


@pytest.mark.parametrize("path", DEAL_FILES, ids=lambda p: p.stem)
def test_code_deals_kpats_cards(path: Path) -> None:
    """Each explicit deal (checked against decks KPat saved) is what its KP code deals."""
    m = re.fullmatch(r"kpat-sp([124])-([0-9]+)", path.stem)
    assert m is not None
    suits, number = int(m.group(1)), int(m.group(2))
    explicit = load_log(path).deal
    coded = Setup.from_code(parse_code(f"KP{suits}-{number}"))
    assert coded.layout == explicit.layout
    assert coded.suits == explicit.suits == suits
    assert coded.deal_id == explicit.deal_id
    assert coded.name == f"KP{suits}-{number}"


def test_freecell_generator_vector() -> None:
    """KPat shuffles with Microsoft FreeCell's generator: FreeCell deal 1 starts JD 2D 9H JC."""
    # FreeCell's deck: rank by rank, clubs diamonds hearts spades, dealt from the end.
    ids = [(r, s) for r in range(1, 14) for s in "CDHS"]
    order = kpat_shuffle(list(range(52)), 1)[::-1]
    first = [ids[i] for i in order[:4]]
    assert first == [(11, "D"), (2, "D"), (9, "H"), (11, "C")]


def test_kpat_deck_order() -> None:
    ids = kpat_ids(4)
    assert len(ids) == 104
    # Rank by rank, within a rank clubs, diamonds, hearts, spades; numbered 0-103.
    assert ids[:5] == [
        0 << 16 | 0 << 8 | 1,
        1 << 16 | 1 << 8 | 1,
        2 << 16 | 2 << 8 | 1,
        3 << 16 | 3 << 8 | 1,
        4 << 16 | 0 << 8 | 2,
    ]
    assert {i & 0xFF00 for i in kpat_ids(2)} == {2 << 8, 3 << 8}
    assert {i & 0xFF00 for i in kpat_ids(1)} == {3 << 8}


def test_deal_shape() -> None:
    columns, piles = kpat_deal_ids(17, 2)
    assert [len(c) for c in columns] == list(SPIDER.column_sizes)
    assert [len(p) for p in piles] == [10] * 5
    everything = [c for col in columns for c in col] + [c for p in piles for c in p]
    assert sorted(everything) == sorted(kpat_ids(2))


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("KP2-17", "KP2-17"),
        ("kp2-17", "KP2-17"),
        ("  Kp4-1  ", "KP4-1"),
        ("KP1-0017", "KP1-17"),
        ("KP1-2147483647", "KP1-2147483647"),
        ("KP4-02147483647", "KP4-2147483647"),
    ],
)
def test_canonical_form(text: str, canonical: str) -> None:
    code = parse_code(text)
    assert code.canonical == canonical
    assert code.algorithm == "KP"
    assert not code.permissive
    assert parse_code(canonical) == code


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        ("KP2-0", "out of range"),
        ("KP2-000", "out of range"),
        ("KP2-2147483648", "out of range"),
        ("KP2-99999999999999999999999999", "out of range"),
        ("KP2-" + "9" * 5000, "out of range"),
        ("KP3-17", "3-suit"),
        ("KP5-17", "1, 2 or 4 suits"),
        ("KP0-17", "1, 2 or 4 suits"),
        ("KP2--17", "not a game code"),
        ("KP2-+17", "not a game code"),
        ("KP2-17a", "not a game code"),
        ("KP2 17", "not a game code"),
        ("KP2-", "not a game code"),
        ("KP-17", "not a game code"),
        ("KP2-1 7", "not a game code"),
        ("KP2-١٧", "not a game code"),  # Arabic-Indic digits are not deal numbers
        ("KP12-17", "not a game code"),
    ],
)
def test_bad_kp_codes(bad: str, why: str) -> None:
    with pytest.raises(CodeError, match=why):
        parse_code(bad)


def test_bad_code_message_is_short() -> None:
    with pytest.raises(CodeError) as err:
        parse_code("KP2-" + "9" * 5000)
    assert len(str(err.value)) < 5200 + 200
    assert "1 to 2147483647" in str(err.value)


def test_s1_shuffle_refuses_a_kp_code() -> None:
    with pytest.raises(ValueError, match="KPat deal"):
        shuffled_deck(parse_code("KP2-17"))


@given(st.integers(1, KPAT_MAX_DEAL), st.sampled_from([1, 2, 4]))
def test_any_number_deals_the_whole_deck(number: int, suits: int) -> None:
    code = parse_code(f"KP{suits}-{number}")
    layout = deal_layout(code)
    game = Game.from_code(code, KPAT)
    deck = sorted(c for col in layout.columns for c in col) + sorted(layout.stock)
    assert sorted(deck) == sorted(game.all_cards())
    assert len(deck) == 104
    assert {c >> 4 for c in deck} == set(range(suits))


def test_code_in_a_log() -> None:
    log = parse_log("game: kp2-17\nrules: kpat\nmoves: []\n", "x.yaml")
    assert log.deal.name == "KP2-17"
    assert log.rules == "kpat"


def test_bad_code_in_a_log_names_the_line() -> None:
    from spidercli.logs.yamlreader import LogError

    with pytest.raises(LogError, match=r"x\.yaml:2: game: .*out of range"):
        parse_log("rules: kpat\ngame: KP2-0\nmoves: []\n", "x.yaml")


def test_explicit_and_coded_cards_print_alike() -> None:
    layout = deal_layout(parse_code("KP2-17"))
    assert cards_str(layout.columns[0]) == "JH KS TS 9H 4H 6S"
    assert cards_str(layout.stock[:10]) == "7S 2S 9S 4S AH KS 6S 2S 7S 5H"


@pytest.mark.parametrize(
    ("code", "valid"),
    [
        ("KP2-17", True),
        (" kp4-0017 ", True),
        ("KP1-2147483647", True),
        ("KP3-17", False),
        ("KP2-0", False),
        ("KP2-", False),
        ("KP2-17x", False),
        ("KPC2-17", False),
    ],
)
def test_schema_pattern(code: str, valid: bool) -> None:
    import jsonschema

    from spidercli.logs.schema import log_schema

    validator = jsonschema.Draft202012Validator(log_schema())
    log = {"game": code, "rules": "kpat", "moves": ["3>6:1", "deal"]}
    assert validator.is_valid(log) is valid


def test_solve_a_kp_code_under_kpat_rules(tmp_path: Path) -> None:
    from tests.helpers import run

    out = tmp_path / "win.yaml"
    result = run("solve", "kp1-18", "--rules", "kpat", "--timeout", "120", "-o", str(out))
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert "game: KP1-18\nrules: kpat\n" in text
    assert run("replay", str(out)).exit_code == 0


def test_deal_shows_a_kp_code() -> None:
    from tests.helpers import run

    result = run("deal", "kp2-017")
    assert result.exit_code == 0
    assert result.stdout.startswith("Game     KP2-17 (Spider, 2 suits")
    bad = run("deal", "KP2-0")
    assert bad.exit_code == 2 and "out of range" in bad.stderr
