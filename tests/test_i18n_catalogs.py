"""The message catalogs: complete, compiling, in step with the sources, and the refusal sentences
worded from the engine's facts in every language."""

from __future__ import annotations

import io
import re
import string

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spidercli.game.actions import DEAL, UNDO, Action, Flip, Move, Tap
from spidercli.game.engine import RULE_IDS, Game, Refusal
from spidercli.game.rules import RULESETS
from spidercli.logs.reader import load_log
from spidercli.play.logtypes import Entry
from spidercli.play.refusals import sentence
from spidercli.play.replay import ReplayVisitor, replay
from spidercli.text import i18n
from spidercli.text.languages import language_named
from spidercli.text.messages import said
from tests.helpers import CODES, FIXTURES, ILLEGAL, TRANSLATED, new_game

LOCALE = i18n.LOCALE_DIR
POT = LOCALE / "spidercli.pot"
LANGS = TRANSLATED


def _po(lang: str) -> Catalog:
    with open(LOCALE / lang / "LC_MESSAGES" / "spidercli.po", "rb") as f:
        return read_po(f, abort_invalid=True)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def _texts(value: object) -> tuple[str, ...]:
    """A message's id or string as a tuple of texts (one, or one per plural form)."""
    if isinstance(value, (tuple, list)):
        return tuple(str(v or "") for v in value)
    return (str(value or ""),)


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_translated(lang: str) -> None:
    catalog = _po(lang)
    assert not catalog.fuzzy
    missing = []
    for message in catalog:
        if not message.id:
            continue
        strings = _texts(message.string)
        if message.fuzzy or not all(strings):
            missing.append(message.id)
        english = _texts(message.id)[-1]
        for text in strings:  # the same {fields} as the English, no more, no fewer
            assert _fields(text) == _fields(english), (lang, message.id, text)
    assert missing == []


@pytest.mark.parametrize("lang", LANGS)
def test_plural_rules(lang: str) -> None:
    catalog = _po(lang)
    # The language's module says its rule; the catalog's header says the same.
    assert catalog.plural_forms == language_named(lang).plural_forms
    for message in catalog:
        if isinstance(message.id, tuple):
            assert len(_texts(message.string)) == catalog.num_plurals, message.id


_PO_LINE = re.compile(r'^(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d\])?) )?"(?:[^"\\]|\\.)*"$')


def compile_problems(data: bytes) -> list[str]:
    """What stops ``data`` (a .po file) compiling into a catalog that says what it means: Babel's
    reader forgives a lot (an unclosed quote, a repeated msgid), so the lines are checked too,
    then the compiled catalog is read back by gettext itself."""
    import gettext

    problems = []
    text = data.decode("utf-8")
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.startswith("#") and not _PO_LINE.match(line):
            problems.append(f"line {number}: {line!r}")
    try:
        catalog = read_po(io.BytesIO(data), abort_invalid=True)
    except Exception as err:  # babel's PoFileError and the parse errors beneath it
        return [*problems, str(err)]
    entries = len(re.findall(r"(?m)^msgid ", text)) - 1  # less the header
    if entries != len([m for m in catalog if m.id]):
        problems.append(f"{entries} msgid lines but {len(catalog) - 1} distinct messages")
    for message, errors in catalog.check():
        problems.extend(f"{message.id!r}: {error}" for error in errors)
    out = io.BytesIO()
    write_mo(out, catalog)
    out.seek(0)
    compiled = gettext.GNUTranslations(out)
    for message in catalog:
        said = message.string
        if not (isinstance(message.id, str) and message.id and said):
            continue
        if message.context:  # pgettext's messages ("result", "won")
            back = compiled.pgettext(message.context, message.id)
        else:
            back = compiled.gettext(message.id)
        if back != said:
            problems.append(f"{message.id!r} does not read back")
    return problems


@pytest.mark.parametrize("lang", LANGS)
def test_po_compiles_and_the_shipped_mo_is_current(lang: str) -> None:
    path = LOCALE / lang / "LC_MESSAGES" / "spidercli.po"
    assert compile_problems(path.read_bytes()) == []
    out = io.BytesIO()
    write_mo(out, _po(lang))
    shipped = (LOCALE / lang / "LC_MESSAGES" / "spidercli.mo").read_bytes()
    assert shipped == out.getvalue(), f"{lang}: spidercli.mo is stale; run `make i18n`"


def test_catalogs_hold_exactly_the_messages_of_the_sources() -> None:
    package = LOCALE.parent
    in_sources = {
        message if isinstance(message, str) else message[0]
        for _, _, message, _, _ in extract_from_dir(
            package, [("**.py", "python")], keywords={**DEFAULT_KEYWORDS, "Nn_": (1, 2), "_N": None}
        )
    }
    for path in (POT, *(LOCALE / lang / "LC_MESSAGES" / "spidercli.po" for lang in LANGS)):
        with open(path, "rb") as f:
            catalog = read_po(f)
        ids = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}
        assert ids == in_sources, f"{path.name} is out of step with the sources; run `make i18n`"


