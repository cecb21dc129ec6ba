"""Write ``fixtures/illegal/<rule-id>.yaml``: one real log per refusal ID.

Each log is a legal prefix of a real game (``fixtures/spider-1suit-win.yaml``, and under ``duel``
the same moves with the flips made by hand), cut at the first position where the rule applies,
followed by the refused action and one more entry (which a default replay never reaches).

    python -m tests.tools.make_fixtures
"""

from __future__ import annotations

from pathlib import Path

from spidercli.game.actions import Action, parse_action
from spidercli.game.engine import RULE_IDS, Game
from spidercli.game.rules import CLASSIC, DUEL, PAVOUK, Ruleset
from spidercli.logs.reader import load_log

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "fixtures" / "spider-1suit-win.yaml"

CANDIDATES: dict[str, list[str]] = {
    "game-over": ["deal"],
    "no-such-column": ["11>1", "0>3", "tap 12"],
    "same-column": ["3>3", "7>7:2"],
    "empty-source": [f"{s}>{t}" for s in range(1, 11) for t in range(1, 11) if s != t],
    "face-down-card": [f"{s}>{t}:{k}" for s in range(1, 11) for t in (1, 2) for k in (2, 3)],
    "group-not-descending": [f"{s}>{t}:2" for s in range(1, 11) for t in range(1, 11) if s != t],
    "group-mixed-suits": [],
    "build-one-higher": ["4>1", "1>4"],
    "no-target": [f"tap {s}" for s in range(1, 11)],
    "stock-empty": ["deal"],
    "deal-empty-column": ["deal"],
    "flip-automatic": ["flip 3"],
    "nothing-to-flip": [f"flip {c}" for c in range(1, 11)],
    "nothing-to-undo": ["undo"],
    "undo-after-flip": ["undo"],
    "undo-after-deal": ["undo"],
}
DUEL_RULES = {"nothing-to-flip", "undo-after-flip", "undo-after-deal"}


def duel_version(actions: list[Action]) -> list[str]:
    """The classic game's actions, with the flips duel wants made by hand."""
    game = Game.from_setup(load_log(SOURCE).deal, DUEL)
    out: list[str] = []
    for action in actions:
        game.apply(action)
        out.append(str(action))
        for c, col in enumerate(game.cols):
            if col and game.down[c] == len(col):
                game.apply(parse_action(f"flip {c + 1}"))
                out.append(f"flip {c + 1}")
    return out


def find(rule: str, texts: list[str], rules: Ruleset) -> tuple[list[str], str] | None:
    log = load_log(SOURCE)
    game = Game.from_setup(log.deal, rules)
    if rule == "game-over":
        return ["finish"], "deal"
    for i in range(len(texts) + 1):
        for cand in CANDIDATES[rule]:
            if cand == "undo":  # probe without playing: an undo cannot be taken back
                refusal = game.check_undo()
                if refusal is None:
                    continue
            else:
                refusal = game.play(parse_action(cand))
            if refusal is None:
                game.undo()
                game.undoable -= 1
                continue
            if refusal.rule == rule:
                return texts[:i], cand
        if i < len(texts):
            game.apply(parse_action(texts[i]))
    return None


def main() -> None:
    log = load_log(SOURCE)
    classic = [e.text for e in log.entries]
    duel = duel_version([e.action for e in log.entries])
    out_dir = ROOT / "fixtures" / "illegal"
    out_dir.mkdir(exist_ok=True)
    for rule in RULE_IDS:
        if rule == "group-mixed-suits":
            continue  # one suit cannot mix: written by hand on a 2-suit deal
        is_duel = rule in DUEL_RULES
        found = find(rule, duel if is_duel else classic, DUEL if is_duel else CLASSIC)
        if found is None:
            print(f"no position found for {rule}")
            continue
        prefix, bad = found
        lines = [
            f"# Refused with {rule}: a legal prefix of fixtures/spider-1suit-win.yaml"
            + (" (duel: flips by hand)" if is_duel else ""),
            "# then the refused action. Written by tests/tools/make_fixtures.py.",
            f"game: {log.deal.name}",
        ]
        if is_duel:
            lines.append("rules: duel")
        lines.append("moves:")
        lines.extend(f"  - {t!r}" if ":" in t else f"  - {t}" for t in [*prefix, bad, "deal"])
        (out_dir / f"{rule}.yaml").write_text("\n".join(lines) + "\n")
        print(f"{rule}: {len(prefix)} legal entries, then {bad}")


def write_ruleset_games() -> None:
    """``fixtures/duel-1suit-win.yaml`` and ``fixtures/pavouk-1suit-win.yaml``: the classic win
    replayed under the other apps' rules (duel: every flip made by hand)."""
    log = load_log(SOURCE)
    for name, rules, texts in (
        ("duel", DUEL, duel_version([e.action for e in log.entries])),
        ("pavouk", PAVOUK, [e.text for e in log.entries]),
    ):
        game = Game.from_setup(log.deal, rules)
        for text in texts:
            game.apply(parse_action(text))
        lines = [
            f"# The game of fixtures/spider-1suit-win.yaml under {name} rules"
            + (", every flip made by hand." if name == "duel" else "."),
            "# Written by tests/tools/make_fixtures.py.",
            f"game: {log.deal.name}",
            f"rules: {name}",
            "expect:",
            f"  result: {game.result}",
            f"  moves: {game.moves}",
            f"  score: {game.score}",
            f"  runs: {game.runs}",
            "moves:",
        ]
        lines.extend(f"  - {t!r}" if ":" in t else f"  - {t}" for t in texts)
        (ROOT / "fixtures" / f"{name}-1suit-win.yaml").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
    write_ruleset_games()
