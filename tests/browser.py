"""A real headless Chromium driven through the DevTools protocol, with the standard library only.

Chromium's ``--remote-debugging-pipe`` reads protocol messages (JSON, each ended by a NUL byte)
from file descriptor 3 and writes its own to descriptor 4, so no websocket client is needed.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from typing import Any

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> str | None:
    for name in NAMES:
        path = shutil.which(name)
        if path is not None:
            return path
    return None


class BrowserError(RuntimeError):
    pass


class Browser:
    """One headless Chromium with one page; ``evaluate`` runs an expression in the page."""

    def __init__(self, executable: str, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.profile = tempfile.TemporaryDirectory(prefix="spidercli-chromium-")
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()

        def wire() -> None:  # in the child: the pipes become descriptors 3 and 4
            high_r = fcntl.fcntl(to_child_r, fcntl.F_DUPFD, 10)  # out of the way of 3 and 4
            high_w = fcntl.fcntl(from_child_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.process = subprocess.Popen(
            [
                executable,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--remote-debugging-pipe",
                f"--user-data-dir={self.profile.name}",
                "--window-size=900,1000",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=wire,
            close_fds=False,
        )
        os.close(to_child_r)
        os.close(from_child_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        target = self._page_target()
        attached = self.call("Target.attachToTarget", targetId=target, flatten=True)
        self.session: str = attached["sessionId"]
        self.call("Page.enable", session=True)
        self.call("Runtime.enable", session=True)
        self.call("Log.enable", session=True)

    def _page_target(self) -> str:
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            targets = self.call("Target.getTargets")["targetInfos"]
            pages = [t["targetId"] for t in targets if t["type"] == "page"]
            if pages:
                return str(pages[0])
            time.sleep(0.05)
        raise BrowserError("chromium opened no page")

    def _read_message(self) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_child], [], [], left)[0]:
                raise BrowserError(f"chromium sent nothing for {self.timeout:.0f} s")
            chunk = os.read(self._from_child, 1 << 16)
            if not chunk:
                raise BrowserError("chromium closed the DevTools pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def call(self, method: str, *, session: bool = False, **params: Any) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self._to_child, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read_message()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            self.events.append(reply)

    def wait_event(self, method: str) -> dict[str, Any]:
        for i, event in enumerate(self.events):
            if event.get("method") == method:
                del self.events[: i + 1]
                return event
        while True:
            event = self._read_message()
            if event.get("method") == method:
                return event
            self.events.append(event)

    def open(self, url: str) -> None:
        """Load ``url`` afresh (a new document, even when only the fragment differs)."""
        self.call("Page.navigate", session=True, url="about:blank")
        self.wait_event("Page.loadEventFired")
        self.events.clear()
        self.call("Page.navigate", session=True, url=url)
        self.wait_event("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        reply = self.call(
            "Runtime.evaluate",
            session=True,
            expression=expression,
            returnByValue=True,
            awaitPromise=True,
        )
        if "exceptionDetails" in reply:
            raise BrowserError(f"{expression!r}: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def problems(self) -> list[str]:
        """Script exceptions and errors the browser logged (a blocked resource, a CSP refusal)
        since the page was opened."""
        self.evaluate("0")  # collect the events sent so far
        out = []
        for event in self.events:
            params = event.get("params", {})
            if event.get("method") == "Runtime.exceptionThrown":
                out.append(str(params.get("exceptionDetails", {}).get("text")))
            elif event.get("method") == "Log.entryAdded" and params["entry"]["level"] == "error":
                out.append(str(params["entry"].get("text")))
        return out

    def press(self, key: str) -> None:
        """A key press as the user makes it (``ArrowRight``, ``Home``...)."""
        codes = {"ArrowLeft": 37, "ArrowRight": 39, "Home": 36, "End": 35}
        for kind in ("rawKeyDown", "keyUp"):
            self.call(
                "Input.dispatchKeyEvent",
                session=True,
                type=kind,
                key=key,
                code=key,
                windowsVirtualKeyCode=codes[key],
            )

    def click(self, selector: str) -> None:
        """A mouse click in the middle of the element ``selector`` names."""
        box = self.evaluate(
            f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
            ".getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()"
        )
        for kind in ("mousePressed", "mouseReleased"):
            self.call(
                "Input.dispatchMouseEvent",
                session=True,
                type=kind,
                x=box[0],
                y=box[1],
                button="left",
                clickCount=1,
            )

    def viewport(self, width: int, height: int, *, mobile: bool = False) -> None:
        """Show the page in a window of ``width`` x ``height`` CSS pixels (``mobile``: as a
        phone does, with its own viewport rules), until the next call."""
        self.call(
            "Emulation.setDeviceMetricsOverride",
            session=True,
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=mobile,
        )

    def screenshot(self, path: str) -> None:
        """A PNG of the window as it shows the page now."""
        data = self.call("Page.captureScreenshot", session=True, format="png")["data"]
        with open(path, "wb") as out:
            out.write(base64.b64decode(data))

    def close(self) -> None:
        with contextlib.suppress(BrowserError, OSError):
            self.call("Browser.close")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_child)
        os.close(self._from_child)
        self.profile.cleanup()


DOM = """JSON.stringify({
  cols: [...document.querySelectorAll('[data-col]')].map(c =>
    [c.dataset.col, [...c.children].map(card => card.dataset.card)]),
  counters: [...document.querySelectorAll('[data-entry]')].map(e =>
    [e.dataset.entry, e.dataset.moves, e.dataset.score]),
  hash: location.hash,
  action: document.getElementById('action').textContent,
  refusal: document.getElementById('refusal').hidden
    ? null : document.getElementById('refusal').textContent,
  words: document.getElementById('words').textContent,
  boardHidden: document.getElementById('board').getAttribute('aria-hidden'),
})"""


def dom(chromium: Browser) -> dict[str, Any]:
    assert chromium.problems() == []
    result: dict[str, Any] = json.loads(chromium.evaluate(DOM))
    return result
