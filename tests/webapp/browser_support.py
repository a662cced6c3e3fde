"""What every browser test shares: Debian's Chromium, screenshots and waits.

The browser tests drive the real pages with Playwright on the system Chromium (installed
by the test set-up when absent, never Playwright's own download, which needs the internet).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT_MS = 20_000


def install_chromium() -> None:
    """Install Debian's chromium when absent (CI runs as root); never Playwright's download."""
    if CHROMIUM.exists():
        return
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.fail(f"{CHROMIUM} is missing; install Debian's 'chromium' package (as root)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "--no-install-recommends", "chromium"]
    if subprocess.run(install, env=env, capture_output=True, check=False).returncode != 0:
        subprocess.run(["apt-get", "update"], env=env, capture_output=True, check=True)
        subprocess.run(install, env=env, capture_output=True, check=True)


def in_own_thread(scenario: Any, *args: Any) -> None:
    """Run ``scenario(chromium, *args)`` with a Playwright of its own, in a thread of its
    own: the sync API allows one Playwright per thread, and the web app's browser tests
    keep theirs open for the whole session."""
    failure: list[BaseException] = []

    def target() -> None:
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                try:
                    scenario(browser, *args)
                finally:
                    browser.close()
        except BaseException as exc:  # re-raised in the test's thread below
            failure.append(exc)

    install_chromium()
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout=240)
    if thread.is_alive():
        pytest.fail("the browser scenario did not finish within 240 s")
    if failure:
        raise failure[0]


def screenshot(page: Any, folder: str, name: str) -> Path:
    """Save a full-page screenshot under ``artifacts/<folder>/`` for people to look at."""
    out = ARTIFACTS / folder
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    print(f"screenshot: {path}")
    return path


def wait_points(page: Any, points: int) -> None:
    """Wait until the score panel shows ``points`` (its ``data-points``)."""
    page.wait_for_function(
        "p => { const el = document.querySelector('#points');"
        " return el && el.dataset.points === String(p); }",
        arg=points,
        timeout=WAIT_MS,
    )


def open_app(browser: Any, url: str, **options: Any) -> tuple[Any, list[str]]:
    """A page of its own browser context (``options``: viewport, locale, ...) at ``url``,
    once the app has started, and the list its uncaught script errors go to (a test ends
    by asserting it empty). Close with ``page.context.close()``."""
    page = browser.new_context(**options).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_selector("#app[data-ready='1']")
    return page, errors
