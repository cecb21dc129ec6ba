"""Writing move logs: the YAML text of a game, in the layout the reader (``deals``,
``yamlreader``) reads back; it imports no YAML library."""

from __future__ import annotations

import json
import re

from spidercli.game.cards import card_str
from spidercli.game.codes import Setup

# What a YAML double-quoted scalar may not hold as it stands, or would fold as a line break: DEL
# and the C1 controls (NEL among them), the line and paragraph separators, the byte order mark,
# U+FFFE, U+FFFF and lone surrogates. JSON's escapes cover the C0 controls.
_NOT_YAML_AS_IS = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")


def yaml_quoted(text: str) -> str:
    """``text`` as a YAML double-quoted scalar that every YAML reader reads back as exactly
    ``text``: JSON's string (its escapes are YAML's too), with each character YAML may not hold
    as it stands, or would fold as a line break, escaped as ``\\uXXXX``."""
    quoted = json.dumps(text, ensure_ascii=False)
    return _NOT_YAML_AS_IS.sub(lambda m: f"\\u{ord(m.group()):04x}", quoted)


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


def expect_lines(values: dict[str, object], pad: str = "") -> list[str]:
    """An ``expect:`` block's lines, each key on its own line, indented by ``pad``."""
    return [f"{pad}expect:"] + [f"{pad}  {key}: {value}" for key, value in values.items()]


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
        lines.extend(expect_lines(expect))
    if not moves:
        lines.append("moves: []")
    else:
        lines.append("moves:")
        lines.extend(f"  - '{m}'" if ":" in m else f"  - {m}" for m in moves)
    return "\n".join(lines) + "\n"


__all__ = ["deal_lines", "expect_lines", "format_log"]
