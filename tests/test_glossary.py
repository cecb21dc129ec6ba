"""One word for each idea: the glossary of ``docs/i18n.md``, kept.

For each translated language, each idea below has its word (the glossary table's, which some
message of the catalog must use) and the other words a translation could slip into (which no
message and no card word of ``spidercli/text/words.py`` may use): a report that says *Jakopakka* in
one line and *Nostopakka* in the next names one thing two ways. The tables of ``docs/i18n.md``
must give the same word for each idea, so the guide and the check cannot drift apart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from babel.messages.pofile import read_po

from spidercli.text import i18n
from spidercli.text.words import WORDS
from tests.helpers import ROOT, TRANSLATED

DOCS = ROOT / "docs" / "i18n.md"
LOCALE = i18n.LOCALE_DIR


@dataclass(frozen=True)
class Term:
    idea: str  # the first cell of the glossary's row
    word: str  # its word, as the second cell writes it (*word*)
    used: str  # a pattern some message must match: the word, in any of its forms
    never: tuple[str, ...]  # patterns no message and no card word may match: the other words
    slip: str  # a phrase that says the idea another way (each ``never`` is shown to catch one)


GLOSSARY: dict[str, tuple[Term, ...]] = {
    "cs": (
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
    "fi": (
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
}


def _messages(lang: str) -> list[str]:
    """Every translation of the language's catalog (each plural form)."""
    with open(LOCALE / lang / "LC_MESSAGES" / "spidercli.po", "rb") as f:
        catalog = read_po(f)
    texts: list[str] = []
    for message in catalog:
        if message.id:
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            texts.extend(str(s) for s in strings)
    return texts


def _card_words(lang: str) -> list[str]:
    """Every card, rank, run and removed run's suit as ``words.py`` says it."""
    words = WORDS[lang]
    cards = [rank | suit << 4 for suit in range(4) for rank in range(1, 14)]
    said = [words.card(card) for card in cards]
    said += [words.rank(rank) for rank in range(1, 14)]
    said += [words.suit(suit) for suit in range(4)]
    said += [words.run(high, low) for high in cards for low in cards if high & 15 > low & 15]
    return said


def _glossary_rows(lang: str) -> dict[str, list[str]]:
    """The rows of the language's table in the glossary of ``docs/i18n.md``, by idea."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Glossary", 1)[1].split("\n## ", 1)[0]
    title = {"cs": "**Czech**", "fi": "**Finnish**"}[lang]
    table = section.split(title, 1)[1].split("\n**", 1)[0]
    rows = {}
    for line in table.splitlines():
        if line.startswith("| ") and not line.startswith("| Idea") and "---" not in line:
            cells = [cell.strip() for cell in line.strip("|").split(" | ")]
            rows[cells[0]] = cells
    return rows


def test_every_translated_language_has_a_glossary() -> None:
    assert set(GLOSSARY) == set(TRANSLATED)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_idea_is_said_one_way(lang: str) -> None:
    """No message and no card word says a glossary idea with another word; each idea's word is
    used somewhere."""
    texts = _messages(lang) + _card_words(lang)
    found = []
    for term in GLOSSARY[lang]:
        assert any(re.search(term.used, text) for text in texts), (term.idea, term.used)
        for pattern in term.never:
            found += [(term.idea, pattern, t) for t in texts if re.search(pattern, t)]
    assert found == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_other_word_is_caught(lang: str) -> None:
    """The check cannot pass by accident: each idea's patterns catch a phrase that says it
    another way, and none catches its own word."""
    for term in GLOSSARY[lang]:
        assert any(re.search(pattern, term.slip) for pattern in term.never), term.idea
        assert not any(re.search(pattern, term.word) for pattern in term.never), term.idea


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_docs_glossary_gives_the_same_words(lang: str) -> None:
    rows = _glossary_rows(lang)
    for term in GLOSSARY[lang]:
        assert term.idea in rows, (lang, term.idea)
        assert f"*{term.word}*" in rows[term.idea][1], (lang, term.idea, rows[term.idea][1])
