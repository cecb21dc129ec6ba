"""Tournament standings from many players' logs.

Every log is verified (``verdict.verify_one``); a player's best verified log per deal counts (the
higher score, then a win, then fewer moves; on a full tie the first given). Submissions that are
unusable, illegal, fail their ``expect``, have no ``player:``, or (with a manifest) are on another
deal or under another ruleset score nothing and are listed with the reason. Standings rank by
total score, then wins, then fewer moves; equal players share a rank (1, 1, 3).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

import yaml

from spidercli.errors import InputError
from spidercli.game.codes import CodeError, Setup, parse_code
from spidercli.game.rules import RULESETS, check_playable
from spidercli.judging.formats import csv_row
from spidercli.judging.verdict import Verdict
from spidercli.judging.workers import verify_all
from spidercli.logs.yamlreader import Checker, compose, line_of, read_text
from spidercli.play.replay import EXPECT_FAILED, ILLEGAL, VALID
from spidercli.report.text import hanging, text_width
from spidercli.text.i18n import _, ngettext
from spidercli.text.messages import (
    N_,
    Located,
    Text,
    brief,
    counted,
    message_of,
    quoted,
    said,
    shown,
    shown_path,
)
from spidercli.text.words import GRADES, RANKINGS, grade_word, result_word

_DEAL_ID = re.compile(r"[0-9a-f]{16}")


@dataclass(frozen=True)
class Manifest:
    """A tournament's ``name``, ``rules``, ``deals`` (``(deal_id, label)`` in the manifest's
    order), the ``grades`` it gives them (by deal ID) and its ``ranking``."""

    name: str | None
    rules: str | None
    deals: tuple[tuple[str, str], ...]  # (deal_id, label) in the manifest's order
    grades: tuple[tuple[str, str], ...] = ()  # (deal_id, easy|medium|hard)
    ranking: str = "score"


def _one_of(
    c: Checker,
    node: yaml.Node,
    key: str,
    choices: tuple[str, ...],
    refusal: Callable[[str], Text],
) -> str:
    """A manifest's word at ``node`` (``key``), lowercased, which must be one of ``choices``;
    else ``refusal`` of the word as written, at its line."""
    word = c.word(node, key)
    if word.lower() not in choices:
        raise c.fail(refusal(quoted(word)), node)
    return word.lower()


def load_manifest(path: str) -> Manifest:
    """``name`` (optional), ``rules`` (optional), ``ranking`` (optional: ``score``, the default,
    or ``wins``), ``deals``: game codes or deal IDs, each alone or as a mapping ``{game: CODE,
    grade: easy|medium|hard}``. Read and checked like a log: ``InputError`` names the file and
    the line."""
    text = read_text(path)
    root = compose(text, path)
    if root is None:
        raise InputError(N_("the manifest is empty: expected a mapping with 'deals'"), path=path)
    c = Checker(path, text)
    c.check(root)
    top = c.mapping(root, N_("the manifest"), ("name", "rules", "ranking", "deals"))
    name = c.text(top["name"][1], "name") if "name" in top else None
    rules = c.ruleset(top["rules"][1]) if "rules" in top else None
    ranking = "score"
    if "ranking" in top:
        ranking = _one_of(
            c,
            top["ranking"][1],
            "ranking",
            RANKINGS,
            lambda value: N_("ranking must be score or wins, not {value}", value=value),
        )
    if "deals" not in top:
        raise c.fail(N_("the manifest has no 'deals' key: a list of game codes or deal IDs"), root)
    deals_node = top["deals"][1]
    if not isinstance(deals_node, yaml.SequenceNode) or not deals_node.value:
        raise c.fail(N_("deals must be a non-empty list of game codes or deal IDs"), deals_node)
    deals: list[tuple[str, str]] = []
    grades: list[tuple[str, str]] = []
    first_line: dict[str, int] = {}  # each deal's line, to refuse it given again

    def once(deal_id: str, value: str, node: yaml.Node) -> None:
        if deal_id in first_line:
            raise c.fail(
                N_(
                    "deals: {value} is a deal given before, on line {line}",
                    value=quoted(value),
                    line=first_line[deal_id],
                ),
                node,
            )
        first_line[deal_id] = line_of(node)

    for entry in deals_node.value:
        item, grade = entry, None
        if isinstance(entry, yaml.MappingNode):
            keys = c.mapping(entry, N_("deals: an entry"), ("game", "grade"))
            if "game" not in keys:
                raise c.fail(N_("deals: an entry given as a mapping needs its 'game'"), entry)
            item = keys["game"][1]
            if "grade" in keys:
                grade = _one_of(
                    c,
                    keys["grade"][1],
                    "grade",
                    GRADES,
                    lambda value: N_(
                        "grade must be easy, medium or hard, not {value}", value=value
                    ),
                )
        value = c.text(item, N_("deals: an entry")).strip()
        if _DEAL_ID.fullmatch(value.lower()):
            once(value.lower(), value, item)
            deals.append((value.lower(), N_("explicit deal {id}", id=value.lower())))
            if grade is not None:
                grades.append((value.lower(), grade))
            continue
        try:
            setup = Setup.from_code(parse_code(value))
        except CodeError as err:
            raise c.fail(
                N_(
                    "deals: {value} is neither a game code nor a deal ID (16 hex digits): {error}",
                    value=quoted(value),
                    error=message_of(err),
                ),
                item,
            ) from err
        if rules is not None:  # a deal the tournament's ruleset cannot play: no log could count
            try:
                check_playable(RULESETS[rules], setup)
            except ValueError as err:
                raise c.fail(
                    N_("{error} ({deal})", error=message_of(err), deal=setup.name), item
                ) from err
        once(setup.deal_id, value, item)
        deals.append((setup.deal_id, setup.name))
        if grade is not None:
            grades.append((setup.deal_id, grade))
    return Manifest(name, rules, tuple(deals), tuple(grades), ranking)


@dataclass(frozen=True)
class Submission:
    """A verified submission that counts (or could have): its ``file``, ``player``, deal
    (``deal_id``, ``label``: the code or ``explicit deal ID``), ``score``, ``result`` and
    ``moves``."""

    file: str
    player: str
    deal_id: str
    label: str
    score: int
    result: str
    moves: int

    def __repr__(self) -> str:
        return (
            f"<Submission {brief(self.player, 20)} {brief(self.label, 32)}: {self.result}, "
            f"{counted(self.moves, 'move')}, score {self.score}>"
        )

    def key(self, ranking: str = "score") -> tuple[int, int, int]:
        """Better first when sorted: higher score, a win, fewer moves (``ranking`` ``wins``: a
        win, fewer moves in it, higher score)."""
        won = 0 if self.result == "won" else 1
        if ranking == "wins":
            return (won, self.moves if won == 0 else 0, -self.score)
        return (-self.score, won, self.moves)

    def to_json(self) -> dict[str, Any]:
        """The object ``tournament --format json`` writes for it."""
        return {
            "deal": self.label,
            "deal_id": self.deal_id,
            "player": self.player,
            "file": self.file,
            "score": self.score,
            "result": self.result,
            "moves": self.moves,
        }


@dataclass(frozen=True)
class Standing:
    """A player's line of the standings: ``rank`` (equal players share one), ``player``, the
    totals of the logs that count (``score``, ``wins``, ``moves``), the ``deals`` played and the
    moves of the games won (``won_moves``: what ranks players of as many wins, by ``wins``)."""

    rank: int
    player: str
    score: int
    wins: int
    moves: int
    deals: int
    won_moves: int = 0

    def __repr__(self) -> str:
        return (
            f"<Standing {brief(self.player, 20)}: rank {self.rank}, score {self.score}, "
            f"{counted(self.wins, 'win')}, {counted(self.moves, 'move')}, "
            f"{counted(self.deals, 'deal')}>"
        )

    def to_json(self) -> dict[str, Any]:
        """The object ``tournament --format json`` writes for it."""
        return {
            "rank": self.rank,
            "player": self.player,
            "score": self.score,
            "wins": self.wins,
            "moves": self.moves,
            "deals": self.deals,
            "won_moves": self.won_moves,
        }


@dataclass(frozen=True)
class TournamentResult:
    """A tournament's outcome (``standings``): its ``name`` and ``rules`` (from the manifest,
    else None), the ``deals`` played (``(deal_id, label)`` in order), the ``standings``, the
    logs that count (``best``: by player and deal ID), those a better one of the same player
    and deal replaced (``superseded``), and the ``rejected`` ones (``file``, ``player``,
    ``reason``), the ``manifest_file`` read (None without one). ``to_json()`` is ``tournament
    --format json``'s object. Frozen: tuples, and read-only mappings (``MappingProxyType``)."""

    name: str | None
    rules: str | None
    deals: tuple[tuple[str, str], ...]  # (deal_id, label)
    standings: tuple[Standing, ...]
    best: Mapping[tuple[str, str], Submission]  # (player, deal_id) -> the log that counts
    rejected: tuple[Mapping[str, Any], ...] = ()  # each: file, player, reason
    superseded: tuple[Submission, ...] = ()
    from_manifest: bool = False  # whether a manifest named the deals (else: every log counts)
    ranking: str = "score"
    grades: Mapping[str, str] = field(default_factory=lambda: _NONE)  # deal_id -> a grade
    manifest_file: str | None = None

    def __repr__(self) -> str:
        if self.name is not None:
            named = f"'{brief(self.name, 20)}'"
        elif self.manifest_file is not None:
            named = shown_path(self.manifest_file, 30)
        else:
            named = "(no manifest)"
        rules = "" if self.rules is None else f" {self.rules}"
        ranked = "" if self.ranking == "score" else f", by {self.ranking}"
        return (
            f"<TournamentResult {named}{rules}: {counted(len(self.standings), 'player')}, "
            f"{counted(len(self.deals), 'deal')}, {len(self.best)} counted, "
            f"{len(self.superseded)} superseded, {len(self.rejected)} rejected{ranked}>"
        )

    def played(self, deal_id: str) -> bool:
        """Whether some log that counts is of the deal."""
        return any(d == deal_id for _player, d in self.best)

    def to_json(self) -> dict[str, Any]:
        """The object ``tournament --format json`` writes for it."""
        return {
            "name": self.name,
            "rules": self.rules,
            "ranking": self.ranking,
            "deals": [
                {
                    "deal": label,
                    "deal_id": d,
                    "grade": self.grades.get(d),
                    "played": self.played(d),
                }
                for d, label in self.deals
            ],
            "standings": [s.to_json() for s in self.standings],
            "results": [
                self.best[(s.player, d)].to_json()
                for d, _ in self.deals
                for s in self.standings
                if (s.player, d) in self.best
            ],
            "superseded": [e.to_json() for e in self.superseded],
            "rejected": [dict(r) for r in self.rejected],
        }