_HEADER = b'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'


@pytest.mark.parametrize(
    "broken",
    [
        b'msgid "Start"\nmsgstr "Za\n',  # an unclosed quote
        b'msgid "Start"\nmsgstr "Za"\nbogus line\n',
        b'msgid "Start"\nmsgstr "A"\n\nmsgid "Start"\nmsgstr "B"\n',  # a repeated msgid
        b'#, python-format\nmsgid "%(n)d cards"\nmsgstr "%(m)d karet"\n',  # a wrong placeholder
    ],
)
def test_a_broken_po_is_caught(broken: bytes) -> None:
    assert compile_problems(_HEADER + broken) != []
    assert compile_problems(_HEADER + b'msgid "Start"\nmsgstr "Za"\n') == []


def test_labels_fit_the_hanging_indent() -> None:
    # The text report's labels sit in a 9-column indent: 8 characters and a space at most.
    for lang in LANGS:
        i18n.use(lang)
        for label in ("Log", "Game", "Rules", "Player", "Verdict", "Result", "Expect", "ILLEGAL"):
            assert len(i18n._(label)) <= 8, (lang, label)


# ------------------------------------------------------------------------ refusal sentences


class _Checker(ReplayVisitor):
    """A replay visitor: each refusal's sentence worded from its facts, in every language."""

    def __init__(self) -> None:
        self.rules: set[str] = set()

    def refused(self, game: Game, entry: Entry, refusal: Refusal) -> None:
        check(refusal)
        self.rules.add(refusal.rule)


def check(refusal: Refusal) -> None:
    words = sentence(refusal)
    i18n.use("en")
    assert said(words) == words == refusal.message
    for lang in LANGS:
        i18n.use(lang)
        saying = said(words)
        assert saying and saying != refusal.message, (lang, refusal)
        assert not re.search(r"\{\w*\}", saying)
    i18n.use("en")


def test_every_rule_has_its_sentence_in_every_language() -> None:
    checker = _Checker()
    for rule in ILLEGAL:
        log = load_log(str(FIXTURES / "illegal" / f"{rule}.yaml"))
        replay(log, on_illegal="skip", visitor=checker)
    assert checker.rules == set(RULE_IDS)


def _random_action(draw: int, ncols: int) -> Action:
    kind = draw % 7
    a = (draw // 7) % (ncols + 2)  # 0 and ncols + 1 are no columns
    b = (draw // 91) % (ncols + 2)
    count = (draw // 1183) % 6 or None
    if kind <= 2:
        return Move(a, b, count)
    if kind == 3:
        return Tap(a, count)
    if kind == 4:
        return Flip(a)
    return DEAL if kind == 5 else UNDO


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(CODES, st.sampled_from(sorted(RULESETS)), st.lists(st.integers(0, 10**6), max_size=80))
def test_refusal_sentences_in_random_games(
    code_text: str, rules_name: str, draws: list[int]
) -> None:
    """Random actions, legal and not, in random games: every refusal's facts are worded in
    English (its ``message``) and in Czech and Finnish without a gap."""
    game = new_game(code_text, rules_name)
    for draw in draws:
        actions = game.legal_actions()
        if draw % 3 == 0 and actions:
            action = actions[draw % len(actions)]  # keep the game moving
        else:
            action = _random_action(draw, game.kind.columns)
        refusal = game.play(action)
        if refusal is None:
            continue
        check(refusal)


def test_the_wheel_and_the_sdist_carry_the_compiled_catalogs() -> None:
    """The package data patterns reach every shipped .mo: without them an installed wheel could
    not speak Czech or Finnish (a missing catalog is an error, not a fallback to English)."""
    root = LOCALE.parent.parent
    pyproject = (root / "pyproject.toml").read_text()
    section = pyproject.split("[tool.setuptools.package-data]", 1)[1].split("\n[", 1)[0]
    patterns = re.findall(r'"([^"]+)"', section.split("spidercli =", 1)[1].split("]", 1)[0])
    for lang in LANGS:
        mo = LOCALE / lang / "LC_MESSAGES" / "spidercli.mo"
        relative = mo.relative_to(LOCALE.parent)
        assert any(relative.match(p) for p in patterns), (relative, patterns)
    assert "recursive-include spidercli/locale" in (root / "MANIFEST.in").read_text()


def test_a_missing_catalog_is_an_error_not_english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LOCALE_DIR", LOCALE / "nowhere")
    i18n.use("cs")
    with pytest.raises(FileNotFoundError):
        i18n._("Start")
