"""Data that only serves a while is pruned by the scheduler's daily run (issue 20 item 9):
inbound messages after 30 days, finished jobs and their attempts after 180, used or
expired links after 7; the records themselves stay, and 管理 状态 keeps its totals."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sandbox.fake_wecom import FakeWeCom, run_fake_wecom
from bot.sandbox.wecom_side import text_message_xml
from scheduler.clock import FakeClock
from storage.delivery_models import ATTEMPTS, JOBS
from storage.engine import create_engine
from storage.models import INBOUND, MEASUREMENTS
from storage.web_models import WEB_LINKS
from tests.acceptance.conftest import Keeper
from tests.acceptance.processes import keeper_env, run_keeper
from tests.conftest import TEST_SETTINGS, MigratedSQLite
from tests.integration.retention_seed import Seeder

DAY = dt.timedelta(days=1)


@pytest.fixture
def keeper_settings() -> dict[str, dict[str, object]]:
    return {"web": {"public_url": "https://keeper.example.com"}}


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


async def test_the_admin_status_shows_what_each_table_keeps_and_what_the_run_pruned(
    keeper: Keeper,
) -> None:
    await keeper.say("体重 72.4")
    assert "还没清理过" in await keeper.say("管理 状态", user="boss")
    keeper.clock.advance(40 * DAY)  # 11-25 10:00 -> 01-04 10:00 in Shanghai
    await keeper.tick()

    status = await keeper.say("管理 状态", user="boss")

    assert "\n数据保留（每天清理一次）：\n" in status
    # the two old messages went; the one asking counts itself
    assert "· 收到的消息（保留 30 天）：1 条，最早不到 1 天；01-04 10:00 清理删了 2 条" in status
    assert "· 发送任务（保留 180 天）：" in status
    assert "· 发送记录（保留 180 天）：" in status
    assert "· 网页链接（保留 7 天）：0 条；01-04 10:00 清理删了 0 条" in status
    assert "· 小程序绑定码（保留 7 天）：0 条；01-04 10:00 清理删了 0 条" in status


async def test_a_callback_replayed_after_its_message_was_pruned_is_refused_as_stale(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    """The dedup store forgets a MsgId after 30 days. WeCom retries within seconds, and
    the callback refuses any request signed more than KEEPER_CALLBACK_WINDOW_SECONDS
    (at most a day) ago before it reads the store: a captured request replayed later
    is a 403 and records nothing, with or without its stored message."""
    wecom = keeper.wecom
    xml = text_message_xml(
        corp_id=wecom.corp_id,
        user="alice",
        text="体重 72.4",
        create_time=wecom.now(),
        msg_id=4242,
        agent_id=wecom.agent_id,
    )
    request = wecom.build(xml)
    assert (await wecom.post(request)).status == 200
    keeper.clock.advance(40 * DAY)
    await keeper.tick()
    assert await _count(engine, INBOUND) == 0  # its message is gone

    replayed = await wecom.post(request)

    assert replayed.status == 403
    assert await _count(engine, INBOUND) == 0
    assert await _count(engine, MEASUREMENTS) == 1


async def test_a_member_silent_for_months_is_still_told_of_the_reminder_an_outage_swallowed(
    keeper: Keeper,
) -> None:
    """The run keeps the jobs a member has not been told about yet (`missed_since`),
    however old: the notice on their next message must not lose them."""
    await keeper.say("提醒 今天 11:00 交材料")
    keeper.clock.advance(dt.timedelta(hours=3))  # down through 11:00
    await keeper.tick()  # too late to send: expired, to be told
    keeper.clock.advance(200 * DAY)
    for _ in range(3):
        await keeper.tick()  # the day's run

    reply = await keeper.say("今天")

    assert reply.splitlines()[-1] == "（有 1 条提醒过了时间没能发出：11:00 交材料。没有补发。）"


async def test_a_pretend_time_tick_never_prunes_and_a_real_one_says_what_it_pruned(
    tmp_path: Path, migrated_sqlite: MigratedSQLite
) -> None:
    """`keeper tick --at` a year ahead would find every row old: it skips the run."""
    url = await migrated_sqlite(tmp_path / "keeper.db")
    engine = create_engine(url)
    real_now = dt.datetime.now(dt.UTC)  # `keeper tick` without --at reads the real clock
    seed = Seeder(engine=engine, clock=FakeClock(real_now))
    recent = await seed.message(2 * DAY)
    old = await seed.message(40 * DAY)
    await engine.dispose()
    api = FakeWeCom(
        corp_id=TEST_SETTINGS.wecom.corp_id,
        secret=TEST_SETTINGS.wecom.secret,
        agent_id=TEST_SETTINGS.wecom.agent_id,
    )
    async with run_fake_wecom(api) as base:
        ahead = (real_now + 365 * DAY).isoformat()
        pretend = await run_keeper(["tick", "--at", ahead], keeper_env(url, base))
        engine = create_engine(url)
        left_after_pretend = await _ids(engine, INBOUND)
        real = await run_keeper(["tick"], keeper_env(url, base))
        left = await _ids(engine, INBOUND)
        await engine.dispose()

    assert pretend[0] == 0, pretend[2]
    assert "pruned=" not in pretend[1]
    assert left_after_pretend == {recent, old}
    assert real[0] == 0, real[2]
    assert real[1].rstrip().endswith(" pruned=1")
    assert left == {recent}