_NONE: Mapping[str, str] = MappingProxyType({})


def _reason(v: Verdict) -> str:
    if v.status == VALID:
        return ""
    where = N_(" (line {n})", n=v.line) if v.line else ""
    message = v.message or ""
    if v.status == ILLEGAL:  # the rule ID stays as it is; the English says "illegal"
        return N_("illegal{where}: {rule}: {message}", where=where, rule=v.rule, message=message)
    if v.status == EXPECT_FAILED:
        return N_("expect not met{where}: {message}", where=where, message=message)
    return N_("unusable: {message}", message=message)


def standings(
    paths: list[str],
    manifest: Manifest | None = None,
    *,
    jobs: int = 1,
    max_bytes: int | None = None,
    manifest_file: str | None = None,
) -> TournamentResult:
    """The standings of the logs ``paths``, each verified as ``verify`` does (``max_bytes``: the
    size limit of one log, ``files.MAX_LOG_BYTES`` when None; ``manifest_file``: the file
    ``manifest`` was read from). The lists and totals are made here, the frozen result at the
    end."""
    ranking = manifest.ranking if manifest else "score"
    wanted = {d for d, _label in manifest.deals} if manifest else None
    labels: dict[str, str] = dict(manifest.deals) if manifest else {}
    order: list[str] = [d for d, _ in manifest.deals] if manifest else []
    rejected: list[dict[str, Any]] = []
    best: dict[tuple[str, str], Submission] = {}
    superseded: list[Submission] = []
    for v in verify_all(paths, rules=None, jobs=jobs, want_json=False, max_bytes=max_bytes):
        r = v.replayed
        player = None if r is None else r.player

        def reject(reason: str, v: Verdict = v, player: object = player) -> None:
            rejected.append({"file": v.file, "player": player, "reason": reason})

        if v.status != VALID or r is None:
            reject(_reason(v))
            continue
        if not player:
            reject(N_("no player: the log names no player (the 'player:' key)"))
            continue
        deal_id = r.deal_id
        label = r.game or N_("explicit deal {id}", id=deal_id)
        if wanted is not None and deal_id not in wanted:
            reject(N_("{deal} is not one of the tournament's deals", deal=label))
            continue
        if manifest and manifest.rules and r.rules != manifest.rules:
            reject(
                N_(
                    "played under {rules} rules; the tournament plays {wanted}",
                    rules=r.rules,
                    wanted=manifest.rules,
                )
            )
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
        elif entry.key(ranking) < held.key(ranking):
            superseded.append(held)
            best[key] = entry
        else:
            superseded.append(entry)

    def labelled(e: Submission) -> Submission:
        """The submission with its deal's label as the tournament names it."""
        label = labels[e.deal_id]
        return e if e.label == label else replace(e, label=label)

    best = {key: labelled(e) for key, e in best.items()}
    totals: dict[str, list[int]] = {}  # player -> score, wins, moves, deals, won_moves
    for (player, _deal), e in best.items():
        t = totals.setdefault(player, [0, 0, 0, 0, 0])
        won = e.result == "won"
        t[0] += e.score
        t[1] += won
        t[2] += e.moves
        t[3] += 1
        t[4] += e.moves if won else 0

    def standing_key(s: Standing) -> tuple[int, int, int]:
        if ranking == "wins":
            return (-s.wins, s.won_moves, -s.score)
        return (-s.score, -s.wins, s.moves)

    unranked = sorted(
        (Standing(0, player, *t) for player, t in totals.items()),
        key=lambda s: (*standing_key(s), s.player),
    )
    ranked: list[Standing] = []
    for i, s in enumerate(unranked):
        prev = ranked[-1] if ranked else None
        same = prev is not None and standing_key(prev) == standing_key(s)
        ranked.append(replace(s, rank=prev.rank if same and prev is not None else i + 1))
    return TournamentResult(
        manifest.name if manifest else None,
        manifest.rules if manifest else None,
        tuple((d, labels[d]) for d in order),
        tuple(ranked),
        MappingProxyType(best),
        tuple(MappingProxyType(r) for r in rejected),
        tuple(labelled(e) for e in superseded),
        from_manifest=manifest is not None,
        ranking=ranking,
        grades=MappingProxyType(dict(manifest.grades)) if manifest else _NONE,
        manifest_file=manifest_file,
    )


