"""A board as an SVG picture: the columns (backs for face-down cards, rank and suit on face-up
ones, hearts and diamonds red), the runs removed, and the stock.

The HTML replay draws its boards with the same geometry and the same style sheet (the page's
script reads ``GEOMETRY`` from the page's data), so a position looks the same in both. The output
is stable: no timestamps, no generated ids, attributes always in the same order.

Every tableau column is a ``<g data-col="C">`` (1-based) holding one ``<g data-card="TS">`` per
card, bottom to top, ``data-card="down"`` for a face-down card.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape

from spidercli.game.cards import SUIT_SYMBOLS, SUITS, card_str
from spidercli.game.engine import Game

# Sizes in SVG user units. The page's script draws with these same numbers.
CARD_W = 64
CARD_H = 88
GAP = 8  # between columns, and the margin
DOWN_STEP = 12  # how much of a face-down card shows under the next one
UP_STEP = 24  # how much of a face-up card shows under the next one
DEAL_STEP = 8  # between the deals left in the stock pile
# A column taller than the room it has (the page fits the board to the window) is squeezed:
# face-down cards first, down to MIN_DOWN_STEP, then face-up ones, never below MIN_UP_STEP,
# which still shows each card's rank.
MIN_DOWN_STEP = 4
MIN_UP_STEP = 20
TOP = GAP  # the row of removed runs and the stock
COLUMNS_Y = TOP + CARD_H + 26  # the tableau, below the column numbers

GEOMETRY = {
    "cardW": CARD_W,
    "cardH": CARD_H,
    "gap": GAP,
    "downStep": DOWN_STEP,
    "upStep": UP_STEP,
    "dealStep": DEAL_STEP,
    "top": TOP,
    "columnsY": COLUMNS_Y,
    "minDownStep": MIN_DOWN_STEP,
    "minUpStep": MIN_UP_STEP,
}

# One style sheet for the SVG file and the HTML page.
STYLE = (
    ".felt{fill:#2e6b3f}"
    ".face{fill:#fffdf7;stroke:#6b6b6b;stroke-width:1}"
    ".back{fill:#27508f;stroke:#fff;stroke-width:1}"
    ".back-in{fill:none;stroke:#9db7e0;stroke-width:1}"
    ".slot{fill:none;stroke:#cfe3d3;stroke-opacity:.55;stroke-width:1.5;stroke-dasharray:5 4}"
    ".hl{fill:none;stroke:#e53935;stroke-width:3}"
    ".rank,.pip,.num,.deals{font-family:'DejaVu Sans','Segoe UI Symbol','Noto Sans Symbols2',"
    "Arial,sans-serif}"
    ".rank{font-size:16px;font-weight:bold}"
    ".pip{font-size:34px;text-anchor:middle}"
    ".black{fill:#1a1a1a}.red{fill:#c62828}"
    ".num{font-size:13px;fill:#d7ead9;text-anchor:middle}"
    ".deals{font-size:20px;font-weight:bold;fill:#fff;text-anchor:middle}"
)

RANK_LABELS = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


@dataclass(frozen=True)
class BoardView:
    """What a board drawing shows; face-down cards are only counted."""

    columns: tuple[tuple[int, tuple[str, ...]], ...]  # (face-down count, face-up cards) each
    stock: int  # cards not yet dealt
    deals_left: int
    removed: str  # the suit letter of each run removed, in order
    runs_to_win: int

    @classmethod
    def of(cls, game: Game) -> BoardView:
        return cls(
            columns=tuple(
                (game.down[c], tuple(card_str(x) for x in game.face_up(c)))
                for c in range(game.kind.columns)
            ),
            stock=len(game.stock_left),
            deals_left=game.deals_left,
            removed="".join(SUITS[s] for s in game.removed),
            runs_to_win=game.kind.runs_to_win,
        )

    @property
    def extent(self) -> int:
        """The height of the tallest column's drawing."""
        return max(column_extent(down, len(up)) for down, up in self.columns)


def column_extent(down: int, up: int) -> int:
    if down + up == 0:
        return CARD_H
    if up == 0:
        return (down - 1) * DOWN_STEP + CARD_H
    return down * DOWN_STEP + (up - 1) * UP_STEP + CARD_H


def squeezed_extent(down: int, up: int) -> int:
    """The least height a column can be squeezed to (``column_offsets``)."""
    if up == 0:
        return column_extent(down, 0)
    return down * MIN_DOWN_STEP + (up - 1) * MIN_UP_STEP + CARD_H


