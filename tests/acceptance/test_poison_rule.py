"""A rule whose next occurrence cannot be computed (issue 11, item 9) is set aside;
the other rules of the same batch are planned and sent as if it were not there."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import func, select

from scheduler.tick import materialise_due
from storage.delivery_models import JOBS
from storage.repos import rules
from storage.repos.users import ensure_and_lock_user
from tests.acceptance.conftest import Keeper

GOOD = 200


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

    made = await materialise_due(keeper.scheduler, now)
    assert made == GOOD
    assert await materialise_due(keeper.scheduler, now) == 0  # the bad one is not retried
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