def _rejected_text(r: Mapping[str, Any]) -> str:
    """A rejected log's reason for the text report: an unusable log's message without the file
    the line already names (``unusable (line 3): not valid YAML: ...``, not ``unusable:
    path:3: not valid YAML: ...``)."""
    reason = r["reason"]
    inner = reason.fields.get("message") if isinstance(reason, Text) else None
    if reason.msgid == "unusable: {message}" and isinstance(inner, Located):
        where = str(inner.fields["where"])
        path = shown_path(r["file"])
        if where == path or where.startswith(path + ":"):
            line = where[len(path) + 1 :]
            note = N_(" (line {n})", n=line) if line.isdigit() else ""
            return said(
                N_("unusable{where}: {message}", where=note, message=inner.fields["message"])
            )
    return said(reason)


def standings_text(out: TournamentResult, wrap: int | None = None) -> str:
    """The standings as text, long lines wrapped to ``wrap`` columns (``terminal.text_width``)."""
    wrap = text_width() if wrap is None else wrap
    lines = []
    if not out.from_manifest:
        lines.append(
            hanging(
                "",
                _(
                    "No manifest: every log counts, and deals are matched by their game code "
                    "(--manifest names the deals and the rules)"
                ),
                2,
                wrap,
            )
        )
        lines.append("")
    title = _("Tournament")
    if out.name:
        head = _("{name} ({rules} rules)") if out.rules else "{name}"
        lines.append(f"{title:<10}  " + head.format(name=shown(out.name), rules=out.rules))
    elif out.manifest_file is not None:  # a manifest without a name: its file names it
        head = _("{name} ({rules} rules)") if out.rules else "{name}"
        named = shown_path(out.manifest_file)
        lines.append(f"{title:<10}  " + head.format(name=named, rules=out.rules))
    if out.ranking == "wins":
        label = _("Ranking")
        lines.append(f"{label:<10}  " + _("by wins, then the fewest moves in the games won"))
    if out.name or out.manifest_file is not None or out.ranking == "wins":
        lines.append("")
    lines.append(_("Standings"))
    # column headings: the English widths, wider when a translation needs it
    rank, player, score = _("rank"), _("player"), _("score")
    wins, moves, deals = _("wins"), _("moves"), _("deals")
    w_rank, w_score, w_wins, w_moves = (
        max(n, len(t)) for n, t in ((4, rank), (7, score), (4, wins), (6, moves))
    )
    width = max([len(shown(s.player)) for s in out.standings] + [6, len(player)])
    if out.ranking == "wins":  # wins first, the moves of the games won, then the score
        lines.append(
            f"  {rank:>{w_rank}}  {player:<{width}}  {wins:>{w_wins}}  {moves:>{w_moves}}  "
            f"{score:>{w_score}}  {deals}"
        )
        for s in out.standings:
            lines.append(
                f"  {s.rank:>{w_rank}}  {shown(s.player):<{width}}  {s.wins:>{w_wins}}  "
                f"{s.won_moves:>{w_moves}}  {s.score:>{w_score}}  {s.deals}"
            )
    else:
        lines.append(
            f"  {rank:>{w_rank}}  {player:<{width}}  {score:>{w_score}}  {wins:>{w_wins}}  "
            f"{moves:>{w_moves}}  {deals}"
        )
        for s in out.standings:
            lines.append(
                f"  {s.rank:>{w_rank}}  {shown(s.player):<{width}}  {s.score:>{w_score}}  "
                f"{s.wins:>{w_wins}}  {s.moves:>{w_moves}}  {s.deals}"
            )
    if not out.standings:
        lines.append("  " + _("(no verified submissions)"))
    lines.append("")
    lines.append(_("Results per deal (score, result, moves)"))
    # a result as people say it (open, rozehraná, kesken): as wide as the widest one shown
    w_result = max([8] + [len(result_word(e.result)) for e in out.best.values()])
    played = [(d, label) for d, label in out.deals if out.played(d)]
    unplayed = [label for d, label in out.deals if not out.played(d)]
    for deal_id, label in played:
        grade = out.grades.get(deal_id)
        head = f"  {said(label)}"
        if grade is not None:
            head += f" ({grade_word(grade)})"
        lines.append(head)
        for s in out.standings:
            e = out.best.get((s.player, deal_id))
            if e is None:
                continue
            # the English column says "moves" even for 1; other languages take their forms
            moves_cell = ngettext("{n:>4} moves", "{n:>4} moves", e.moves)
            cell = (
                f"{e.score:>6}  {result_word(e.result):<{w_result}} "
                f"{moves_cell.format(n=e.moves)}  {shown_path(e.file)}"
            )
            lines.append(f"    {shown(s.player):<{width}}  {cell}")
    if unplayed:
        # one line: as many of the deals' names as it holds, then how many more
        def unplayed_line(shown_count: int) -> str:
            names = ", ".join(said(label) for label in unplayed[:shown_count])
            more = len(unplayed) - shown_count
            if more > 0:
                names += ngettext(" and {n} more", " and {n} more", more).format(n=more)
            return ngettext(
                "not played: {n} of the {total} deals: {deals}",
                "not played: {n} of the {total} deals: {deals}",
                len(unplayed),
            ).format(n=len(unplayed), total=len(out.deals), deals=names)

        count = 1
        while count < len(unplayed) and len(unplayed_line(count + 1)) + 2 <= wrap:
            count += 1
        text = unplayed_line(count)
        lines.append(hanging("  ", text, 4, wrap))
    if out.superseded:
        lines.append("")
        lines.append(_("Superseded (the player's better log on the same deal counts)"))
        for e in out.superseded:
            text = (
                f"{shown_path(e.file)}  {shown(e.player)}, {said(e.label)}: {e.score}, "
                f"{result_word(e.result)}"
            )
            lines.append(hanging("  ", text, 4, wrap))
    if out.rejected:
        lines.append("")
        lines.append(_("Not counted"))
        for r in out.rejected:
            who = f" ({shown(r['player'])})" if r["player"] else ""
            text = f"{shown_path(r['file'])}{who}: {_rejected_text(r)}"
            lines.append(hanging("  ", text, 4, wrap))
    return "\n".join(lines) + "\n"


def standings_csv(out: TournamentResult) -> str:
    """The standings as CSV; player names are neutralised like every text cell
    (``formats.csv_cell``): a name such as ``=HYPERLINK(...)`` is never run as a formula."""
    rows = [csv_row(["rank", "player", "score", "wins", "moves", "deals"])]
    for s in out.standings:
        rows.append(csv_row([s.rank, s.player, s.score, s.wins, s.moves, s.deals]))
    return "".join(rows)