def column_offsets(down: int, up: int, cap: int | None = None) -> list[int]:
    """Each card's distance from the top of its column, bottom card first: ``DOWN_STEP`` and
    ``UP_STEP`` apart, or, when that is taller than ``cap``, squeezed to fit it (the face-down
    cards first, to ``MIN_DOWN_STEP``; then the face-up ones, to ``MIN_UP_STEP``). Whole
    numbers only, so that the page's script, which does the same, draws the same."""
    if cap is None or column_extent(down, up) <= cap or up == 0:
        return [i * DOWN_STEP for i in range(down)] + [
            down * DOWN_STEP + j * UP_STEP for j in range(up)
        ]
    room = cap - CARD_H  # where the top card's top may be
    rest = (up - 1) * UP_STEP
    if down * MIN_DOWN_STEP + rest <= room:  # squeezing the face-down cards is enough
        span = room - rest
        return [i * span // down for i in range(down)] + [span + j * UP_STEP for j in range(up)]
    span = down * MIN_DOWN_STEP
    left = max(room - span, (up - 1) * MIN_UP_STEP)
    return [i * MIN_DOWN_STEP for i in range(down)] + [
        span + j * left // max(up - 1, 1) for j in range(up)
    ]


def board_width(columns: int) -> int:
    return GAP + columns * (CARD_W + GAP)


def board_height(extent: int) -> int:
    return COLUMNS_Y + extent + GAP


def column_x(column: int) -> int:
    """The left edge of column ``column`` (0-based)."""
    return GAP + column * (CARD_W + GAP)


def _at(x: int, y: int) -> str:
    return f'transform="translate({x},{y})"'


def _face(card: str, x: int, y: int, hl: bool, key: str = "data-card") -> str:
    suit = SUITS.index(card[1])
    colour = "red" if card[1] in "HD" else "black"
    rank = RANK_LABELS["A23456789TJQK".index(card[0]) + 1]
    symbol = SUIT_SYMBOLS[suit]
    mark = f'<rect class="hl" width="{CARD_W}" height="{CARD_H}" rx="6"/>' if hl else ""
    return (
        f'<g {key}="{card}" {_at(x, y)}>'
        f'<rect class="face" width="{CARD_W}" height="{CARD_H}" rx="6"/>'
        f'<text class="rank {colour}" x="5" y="18">{rank}{symbol}</text>'
        f'<text class="pip {colour}" x="{CARD_W // 2}" y="{CARD_H - 22}">{symbol}</text>'
        f"{mark}</g>"
    )


def _back(x: int, y: int, attrs: str = 'data-card="down"') -> str:
    return (
        f"<g {attrs} {_at(x, y)}>"
        f'<rect class="back" width="{CARD_W}" height="{CARD_H}" rx="6"/>'
        f'<rect class="back-in" x="4" y="4" width="{CARD_W - 8}" height="{CARD_H - 8}" rx="4"/>'
        "</g>"
    )


def _slot(x: int, y: int) -> str:
    return f'<rect class="slot" x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="6"/>'


def board_body(
    view: BoardView, highlight: frozenset[str] = frozenset(), cap: int | None = None
) -> str:
    """The drawing's elements (no ``<svg>`` wrapper): what the page's script draws too.
    ``cap``: the height a column may take (``column_offsets``); None, as tall as it is."""
    ncols = len(view.columns)
    parts = [f'<rect class="felt" width="{board_width(ncols)}" height="100%"/>']
    # The runs removed, one King per run, in the slots from the left.
    for i in range(view.runs_to_win):
        x = column_x(i)
        if i < len(view.removed):
            suit = view.removed[i]
            parts.append(_face("K" + suit, x, TOP, False, "data-run"))
        else:
            parts.append(_slot(x, TOP))
    # The stock: one back per deal left, the last one over the last column.
    stock_x = column_x(ncols - 1)
    if view.deals_left == 0:
        parts.append(_slot(stock_x, TOP))
    for i in range(view.deals_left):
        x = stock_x - (view.deals_left - 1 - i) * DEAL_STEP
        parts.append(_back(x, TOP, f'data-stock="{i + 1}"'))
    if view.deals_left:
        parts.append(
            f'<text class="deals" x="{stock_x + CARD_W // 2}" y="{TOP + CARD_H // 2 + 7}">'
            f"{view.deals_left}</text>"
        )
    for c, (down, up) in enumerate(view.columns):
        x = column_x(c)
        parts.append(f'<text class="num" x="{x + CARD_W // 2}" y="{COLUMNS_Y - 8}">{c + 1}</text>')
        cards = []
        offsets = column_offsets(down, len(up), cap)
        for i in range(down):
            cards.append(_back(x, COLUMNS_Y + offsets[i]))
        for j, card in enumerate(up):
            cards.append(_face(card, x, COLUMNS_Y + offsets[down + j], card in highlight))
        if not cards:
            parts.append(_slot(x, COLUMNS_Y))
        parts.append(f'<g data-col="{c + 1}">{"".join(cards)}</g>')
    return "".join(parts)


def board_svg(
    view: BoardView,
    *,
    title: str = "",
    description: str = "",
    highlight: frozenset[str] = frozenset(),
) -> str:
    """A standalone SVG file of the board; ``title`` and ``description`` (the position in
    words) make it readable to screen readers."""
    width = board_width(len(view.columns))
    height = board_height(view.extent)
    meta = ""
    if title:
        meta += f"<title>{escape(title)}</title>"
    if description:
        meta += f"<desc>{escape(description)}</desc>"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img">'
        f"{meta}<style>{STYLE}</style>{board_body(view, highlight)}</svg>\n"
    )


__all__ = [
    "GEOMETRY",
    "STYLE",
    "BoardView",
    "board_body",
    "board_svg",
    "column_extent",
    "column_offsets",
    "squeezed_extent",
]
