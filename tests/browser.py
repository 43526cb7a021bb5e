"""A real headless Chromium for the page tests (Debian's chromium + chromium-driver).

Where either is missing the tests skip with the reason shown, unless
`KEEPER_REQUIRE_BROWSER=1` (set by `.ci/run`, which installs both), in which case
they fail: CI never skips them. Nothing here touches the network beyond loopback:
the driver and the browser are given by path, so Selenium Manager downloads nothing.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMEDRIVER = Path("/usr/bin/chromedriver")
CHROMIUM = Path("/usr/bin/chromium")
REQUIRE_BROWSER = os.environ.get("KEEPER_REQUIRE_BROWSER") == "1"
ARTIFACTS = Path(
    os.environ.get("KEEPER_TEST_ARTIFACTS", Path(__file__).parents[1] / "test-artifacts")
)


def _missing() -> str | None:
    for path in (CHROMEDRIVER, CHROMIUM):
        if not path.exists():
            return f"{path} is missing (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    return None


@pytest.fixture
def chromium(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A headless Chromium WebDriver that keeps the browser console's log."""
    reason = _missing()
    if reason:
        if REQUIRE_BROWSER:
            pytest.fail(reason + " and KEEPER_REQUIRE_BROWSER=1")
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    monkeypatch.setenv("SE_AVOID_STATS", "true")  # no usage pings from Selenium
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                 "--window-size=412,915", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"):  # fmt: skip
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


async def run(func: Any, *args: Any) -> Any:
    """A WebDriver call off the event loop (the server under test runs on it)."""
    return await asyncio.to_thread(func, *args)


def console_errors(driver: Any) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def screenshot(driver: Any, name: str) -> Path:
    """Save the whole page as a PNG under test-artifacts/; its path."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    height = driver.execute_script("return document.body.scrollHeight")
    driver.set_window_size(412, min(int(height) + 100, 6000))
    driver.save_screenshot(str(path))
    return path
