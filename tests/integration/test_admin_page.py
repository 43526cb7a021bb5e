"""The admin page read at a glance (issue 22), through the real app: its zone said
once, ages in words, and each chart's figures (carried next to the chart as JSON).
The records are `admin_seed`'s (its docstring says why at those times)."""

from __future__ import annotations

import datetime as dt
import html
import json
import re
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sandbox.wecom_side import WeComSide
from bot.settings import Settings
from scheduler.clock import FakeClock
from storage.models import INBOUND
from storage.repos import retention_runs
from tests.integration.admin_seed import seed, utc
from tests.integration.conftest import PAGES_SETTINGS

LINK = re.compile(r"https?://[^/\s]+(/web/link/[A-Za-z0-9_-]+)")
FIGURES = re.compile(r"data-chart=\"([^\"]+)\" data-figures='([^']*)'")


@pytest.fixture
def settings() -> Settings:
    return PAGES_SETTINGS


async def admin_html(client: TestClient[object, object], wecom: WeComSide) -> str:
    reply = await wecom.send_text("boss", "管理 网页")
    assert reply.text is not None
    found = LINK.search(reply.text)
    assert found, reply.text
    assert (await client.get(found[1], allow_redirects=False)).status == 303
    page = await client.get("/web/admin")
    assert page.status == 200
    return await page.text()


def figures(page: str) -> dict[str, dict[str, Any]]:
    """Each chart's figures, by its name, as the page carries them."""
    return {name: json.loads(html.unescape(data)) for name, data in FIGURES.findall(page)}


async def test_the_admin_page_says_its_zone_ages_in_words_and_each_charts_figures(
    client: TestClient[object, object], wecom: WeComSide, engine: AsyncEngine, clock: FakeClock
) -> None:
    await seed(engine, clock)
    page = await admin_html(client, wecom)

    assert "时间都是 Asia/Shanghai（UTC+8）的当地时间；现在 2026-11-25 10:00。" in page
    assert "UTC；" not in page
    assert "11-23 19:30（38 小时前）" in page  # the heartbeat: local, and its age in words
    assert "137" not in page.split('id="workers"')[1].split("</section>")[0]
    assert "11-25 01:00（9 小时前）" in page  # the channel's last success, local

    charts = figures(page)
    assert set(charts) == {"sends-wecom_app", "callbacks"}
    sends = charts["sends-wecom_app"]
    assert len(sends["days"]) == 14
    assert (sends["days"][0], sends["days"][-1]) == ("2026-11-12", "2026-11-25")
    day = {d: i for i, d in enumerate(sends["days"])}
    assert sends["accepted"][day["2026-11-24"]] == 1  # 15:50 UTC, 23:50 local
    assert sends["accepted"][day["2026-11-25"]] == 2  # 16:30 and the alert, after midnight
    assert sends["failed"][day["2026-11-20"]] == 1
    assert sends["unknown"][day["2026-11-13"]] == 1
    assert sum(sends["accepted"]) + sum(sends["failed"]) + sum(sends["unknown"]) == 5
    assert sends["reminders"][day["2026-11-24"]] == 1
    assert sends["answered"][day["2026-11-24"]] == 1
    assert sends["reminders"][day["2026-11-25"]] == 1  # the alert is no reminder
    assert sends["answered"][day["2026-11-25"]] == 0  # the answer came before it
    assert sum(sends["answered"]) == 1

    callbacks = charts["callbacks"]
    assert callbacks["days"] == sends["days"]
    assert callbacks["handled"][day["2026-11-23"]] == 20
    assert callbacks["p95_ms"][day["2026-11-23"]] == 190
    # Today: alice's answer (00:20 local) and boss's real `管理 网页`, timed as handled.
    assert callbacks["handled"][day["2026-11-25"]] == 2
    assert isinstance(callbacks["p95_ms"][day["2026-11-25"]], int)
    assert callbacks["p95_ms"][day["2026-11-24"]] is None
    async with engine.connect() as conn:  # boss's message was timed by the conversation
        timed = (
            await conn.execute(
                select(INBOUND.c.handled_ms).where(INBOUND.c.wecom_user_id == "boss")
            )
        ).scalar_one()
    assert isinstance(timed, int)
    assert 0 <= timed < 60_000

    # Drawn: a bar part per outcome-day, the line's dots, on each chart.
    section = page.split('id="channel-wecom_app"')[1].split("</article>")[0]
    assert section.count('class="part ok"') == 2
    assert section.count('class="part bad"') == 1
    assert section.count('class="part unk"') == 1
    assert section.count('class="dot ans"') == 14


async def test_the_admin_page_shows_the_retention_figures_in_local_time(
    client: TestClient[object, object], wecom: WeComSide, engine: AsyncEngine, clock: FakeClock
) -> None:
    ran = utc(11, 24, 20, 30)  # 04:30 on the 25th in Shanghai
    planned = [retention_runs.Planned(table_name="notification_jobs", keep_days=180, cutoff=ran)]
    async with engine.begin() as session:
        await retention_runs.open_day(
            session, day=dt.date(2026, 11, 25), planned=planned, owner="tick:1", now=ran
        )
        await retention_runs.add_pruned(
            session, day=dt.date(2026, 11, 25), table_name="notification_jobs", count=1234,
            now=ran, finished=True,
        )  # fmt: skip
    page = await admin_html(client, wecom)
    section = page.split('id="retention"')[1].split("</section>")[0]
    assert "数据保留（每天清理一次）" in section
    assert "发送任务（保留 180 天）：0 条；11-25 04:30 清理删了 1,234 条" in section
    assert "收到的消息" in section
