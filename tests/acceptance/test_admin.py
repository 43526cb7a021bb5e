"""管理 状态 and 管理 对账: what an admin sees, and what others are told."""

from __future__ import annotations

import datetime as dt

import pytest

from handlers import texts
from scheduler.tick import materialise_due
from storage.delivery_models import ATTEMPTS
from storage.repos import job_claims
from tests.acceptance.conftest import Keeper
from tests.integration.job_setup import start_sending

HOUR = dt.timedelta(hours=1)


async def test_a_member_asks_who_they_are_and_gets_their_userid(keeper: Keeper) -> None:
    """Issue 10: 我是谁 answers the UserID an admin puts in KEEPER_ADMINS."""
    reply = await keeper.say("我是谁", user="alice")
    assert reply == "你的企业微信账号（UserID）是：alice\n要当管理员，请把它加到 KEEPER_ADMINS 里。"
    assert "你是管理员" in await keeper.say("我的ID是什么？", user="boss")


async def test_only_admins_get_the_status(keeper: Keeper) -> None:
    assert await keeper.say("管理 状态", user="alice") == texts.ADMIN_ONLY
    status = await keeper.say("管理 状态", user="boss")
    assert status.startswith("用户 2；规则 晚报 2/2，晨报 2/2，周报 2/2\n没有排队的发送。")
    assert texts.ADMIN_NO_JOBS in status


async def test_the_status_counts_sends_per_channel(keeper: Keeper) -> None:
    await keeper.say("开启 喝水")
    keeper.clock.advance(2 * HOUR)
    await keeper.tick()
    status = await keeper.say("管理 状态", user="boss")
    assert "\n企业微信应用：已发出 1，失败 0，未知 0，重试 0，未发 0" in status
    assert "连续失败 0，排队 0" in status


async def test_the_status_names_each_failure_in_chinese_and_uses_no_english_words(
    keeper: Keeper,
) -> None:
    await keeper.say("提醒 今天 11:00 交材料")
    await keeper.say("提醒 今天 12:00 吃药")
    keeper.clock.advance(HOUR)
    keeper.api.fail_next(60020)
    await keeper.tick()
    keeper.clock.advance(HOUR)
    keeper.api.fail_next(45009)
    await keeper.tick()
    status = await keeper.say("管理 状态", user="boss")
    assert (
        "失败原因：服务器 IP 不在企业可信 IP 中（60020） 1 次；发得太频繁，被企业微信限流（45009） 1 次"
        in status
    )
    status_words = ("accepted", "failed", "unknown", "pending", "retry", "expired", "suppressed")
    assert not [w for w in (*status_words, "cancelled", "wecom_app") if w in status]


@pytest.mark.hangs_a_send
async def test_an_admin_settles_an_unknown_send_and_it_is_recorded(keeper: Keeper) -> None:
    await keeper.say("开启 喝水")
    keeper.api.hang_next(delivered=True)
    keeper.clock.advance(2 * HOUR)
    await keeper.tick()
    assert "未知 1" in await keeper.say("管理 状态", user="boss")
    async with keeper.scheduler.database.transaction() as session:
        job_id = (await session.execute(ATTEMPTS.select())).one().job_id
    assert await keeper.say(f"管理 对账 {job_id} 已收到", user="boss") == texts.admin_settled(
        job_id, True
    )
    assert (await keeper.say(f"管理 对账 {job_id} 已收到", user="alice")).startswith(
        texts.ADMIN_ONLY
    )
    async with keeper.scheduler.database.transaction() as session:
        assert (await session.execute(ATTEMPTS.select())).one().settled == "received"


async def test_a_send_the_lease_sweeper_settles_is_counted_and_can_be_settled(
    keeper: Keeper,
) -> None:
    await keeper.say("开启 喝水")
    keeper.clock.advance(2 * HOUR)
    scheduler = keeper.scheduler
    await materialise_due(scheduler, keeper.clock.now())
    async with scheduler.database.transaction() as session:  # a worker starts to send, dies
        now = keeper.clock.now()
        (job,) = await job_claims.claim(
            session, now=now, owner="dead", lease=scheduler.lease, limit=10
        )
        await start_sending(session, [job.id], owner="dead", now=now, lease=scheduler.lease)
    keeper.clock.advance(scheduler.lease + dt.timedelta(minutes=1))
    assert (await keeper.tick()).recovered == 1
    assert "未知 1" in await keeper.say("管理 状态", user="boss")
    assert await keeper.say(f"管理 对账 {job.id} 未收到", user="boss") == texts.admin_settled(
        job.id, False
    )
    assert keeper.sent_to() == []


async def test_the_status_says_when_scheduled_backups_are_off(keeper: Keeper) -> None:
    status = await keeper.say("管理 状态", user="boss")
    assert texts.BACKUP_OFF in status.splitlines()  # before the retention figures
