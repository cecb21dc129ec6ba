""" "Did you mean": the one choice closest to a word that names none of them.

A leaf (it imports nothing of spidercli): the log reader's keys, the rulesets, the languages and
the command line's options all ask it, so that a typo gets the same kind of answer everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable


def close_match(word: str, choices: Iterable[str]) -> str | None:
    """The choice closest to ``word`` (case ignored) by ``difflib``'s ratio, when it is close
    enough to be the likely intent: 0.6 for words of four letters and more (``exepct`` ->
    ``expect``, ``clasic`` -> ``classic``), 0.5 for shorter ones, where one wrong letter already
    halves the ratio, and the first letter right (``cz`` -> ``cs``, but ``de`` is no ``en``);
    else None."""
    import difflib  # only when a word was not understood

    if not word or len(word) > 100:  # nothing to compare, or no typo of a short name
        return None
    by_lower = {choice.lower(): choice for choice in choices}
    typed = word.lower()
    if len(typed) >= 4:
        found = difflib.get_close_matches(typed, by_lower, n=1, cutoff=0.6)
    else:  # and the first letter right: "de" (German) is no typo of "en"
        found = [
            c for c in difflib.get_close_matches(typed, by_lower, cutoff=0.5) if c[0] == typed[0]
        ]
    return by_lower[found[0]] if found else None


__all__ = ["close_match"]
