"""Issue 22 item 1 through real processes: `keeper serve` answers encrypted callbacks,
`keeper tick` sends through the fake WeCom API, on one SQLite file.

`测试 渠道`, a tick, then `收到`: a device check that `设置 渠道` and the admin page
show. A water reminder answered by a check-in holds `received`. Nowhere is an
accepted send called delivered (送达).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest
from sqlalchemy import select, update

from bot.sandbox.fake_wecom import FakeWeCom, run_fake_wecom
from bot.sandbox.wecom_side import WeComSide
from storage.delivery_models import JOBS, RULES
from storage.engine import create_engine
from tests.acceptance.processes import (
    STARTUP_TIMEOUT_S,
    fake_wecom_api,
    keeper_env,
    run_keeper,
    start_serve,
)
from tests.conftest import TEST_SETTINGS, MigratedSQLite
from tests.ports import free_port

LINK = re.compile(r"https?://\S+?(/web/\S+)")


@dataclass
class Live:
    db_url: str
    env: dict[str, str]
    api: FakeWeCom
    wecom: WeComSide
    origin: str

    async def say(self, text: str) -> str:
        reply = await self.wecom.send_text("alice", text)
        return reply.text or ""

    async def tick(self) -> str:
        code, out, err = await run_keeper(["tick"], self.env)
        assert code == 0, err
        return out

    def sent(self) -> list[str]:
        return [m.content for m in self.api.messages_to("alice")]


@pytest.fixture
async def live(tmp_path: Path, migrated_sqlite: MigratedSQLite) -> AsyncIterator[Live]:
    db_url = await migrated_sqlite(tmp_path / "keeper.db")
    s = TEST_SETTINGS
    api = fake_wecom_api()
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    async with run_fake_wecom(api) as api_base:
        env = keeper_env(db_url, api_base, KEEPER_ADMINS="alice", KEEPER_PUBLIC_URL=origin)
        proc = await start_serve(env, tmp_path, port)
        try:
            async with WeComSide(
                origin, s.wecom.token, s.wecom.aes_key, s.wecom.corp_id, s.wecom.agent_id
            ) as wecom:
                yield Live(db_url=db_url, env=env, api=api, wecom=wecom, origin=origin)
        finally:
            proc.terminate()
            await asyncio.wait_for(proc.communicate(), STARTUP_TIMEOUT_S)


async def _admin_page(live: Live) -> str:
    """The admin page through the one-time link `管理 网页` gives, as a browser opens it."""
    found = LINK.search(await live.say("管理 网页"))
    assert found is not None
    jar = aiohttp.CookieJar(unsafe=True)
    async with aiohttp.ClientSession(live.origin, cookie_jar=jar) as browser:
        async with browser.get(found[1]) as signed_in:
            assert signed_in.status == 200
        async with browser.get("/web/admin") as page:
            assert page.status == 200
            return await page.text()


async def _water_job(db_url: str) -> tuple[str, str | None]:
    engine = create_engine(db_url)
    try:
        async with engine.begin() as session:
            row = (
                await session.execute(
                    select(JOBS.c.status, JOBS.c.evidence).where(JOBS.c.payload_kind == "water")
                )
            ).one()
    finally:
        await engine.dispose()
    return row.status, row.evidence


async def _water_due_now(db_url: str) -> None:
    """The water rule's next time moved to a minute ago, so the next tick sends it."""
    engine = create_engine(db_url)
    try:
        async with engine.begin() as session:
            due = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=1)
            await session.execute(
                update(RULES).where(RULES.c.kind == "water").values(next_fire_at=due)
            )
    finally:
        await engine.dispose()


async def test_a_channel_test_confirmed_by_a_reply_is_a_device_check_the_views_show(
    live: Live,
) -> None:
    before = await live.say("设置 渠道")
    assert "还没在手机上确认过，发「测试 渠道」" in before
    queued = await live.say("测试 渠道")
    assert "测试消息马上发到：企业微信应用" in queued
    assert "accepted=1" in await live.tick()
    [test] = live.sent()
    assert "渠道测试（企业微信应用）" in test
    assert "回复「收到」" in test

    assert await live.say("收到") == "好的，记下了：企业微信应用 的消息能到你手机上。"
    shown = await live.say("设置 渠道")
    assert "在手机上确认收到过测试" in shown
    assert "还没在手机上确认过" not in shown
    page = await _admin_page(live)
    assert 'class="evidence"' in page
    assert "在手机上确认收到过测试" in page
    for said in (before, queued, shown, page, *live.sent()):
        assert "送达" not in said


async def test_a_reminder_answered_by_a_check_in_holds_received(live: Live) -> None:
    await live.say("开启 喝水")
    await _water_due_now(live.db_url)
    assert "accepted=1" in await live.tick()
    assert await _water_job(live.db_url) == ("accepted", "accepted")  # sent, nothing more

    await live.say("喝了一杯水")
    assert await _water_job(live.db_url) == ("accepted", "received")
    shown = await live.say("设置 渠道")
    assert "近 30 天回复了 100% 的提醒（共 1 条已发出）" in shown
    assert "送达" not in shown
