from __future__ import annotations

import pytest

from spidercli.game.cards import card_str, cards_str, parse_card
from spidercli.game.codes import (
    CodeError,
    deal_layout,
    parse_code,
    shuffled_deck,
    splitmix64,
    splitmix64_output,
)
from spidercli.game.rules import SPIDER, SPIDERETTE

VECTORS = {
    "SP1-S1C-AAAAAAD": (
        3,
        "4S 9S 5S KS 9S TS JS 6S KS 8S 4S AS KS JS 3S 7S 9S 5S 2S 7S 5S TS 5S QS 3S 7S 6S 4S "
        "3S QS KS 2S 2S AS 3S TS 8S 8S TS JS 5S QS 4S 6S 5S QS 6S TS 2S 8S 6S 2S 2S JS 9S KS "
        "AS 9S 8S 7S QS 5S 3S JS TS QS AS 7S 8S 4S QS 7S AS KS 3S TS 6S 4S 6S 4S 3S 3S KS 4S "
        "JS 2S TS AS 7S KS 5S 6S 2S AS 7S 9S 9S AS JS 9S 8S JS 8S QS",
    ),
    "SD1-S1-AAAAABD": (
        29,
        "JS QS 9S KS 2S 2S TS KS 8S 6S JS QS 3S 4S 5S 8S TS AS KS AS JS AS AS 3S 7S 7S 6S 6S "
        "8S 4S 3S 4S 5S JS 9S 8S 9S 7S TS 5S 5S 7S 9S 2S 2S TS QS 4S 3S 6S QS KS",
    ),
    "SP4-S1C-AAAAAAA": (
        0,
        "5D 9S 2H JC 3D QS KS 6C 4S 4C 4D 4C QC 9C TH TD 6S AS 3C TS 5H 6S JH 4H AD 9H AC 9D "
        "KS KD 2D QS AD 6H 9S 7D KD 8D 3H KH JH 9C 9D 2H QC TC KH TS 4H AH AS 7S JC JD 8S 3C "
        "5C 2S 5C 9H JD 2C 5S 8H 8S 4D 8D 8C 3H 6D 2S 4S 3S 6C 2C KC 7S TC 7H 5D AH QD 3D 7C "
        "7D 7C 2D 5H 8H QD QH TH 6D QH KC JS TD 5S 7H JS 8C 3S 6H AC",
    ),
    "SD4-S1-ZZZZZZZ": (
        8031810175,
        "2C TS JD TC 8D 9H 5H TH KS 4D 5C QC 8C 8H JC 3D QS 9C AH 3C 8S 7C AS QD 6C 7S AC KH "
        "2S TD 4H 9S 2D QH 3S 2H 4S 4C AD JH 6S 3H 5S 6H KD JS KC 7H 9D 6D 5D 7D",
    ),
}


def test_splitmix_check_value() -> None:
    assert splitmix64(0)[1] == 0xE220A8397B1DCDAF


@pytest.mark.parametrize("seed", [0, 7, 2**63 + 1, 2**64 - 1, 2**64 + 5, 3**90])
def test_the_nth_splitmix_output_is_that_of_n_steps(seed: int) -> None:
    """``splitmix64_output(seed, n)`` at once is what ``n`` steps from the seed (modulo 2^64)
    give last."""
    state, outputs = seed & (2**64 - 1), []
    for _ in range(50):
        state, value = splitmix64(state)
        outputs.append(value)
    assert [splitmix64_output(seed, n) for n in range(1, 51)] == outputs


@pytest.mark.parametrize("code", sorted(VECTORS))
def test_deal_vectors(code: str) -> None:
    seed, deck = VECTORS[code]
    parsed = parse_code(code)
    assert parsed.seed == seed
    assert parsed.canonical == code
    assert cards_str(shuffled_deck(parsed)) == deck


def test_spiderette_layout_from_the_spec() -> None:
    layout = deal_layout(parse_code("SD1-S1-AAAAABD"))
    assert [card_str(c) for c in layout.columns[0]] == ["JS"]
    assert [card_str(c) for c in layout.columns[1]] == ["QS", "KS"]
    assert cards_str(layout.stock[:7]) == "8S 4S 3S 4S 5S JS 9S"
    assert [len(c) for c in layout.columns] == list(SPIDERETTE.column_sizes)
    assert len(layout.stock) == 24


