"""The pages in a real headless Chromium: signed in through a real link, on a real
loopback socket, with every record made through encrypted callbacks."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.app import create_app
from bot.sandbox.wecom_side import WeComSide
from scheduler.clock import FakeClock
from tests.browser import chromium, console_errors, run, screenshot
from tests.conftest import TEST_SETTINGS, wecom_side
from tests.integration.admin_seed import seed
from tests.integration.conftest import new_user
from tests.settings_env import changed

__all__ = ["chromium"]  # the fixture, used by name below
LINK = re.compile(r"(/web/link/[A-Za-z0-9_-]+)")
pytestmark = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


@pytest.fixture
async def client(
    clock: FakeClock, engine: AsyncEngine
) -> AsyncIterator[TestClient[object, object]]:
    settings = changed(
        TEST_SETTINGS,
        web={"public_url": "http://keeper.test"},
        operations={"admins": frozenset({"boss"})},
    )
    async with TestClient(TestServer(create_app(settings, clock=clock, engine=engine))) as c:
        yield c


async def _open_link(
    driver: Any, client: TestClient[object, object], wecom: WeComSide, user: str, text: str
) -> None:
    reply = await wecom.send_text(user, text)
    assert reply.text is not None
    found = LINK.search(reply.text)
    assert found, reply.text
    await run(driver.get, str(client.make_url(found[1])))


async def test_the_personal_page_shows_the_year_and_one_weight_point_per_record(
    chromium: Any, client: TestClient[object, object], clock: FakeClock
) -> None:
    from selenium.webdriver.common.by import By

    wecom = wecom_side(client, TEST_SETTINGS, clock)
    for day, kg in enumerate(("72.4", "72.1", "71.8", "71.9", "71.5")):
        clock.set(dt.datetime(2026, 11, 10 + day * 3, 1, 0, tzinfo=dt.UTC))
        await wecom.send_text("alice", f"体重 {kg}")
        await wecom.send_text("alice", "喝水 +3")
    await wecom.send_text("alice", "记账 35 午饭")
    await _open_link(chromium, client, wecom, "alice", "网页")
    assert chromium.current_url.endswith("/web/me")
    assert chromium.find_element(By.TAG_NAME, "h1").text == "2026 年"
    assert len(chromium.find_elements(By.CSS_SELECTOR, ".cal .d")) == 365
    assert len(chromium.find_elements(By.CSS_SELECTOR, "#weight circle.pt")) == 5
    assert chromium.find_element(By.CSS_SELECTOR, "#weight svg").size["width"] > 200
    await run(chromium.find_element(By.CSS_SELECTOR, 'a[href^="?day=2026-11-22"]').click)
    assert "71.5 kg" in chromium.find_element(By.ID, "detail").text
    assert console_errors(chromium) == []
    assert screenshot(chromium, "personal-page").stat().st_size > 10_000


async def test_the_admin_page_opens_for_an_admin_in_a_real_browser(
    chromium: Any, client: TestClient[object, object], clock: FakeClock, engine: AsyncEngine
) -> None:
    from selenium.webdriver.common.by import By

    await new_user(engine, clock, "boss")
    wecom = wecom_side(client, TEST_SETTINGS, clock)
    await _open_link(chromium, client, wecom, "boss", "管理 网页")
    assert chromium.current_url.endswith("/web/admin")
    headings = [h.text for h in chromium.find_elements(By.TAG_NAME, "h2")]
    assert headings == [
        "通道", "手机上能否收到", "每个通道的最近 14 天", "回调", "提醒任务", "调度器", "备份", "数据保留",
        "最近的失败",
    ]  # fmt: skip
    assert "备份：未开启" in chromium.find_element(By.ID, "backup").text
    assert console_errors(chromium) == []
    assert screenshot(chromium, "admin-page").stat().st_size > 5_000


async def test_the_admin_page_shows_local_times_and_draws_its_charts(
    chromium: Any, client: TestClient[object, object], clock: FakeClock, engine: AsyncEngine
) -> None:
    """Issue 22: Chromium renders the page in the deployment's zone, with the charts."""
    from selenium.webdriver.common.by import By

    await seed(engine, clock)
    wecom = wecom_side(client, TEST_SETTINGS, clock)
    await _open_link(chromium, client, wecom, "boss", "管理 网页")
    assert chromium.current_url.endswith("/web/admin")
    zone = chromium.find_element(By.ID, "zone").text
    assert "Asia/Shanghai（UTC+8）" in zone
    assert "现在 2026-11-25 10:00" in zone
    workers = chromium.find_element(By.ID, "workers").text
    assert "11-23 19:30（38 小时前）" in workers
    card = chromium.find_element(By.ID, "channel-wecom_app")
    chart = card.find_element(By.CSS_SELECTOR, "svg.chart")
    assert chart.size["width"] > 200
    assert chart.size["height"] > 80
    parts = card.find_elements(By.CSS_SELECTOR, "svg rect.part")
    assert len(parts) == 4  # 11-13 unknown, 11-20 failed, 11-24 and 11-25 accepted
    assert all(p.size["height"] > 0 for p in parts)
    # Coloured by the stylesheet: an accepted part is green, a failed one red.
    fills = {p.get_attribute("class"): p.value_of_css_property("fill") for p in parts}
    assert fills["part ok"] == "rgb(45, 164, 78)"
    assert fills["part bad"] == "rgb(207, 34, 46)"
    assert card.find_elements(By.CSS_SELECTOR, "svg polyline.line.ans")
    callbacks = chromium.find_element(By.ID, "callbacks")
    # Two days with callbacks (the 23rd's 20, the 25th's 2), each timed: a bar and a dot.
    assert len(callbacks.find_elements(By.CSS_SELECTOR, "svg rect.part.cb")) == 2
    assert len(callbacks.find_elements(By.CSS_SELECTOR, "svg circle.dot.p95")) == 2
    assert console_errors(chromium) == []
    assert screenshot(chromium, "admin-page-charts").stat().st_size > 10_000


async def test_a_replayed_link_in_the_browser_shows_a_plain_page(
    chromium: Any, client: TestClient[object, object], clock: FakeClock
) -> None:
    from selenium.webdriver.common.by import By

    wecom = wecom_side(client, TEST_SETTINGS, clock)
    reply = await wecom.send_text("alice", "网页")
    assert reply.text is not None
    found = LINK.search(reply.text)
    assert found
    url = str(client.make_url(found[1]))
    await run(chromium.get, url)
    await run(chromium.delete_all_cookies)
    await run(chromium.get, url)
    assert chromium.find_element(By.TAG_NAME, "h1").text == "链接已用过"
