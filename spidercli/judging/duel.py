"""Judging a StarGames duel (the ``duel`` command; its ruleset is ``rules.DUEL``): two players'
logs of the same deal, both replayed under ``duel`` rules.

A log that fails verification (a refused action or an unmet expectation) loses. Between two
verified logs the higher score wins; on a tie, the shorter ``time:`` when both give one, then
fewer moves; otherwise it is a draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spidercli.errors import InputError
from spidercli.game.rules import DUEL, check_playable
from spidercli.play.logtypes import MoveLog
from spidercli.play.replay import Report, replay
from spidercli.text.i18n import _, number
from spidercli.text.messages import N_, brief, message_of, said, shown, shown_path
from spidercli.text.words import result_shown


class DuelError(InputError):
    """Two logs that cannot be judged together (an input error: exit status 2)."""


@dataclass(frozen=True)
class Judgement:
    """A duel judged (``duel``): both logs' ``reports`` under duel rules (A, then B), the
    ``winner`` (0 for A, 1 for B, None for a draw) and the ``reason``, in words;
    ``exit_code`` is ``duel``'s (1 when either log fails verification). ``to_json()`` is
    ``duel --json``'s object."""

    reports: tuple[Report, Report]
    winner: int | None  # 0 for A, 1 for B, None for a draw
    reason: str

    def __repr__(self) -> str:
        log = self.reports[0].log
        who = "draw" if self.winner is None else f"{'AB'[self.winner]} wins"
        return (
            f"<Judgement {log.game or f'deal {log.deal_id}'} {DUEL.name}: {who}, "
            f"{brief(self.reason, 60)}>"
        )

    @property
    def exit_code(self) -> int:
        """``duel``'s exit status: 0 when both logs are valid, else 1."""
        return max(r.exit_code for r in self.reports)

    def to_json(self) -> dict[str, Any]:
        """``duel --json``'s object."""
        players = []
        for side, report in zip("AB", self.reports, strict=True):
            players.append(
                {
                    "side": side,
                    "file": report.log.path,
                    "player": report.log.player,
                    "time": report.log.time,
                    "valid": report.ok,
                    "report": report.to_json(),
                }
            )
        return {
            "game": self.reports[0].to_json()["game"],
            "deal_id": self.reports[0].log.deal.deal_id,
            "rules": DUEL.name,
            "winner": None if self.winner is None else "AB"[self.winner],
            "reason": self.reason,
            "players": players,
        }


def check_pair(a: MoveLog, b: MoveLog) -> None:
    """Both logs must be duel games of the same deal."""
    for log in (a, b):
        if log.rules is not None and log.rules != DUEL.name:
            raise DuelError(
                f"rules: {log.rules}: a duel is judged under duel rules only",
                path=log.path,
                line=log.rules_line,
            )
        try:
            check_playable(DUEL, log.deal)
        except ValueError as err:
            raise DuelError(message_of(err), path=log.path, line=log.game_line) from err
    if a.deal.deal_id != b.deal.deal_id:
        raise DuelError(
            f"{b.deal.name} is not the deal of {shown_path(a.path)} ({a.deal.name}): "
            "both players of a duel play the same cards",
            path=b.path,
            line=b.game_line,
        )


def _name(report: Report, side: int) -> str:
    who = report.log.player
    return f"{who} ({'AB'[side]})" if who else "AB"[side]


def judge(a: MoveLog, b: MoveLog) -> Judgement:
    """Replay both logs under duel rules and name the winner."""
    check_pair(a, b)
    reports = (replay(a, rules=DUEL), replay(b, rules=DUEL))  # check_pair ruled out RulesError
    ra, rb = reports
    if not ra.ok and not rb.ok:
        return Judgement(reports, None, N_("both logs fail verification: neither wins"))
    if not ra.ok or not rb.ok:
        w = 0 if ra.ok else 1
        return Judgement(
            reports, w, N_("{name} fails verification", name=_name(reports[1 - w], 1 - w))
        )
    sa, sb = ra.game.score, rb.game.score
    if sa != sb:
        w = 0 if sa > sb else 1
        return Judgement(
            reports, w, N_("higher score ({high} to {low})", high=max(sa, sb), low=min(sa, sb))
        )
    ta, tb = a.time, b.time
    if ta is not None and tb is not None and ta != tb:
        w = 0 if ta < tb else 1
        return Judgement(
            reports,
            w,
            N_(
                "equal scores ({score}); shorter time ({short:g} s to {long:g} s)",
                score=sa,
                short=min(ta, tb),
                long=max(ta, tb),
            ),
        )
    ma, mb = ra.game.moves, rb.game.moves
    if ma != mb:
        w = 0 if ma < mb else 1
        return Judgement(
            reports,
            w,
            N_(
                "equal scores ({score}); fewer moves ({fewer} to {more})",
                score=sa,
                fewer=min(ma, mb),
                more=max(ma, mb),
            ),
        )
    return Judgement(
        reports, None, N_("a draw: equal scores ({score}) and moves ({moves})", score=sa, moves=ma)
    )


def duel_text(judgement: Judgement) -> str:
    """Both results side by side, then the winner."""
    ra, rb = judgement.reports

    def status(r: Report) -> str:
        if r.illegal:
            return _("INVALID: {reason}").format(reason=said(r.illegal[0].placed))
        if r.mismatches:
            return _("INVALID: {reason}").format(
                reason=", ".join(
                    _("{key} {actual} not {expected}").format(
                        key=m.key, actual=m.actual, expected=m.expected
                    )
                    for m in r.mismatches
                )
            )
        return _("VALID")

    def secs(r: Report) -> str:
        return "-" if r.log.time is None else f"{number(r.log.time, 'g')} s"

    rows = [
        ("", "A", "B"),
        (_("Log"), shown_path(ra.log.path), shown_path(rb.log.path)),
        (_("Player"), shown(ra.log.player or "-"), shown(rb.log.player or "-")),
        (_("Verdict"), status(ra), status(rb)),
        (_("Result"), result_shown(ra.result), result_shown(rb.result)),
        (_("Score"), str(ra.game.score), str(rb.game.score)),
        (_("Moves"), str(ra.game.moves), str(rb.game.moves)),
        (_("Runs"), *(f"{r.game.runs}/{r.game.kind.runs_to_win}" for r in (ra, rb))),
        (_("Time"), secs(ra), secs(rb)),
    ]
    width = max(len(row[1]) for row in rows) + 3
    duel, winner = _("Duel"), _("Winner")
    lines = [
        f"{duel:<9}" + _("{deal} under duel rules (StarGames)").format(deal=said(ra.log.deal.name)),
        "",
    ]
    lines += [f"{label:<9}{left:<{width}}{right}".rstrip() for label, left, right in rows]
    lines.append("")
    if judgement.winner is None:
        who = _("none")
    else:
        who = _name(judgement.reports[judgement.winner], judgement.winner)
    lines.append(f"{winner:<9}{who}: {said(judgement.reason)}")
    return "\n".join(lines) + "\n"
