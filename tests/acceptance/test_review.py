"""Issue 14 end to end through encrypted callbacks: the review's suggestion waits a
day for `好`, is carried out once, and the budget and weight goal commands answer and
change nothing on bad input.

The clock starts on Wednesday 2026-11-25 10:00 in Shanghai (the users' zone).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.core.texts import review_text
from storage.delivery_models import RULES
from storage.models import TASKS, USERS
from storage.review_models import BUDGETS
from tests.acceptance.conftest import Keeper
from tests.acceptance.test_reminders import job_statuses, run_until, say_at


async def task_due(engine: AsyncEngine) -> dt.date | None:
    async with engine.connect() as conn:
        due: dt.date | None = (await conn.execute(select(TASKS.c.due_date))).scalar_one()
        return due


async def budgets(engine: AsyncEngine) -> list[tuple[str, Decimal]]:
    async with engine.connect() as conn:
        rows = await conn.execute(select(BUDGETS.c.category, BUDGETS.c.amount))
        return [(r.category, r.amount) for r in rows]


async def an_overdue_task_reviewed(keeper: Keeper) -> str:
    """A task due 11-26, reviewed on Saturday 12-05: nine days overdue."""
    assert "交材料" in await keeper.say("任务 明天 交材料")
    keeper.clock.advance(dt.timedelta(days=10))
    return await keeper.say("周报")


async def test_yes_moves_long_overdue_tasks_once_even_when_the_callback_is_retried(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    review = await an_overdue_task_reviewed(keeper)
    assert "任务：本周完成 0 个，还有 1 个没做，其中 1 个已过期。" in review
    assert review.endswith("有 1 个任务过期超过一周，都挪到下周一（12/7）？回「好」")

    first = await keeper.wecom.send_text("alice", "好", msg_id=7001)
    retried = await keeper.wecom.send_text("alice", "好", msg_id=7001)

    assert first.text == "好的，1 个任务挪到了后天（12/7）。"
    assert retried.text == first.text
    assert await task_due(engine) == dt.date(2026, 12, 7)
    assert "好的" not in await keeper.say("好")  # used up: a second 好 does nothing


async def test_a_suggestion_keeps_for_a_day_and_then_lets_go(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    await an_overdue_task_reviewed(keeper)
    keeper.clock.advance(dt.timedelta(hours=24, minutes=1))
    assert "挪到" not in await keeper.say("好")
    assert await task_due(engine) == dt.date(2026, 11, 26)


async def test_any_other_message_drops_the_suggestion(keeper: Keeper, engine: AsyncEngine) -> None:
    await an_overdue_task_reviewed(keeper)
    await keeper.say("喝水")
    assert "挪到" not in await keeper.say("好")
    assert await task_due(engine) == dt.date(2026, 11, 26)


async def test_a_budget_is_set_changed_listed_and_cancelled(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    await keeper.say("记账 300 晚饭")
    assert "预算已设好：餐饮 每月 1500 元，本月已用 300 元" in await keeper.say("预算 餐饮 1500")
    assert "预算已改好：餐饮 每月 1200 元" in await keeper.say("预算 餐饮 1200")
    assert await budgets(engine) == [("餐饮", Decimal("1200.00"))]
    assert "餐饮 已用 300 / 1200 元（25%）" in await keeper.say("预算")
    assert "餐饮 已用 300 / 1200 元（25%）" in await keeper.say("账单")
    assert await keeper.say("取消预算 餐饮") == "已取消 餐饮 的预算。"
    assert await keeper.say("取消预算 餐饮") == "没有 餐饮 的预算。发「预算」看全部。"
    assert await budgets(engine) == []


async def test_bad_budget_and_goal_inputs_are_answered_and_change_nothing(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    assert "预算 餐饮 1500" in await keeper.say("预算 餐饮")
    assert "大于 0" in await keeper.say("预算 餐饮 0")
    assert "目标体重 68" in await keeper.say("目标体重")
    assert await keeper.say("取消目标体重") == "还没有设目标体重。"
    assert await budgets(engine) == []
    async with engine.connect() as conn:
        assert (
            await conn.execute(select(func.count()).where(USERS.c.goal_weight.is_not(None)))
        ).scalar_one() == 0


async def test_the_weight_goal_is_a_distance_in_today_and_can_be_cleared(keeper: Keeper) -> None:
    await keeper.say("体重 71.4")
    assert (
        await keeper.say("目标体重 68")
        == "目标体重：68 kg，离目标还差 3.4 kg。周报里会显示距离和趋势。"
    )
    assert "离目标体重：3.4 kg" in await keeper.say("今天")
    assert await keeper.say("取消目标体重") == "目标体重已取消。"
    assert "离目标" not in await keeper.say("今天")


async def test_the_review_time_is_set_switched_off_and_on(keeper: Keeper) -> None:
    assert await keeper.say("设置 周报 周六 9:30") == "周报时间：每周六 09:30。这周没有记录就不发。"
    assert "周报" in await keeper.say("提醒")
    assert await keeper.say("关闭 周报") == "周报已关闭。想再收就发「开启 周报」。"
    assert await keeper.say("开启 周报") == "周报时间：每周六 09:30。这周没有记录就不发。"
    assert "设置 周报 周日 20:00" in await keeper.say("设置 周报 20:00")


async def test_a_budget_nudge_comes_once_per_threshold_in_the_next_digest(
    keeper: Keeper,
) -> None:
    """Budget 100: 85 spent is 80% (told once at 21:30), more below 100% tells nothing,
    crossing 100% is told once; no nudge names an amount or a category."""
    await keeper.say("预算 餐饮 100")
    await keeper.say("记账 85 午饭")
    await keeper.say("记账 5 咖啡")
    await run_until(keeper, 0, "21:31")
    assert keeper.sent_to() == [review_text.BUDGET_NUDGES[80]]
    await say_at(keeper, 1, "12:00", "记账 5 午饭")
    await run_until(keeper, 1, "21:31")
    assert len(keeper.sent_to()) == 1  # still under 100%: nothing new
    await say_at(keeper, 2, "12:00", "记账 20 午饭")
    await say_at(keeper, 2, "13:00", "记账 20 晚饭")
    await run_until(keeper, 3, "21:31")
    assert keeper.sent_to() == [review_text.BUDGET_NUDGES[80], review_text.BUDGET_NUDGES[100]]


async def test_a_budget_for_an_unknown_category_is_refused_with_the_categories(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    assert "餐饮、交通" in await keeper.say("预算 宠物 300")
    assert await budgets(engine) == []
    assert "预算已设好：餐饮 每月 200 元" in await keeper.say("预算 外卖 200")


async def test_an_empty_week_sends_no_review_and_a_recorded_one_sends_a_short_push(
    keeper: Keeper,
) -> None:
    """Wednesday 11-25: nothing recorded by Sunday 11-29 20:00, so nothing is sent;
    a weight the next week makes Sunday 12-06's push, which names no number."""
    await keeper.say("帮助")  # a new user: the default rules are made now
    await run_until(keeper, 4, "20:01")
    assert keeper.sent_to() == []
    assert await job_statuses(keeper, "weekly_review") == ["suppressed"]
    await say_at(keeper, 6, "09:00", "体重 70.2")
    await run_until(keeper, 11, "20:01")
    assert keeper.sent_to()[-1] == "本周回看好了，回「周报」看详情"
    assert await job_statuses(keeper, "weekly_review") == ["suppressed", "accepted"]


