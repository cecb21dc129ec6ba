"""The languages spidercli speaks: one module a language, every table of it in one place.

A language is its module here (``cs.py``: its ``LANGUAGE``) and its catalog
(``spidercli/locale/cs/LC_MESSAGES/spidercli.po``), and nothing else: the codes spidercli speaks
are the modules of this folder (``CODES``: English first, the messages' own language, then the
others by code), so adding a language adds a module and a catalog. A module holds everything
about its language that is not a sentence: its numbers' marks, its plural rule (the catalog's
header says the same; a test compares them), its card words, and its glossary (the word for each
idea, and the words a translation must not slip into; ``tests/test_glossary.py`` checks the
catalog and ``docs/i18n.md`` against it).

A language's module is imported when the language is first used (``language_named``), so
English never loads another language's words.
"""

from __future__ import annotations

import importlib
import os
from abc import ABC, abstractmethod
from dataclasses import dataclass

_HERE = os.path.dirname(__file__)

# The codes of the modules beside this one: en first, then the rest sorted (cs, fi).
_OTHERS = sorted(
    name[:-3]
    for name in os.listdir(_HERE)
    if name.endswith(".py") and not name.startswith("_") and name != "en.py"
)
CODES: tuple[str, ...] = ("en", *_OTHERS)


class Words(ABC):
    """One language's card words: a card, a rank alone, a one-suit run, a removed run's suit."""

    @abstractmethod
    def card(self, card: int) -> str:
        """One card: the 10 of spades, piková 10, pata-10."""
        raise NotImplementedError

    @abstractmethod
    def rank(self, rank: int) -> str:
        """A rank alone (nominative): 8, Queen; 8, dáma; 8, kuningatar."""
        raise NotImplementedError

    @abstractmethod
    def run(self, high: int, low: int) -> str:
        """A one-suit run from card ``high`` down to card ``low``."""
        raise NotImplementedError

    @abstractmethod
    def suit(self, suit: int) -> str:
        """A removed run's suit: spades; piková (postupka); pata."""
        raise NotImplementedError


@dataclass(frozen=True)
class Term:
    """One idea of the glossary (``docs/i18n.md``) in one language: the idea (the first cell of
    the glossary's row), its ``word`` (as the second cell writes it, between asterisks), a
    pattern some message of the catalog must match (``used``: the word in any of its forms), the
    patterns no message and no card word may match (``never``: the other words a translation
    could slip into), and a phrase that says the idea another way (``slip``: each ``never`` is
    shown to catch one)."""

    idea: str
    word: str
    used: str
    never: tuple[str, ...]
    slip: str


@dataclass(frozen=True)
class Language:
    """Everything about a language but its sentences (those are in its catalog)."""

    name: str  # in English: "Czech" (the title of its glossary's table in docs/i18n.md)
    separators: tuple[str, str]  # the thousands separator and the decimal mark (the CLDR's)
    plural_forms: str  # the gettext plural rule, as the catalog's Plural-Forms header says it
    words: Words  # the card, rank, run and suit words
    glossary: tuple[Term, ...] = ()  # one word for each idea (English, the source, has none)


_LOADED: dict[str, Language] = {}


def language_named(code: str) -> Language:
    """The language of ``code`` (one of ``CODES``), its module imported on first use."""
    found = _LOADED.get(code)
    if found is None:
        if code not in CODES:
            raise KeyError(code)
        made = importlib.import_module(f"{__name__}.{code}").LANGUAGE
        if not isinstance(made, Language):
            raise TypeError(f"{__name__}.{code}.LANGUAGE is not a Language")
        found = _LOADED[code] = made
    return found


__all__ = ["CODES", "Language", "Term", "Words", "language_named"]
