"""People's words for cards: each card, rank, suit and run in every language spidercli speaks.

Each language's words are in its module (``spidercli/text/languages/cs.py``: a ``Words``),
beside its other tables; this room says them in the language in use, so the text report, the
``--describe`` paragraphs, the HTML page, the refusal sentences and the messages about input
(``CardWords``) all take their card words from here.

English: ``the 10 of spades``, a run ``the King down to the 9 of spades``. Czech: the suit is an
adjective that agrees with the rank's gender (pikové eso, piková 4, piková dáma, pikový kluk,
pikový král), and a run is ``piková řada od krále po 9`` (genitive after od, accusative after
po). Finnish: the suit is a compound's first part (pataässä, patakuningas; pata-10 with a hyphen
before a digit), and a run is ``patasarja kuninkaasta 9:ään`` (elative, illative). Index 0 of
each rank tuple is unused (ranks are 1, the Ace, to 13, the King).

The words are a closed set (52 cards, 13 ranks, 4 suits); every sentence around them is in the
catalogs (``spidercli/locale``).

Two more closed sets have words for people beside their machine words: a game's result
(``result_word``: won is vyhraná, voitettu) and ``verify``'s status counts (``status_count``:
2 valid is 2 platné, 2 kelvollista). The machine formats keep the English words; sentences for
people say these, through the catalogs (``pgettext("result", ...)``).
"""

from __future__ import annotations

from typing import Any

from spidercli.text.i18n import language, npgettext, pgettext
from spidercli.text.languages import Words, language_named
from spidercli.text.languages.en import card_words
from spidercli.text.messages import Text


def words_of(lang: str) -> Words:
    """The card words of ``lang`` (one of ``i18n.LANGUAGES``): its module's
    (``spidercli/text/languages/``)."""
    return language_named(lang).words


def card_name(card: int) -> str:
    """One card in words in the language in use: the 10 of spades, piková 10, pata-10."""
    return words_of(language()).card(card)


def rank_name(rank: int) -> str:
    """A rank alone (nominative) in the language in use: 8, Queen; 8, dáma; 8, kuningatar."""
    return words_of(language()).rank(rank)


def run_words(high: int, low: int) -> str:
    """A one-suit run from card ``high`` down to card ``low`` in the language in use."""
    return words_of(language()).run(high, low)


def suit_word(suit: int) -> str:
    """A removed run's suit in the language in use: spades; piková (postupka); pata."""
    return words_of(language()).suit(suit)


class CardWords(Text):
    """A card in a message: English as a string (``the 10 of spades``, or the words a file
    itself uses, as KPat's ``the ten of spades``), said in the language in use as the text
    report names cards (``piková 10``, ``pata-10``)."""

    def __new__(cls, card: int, english: str | None = None) -> CardWords:
        made = str.__new__(cls, card_words(card) if english is None else english)
        made.msgid = str(made)
        made.fields = {"card": card}
        return made

    def __getnewargs_ex__(self) -> tuple[tuple[int, str], dict[str, Any]]:  # type: ignore[override]
        return (self.fields["card"], str(self)), {}

    def said(self) -> str:
        return card_name(self.fields["card"])


def result_word(result: str) -> str:
    """A game's result (``won``, ``open``, ``blocked``, ``resigned``, the words of the machine
    formats and of a log's ``expect.result``) as people say it in the language in use: the same
    word in English; vyhraná, rozehraná...; voitettu, kesken..."""
    if result == "won":
        return pgettext("result", "won")
    if result == "open":
        return pgettext("result", "open")
    if result == "blocked":
        return pgettext("result", "blocked")
    if result == "resigned":
        return pgettext("result", "resigned")
    return result


def result_shown(result: str) -> str:
    """A game's result in a figure or a table cell: the people's word and, when it differs,
    the log's word after it (``rozehraná (open)``, ``kesken (open)``; ``open`` in English), so
    the reader still sees what a log's ``expect.result`` would say."""
    said = result_word(result)
    return result if said == result else f"{said} ({result})"


def status_count(status: str, n: int) -> str:
    """``2 valid``: how many logs ``verify`` gave a status (``valid``, ``illegal``,
    ``expect-failed``, ``invalid-input``), in the language in use; the English is the status
    word itself, which the machine formats keep in every language."""
    if status == "valid":
        return npgettext("logs", "{n} valid", "{n} valid", n).format(n=n)
    if status == "illegal":
        return npgettext("logs", "{n} illegal", "{n} illegal", n).format(n=n)
    if status == "expect-failed":
        return npgettext("logs", "{n} expect-failed", "{n} expect-failed", n).format(n=n)
    if status == "invalid-input":
        return npgettext("logs", "{n} invalid-input", "{n} invalid-input", n).format(n=n)
    return f"{n} {status}"


class ResultWords(Text):
    """A game's result in a message: the result word in English (``won``), said in the
    language in use as ``result_word`` says it (``vyhraná``, ``voitettu``)."""

    def __new__(cls, result: str) -> ResultWords:
        made = str.__new__(cls, result)
        made.msgid = result
        made.fields = {}
        return made

    def __getnewargs_ex__(self) -> tuple[tuple[str], dict[str, Any]]:
        return (str(self),), {}

    def said(self) -> str:
        return result_word(str(self))


GRADES = ("easy", "medium", "hard")  # a deal's grades, easiest first (docs/fair.md)
# How a tournament ranks its players: the apps' summed score; wins, then fewest moves in them.
RANKINGS = ("score", "wins")


def grade_word(bucket: str) -> str:
    """A deal's grade (``easy``, ``medium``, ``hard``: docs/fair.md) as people say it."""
    words = {
        "easy": pgettext("grade", "easy"),
        "medium": pgettext("grade", "medium"),
        "hard": pgettext("grade", "hard"),
    }
    return words[bucket]


__all__ = [
    "GRADES",
    "RANKINGS",
    "CardWords",
    "ResultWords",
    "card_name",
    "grade_word",
    "rank_name",
    "result_shown",
    "result_word",
    "run_words",
    "status_count",
    "suit_word",
    "words_of",
]
