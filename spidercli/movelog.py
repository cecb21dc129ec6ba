"""Move logs: YAML text to a typed ``MoveLog`` whose every entry keeps its line number.

The YAML is composed into nodes (libyaml's C parser when present) and checked by hand, so each
error names the line and says what was expected. Unknown or duplicate keys, aliases, custom tags and
wrong types are refused with ``LogError``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from spidercli.actions import Action, ActionSyntaxError, parse_action
from spidercli.cards import SUIT_NAMES, card_str, card_words, parse_card
from spidercli.codes import CodeError, GameCode, Layout, Setup, ordered_deck, parse_code
from spidercli.files import MAX_LOG_BYTES, STDIN, STDIN_NAME, Unreadable, read_limited
from spidercli.messages import ascii_note, located, quoted, shown
from spidercli.rules import GAMES, RULESETS

try:  # the C parser is several times faster; fall back to the pure-Python one
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

_CONSTRUCTOR = yaml.constructor.SafeConstructor()


_RESOLVED: dict[tuple[str, Any], Any] = {}


class _Memo(_Loader):
    """The safe loader with its tag resolution memoised: logs repeat the same few hundred
    scalars (``deal``, ``3>7``), and resolving each by regular expressions is a tenth of a
    replay's time. Bounded (short scalars, 4096 of them); the result is the loader's own."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if kind is yaml.ScalarNode and isinstance(value, str) and len(value) <= 64:
            key = (value, implicit)
            tag = _RESOLVED.get(key)
            if tag is None:
                tag = super().resolve(kind, value, implicit)  # type: ignore[no-untyped-call]
                if len(_RESOLVED) >= 4096:
                    _RESOLVED.clear()
                _RESOLVED[key] = tag
            return tag
        return super().resolve(kind, value, implicit)  # type: ignore[no-untyped-call]


RESULTS = ("won", "open", "blocked", "resigned")
TOP_KEYS = ("game", "deal", "rules", "player", "time", "expect", "moves")
DEAL_KEYS = ("game", "rule", "suits", "columns", "stock")
MOVE_RULES = ("classic", "permissive")
EXPECT_KEYS = ("result", "moves", "score", "runs")

_BLANKS = " \t\r\n"  # the blanks around a keyword, code or card: ASCII ones only
_CARD_SEPARATORS = re.compile(r"[ \t\r\n,]+")

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_NULL = "tag:yaml.org,2002:null"
_FLOAT = "tag:yaml.org,2002:float"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_STANDARD = {
    _STR,
    _INT,
    _NULL,
    _MAP,
    _SEQ,
    "tag:yaml.org,2002:bool",
    _FLOAT,
    "tag:yaml.org,2002:timestamp",
    "tag:yaml.org,2002:binary",
}
_KIND = {
    _INT: "an integer",
    _NULL: "nothing (null)",
    _MAP: "a mapping",
    _SEQ: "a list",
    "tag:yaml.org,2002:bool": "a boolean",
    _FLOAT: "a number",
    "tag:yaml.org,2002:timestamp": "a date",
    "tag:yaml.org,2002:binary": "binary data",
    _STR: "text",
}


class LogError(ValueError):
    """A log that cannot be used: ``line`` is 1-based, or None when no line applies."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def __str__(self) -> str:
        return located(self.path, self.line, self.message)


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of ``moves``: its 1-based index, its line, its text and the parsed action."""

    index: int
    line: int
    text: str
    action: Action


@dataclass(frozen=True)
class Expect:
    result: str | None = None
    moves: int | None = None
    score: int | None = None
    runs: int | None = None
    line: int | None = None

    def items(self) -> list[tuple[str, object]]:
        return [(k, getattr(self, k)) for k in EXPECT_KEYS if getattr(self, k) is not None]


@dataclass(frozen=True)
class MoveLog:
    path: str
    deal: Setup
    game_line: int  # the line of ``game:`` or ``deal:``
    rules: str | None
    rules_line: int | None
    player: str | None
    expect: Expect | None
    entries: tuple[Entry, ...]
    time: float | None = None  # seconds the player took, for duel tie-breaks

    @property
    def code(self) -> GameCode | None:
        """The game code, or None when the log writes its deal out."""
        return self.deal.code


def _line(node: yaml.Node) -> int:
    return int(node.start_mark.line) + 1


def _kind(node: yaml.Node) -> str:
    return _KIND.get(node.tag, f"a value tagged {shown(node.tag, 80)}")


