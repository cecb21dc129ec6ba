"""Czech, as the Spiderette app, the StarGames duel and Pasiáns Pavouk speak it.

The card words: the suit is an adjective that agrees with the rank's gender (pikové eso, piková 4,
piková dáma, pikový kluk, pikový král), and a run is ``piková řada od krále po 9`` (genitive after
od, accusative after po). Index 0 of each rank tuple is unused (ranks are 1, the Ace, to 13, the
King). The glossary: ``docs/i18n.md``'s Czech table."""

from __future__ import annotations

from spidercli.text.languages import Language, Term, Words

_SUITS = ("pik", "srdc", "kár", "kříž")
_RANKS = ("", "eso", *map(str, range(2, 11)), "kluk", "dáma", "král")
_ENDING = ("", "ové", *["ová"] * 9, "ový", "ová", "ový")  # neuter, feminine, masculine
_FROM = ("", "esa", *map(str, range(2, 11)), "kluka", "dámy", "krále")  # od + genitive
_TO = ("", "eso", *map(str, range(2, 11)), "kluka", "dámu", "krále")  # po + accusative
_RUN_SUITS = tuple(f"{s}ová" for s in _SUITS)  # agrees with "řada" and "postupka"


class Czech(Words):
    def card(self, card: int) -> str:
        rank = card & 15
        return f"{_SUITS[card >> 4]}{_ENDING[rank]} {_RANKS[rank]}"

    def rank(self, rank: int) -> str:
        return _RANKS[rank]

    def run(self, high: int, low: int) -> str:
        suit = _RUN_SUITS[low >> 4]
        return f"{suit} řada od {_FROM[high & 15]} po {_TO[low & 15]}"

    def suit(self, suit: int) -> str:
        return _RUN_SUITS[suit]


LANGUAGE = Language(
    name="Czech",
    # A no-break space between thousands, a decimal comma (the CLDR's; a test compares them).
    separators=("\u00a0", ","),
    plural_forms="nplurals=3; plural=(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2);",
    words=Czech(),
    glossary=(
        Term(
            "the stock",
            "dobírací balíček",
            r"[Dd]obírací(ho)? balíč",
            (r"(?i)\btalon", r"(?i)zásobník", r"(?i)lízací"),
            "talon je prázdný",
        ),
        Term(
            "a complete run",
            "postupka",
            r"\bpostup(ka|ky|ek|ku)\b",
            (r"(?i)\bsekvenc", r"(?i)\bséri[ei]\b"),
            "dokončí sekvenci",
        ),
        Term("refused", "odmítnutý", r"odmítnut", (r"(?i)zamítnut",), "položka zamítnuta"),
        Term(
            "face-down / face-up",
            "skrytá",
            r"\bskryt",
            (r"(?i)\blícem\b",),
            "všechny karty lícem nahoru",
        ),
        Term(
            "the game Spider",
            "Spider",
            r"\bhry Spider\b",
            # Pavouk is the app's name (Pasiáns Pavouk), not the game's
            (r"(?<!Pasiáns )(?<!Pasiánsu )\bPavou",),
            "duel dvou hráčů v Pavoukovi",
        ),
        Term(
            "the move rule",
            "pravidlo přesunu",
            r"\bpravidl\w* přesunu\b",
            (r"(?i)\bpravid\w* tah",),
            "pravidlo tahů C nebo P",
        ),
        Term("the verdict", "verdikt", r"^Verdikt$", (r"(?i)\brozsud",), "Rozsudek"),
    ),
)

__all__ = ["LANGUAGE", "Czech"]
