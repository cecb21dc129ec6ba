"""The HTML pages of logs at the limit that docs/input-safety.md and docs/html.md measure.

    python -m tests.tools.page_limits logs DIR      # 1 MiB logs whose pages are the largest
    python -m tests.tools.page_limits measure DIR   # replay --html and verify --html-dir on each

``measure`` runs ``/usr/bin/time`` on ``spidercli replay LOG --html PAGE`` (``--on-illegal skip``
where the log has refused entries, so that every entry has its position in the page) and on
``spidercli verify LOG --html-dir DIR``, and prints the wall time, the CPU time (user + system),
the peak memory and the page's size. Run it under ``nice`` and say the machine's load beside the
figures.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from spidercli.logs.reader import load_log
from tests.tools.limits import LIMIT, _code_where, _fill, timed

ROOT = Path(__file__).resolve().parents[2]
# Every log ends with an expectation it does not meet, so that verify writes its page whole.
UNMET = "expect: {result: won}\n"


def _run_undo() -> str:
    """The 1-suit win's first 29 entries, then the move that removes a run and its undo, again
    and again: the largest change an entry makes (13 cards), undone."""
    log = load_log(ROOT / "fixtures" / "spider-1suit-win.yaml")
    head = [e.text for e in log.entries[:29]]
    move = log.entries[29].text  # 10>2:11 completes a run
    text = f"game: SP1-S1C-AAAAAAD\n{UNMET}moves: [{','.join(head)},"
    return _fill(text, f"{move},undo,", f"{move}]\n")


def page_logs() -> dict[str, str]:
    """1 MiB logs of the kinds whose pages are the largest (limits.py's, each with an unmet
    expectation), and a run removed and put back again and again."""
    head = f"game: {_code_where('5>1', '1>2')}\n{UNMET}moves: ["
    return {
        "refused-moves": _fill(head, "1>2,", "1>2]\n"),
        "deal-undo": _fill(head, "deal,undo,", "deal]\n"),
        "move-undo": _fill(head, "5>1,undo,", "5>1]\n"),
        "move-undo-refusal": _fill(head, "5>1,undo,1>2,", "5>1]\n"),
        "run-undo": _run_undo(),
    }


SKIP = {"refused-moves", "move-undo-refusal"}


def _timed(args: list[str], page: Path | None) -> str:
    figures, _ = timed(args)
    size = f"page {page.stat().st_size / 1e6:.1f} MB" if page is not None and page.exists() else ""
    return f"{figures}  {size}"


def measure(folder: Path) -> None:
    spidercli = [sys.executable, "-m", "spidercli"]
    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted(folder.glob("*.yaml")):
            page = Path(tmp) / f"{path.stem}.html"
            skip = ["--on-illegal", "skip"] if path.stem in SKIP else []
            args = [*spidercli, "replay", str(path), "--show", "none", "--html", str(page), *skip]
            print(f"{path.stem:20} replay --html {' '.join(skip):20} {_timed(args, page)}")
            pages = Path(tmp) / path.stem
            pages.mkdir()
            args = [*spidercli, "verify", str(path), "--html-dir", str(pages)]
            line = _timed(args, None)
            written = [p for p in pages.glob("*.html") if p.name != "index.html"]
            size = f"page {written[0].stat().st_size / 1e6:.1f} MB" if written else ""
            print(f"{path.stem:20} verify --html-dir {'':17} {line}{size}")


def main() -> None:
    what, folder = sys.argv[1], Path(sys.argv[2])
    if what == "measure":
        measure(folder)
        return
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in page_logs().items():
        data = text.encode()
        assert len(data) <= LIMIT, (name, len(data))
        (folder / f"{name}.yaml").write_bytes(data)
        entries = len(load_log(folder / f"{name}.yaml").entries)
        print(f"{name}: {len(data):,} bytes, {entries:,} entries")


if __name__ == "__main__":
    main()
