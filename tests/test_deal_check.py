"""An explicit deal's deck check: the quick test (``_deck_fits``, every card of the deck's suits
and none given too often) passes exactly the decks in which the card-by-card check
(``_check_deck``, which names the first card out of place) finds nothing."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from spidercli.game.cards import make_card
from spidercli.game.codes import ordered_deck
from spidercli.game.rules import SPIDER, SPIDERETTE, GameKind
from spidercli.logs.dealblock import _check_deck, _deck_fits
from spidercli.logs.yamlreader import LogError


def found_nothing(cards: list[int], game: GameKind, suits: int, copies: int) -> bool:
    try:
        _check_deck("d.yaml", [(card, i + 1) for i, card in enumerate(cards)], game, suits, copies)
    except LogError:
        return False
    return True


@given(
    st.sampled_from([SPIDER, SPIDERETTE]),
    st.sampled_from([1, 2, 4]),
    st.data(),
)
def test_the_quick_deck_test_is_the_card_by_card_check(
    game: GameKind, suits: int, data: st.DataObject
) -> None:
    copies = game.cards // (13 * suits)
    cards = list(ordered_deck(game, suits))
    # Replace a few cards by any card (another suit too, or one already there), then shuffle.
    for _ in range(data.draw(st.integers(0, 3))):
        i = data.draw(st.integers(0, len(cards) - 1))
        cards[i] = make_card(data.draw(st.integers(1, 13)), data.draw(st.integers(0, 3)))
    cards = data.draw(st.permutations(cards))
    assert _deck_fits(cards, suits, copies) == found_nothing(cards, game, suits, copies)


def test_both_kinds_of_card_out_of_place_are_seen() -> None:
    deck = list(ordered_deck(SPIDER, 2))
    assert _deck_fits(deck, 2, 4)
    other_suit = [make_card(5, 2), *deck[1:]]  # a diamond in a 2-suit deck
    twice = [deck[1], *deck[1:]]  # a card five times
    for cards in (other_suit, twice):
        assert not _deck_fits(cards, 2, 4)
        assert not found_nothing(cards, SPIDER, 2, 4)
