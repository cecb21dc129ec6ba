"""One word for each idea: the glossary of ``docs/i18n.md``, kept.

For each translated language, each idea of its glossary (its module's, in
``spidercli/text/languages/``) has its word (the glossary table's, which some message of the
catalog must use) and the other words a translation could slip into (which no message and no card
word of the language may use): a report that says *Jakopakka* in one line and *Nostopakka* in the
next names one thing two ways. The tables of ``docs/i18n.md`` must give the same word for each
idea, so the guide and the check cannot drift apart.
"""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from spidercli.text import i18n
from spidercli.text.languages import Term, language_named
from tests.helpers import ROOT, TRANSLATED

DOCS = ROOT / "docs" / "i18n.md"
LOCALE = i18n.LOCALE_DIR


def _glossary(lang: str) -> tuple[Term, ...]:
    """The language's glossary, from its module (``spidercli/text/languages/``)."""
    return language_named(lang).glossary


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
    """Every card, rank, run and removed run's suit as the language's module says it."""
    words = language_named(lang).words
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
    title = f"**{language_named(lang).name}**"
    table = section.split(title, 1)[1].split("\n**", 1)[0]
    rows = {}
    for line in table.splitlines():
        if line.startswith("| ") and not line.startswith("| Idea") and "---" not in line:
            cells = [cell.strip() for cell in line.strip("|").split(" | ")]
            rows[cells[0]] = cells
    return rows


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_translated_language_has_a_glossary(lang: str) -> None:
    assert _glossary(lang)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_idea_is_said_one_way(lang: str) -> None:
    """No message and no card word says a glossary idea with another word; each idea's word is
    used somewhere."""
    texts = _messages(lang) + _card_words(lang)
    found = []
    for term in _glossary(lang):
        assert any(re.search(term.used, text) for text in texts), (term.idea, term.used)
        for pattern in term.never:
            found += [(term.idea, pattern, t) for t in texts if re.search(pattern, t)]
    assert found == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_other_word_is_caught(lang: str) -> None:
    """The check cannot pass by accident: each idea's patterns catch a phrase that says it
    another way, and none catches its own word."""
    for term in _glossary(lang):
        assert any(re.search(pattern, term.slip) for pattern in term.never), term.idea
        assert not any(re.search(pattern, term.word) for pattern in term.never), term.idea


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_docs_glossary_gives_the_same_words(lang: str) -> None:
    rows = _glossary_rows(lang)
    for term in _glossary(lang):
        assert term.idea in rows, (lang, term.idea)
        assert f"*{term.word}*" in rows[term.idea][1], (lang, term.idea, rows[term.idea][1])
