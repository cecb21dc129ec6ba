"""English: the words of the code itself and of every machine-readable message; the messages'
own language, with no catalog."""

from __future__ import annotations

from spidercli.text.languages import Language, Words

SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES = ("", "Ace", *map(str, range(2, 11)), "Jack", "Queen", "King")


def card_words(card: int) -> str:
    """``the 10 of spades``: a card in English words."""
    return f"the {RANK_NAMES[card & 15]} of {SUIT_NAMES[card >> 4]}"


class English(Words):
    def card(self, card: int) -> str:
        return card_words(card)

    def rank(self, rank: int) -> str:
        return RANK_NAMES[rank]

    def run(self, high: int, low: int) -> str:
        return f"the {RANK_NAMES[high & 15]} down to {card_words(low)}"

    def suit(self, suit: int) -> str:
        return SUIT_NAMES[suit]


LANGUAGE = Language(
    name="English",
    separators=(",", "."),
    plural_forms="nplurals=2; plural=(n != 1);",
    words=English(),
)

__all__ = ["LANGUAGE", "RANK_NAMES", "SUIT_NAMES", "English", "card_words"]
