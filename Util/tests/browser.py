"""The page in Debian's Chromium through Playwright, for the page's tests: where Chromium is, the parts a
page test needs (skipped with the reason when one is missing), and a page opened on a URL that fails the
test on any JavaScript error."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
from pathlib import Path

from Util.tests.parts import missing_part
from Util.tests.served import REPO

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"


def require_page_parts() -> None:
    """Playwright, Chromium and the built page, or the test is skipped saying which is missing."""
    if importlib.util.find_spec("playwright") is None:
        missing_part("the Python package playwright is not installed")
    if not Path(CHROMIUM).exists():
        missing_part(f"no Chromium at {CHROMIUM} (or set CHROMIUM_PATH)")
    if not (REPO / "web" / "dist" / "main.js").exists():
        missing_part("the page's JavaScript is not built (web/dist/main.js; setup runs npm ci and the build)")


@contextlib.contextmanager
def opened_page(url: str, width: int = 1280, height: int = 900):
    """A Chromium page of ``width`` x ``height`` CSS pixels on ``url``; an uncaught JavaScript error fails
    the test when the page is closed."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"])
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            errors = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(url, timeout=120_000)
            yield page
            assert not errors, errors
        finally:
            browser.close()
