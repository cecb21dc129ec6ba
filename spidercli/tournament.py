"""Tournament standings from many players' logs.

Every log is verified (``batch.verify_one``); a player's best verified log per deal counts (the
higher score, then a win, then fewer moves; on a full tie the first given). Submissions that are
unusable, illegal, fail their ``expect``, have no ``player:``, or (with a manifest) are on another
deal or under another ruleset score nothing and are listed with the reason. Standings rank by
total score, then wins, then fewer moves; equal players share a rank (1, 1, 3).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from spidercli.batch import Verdict, csv_row, verify_all
from spidercli.messages import quoted, shown, shown_path
from spidercli.replay import EXPECT_FAILED, ILLEGAL, VALID

_DEAL_ID = re.compile(r"[0-9a-f]{16}")


@dataclass(frozen=True)
class Manifest:
    name: str | None
    rules: str | None
    deals: tuple[tuple[str, str], ...]  # (deal_id, label) in the manifest's order


def load_manifest(path: str) -> Manifest:
    """``name`` (optional), ``rules`` (optional), ``deals``: game codes or deal IDs. Read and
    checked like a log: ``InputError`` names the file and the line."""
    from spidercli.codes import CodeError, Setup, parse_code
    from spidercli.yamlreader import Checker, InputError, compose, read_text

    text = read_text(path)
    root = compose(text, path)
    if root is None:
        raise InputError("the manifest is empty: expected a mapping with 'deals'", path=path)
    c = Checker(path, text)
    c.check(root)
    top = c.mapping(root, "the manifest", ("name", "rules", "deals"))
    name = c.text(top["name"][1], "name") if "name" in top else None
    rules = c.ruleset(top["rules"][1]) if "rules" in top else None
    if "deals" not in top:
        raise c.fail("the manifest has no 'deals' key: a list of game codes or deal IDs", root)
    deals_node = top["deals"][1]
    if not isinstance(deals_node, yaml.SequenceNode) or not deals_node.value:
        raise c.fail("deals must be a non-empty list of game codes or deal IDs", deals_node)
    deals: list[tuple[str, str]] = []
    for item in deals_node.value:
        value = c.text(item, "deals: an entry").strip()
        if _DEAL_ID.fullmatch(value.lower()):
            deals.append((value.lower(), f"explicit deal {value.lower()}"))
            continue
        try:
            setup = Setup.from_code(parse_code(value))
        except CodeError as err:
            raise c.fail(
                f"deals: {quoted(value)} is neither a game code nor a deal ID (16 hex digits): "
                f"{err}",
                item,
            ) from err
        deals.append((setup.deal_id, setup.name))
    return Manifest(name, rules, tuple(deals))


@dataclass
class Submission:
    """A verified submission that counts (or could have)."""

    file: str
    player: str
    deal_id: str
    label: str
    score: int
    result: str
    moves: int

    def key(self) -> tuple[int, int, int]:
        """Better first when sorted: higher score, a win, fewer moves."""
        return (-self.score, 0 if self.result == "won" else 1, self.moves)

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.label,
            "deal_id": self.deal_id,
            "player": self.player,
            "file": self.file,
            "score": self.score,
            "result": self.result,
            "moves": self.moves,
        }


@dataclass
class Standing:
    rank: int
    player: str
    score: int
    wins: int
    moves: int
    deals: int

    def to_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "player": self.player,
            "score": self.score,
            "wins": self.wins,
            "moves": self.moves,
            "deals": self.deals,
        }


@dataclass
class TournamentResult:
    name: str | None
    rules: str | None
    deals: list[tuple[str, str]]  # (deal_id, label)
    standings: list[Standing]
    best: dict[tuple[str, str], Submission]  # (player, deal_id) -> the log that counts
    rejected: list[dict[str, Any]] = field(default_factory=list)
    superseded: list[Submission] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "rules": self.rules,
            "deals": [{"deal": label, "deal_id": d} for d, label in self.deals],
            "standings": [s.to_json() for s in self.standings],
            "results": [
                self.best[(s.player, d)].to_json()
                for d, _ in self.deals
                for s in self.standings
                if (s.player, d) in self.best
            ],
            "superseded": [e.to_json() for e in self.superseded],
            "rejected": self.rejected,
        }


def _reason(v: Verdict) -> str:
    if v.status == VALID:
        return ""
    where = f" (line {v.line})" if v.line else ""
    if v.status == ILLEGAL:
        return f"illegal{where}: {v.rule}: {v.message}"
    if v.status == EXPECT_FAILED:
        return f"expect not met{where}: {v.message}"
    return f"unusable: {v.message}"


def standings(
    paths: list[str], manifest: Manifest | None = None, *, jobs: int = 1
) -> TournamentResult:
    wanted = {d for d, _ in manifest.deals} if manifest else None
    labels: dict[str, str] = dict(manifest.deals) if manifest else {}
    order: list[str] = [d for d, _ in manifest.deals] if manifest else []
    rejected: list[dict[str, Any]] = []
    best: dict[tuple[str, str], Submission] = {}
    superseded: list[Submission] = []
    for v in verify_all(paths, rules=None, jobs=jobs, want_json=False):
        r = v.replayed
        player = None if r is None else r.player

        def reject(reason: str, v: Verdict = v, player: object = player) -> None:
            rejected.append({"file": v.file, "player": player, "reason": reason})

        if v.status != VALID or r is None:
            reject(_reason(v))
            continue
        if not player:
            reject("no player: the log names no player (the 'player:' key)")
            continue
        deal_id = r.deal_id
        label = r.game or f"explicit deal {deal_id}"
        if wanted is not None and deal_id not in wanted:
            reject(f"{label} is not one of the tournament's deals")
            continue
        if manifest and manifest.rules and r.rules != manifest.rules:
            reject(f"played under {r.rules} rules; the tournament plays {manifest.rules}")
            continue
        if deal_id not in labels or (labels[deal_id].startswith("explicit") and r.game):
            labels[deal_id] = label
        if deal_id not in order:
            order.append(deal_id)
        entry = Submission(v.file, str(player), deal_id, label, r.score, r.result, r.moves)
        key = (entry.player, deal_id)
        held = best.get(key)
        if held is None:
            best[key] = entry
        elif entry.key() < held.key():
            superseded.append(held)
            best[key] = entry
        else:
            superseded.append(entry)
    for e in [*best.values(), *superseded]:
        e.label = labels[e.deal_id]
    totals: dict[str, Standing] = {}
    for (player, _), e in best.items():
        s = totals.setdefault(player, Standing(0, player, 0, 0, 0, 0))
        s.score += e.score
        s.wins += e.result == "won"
        s.moves += e.moves
        s.deals += 1
    ranked = sorted(totals.values(), key=lambda s: (-s.score, -s.wins, s.moves, s.player))
    for i, s in enumerate(ranked):
        prev = ranked[i - 1] if i else None
        same = prev is not None and (prev.score, prev.wins, prev.moves) == (
            s.score,
            s.wins,
            s.moves,
        )
        s.rank = prev.rank if same and prev is not None else i + 1
    return TournamentResult(
        manifest.name if manifest else None,
        manifest.rules if manifest else None,
        [(d, labels[d]) for d in order],
        ranked,
        best,
        rejected,
        superseded,
    )


def standings_text(out: TournamentResult) -> str:
    lines = []
    if out.name:
        lines.append(f"Tournament  {out.name}" + (f" ({out.rules} rules)" if out.rules else ""))
        lines.append("")
    lines.append("Standings")
    width = max([len(shown(s.player)) for s in out.standings] + [6])
    lines.append(
        f"  {'rank':>4}  {'player':<{width}}  {'score':>7}  {'wins':>4}  {'moves':>6}  deals"
    )
    for s in out.standings:
        lines.append(
            f"  {s.rank:>4}  {shown(s.player):<{width}}  {s.score:>7}  {s.wins:>4}  {s.moves:>6}  "
            f"{s.deals}"
        )
    if not out.standings:
        lines.append("  (no verified submissions)")
    lines.append("")
    lines.append("Results per deal (score, result, moves)")
    for deal_id, label in out.deals:
        lines.append(f"  {label}")
        for s in out.standings:
            e = out.best.get((s.player, deal_id))
            cell = (
                f"{e.score:>6}  {e.result:<8} {e.moves:>4} moves  {shown_path(e.file)}"
                if e
                else "     -"
            )
            lines.append(f"    {shown(s.player):<{width}}  {cell}")
    if out.superseded:
        lines.append("")
        lines.append("Superseded (the player's better log on the same deal counts)")
        for e in out.superseded:
            lines.append(
                f"  {shown_path(e.file)}  {shown(e.player)}, {e.label}: {e.score}, {e.result}"
            )
    if out.rejected:
        lines.append("")
        lines.append("Not counted")
        for r in out.rejected:
            who = f" ({shown(r['player'])})" if r["player"] else ""
            lines.append(f"  {shown_path(r['file'])}{who}: {r['reason']}")
    return "\n".join(lines) + "\n"


def standings_csv(out: TournamentResult) -> str:
    """The standings as CSV; player names are neutralised like every text cell
    (``batch.csv_cell``): a name such as ``=HYPERLINK(...)`` is never run as a formula."""
    rows = [csv_row(["rank", "player", "score", "wins", "moves", "deals"])]
    for s in out.standings:
        rows.append(csv_row([s.rank, s.player, s.score, s.wins, s.moves, s.deals]))
    return "".join(rows)