def test_spider_layout_sizes() -> None:
    layout = deal_layout(parse_code("SP2-S1C-AAAAABD"))
    assert [len(c) for c in layout.columns] == list(SPIDER.column_sizes)
    assert len(layout.stock) == 50
    # row by row: the first ten cards of the deck are the bottoms of columns 1..10
    deck = shuffled_deck(parse_code("SP2-S1C-AAAAABD"))
    assert [c[0] for c in layout.columns] == deck[:10]
    assert layout.stock == tuple(deck[54:])


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("sp1-s1c-aaaaaad", "SP1-S1C-AAAAAAD"),
        ("  SD1-S1-AAAAABD\t", "SD1-S1-AAAAABD"),
        ("SD2-S1P-AAAAABD", "SD2-S1P-AAAAABD"),
        ("SD2-S1C-AAAAABD", "SD2-S1-AAAAABD"),
        ("SP2-S1-AAAAABD", "SP2-S1C-AAAAABD"),
        ("SP1-S1P-AAAAABD", "SP1-S1C-AAAAABD"),
        ("SD1-S1P-AAAAABD", "SD1-S1-AAAAABD"),
        ("SP4-S1P-ZZZZZZZ", "SP4-S1P-ZZZZZZZ"),
    ],
)
def test_canonical_form(text: str, canonical: str) -> None:
    assert parse_code(text).canonical == canonical


def test_seed_arithmetic() -> None:
    assert parse_code("SP1-S1C-AAAAABD").seed == 29
    assert parse_code("SP1-S1C-ZZZZZZZ").seed == 26**7 - 1


def test_permissive_with_two_suits_changes_rule_not_deal() -> None:
    c = parse_code("SP2-S1C-AAAAABD")
    p = parse_code("SP2-S1P-AAAAABD")
    assert p.permissive and not c.permissive
    assert shuffled_deck(c) == shuffled_deck(p)


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "SP3-S1C-AAAAAAA",
        "SP1-S2C-AAAAAAA",
        "SP1-S1X-AAAAAAA",
        "SP1-S1C-AAAAAA",
        "SP1-S1C-AAAAAAAA",
        "SX1-S1C-AAAAAAA",
        "SP1S1CAAAAAAA",
        "SP1-S1C-AAAAAA1",
        "SP1 S1C AAAAAAA",
    ],
)
def test_bad_codes(bad: str) -> None:
    with pytest.raises(CodeError, match="not a game code"):
        parse_code(bad)


def test_card_parsing() -> None:
    assert card_str(parse_card("10h")) == "TH"
    assert card_str(parse_card(" qs ")) == "QS"
    with pytest.raises(ValueError, match="not a card"):
        parse_card("1S")


@pytest.mark.parametrize(
    ("code", "expects", "char"),
    [
        ("PS4-\u0661\u0662\u0663", "a PySol deal is PS, the suit count 1, 2 or 4", "U+0661"),
        ("ps2-ms\u0663", "a PySol deal is PS, the suit count 1, 2 or 4", "U+0663"),
        ("KP4-\uff11\uff12\uff13", "a KPat deal is KP, the suit count 1, 2 or 4", "U+FF11"),
        (" kp2-1\uff17 ", "a KPat deal is KP, the suit count 1, 2 or 4", "U+FF17"),
        ("KP\uff14-17", "a KPat deal is KP, the suit count 1, 2 or 4", "U+FF14"),
        ("SP2-S1C-AAAAAA\u00c1", "expected SP or SD, the suit count 1, 2 or 4", "U+00C1"),
        ("\u017fP2-S1C-AAAAAAA", "expected SP or SD, the suit count 1, 2 or 4", "U+017F"),
    ],
)
def test_a_code_with_other_digits_hears_what_its_kind_of_code_expects(
    code: str, expects: str, char: str
) -> None:
    """A PS or KP code with digits that are not ASCII (Arabic-Indic, full-width) is told what a
    PS or KP code is, and which character is not ASCII; not what an SP or SD code is."""
    with pytest.raises(CodeError) as caught:
        parse_code(code)
    message = str(caught.value)
    assert message.startswith(f"'{code.strip()}' is not a game code ({char} is not ASCII): ")
    assert expects in message


def test_a_numbered_code_s_message_in_every_language() -> None:
    from spidercli.text import i18n
    from spidercli.text.messages import message_of, said

    with pytest.raises(CodeError) as caught:
        parse_code("PS4-\u0661\u0662\u0663")
    message = message_of(caught.value)
    try:
        i18n.use("cs")
        assert "(U+0661 není ASCII): kód hry z PySol tvoří PS" in said(message)
        i18n.use("fi")
        assert "(U+0661 ei ole ASCII): PySolin pelin koodissa on PS" in said(message)
    finally:
        i18n.use("en")