class _Checker:
    def __init__(self, path: str, text: str | bytes) -> None:
        self.path = path
        self.text_ = text
        self.seen: set[int] = set()

    def alias_line(self) -> int | None:
        """The first alias's line (the error path only: this parses the text again)."""
        for event in yaml.parse(self.text_, Loader=_Loader):
            if isinstance(event, yaml.AliasEvent) and event.start_mark is not None:
                return int(event.start_mark.line) + 1
        return None

    def fail(self, message: str, node: yaml.Node | None = None) -> LogError:
        return LogError(message, path=self.path, line=None if node is None else _line(node))

    def check(self, root: yaml.Node) -> None:
        """``visit`` the whole document; too deep a nesting is an input error too."""
        try:
            self.visit(root)
        except RecursionError as err:
            raise LogError("not usable: the YAML is nested too deeply", path=self.path) from err

    def visit(self, node: yaml.Node) -> None:
        """Refuse aliases (a node met twice) and custom tags, anywhere in the document."""
        if id(node) in self.seen:
            raise LogError(
                "YAML aliases (*name) are not allowed in a move log",
                path=self.path,
                line=self.alias_line(),
            )
        self.seen.add(id(node))
        if node.tag == "tag:yaml.org,2002:merge":
            raise self.fail("YAML merge keys (<<) are not allowed in a move log", node)
        if node.tag not in _STANDARD:
            raise self.fail(
                f"custom YAML tags ({shown(node.tag, 80)}) are not allowed in a move log", node
            )
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                self.visit(key)
                self.visit(value)
        elif isinstance(node, yaml.SequenceNode):
            for item in node.value:
                self.visit(item)

    def mapping(self, node: yaml.Node, what: str, allowed: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(f"{what} must be a mapping, not {_kind(node)}", node)
        out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        for key, value in node.value:
            if not isinstance(key, yaml.ScalarNode) or key.tag != _STR:
                raise self.fail(f"{what}: keys must be plain words, not {_kind(key)}", key)
            name = key.value
            if name in out:
                first = _line(out[name][0])
                raise self.fail(
                    f"{what}: duplicate key {quoted(name)} (first given on line {first})", key
                )
            if name not in allowed:
                raise self.fail(
                    f"{what}: unknown key {quoted(name)}; expected {', '.join(allowed)}", key
                )
            out[name] = (key, value)
        return out

    def text(self, node: yaml.Node, what: str) -> str:
        if not isinstance(node, yaml.ScalarNode) or node.tag != _STR:
            raise self.fail(f"{what} must be text, not {_kind(node)}", node)
        return str(node.value)

    def word(self, node: yaml.Node, what: str) -> str:
        """A keyword (a ruleset, a result...): ASCII, case-insensitive, blanks around it ignored.
        ASCII first: ``str.lower`` maps some other letters to ASCII ones (K, U+212A, to k)."""
        text = self.text(node, what)
        return text.strip(_BLANKS).lower() if text.isascii() else text

    def ruleset(self, node: yaml.Node) -> str:
        """A ``rules:`` value: the name of a ruleset, case-insensitive."""
        name = self.word(node, "rules")
        if name not in RULESETS:
            raise self.fail(
                f"rules: unknown ruleset {quoted(name)}{ascii_note(name)}; expected one of "
                f"{', '.join(RULESETS)}",
                node,
            )
        return name

    def integer(self, node: yaml.Node, what: str) -> int:
        if not isinstance(node, yaml.ScalarNode) or node.tag != _INT:
            raise self.fail(f"{what} must be a whole number, not {_kind(node)}", node)
        if len(node.value) > 40:
            raise self.fail(f"{what}: {quoted(node.value, 40)} is out of range", node)
        try:
            if not node.value.isascii():  # int() takes any Unicode digits ("١" is 1)
                raise ValueError(node.value)
            value = int(_CONSTRUCTOR.construct_yaml_int(node))
        except (yaml.YAMLError, ValueError) as err:
            raise self.fail(
                f"{what}: {quoted(node.value)} is not a usable number{ascii_note(node.value)}",
                node,
            ) from err
        if abs(value) > 10**15:
            raise self.fail(f"{what}: {quoted(node.value)} is out of range", node)
        return value


def compose(text: str | bytes, path: str) -> yaml.Node | None:
    """The YAML document's node tree (None when empty); ``LogError`` for malformed YAML."""
    try:
        return yaml.compose(text, Loader=_Memo)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = None if mark is None else int(mark.line) + 1
        problem = err.problem or err.context or "malformed YAML"
        raise LogError(f"not valid YAML: {shown(problem)}", path=path, line=line) from err
    except yaml.reader.ReaderError as err:  # a character YAML does not allow: name its line
        where = text if isinstance(text, str) else text.decode("utf-8", "replace")
        char = chr(err.character) if isinstance(err.character, int) else str(err.character)
        raise LogError(
            f"not valid YAML: the character {shown(char)} (U+{ord(char[:1] or ' '):04X}) is not "
            "allowed in YAML",
            path=path,
            line=yaml_line(where, err.position),
        ) from err
    except yaml.YAMLError as err:
        raise LogError(f"not valid YAML: {shown(str(err))}", path=path) from err
    except RecursionError as err:
        raise LogError("not usable: the YAML is nested too deeply", path=path) from err


def parse_log(text: str | bytes, path: str = "<log>") -> MoveLog:
    """Parse a move log's text; ``LogError`` names the line and what was expected."""
    root = compose(text, path)
    if root is None:
        raise LogError(
            "the file is empty: expected a mapping with at least 'game' and 'moves'", path=path
        )
    c = _Checker(path, text)
    c.check(root)
    top = c.mapping(root, "the log", TOP_KEYS)
    if "game" in top and "deal" in top:
        raise c.fail(
            "give either 'game' (a game code) or 'deal' (the cards written out), not both",
            top["deal"][0],
        )
    for required in ("game", "moves"):
        if required not in top and not (required == "game" and "deal" in top):
            raise c.fail(
                f"the log has no {required!r} key: expected 'game' (a game code, or 'deal' "
                "with the cards written out) and 'moves' (a list of actions)",
                root,
            )

    if "game" in top:
        game_node = top["game"][1]
        try:
            deal = Setup.from_code(parse_code(c.text(game_node, "game")))
        except CodeError as err:
            raise c.fail(f"game: {err}", game_node) from err
    else:
        game_node = top["deal"][0]
        deal = _deal(c, top["deal"][1])

    rules = rules_line = None
    if "rules" in top:
        node = top["rules"][1]
        rules = c.ruleset(node)
        rules_line = _line(node)

    player = None
    if "player" in top:
        node = top["player"][1]
        if not isinstance(node, yaml.ScalarNode) or node.tag == _NULL:
            raise c.fail(f"player must be text, not {_kind(node)}", node)
        player = str(node.value)

    seconds = None
    if "time" in top:
        node = top["time"][1]
        if not isinstance(node, yaml.ScalarNode) or node.tag not in (_INT, _FLOAT):
            raise c.fail(f"time must be a number of seconds, not {_kind(node)}", node)
        try:
            if not node.value.isascii() or len(node.value) > 40:  # float() takes "١" too
                raise ValueError(node.value)
            seconds = float(_CONSTRUCTOR.construct_object(node))
        except (yaml.YAMLError, ValueError, OverflowError) as err:
            raise c.fail(
                f"time: {quoted(node.value)} is not a usable number{ascii_note(node.value)}", node
            ) from err
        if not 0 <= seconds < float("inf"):
            raise c.fail(f"time: {quoted(node.value)} must be 0 seconds or more", node)

    expect = None
    if "expect" in top:
        expect = _expect(c, top["expect"][1])

    moves_node = top["moves"][1]
    if not isinstance(moves_node, yaml.SequenceNode):
        raise c.fail(
            f"moves must be a list of actions (use [] for none), not {_kind(moves_node)}",
            moves_node,
        )
    entries = []
    for i, node in enumerate(moves_node.value, start=1):
        if not isinstance(node, yaml.ScalarNode) or node.tag != _STR:
            raise c.fail(
                f"moves, entry {i}: expected an action such as '3>7' or 'deal', not {_kind(node)}",
                node,
            )
        try:
            action = parse_action(node.value)
        except ActionSyntaxError as err:
            raise c.fail(f"moves, entry {i}: {err}", node) from err
        entries.append(Entry(i, _line(node), node.value, action))
    return MoveLog(
        path, deal, _line(game_node), rules, rules_line, player, expect, tuple(entries), seconds
    )


def _cards(c: _Checker, node: yaml.Node, what: str) -> list[tuple[int, int]]:
    """A list of cards, as blank-separated text or a YAML list: each card with its line."""
    out: list[tuple[int, int]] = []
    if isinstance(node, yaml.SequenceNode):
        items = node.value
    elif isinstance(node, yaml.ScalarNode) and node.tag == _STR:
        items = [node]
    else:
        raise c.fail(
            f"{what} must be cards, as text ('9S 8H KD') or a list ([9S, 8H, KD]), "
            f"not {_kind(node)}",
            node,
        )
    for item in items:
        text = c.text(item, f"{what}: a card")
        for token in _CARD_SEPARATORS.split(text):
            if not token:
                continue
            try:
                out.append((parse_card(token), _line(item)))
            except ValueError as err:
                raise c.fail(f"{what}: {err}", item) from err
    return out


def _deal(c: _Checker, node: yaml.Node) -> Setup:
    """``deal:``: the game, the move rule, every column bottom to top and the stock, checked."""
    fields = c.mapping(node, "deal", DEAL_KEYS)
    for required in ("game", "columns", "stock"):
        if required not in fields:
            raise c.fail(
                f"deal has no {required!r} key: expected game (spider or spiderette), "
                "rule (classic or permissive, optional), columns (each column's cards bottom "
                "to top) and stock (in dealing order)",
                node,
            )
    game_node = fields["game"][1]
    name = c.word(game_node, "deal.game")
    if name not in GAMES:
        raise c.fail(
            f"deal.game: {quoted(name)} is not a game{ascii_note(name)}; expected spider or "
            "spiderette",
            game_node,
        )
    game = GAMES[name]

    permissive = False
    if "rule" in fields:
        rule_node = fields["rule"][1]
        rule = c.word(rule_node, "deal.rule")
        if rule not in MOVE_RULES:
            raise c.fail(
                f"deal.rule: {quoted(rule)} is not a move rule{ascii_note(rule)}; expected "
                "classic or permissive",
                rule_node,
            )
        permissive = rule == "permissive"

    cols_node = fields["columns"][1]
    if not isinstance(cols_node, yaml.SequenceNode):
        raise c.fail(
            f"deal.columns must be a list of {game.columns} columns, not {_kind(cols_node)}",
            cols_node,
        )
    if len(cols_node.value) != game.columns:
        raise c.fail(
            f"deal.columns: {game.title} has {game.columns} columns, not {len(cols_node.value)}",
            fields["columns"][0],
        )
    columns = []
    placed: list[tuple[int, int]] = []
    for i, (col_node, size) in enumerate(zip(cols_node.value, game.column_sizes, strict=True)):
        cards = _cards(c, col_node, f"deal.columns, column {i + 1}")
        if len(cards) != size:
            raise c.fail(
                f"deal.columns, column {i + 1} has {len(cards)} card{'s' * (len(cards) != 1)}; "
                f"{game.title} deals {size} to it ({game.title}'s columns hold "
                f"{', '.join(map(str, game.column_sizes))})",
                col_node,
            )
        columns.append(tuple(card for card, _ in cards))
        placed.extend(cards)
    stock_node = fields["stock"][1]
    stock = _cards(c, stock_node, "deal.stock")
    want = sum(game.deal_sizes)
    if len(stock) != want:
        raise c.fail(
            f"deal.stock has {len(stock)} card{'s' * (len(stock) != 1)}; a {game.title} stock "
            f"holds {want} ({game.cards} cards in all)",
            fields["stock"][0],
        )
    placed.extend(stock)

    used = {card >> 4 for card, _ in placed}
    if "suits" in fields:
        suits_node = fields["suits"][1]
        suits = c.integer(suits_node, "deal.suits")
        if suits not in (1, 2, 4):
            raise c.fail(f"deal.suits: {suits} suits; expected 1, 2 or 4", suits_node)
    else:
        suits = 1 if used <= {0} else 2 if used <= {0, 1} else 4
    copies = game.cards // (13 * suits)
    deck = f"a {suits}-suit {game.title} deck"
    counts: dict[int, int] = {}
    first: dict[int, int] = {}
    for card, line in placed:
        if card >> 4 >= suits:
            names = " and ".join(SUIT_NAMES[:suits]) if suits > 1 else "spades only"
            raise LogError(
                f"deal: {card_str(card)} ({card_words(card)}) is not in {deck} ({names})",
                path=c.path,
                line=line,
            )
        n = counts[card] = counts.get(card, 0) + 1
        first.setdefault(card, line)
        if n > copies:
            # The sizes are right, so a card given too often means another is missing.
            totals = Counter(other for other, _ in placed)
            missing = next(m for m in ordered_deck(game, suits) if totals[m] < copies)
            raise LogError(
                f"deal: {card_str(card)} ({card_words(card)}) is given {totals[card]} times "
                f"(first on line {first[card]}, again here); {deck} holds {copies} of each "
                f"card, and {card_str(missing)} ({card_words(missing)}) is missing",
                path=c.path,
                line=line,
            )
    layout = Layout(game, tuple(columns), tuple(card for card, _ in stock))
    return Setup(layout, suits, permissive and suits > 1)


def _expect(c: _Checker, node: yaml.Node) -> Expect:
    fields = c.mapping(node, "expect", EXPECT_KEYS)
    values: dict[str, Any] = {}
    for name, (_, value) in fields.items():
        if name == "result":
            result = c.word(value, "expect.result")
            if result not in RESULTS:
                raise c.fail(
                    f"expect.result: {quoted(result)} is not a result{ascii_note(result)}; "
                    f"expected one of {', '.join(RESULTS)}",
                    value,
                )
            values[name] = result
        else:
            values[name] = c.integer(value, f"expect.{name}")
    return Expect(**values, line=_line(node))


def display_name(path: str | Path) -> str:
    """The name messages use for a path (``<stdin>`` for ``-``)."""
    return STDIN_NAME if str(path) == STDIN else str(path)


def load_log(path: str | Path, max_bytes: int = MAX_LOG_BYTES) -> MoveLog:
    """Read and parse a log file (``-``: standard input); every failure is a ``LogError``
    naming the file."""
    return parse_log(read_text(path, max_bytes), display_name(path))


def read_text(path: str | Path, max_bytes: int = MAX_LOG_BYTES) -> str:
    """A log file's text (UTF-8, a BOM dropped), from a regular file or standard input (``-``)
    of at most ``max_bytes``; every failure is a ``LogError``."""
    name = display_name(path)
    try:
        data = read_limited(path, max_bytes)
    except Unreadable as err:
        raise LogError(err.message, path=name) from err
    return decode(data, name)


def decode(data: bytes, name: str) -> str:
    """A log's bytes as text (UTF-8, a BOM dropped); ``LogError`` for binary or non-UTF-8."""
    nul = data.find(b"\0")
    if nul >= 0:
        line = yaml_line(data[:nul].decode("utf-8", "replace"), nul)
        raise LogError("is a binary file (a NUL byte), not a YAML move log", path=name, line=line)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = yaml_line(data[: err.start].decode("utf-8", "replace"), err.start)
        raise LogError(
            "is not UTF-8 text: a move log must be UTF-8 YAML", path=name, line=line
        ) from err
    return text


_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def yaml_line(text: str, index: int) -> int:
    """The 1-based line of ``text[index]``, counting line breaks as YAML does (CR LF, CR, LF,
    NEL, U+2028 and U+2029)."""
    return len(_BREAK.findall(text, 0, index)) + 1


def deal_lines(setup: Setup) -> list[str]:
    """The ``deal:`` block of a layout: a column a line, the stock a line a deal."""
    layout = setup.layout
    lines = ["deal:", f"  game: {layout.game.name}"]
    if setup.suits > 1:
        lines.append(f"  rule: {'permissive' if setup.permissive else 'classic'}")
    lines.append("  columns:          # bottom to top; the last card starts face-up")
    lines.extend(f"    - [{', '.join(card_str(c) for c in col)}]" for col in layout.columns)
    lines.append("  stock:            # in dealing order, one line a deal")
    pos = 0
    for size in layout.game.deal_sizes:
        lines.append("    - " + " ".join(card_str(c) for c in layout.stock[pos : pos + size]))
        pos += size
    return lines


def format_log(
    game: str | Setup,
    moves: list[str],
    *,
    rules: str | None = None,
    expect: dict[str, object] | None = None,
    comment: str | None = None,
) -> str:
    """A move log's YAML text, in the contract's layout (actions with ``:`` quoted). ``game``
    is a game code, or a setup: its code, or its ``deal:`` block when it has none."""
    lines = [f"# {line}".rstrip() for line in comment.splitlines()] if comment else []
    if isinstance(game, Setup):
        if game.code is None:
            lines.extend(deal_lines(game))
        else:
            lines.append(f"game: {game.code.canonical}")
    else:
        lines.append(f"game: {game}")
    if rules is not None:
        lines.append(f"rules: {rules}")
    if expect:
        lines.append("expect:")
        lines.extend(f"  {key}: {value}" for key, value in expect.items())
    if not moves:
        lines.append("moves: []")
    else:
        lines.append("moves:")
        lines.extend(f"  - '{m}'" if ":" in m else f"  - {m}" for m in moves)
    return "\n".join(lines) + "\n"
