"""The page in Debian's Chromium through Playwright, for the page's tests: where Chromium is, the parts a
page test needs (skipped with the reason when one is missing), one Chromium shared by a module's tests,
and a page opened on a URL that fails the test on any JavaScript error."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
from pathlib import Path
from typing import Iterator, Optional

from Util.tests.parts import missing_part
from Util.tests.served import REPO

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
#: Chromium in a container: no sandbox, no GPU, no /dev/shm, nothing fetched in the background.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"]
#: The Chromium of the enclosing ``shared_chromium`` block, if any.
_shared = None


def require_page_parts() -> None:
    """Playwright, Chromium and the built page, or the test is skipped saying which is missing."""
    if importlib.util.find_spec("playwright") is None:
        missing_part("the Python package playwright is not installed")
    if not Path(CHROMIUM).exists():
        missing_part(f"no Chromium at {CHROMIUM} (or set CHROMIUM_PATH)")
    if not (REPO / "web" / "dist" / "main.js").exists():
        missing_part("the page's JavaScript is not built (web/dist/main.js; setup runs npm ci and the build)")


@contextlib.contextmanager
def chromium() -> Iterator:
    """A headless Chromium (a Playwright ``Browser``) and the Playwright driver that runs it, until the
    block ends."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def shared_chromium() -> Iterator:
    """One Chromium for every page opened inside the block (a module's tests: a module-scoped fixture).
    Starting Playwright's driver and Chromium costs more than many a page test's own work; each page
    still gets a browser context of its own (its own cookies, storage and cache), as in a new browser."""
    global _shared
    with chromium() as browser:
        _shared = browser
        try:
            yield browser
        finally:
            _shared = None


@contextlib.contextmanager
def new_page(width: int = 1280, height: int = 720, browser: Optional[object] = None) -> Iterator:
    """A blank Chromium page of ``width`` x ``height`` CSS pixels in a new browser context, closed with the
    block; in ``browser``, else in the shared Chromium, else in a Chromium of its own."""
    browser = browser or _shared
    if browser is None:
        with chromium() as own, new_page(width, height, own) as page:
            yield page
        return
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        yield context.new_page()
    finally:
        context.close()


@contextlib.contextmanager
def opened_page(url: str, width: int = 1280, height: int = 900) -> Iterator:
    """A Chromium page of ``width`` x ``height`` CSS pixels on ``url``; an uncaught JavaScript error fails
    the test when the page is closed."""
    with new_page(width, height) as page:
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url, timeout=120_000)
        yield page
        assert not errors, errors
