"""Data that only serves a while is pruned by the scheduler's daily run (issue 20 item 9):
inbound messages after 30 days, finished jobs and their attempts after 180, used or
expired links after 7; the records themselves stay, and 管理 状态 keeps its totals."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.delivery_models import ATTEMPTS, JOBS
from storage.models import INBOUND, MEASUREMENTS
from storage.web_models import WEB_LINKS
from tests.acceptance.conftest import Keeper

DAY = dt.timedelta(days=1)


@pytest.fixture
def keeper_settings() -> dict[str, object]:
    return {"public_url": "https://keeper.example.com"}


async def _ids(engine: AsyncEngine, table: object) -> set[int]:
    async with engine.connect() as conn:
        return set((await conn.execute(select(table.c.id))).scalars())  # type: ignore[attr-defined]


async def _count(engine: AsyncEngine, table: object) -> int:
    async with engine.connect() as conn:
        return int((await conn.execute(select(func.count()).select_from(table))).scalar_one())  # type: ignore[arg-type]


async def test_old_messages_finished_jobs_and_used_links_are_gone_after_the_daily_run(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    await keeper.say("体重 72.4")
    await keeper.say("开启 喝水")
    assert "keeper.example.com" in await keeper.say("网页")
    keeper.clock.advance(dt.timedelta(hours=2))
    await keeper.tick()  # the water reminder goes out: a finished job and its attempt
    old = {t.name: await _ids(engine, t) for t in (INBOUND, JOBS, ATTEMPTS, WEB_LINKS)}
    assert all(old.values()), old
    status_before = await keeper.say("管理 状态", user="boss")
    assert "\n企业微信应用：已发出 1，" in status_before

    keeper.clock.advance(200 * DAY)
    await keeper.say("体重 71.0")
    for _ in range(5):  # the day's run, in bounded batches over a few ticks
        await keeper.tick()

    for name, table in (("inbound", INBOUND), ("jobs", JOBS), ("attempts", ATTEMPTS)):
        left = old[table.name] & await _ids(engine, table)
        assert not left, f"old {name} rows still there: {left}"
    assert not old[WEB_LINKS.name] & await _ids(engine, WEB_LINKS)
    assert await _count(engine, INBOUND) >= 1  # the recent message stays
    assert await _count(engine, MEASUREMENTS) == 2  # records are data, never pruned
    status = await keeper.say("管理 状态", user="boss")
    assert "\n企业微信应用：已发出 1，" in status  # the totals survive the pruning
