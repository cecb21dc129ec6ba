"""The inputs at the limit that docs/input-safety.md and docs/kpat.md measure, and the measuring.

    python -m tests.tools.limits saves DIR     # hostile and long KPat saves of at most 1 MiB
    python -m tests.tools.limits logs DIR      # 1 MiB logs of the worst kinds found
    python -m tests.tools.limits measure DIR   # time each (import kpat / replay), one line each

``measure`` runs ``/usr/bin/time`` on ``spidercli import kpat SAVE -o OUT`` for each ``*.xml``
and on the replay commands of docs/input-safety.md's table for the logs, and prints the wall
time, the CPU time (user + system) and the peak memory. Run it under ``nice`` and say the
machine's load beside the figures.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from spidercli.game.actions import Move, parse_action
from spidercli.game.codes import Setup, parse_code, seed_letters
from spidercli.game.engine import Game
from spidercli.game.rules import CLASSIC, KPAT
from spidercli.logs.files import MAX_LOG_BYTES
from spidercli.logs.reader import parse_log
from tests.tools.kpat_history import history_of

LIMIT = MAX_LOG_BYTES
HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
GAME = '<kpat-game game-type="spider" game-type-options="2" deal-number="17">'


def _fill(head: str, unit: str, tail: str) -> str:
    return head + unit * ((LIMIT - len(head) - len(tail)) // len(unit)) + tail


def hostile_saves() -> dict[str, str]:
    """XML attacks, each as large as 1 MiB allows."""
    laughs = "".join(
        f'<!ENTITY lol{i} "{("&lol%s;" % (i - 1 if i > 1 else "")) * 10}">' for i in range(1, 10)
    )
    attributes: list[str] = []
    size = len(HEAD) + 40
    while size + len(f' a{len(attributes)}=""') <= LIMIT:
        attributes.append(f' a{len(attributes)}=""')
        size += len(attributes[-1])
    depth = (LIMIT - 200) // 7
    return {
        # The attack: a DTD giving <a> a huge default attribute, and many <a>.
        "dtd-default-attribute": _fill(
            HEAD
            + f'<!DOCTYPE kpat-game [<!ATTLIST a x CDATA "{"A" * int(LIMIT * 0.8)}">]>\n'
            + GAME,
            "<a/>",
            "</kpat-game>\n",
        ),
        "billion-laughs": HEAD
        + f'<!DOCTYPE lolz [<!ENTITY lol "lol">{laughs}]>\n'
        + GAME
        + "&lol9;</kpat-game>\n",
        "external-entity": HEAD
        + '<!DOCTYPE kpat [<!ENTITY x SYSTEM "file:///dev/zero">]>\n'
        + GAME
        + "&x;</kpat-game>\n",
        "external-dtd": HEAD
        + '<!DOCTYPE kpat-game SYSTEM "http://example.invalid/x.dtd">\n'
        + GAME
        + "</kpat-game>\n",
        "many-elements": _fill(HEAD + GAME, "<a/>", "</kpat-game>\n"),
        "many-states": _fill(HEAD + GAME, "<state/>", "</kpat-game>\n"),
        "deep-nesting": HEAD + GAME + "<a>" * depth + "</a>" * depth + "</kpat-game>\n",
        "huge-attribute": _fill(
            HEAD + '<kpat-game game-type="spider" x="', "A", '"></kpat-game>\n'
        ),
        "many-attributes": HEAD + '<kpat-game game-type="spider"' + "".join(attributes) + "/>\n",
        "huge-text": _fill(HEAD + GAME, "x", "</kpat-game>\n"),
        "many-comments": _fill(HEAD + GAME, "<!---->", "</kpat-game>\n"),
        "huge-name": _fill(HEAD + "<", "k", "/>\n"),
        "char-refs": _fill(HEAD + GAME, "&#65;", "</kpat-game>\n"),
    }


def _random_game(steps: int, last: bool) -> tuple[str, list[str]]:
    """A random kpat game of KP4-15: legal moves (``last``: the one ``legal_actions`` lists
    last, which the importer's search tries last)."""
    rng = random.Random(7)
    code = "KP4-15"
    game = Game.from_setup(Setup.from_code(parse_code(code)), KPAT)
    actions: list[str] = []
    while len(actions) < steps and not game.over:
        legal = [a for a in game.legal_actions() if isinstance(a, Move)]
        if not legal:
            break
        action = legal[-1] if last else rng.choice(legal)
        game.apply(action)
        actions.append(f"{action.source}>{action.target}:{action.count}")
    return code, actions


def _kpat_layout(xml: str) -> str:
    """KPat's own layout: an element a line, indented with tabs."""
    for tag, indent in (("<state", 1), ("<move", 2), ("<card", 3), ("</move>", 2), ("</state>", 1)):
        xml = xml.replace(tag, "\n" + "\t" * indent + tag)
    return xml


def _save(code: str, actions: list[str], doubles: int = 0, triple_end: bool = False) -> str:
    """The save of ``actions``, its first ``doubles`` pairs of steps each in one state (and
    with ``triple_end`` its last three steps in one state: no one or two actions reach it)."""
    log = parse_log(f"game: {code}\nmoves:\n" + "".join(f"  - '{a}'\n" for a in actions))
    xml = history_of(log, len(actions))
    if doubles or triple_end:
        parts = re.split(r"(?=<state)", xml)
        head, fresh, steps = parts[0], parts[1], parts[2:]
        end = steps[-1][steps[-1].rindex("</state>") + len("</state>") :]
        steps[-1] = steps[-1][: len(steps[-1]) - len(end)]
        steps = [s.strip() for s in steps]

        def inner(state: str) -> str:
            return state[state.index(">") + 1 : state.rindex("</state>")]

        merged: list[str] = []
        i = 0
        while i < len(steps):
            if len(merged) < doubles and i + 1 < len(steps):
                merged.append(steps[i][: steps[i].rindex("</state>")] + inner(steps[i + 1]))
                merged[-1] += "</state>"
                i += 2
            else:
                merged.append(steps[i])
                i += 1
        if triple_end:
            a, b, c = merged[-3:]
            merged[-3:] = [a[: a.rindex("</state>")] + inner(b) + inner(c) + "</state>"]
        xml = head + fresh + "\n".join(merged) + end
    return _kpat_layout(xml)


def long_saves() -> dict[str, str]:
    """Honest long games as large as 1 MiB allows (and one refused at its last step)."""
    out = {}
    for name, doubles, last in (
        ("valid-long", 0, False),
        ("valid-long-doubles", 50, False),
        ("valid-long-last-found", 0, True),
    ):
        code, actions = _random_game(20_000, last)
        low, high = 100, len(actions)
        while low < high:  # the most steps that fit
            mid = (low + high + 1) // 2
            if len(_save(code, actions[:mid], doubles).encode()) <= LIMIT:
                low = mid
            else:
                high = mid - 1
        out[name] = _save(code, actions[:low], doubles)
    code, actions = _random_game(20_000, False)
    out["refused-at-the-end"] = _save(code, actions[:7300], 49, triple_end=True)
    return out


def _code_where(legal: str, refused: str) -> str:
    for seed in range(10_000):
        code = f"SP4-S1C-{seed_letters(seed)}"

        def plays(action: str, code: str = code) -> bool:
            return Game.from_code(parse_code(code), CLASSIC).play(parse_action(action)) is None

        if plays(legal) and not plays(refused):
            return code
    raise SystemExit("no deal found")


def limit_logs() -> dict[str, str]:
    """1 MiB logs of the worst kinds found (docs/input-safety.md's table)."""
    code = _code_where("5>1", "1>2")
    head = f"game: {code}\nmoves: "
    keys: list[str] = []
    size = len(head) + 20
    while size + len(f"k{len(keys)}: 1, ") <= LIMIT:
        keys.append(f"k{len(keys)}: 1, ")
        size += len(keys[-1])
    return {
        "refused-moves": _fill(head + "[", "1>2,", "1>2]\n"),
        "deal-undo": _fill(head + "[", "deal,undo,", "deal]\n"),
        "move-undo": _fill(head + "[", "5>1,undo,", "5>1]\n"),
        "move-undo-refusal": _fill(head + "[", "5>1,undo,1>2,", "5>1]\n"),
        "one-digit-items": _fill(head + "[]\nplayer: [", "1,", "1]\n"),
        "mapping-keys": head + "[]\nplayer: {" + "".join(keys) + "}\n",
        "empty-lists": _fill(head + "[]\nplayer: [", "[],", "[]]\n"),
        "long-player": _fill(head + "[]\nplayer: ", "y", "\n"),
    }


REPLAYS = {
    "refused-moves": [["--on-illegal", "skip"], ["--json", "--on-illegal", "skip"]],
    "deal-undo": [["--show", "every"]],
    "move-undo": [["--show", "every"]],
    "move-undo-refusal": [["--on-illegal", "skip"]],
}


def timed(args: list[str]) -> tuple[str, str]:
    """``args`` run under ``/usr/bin/time``: its wall time, CPU time (user + system), peak
    memory and exit status as one column of text, and the last line it said on stderr."""
    with tempfile.NamedTemporaryFile() as times:
        run = subprocess.run(
            ["/usr/bin/time", "-o", times.name, "-f", "%e %U %S %M", *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
        wall, user, system, peak = Path(times.name).read_text().split()[-4:]
    said = run.stderr.strip().splitlines()
    figures = (
        f"wall {float(wall):.2f} s  cpu {float(user) + float(system):.2f} s  "
        f"peak {int(peak) / 1000:.0f} MB  exit {run.returncode}"
    )
    return figures, said[-1] if said else ""


def _timed(args: list[str]) -> str:
    figures, said = timed(args)
    return f"{figures}  | {said[:100]}"


def measure(folder: Path) -> None:
    spidercli = [sys.executable, "-m", "spidercli"]
    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted(folder.glob("*.xml")):
            out = str(Path(tmp) / "out.yaml")
            print(f"{path.stem:24} {_timed([*spidercli, 'import', 'kpat', str(path), '-o', out])}")
    for path in sorted(folder.glob("*.yaml")):
        for extra in REPLAYS.get(path.stem, [[]]):
            name = " ".join([path.stem, *extra])
            print(f"{name:44} {_timed([*spidercli, 'replay', str(path), *extra])}")


def main() -> None:
    what, folder = sys.argv[1], Path(sys.argv[2])
    if what == "measure":
        measure(folder)
        return
    folder.mkdir(parents=True, exist_ok=True)
    made = {"saves": lambda: {**hostile_saves(), **long_saves()}, "logs": limit_logs}[what]()
    suffix = ".xml" if what == "saves" else ".yaml"
    for name, text in made.items():
        data = text.encode()
        assert len(data) <= LIMIT, (name, len(data))
        (folder / (name + suffix)).write_bytes(data)
        print(f"{name}: {len(data):,} bytes")


if __name__ == "__main__":
    main()
