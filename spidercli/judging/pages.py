"""verify's index of the pages it writes (``verify --html-dir``): a row per log that is not
valid, each linking to that log's page (``report.page``) at the position that matters."""

from __future__ import annotations

import html
import os

from spidercli.judging.verdict import Verdict
from spidercli.logs.files import write_atomic
from spidercli.play.replay import ILLEGAL
from spidercli.report.page import csp, fill, plain, template_text
from spidercli.text.i18n import _, language
from spidercli.text.messages import said, shown_path


class PageIndex:
    """``index.html`` of a folder of pages (``verify --html-dir``): a row per non-valid log, in
    the order the verdicts come, in the language in use; ``close`` writes the page atomically.
    Each row links to the log's page at the position that matters: the refused entry, or the
    end of the game whose figures missed the expectation."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.rows: list[str] = []

    def add(self, verdict: Verdict) -> None:
        # A line may break after a slash, never inside a name.
        name = "/<wbr>".join(
            f"<span>{html.escape(part)}</span>" for part in shown_path(verdict.file).split("/")
        )
        page = verdict.page
        if page is not None and verdict.replayed is not None:
            # verify stops at the first refused entry: it follows the entries applied.
            entry = verdict.replayed.actions + (verdict.status == ILLEGAL)
            page = f"{page}#{entry}"
        link = f'<a href="{html.escape(page)}">{name}</a>' if page else name
        why = plain(said(verdict.message or ""))
        self.rows.append(
            f'<tr><td class="log">{link}</td><td class="status">{html.escape(verdict.status)}'
            f"</td><td>{html.escape(why)}</td></tr>\n"
        )

    def close(self, summary: str) -> None:
        style = template_text("replay.css")
        heads = (_("Log"), _("Status"), _("Why"))
        body = (
            "<table><thead><tr>"
            + "".join(f"<th>{html.escape(h)}</th>" for h in heads)
            + f"</tr></thead><tbody>\n{''.join(self.rows)}</tbody></table>"
            if self.rows
            else "<p>" + html.escape(_("Every log is valid: no page to show.")) + "</p>"
        )
        write_atomic(
            os.path.join(self.directory, "index.html"),
            fill(
                template_text("index.html"),
                {
                    "lang": language(),
                    "title": html.escape(_("spidercli verify: logs that are not valid")),
                    "heading": html.escape(_("Logs that are not valid")),
                    "csp": csp(style, None),
                    "style": style,
                    "summary": html.escape(plain(said(summary))),
                    "body": body,
                },
            ),
        )


__all__ = ["PageIndex"]
