"""A rule whose next occurrence cannot be computed (issue 11, item 9) is set aside;
the other rules of the same batch are planned and sent as if it were not there, and
its owner sees it marked in 提醒 and is told once."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import func, select

from handlers import texts
from scheduler.tick import materialise_due
from storage.delivery_models import JOBS
from storage.repos import rules
from storage.repos.users import ensure_and_lock_user
from tests.acceptance.conftest import Keeper

GOOD = 1000
"""As the issue says: one bad rule among 1,000 good ones (more than one tick's batch)."""


async def test_one_bad_rule_among_many_good_ones_stalls_nothing(keeper: Keeper) -> None:
    now = keeper.clock.now()
    due = now - dt.timedelta(minutes=1)
    async with keeper.scheduler.database.transaction() as session:
        user = await ensure_and_lock_user(session, "alice", timezone="Asia/Shanghai", now=now)
        bad = await rules.create(
            session, user_id=user.id, kind="custom", policy="at_most_once", priority="normal",
            channel="wecom_app", now=now, next_fire_at=due, spec="{not json", label="坏",
        )  # fmt: skip
        for i in range(GOOD):
            await rules.create(
                session, user_id=user.id, kind="custom", policy="at_most_once",
                priority="normal", channel="wecom_app", now=now, next_fire_at=due,
                spec='{"once_at": "2026-11-25T09:59:00"}', label=f"好{i}", listed=False,
            )  # fmt: skip

    made, passes = 0, 0
    while planned := await materialise_due(keeper.scheduler, now):
        made, passes = made + planned, passes + 1
    assert made == GOOD  # every good one planned, the bad one never (nor retried)
    assert passes <= 2  # 1,001 due rules: at most two batches
    async with keeper.scheduler.database.transaction() as session:
        rule = await rules.get(session, bad)
        jobs_of_bad = (
            await session.execute(select(func.count()).where(JOBS.c.rule_id == bad))
        ).scalar_one()
    assert rule is not None
    assert (rule.status, rule.next_fire_at, jobs_of_bad) == ("error", None, 0)
    status = await keeper.say("管理 状态", user="boss")
    assert f"⚠ 出错停用的规则 1 条（算不出下次时间）：#{bad} 提醒：" in status
    assert "JSONDecodeError" in status  # the reason, as the tick met it
    while (await keeper.tick()).claimed:
        pass
    async with keeper.scheduler.database.transaction() as session:
        accepted = (
            await session.execute(select(func.count()).where(JOBS.c.status == "accepted"))
        ).scalar_one()
    assert accepted == GOOD  # every good one went out (merged, a batch at a time)
    assert keeper.sent_to()


async def _bad_rule(keeper: Keeper, label: str) -> int:
    """Alice's custom reminder with a spec the tick cannot read, due now; its id."""
    now = keeper.clock.now()
    async with keeper.scheduler.database.transaction() as session:
        user = await ensure_and_lock_user(session, "alice", timezone="Asia/Shanghai", now=now)
        return await rules.create(
            session, user_id=user.id, kind="custom", policy="at_most_once", priority="normal",
            channel="wecom_app", now=now, next_fire_at=now, spec='{"cron": {"hour": "25"}}',
            label=label,
        )  # fmt: skip


async def test_the_member_sees_the_rule_set_aside_in_the_list_and_is_told_once(
    keeper: Keeper,
) -> None:
    bad = await _bad_rule(keeper, "吃药")
    await materialise_due(keeper.scheduler, keeper.clock.now())
    async with keeper.scheduler.database.transaction() as session:
        rule = await rules.get(session, bad)
    assert rule is not None
    assert (rule.status, rule.number) == ("error", 1)  # keeps its number: 删除 提醒 1

    first = await keeper.say("今天")
    second = await keeper.say("今天")
    listing = await keeper.say("提醒")

    notice = texts.set_aside_notice([(1, "custom", "吃药")])
    assert notice == "⚠ 有 1 条提醒出错已停用（算不出下次时间）：1. 吃药。发「提醒」看怎么处理。"
    assert first.endswith("\n" + notice)
    assert notice not in second
    line = "1. 提醒 吃药（⚠ 出错已停用：算不出下次时间，请发「删除 提醒 1」后重新设置）"
    assert line in listing.splitlines()
    assert "Error" not in first + listing  # the admin's reason, not the member's
    assert keeper.sent_to() == []


async def test_a_rule_set_aside_can_only_be_deleted_and_then_leaves_the_list(
    keeper: Keeper,
) -> None:
    bad = await _bad_rule(keeper, "吃药")
    await materialise_due(keeper.scheduler, keeper.clock.now())
    await keeper.say("今天")  # told

    paused = await keeper.say("暂停 提醒 1")
    resumed = await keeper.say("恢复 提醒 1")
    deleted = await keeper.say("删除 提醒 1")
    listing = await keeper.say("提醒")

    refusal = texts.set_aside_only_delete(1, deletable=True)
    assert refusal == "提醒 1 出错已停用，不能暂停或恢复，请发「删除 提醒 1」后重新设置。"
    assert (paused, resumed) == (refusal, refusal)
    assert deleted == texts.rule_changed(1, "delete", None)
    assert "吃药" not in listing
    async with keeper.scheduler.database.transaction() as session:
        rule = await rules.get(session, bad)
    assert rule is not None
    assert (rule.status, rule.number) == ("deleted", None)