async def test_moving_a_nagged_task_moves_its_nag_and_adds_no_task_reminder(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    assert "交材料" in await keeper.say("任务 明天 9:00 交材料 直到完成")
    keeper.clock.advance(dt.timedelta(days=10))  # never ticked: the nag still waits
    assert (await keeper.say("周报")).endswith("都挪到下周一（12/7）？回「好」")
    assert "挪到" in await keeper.say("好")
    async with engine.connect() as conn:
        rows = (
            await conn.execute(select(RULES.c.kind, RULES.c.status, RULES.c.next_fire_at))
        ).all()
    nag_at = dt.datetime(2026, 12, 7, 1, 0, tzinfo=dt.UTC)  # 9:00 in Shanghai
    tasks_rules = [(r.kind, r.status) for r in rows if r.kind in ("nag", "task_due")]
    assert tasks_rules == [("nag", "active")]  # no 30-minute reminder beside the nag
    [nag] = [r for r in rows if r.kind == "nag"]
    assert nag.next_fire_at.replace(tzinfo=dt.UTC) == nag_at  # stored as naive UTC


async def test_a_new_category_after_four_weeks_without_it_gets_a_budget_on_yes(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    """Issue 22: four weeks of lunches and no 购物, then 600 元 of it. 「周报」 names it
    and offers a budget at this week's amount (it has no usual to go by); 好 sets it."""
    for _ in range(4):
        await keeper.say("记账 40 午饭")
        keeper.clock.advance(dt.timedelta(days=7))
    await keeper.say("记账 40 午饭")
    await keeper.say("买衣服 600")
    keeper.clock.advance(dt.timedelta(days=3))  # Saturday 12-26: 购物 is this week's

    review = await keeper.say("周报")

    assert "购物 600 元，之前几周没有，多了 600 元。" in review
    assert review.endswith("购物每月定个 600 元的预算？回「好」")
    assert "预算已设好：购物 每月 600 元" in await keeper.say("好")
    assert await budgets(engine) == [("购物", Decimal("600.00"))]
