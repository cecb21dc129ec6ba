"""Finnish, as the Spider app speaks it.

The card words: the suit is a compound's first part (pataässä, patakuningas; pata-10 with a
hyphen before a digit), and a run is ``patasarja kuninkaasta 9:ään`` (elative, illative). Index
0 of each rank tuple is unused (ranks are 1, the Ace, to 13, the King). The glossary:
``docs/i18n.md``'s Finnish table."""

from __future__ import annotations

from spidercli.text.languages import Language, Term, Words

_SUITS = ("pata", "hertta", "ruutu", "risti")
_RANKS = ("", "ässä", *(f"-{n}" for n in range(2, 11)), "sotilas", "kuningatar", "kuningas")
# Elative (from) and illative (to): kuninkaasta 9:ään; a digit takes the ending of its word
# (kahdesta, neljästä; kahteen, neljään), with the vowel harmony of that word.
_FROM = (
    *("", "ässästä", "2:sta", "3:sta", "4:stä", "5:stä", "6:sta", "7:stä", "8:sta", "9:stä"),
    *("10:stä", "sotilaasta", "kuningattaresta", "kuninkaasta"),
)
_TO = (
    *("", "ässään", "2:een", "3:een", "4:ään", "5:een", "6:een", "7:ään", "8:aan", "9:ään"),
    *("10:een", "sotilaaseen", "kuningattareen", "kuninkaaseen"),
)


class Finnish(Words):
    def card(self, card: int) -> str:
        return _SUITS[card >> 4] + _RANKS[card & 15]

    def rank(self, rank: int) -> str:
        return _RANKS[rank].lstrip("-")

    def run(self, high: int, low: int) -> str:
        return f"{_SUITS[low >> 4]}sarja {_FROM[high & 15]} {_TO[low & 15]}"

    def suit(self, suit: int) -> str:
        return _SUITS[suit]


LANGUAGE = Language(
    name="Finnish",
    # A no-break space between thousands, a decimal comma (the CLDR's; a test compares them).
    separators=("\u00a0", ","),
    plural_forms="nplurals=2; plural=(n != 1);",
    words=Finnish(),
    glossary=(
        Term("the stock", "nostopakka", r"[Nn]ostopak", (r"(?i)jakopak",), "Jakopakka: 50 korttia"),
        Term(
            "a run (complete, or in a column)",
            "sarja",
            r"\bsarj",
            # suora, suoraa, suorat...: not suoraan (directly)
            (r"(?i)\bsuor(a|aa|at|an|ia|ien|assa|issa)\b",),
            "yhtään suoraa ei ole poistettu",
        ),
        Term("refused", "hylätty", r"\bhylät", (r"(?i)\btorju", r"(?i)\bkiellet"), "torjuttu"),
        Term(
            "face-down / face-up",
            "piilokortti",
            r"\bpiilo",
            (r"(?i)\bkuvapuoli",),
            "kaikki kortit kuvapuoli ylöspäin",
        ),
        Term(
            "winnable",
            "voitettavissa",
            r"\bvoitettavissa\b",
            (r"(?i)\bvoittamat",),
            "voittamattomia 1",
        ),
        Term("the verdict", "arvio", r"^Arvio$", (r"(?i)\btuomio",), "Tuomio"),
        Term("a duel", "ottelu", r"\bottelu", (r"(?i)kaksintaistel",), "kaksintaistelun säännöin"),
    ),
)

__all__ = ["LANGUAGE", "Finnish"]
