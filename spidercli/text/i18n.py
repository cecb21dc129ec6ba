"""The language of the text meant for people: English, Czech or Finnish.

``choose(lang)`` picks the language once per command: ``--lang`` when given, else the first
non-empty of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` (POSIX precedence), read as ``cs_CZ.UTF-8``
-> ``cs``; English when that names no language spidercli speaks. ``_``, ``ngettext`` and
``pgettext`` then translate through the gettext catalogs in ``spidercli/locale``, loaded on the
first text that needs them (so that importing this module costs nothing at start-up).

A translated message's ``format`` writes the numbers it is given in the language's own form
(``437 952 stavů za 1,12 s``: a no-break space between thousands, a decimal comma), grouping
exactly where the English message groups (``{states:,}``), so the digits stay the same and
only their separators change; ``number`` does the same for a number outside a message. English
messages are returned as they are, plain ``str``: its output never goes through this.

Only text for people goes through here: JSON, JSONL, CSV, JUnit, rule IDs and status words are the
machine contract and never do. The engine does not import this module.
"""

from __future__ import annotations

import os
import string
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from spidercli.text.languages import CODES, language_named
from spidercli.text.suggest import close_match

if TYPE_CHECKING:
    from gettext import NullTranslations

# The languages spidercli speaks: English first (the messages' own, with no catalog), then the
# others, each a module of spidercli/text/languages (its tables) and a catalog in spidercli/locale.
LANGUAGES = CODES
DOMAIN = "spidercli"
LOCALE_DIR = Path(__file__).parent.parent / "locale"
_ENV = ("LC_ALL", "LC_MESSAGES", "LANG")

_language = "en"
_catalog: NullTranslations | None = None


class LanguageError(ValueError):
    """A ``--lang`` value that names no language spidercli speaks."""


def from_environment(env: Mapping[str, str] | None = None) -> str:
    """The language the locale variables ask for: ``cs``, ``fi``, or ``en`` for anything else."""
    env = os.environ if env is None else env
    for name in _ENV:
        value = env.get(name, "")
        if value:
            # language[_territory][.codeset][@modifier]; only the first non-empty one counts
            code = value.split(".")[0].split("@")[0].split("_")[0].lower()
            return code if code in LANGUAGES else "en"
    return "en"


def choose(lang: str | None, env: Mapping[str, str] | None = None) -> str:
    """Use ``lang`` (``en``, ``cs``, ``fi``), or the environment's language when it is None."""
    if lang is None:
        chosen = from_environment(env)
    else:
        chosen = lang.strip().lower()
        if chosen not in LANGUAGES:
            guess = close_match(chosen, LANGUAGES)
            hint = f" (did you mean {guess!r}?)" if guess else ""
            raise LanguageError(
                f"{lang!r} is not a language spidercli speaks{hint}: expected one of "
                + ", ".join(LANGUAGES)
            )
    use(chosen)
    return chosen


def use(lang: str) -> None:
    """Switch to ``lang`` (one of ``LANGUAGES``); the catalog loads when first needed."""
    global _language, _catalog
    if lang not in LANGUAGES:
        raise LanguageError(f"{lang!r} is not one of {', '.join(LANGUAGES)}")
    if lang != _language:
        _language = lang
        _catalog = None


def language() -> str:
    """The language in use: ``en``, ``cs`` or ``fi``."""
    return _language


def number(value: float, spec: str = "") -> str:
    """``value`` formatted with ``spec`` (as ``format`` does: ``","``, ``".2f"``, ``"g"``) in
    the form of the language in use: ``437 952``, ``1,12`` in Czech and Finnish."""
    return _in_language(format(value, spec), _language)


def _in_language(formatted: str, lang: str) -> str:
    # The language's thousands separator and decimal mark (its module's ``separators``, the
    # CLDR's): Czech and Finnish group with a no-break space and write a decimal comma. The minus
    # sign stays ASCII: the apps' own score tables write -1.
    group, decimal = language_named(lang).separators
    if group == "," and decimal == ".":
        return formatted
    # A formatted number holds digits, a sign, an exponent or inf/nan, and the English marks.
    return formatted.translate({ord(","): group, ord("."): decimal})


class _NumberFormatter(string.Formatter):
    """``str.format`` with each number field in the language's form (strings as they are)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: object, format_spec: str) -> str:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return _in_language(format(value, format_spec), self.lang)
        return str(super().format_field(value, format_spec))


class Localized(str):
    """A translated message: ``format`` writes its numbers in the message's language."""

    lang: str

    def __new__(cls, message: str, lang: str) -> Localized:
        made = super().__new__(cls, message)
        made.lang = lang
        return made

    def format(self, /, *args: object, **kwargs: object) -> str:
        return _NumberFormatter(self.lang).vformat(self, args, kwargs)


def _localized(message: str) -> str:
    return Localized(message, _language)


def _translations() -> NullTranslations:
    global _catalog
    if _catalog is None:
        import gettext  # a catalog, when one is read: English needs none

        if _language == "en":
            _catalog = gettext.NullTranslations()
        else:
            # No fallback: a missing catalog is a broken install, not a reason to speak English.
            _catalog = gettext.translation(DOMAIN, LOCALE_DIR, languages=[_language])
    return _catalog


def _(message: str) -> str:
    """``message`` in the language in use."""
    if _language == "en":
        return message
    return _localized(_translations().gettext(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` (Czech has three: 1 karta, 2 karty, 5 karet)."""
    if _language == "en":
        return singular if n == 1 else plural
    return _localized(_translations().ngettext(singular, plural, n))


def pgettext(context: str, message: str) -> str:
    """``message`` in the language in use, where the same English words need telling apart."""
    if _language == "en":
        return message
    return _localized(_translations().pgettext(context, message))


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """``ngettext`` with a context."""
    if _language == "en":
        return singular if n == 1 else plural
    return _localized(_translations().npgettext(context, singular, plural, n))


__all__ = [
    "LANGUAGES",
    "LanguageError",
    "Localized",
    "_",
    "choose",
    "from_environment",
    "language",
    "ngettext",
    "npgettext",
    "number",
    "pgettext",
    "use",
]
