"""The pictures of the HTML replay in docs/, made from the program as it is (``make pictures``).

    python -m tests.tools.pictures [DIR]    # DIR: docs (the default)

Each picture is a page that ``spidercli replay --html`` writes now, opened at one entry in
headless Chromium (tests/browser.py) with a 1280x800 window, and captured as a PNG:

- ``replay-start.png``: the 117-move example at its start (``#0``);
- ``replay-end.png``: the same at its end (``#117``), every run removed;
- ``replay-refused.png``: ``fixtures/illegal/group-mixed-suits.yaml`` at its refused entry.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from tests.browser import Browser, find_chromium

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = "fixtures/example-spider-1suit-117.yaml"
PICTURES = [
    ("replay-start.png", EXAMPLE, 0),
    ("replay-end.png", EXAMPLE, 117),
    ("replay-refused.png", "fixtures/illegal/group-mixed-suits.yaml", 2),
]
SIZE = (1280, 800)


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs"
    executable = find_chromium()
    if executable is None:
        raise SystemExit("pictures: chromium is not installed (Debian: apt-get install chromium)")
    browser = Browser(executable)
    try:
        browser.viewport(*SIZE)
        with tempfile.TemporaryDirectory() as tmp:
            for name, log, entry in PICTURES:
                page = Path(tmp) / (Path(log).stem + ".html")
                subprocess.run(
                    [sys.executable, "-m", "spidercli", "replay", log, "--html", str(page)],
                    cwd=ROOT,
                    stdout=subprocess.DEVNULL,
                    check=False,  # the refused log's replay exits with 1
                )
                browser.open(f"{page.as_uri()}#{entry}")
                problems = browser.problems()
                if problems:
                    raise SystemExit(f"pictures: {log}: the page reported {problems}")
                browser.screenshot(str(folder / name))
                print(f"pictures: {folder / name} ({log} at #{entry})")
    finally:
        browser.close()


if __name__ == "__main__":
    main()
