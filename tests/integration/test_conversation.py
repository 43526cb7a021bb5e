"""Each command end to end through the callback: what the user reads, what is stored."""

from __future__ import annotations

import datetime as dt

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sandbox.wecom_side import WeComSide
from scheduler.clock import FakeClock
from tests.integration.conftest import row_counts


async def say(wecom: WeComSide, text: str, user: str = "alice") -> str:
    reply = await wecom.send_text(user, text)
    assert reply.status == 200
    return reply.text or ""


async def test_weight_is_compared_with_the_previous_one(wecom: WeComSide) -> None:
    assert await say(wecom, "体重 72.4") == "记下了：体重 72.4 kg。"
    assert await say(wecom, "145斤") == "记下了：体重 72.5 kg，比上次+0.1 kg。"
    assert await say(wecom, "体重 72.5") == "记下了：体重 72.5 kg，和上次一样。"


async def test_water_counts_per_local_day_and_never_goes_below_zero(
    wecom: WeComSide, clock: FakeClock
) -> None:
    assert await say(wecom, "喝水 +2") == "喝水 +2，今天第 2 杯。"
    assert await say(wecom, "喝水 -3") == "已减去 3 杯，今天共 0 杯水。"
    clock.set(dt.datetime(2026, 11, 25, 16, 30, tzinfo=dt.UTC))  # 00:30 the next day in Shanghai
    assert await say(wecom, "喝水") == "喝水 +1，今天第 1 杯。"


async def test_an_expense_and_an_income_are_booked_with_category_and_note(wecom: WeComSide) -> None:
    assert await say(wecom, "支出 35.5 交通 打车") == "记账：支出 35.50 元（交通 打车）。"
    assert await say(wecom, "收入 8000 工资") == "记账：收入 8000.00 元（工资）。"
    month = await say(wecom, "本月")
    assert "支出 35.50 元" in month
    assert "交通 35.50 元" in month
    assert "收入 8000.00 元" in month


async def test_tasks_get_short_numbers_and_close_by_number_or_title(wecom: WeComSide) -> None:
    assert (await say(wecom, "任务 周五 提交材料")).startswith("已添加待办 1：提交材料，后天")
    assert (await say(wecom, "待办 买菜")).startswith("已添加待办 2：买菜。")
    assert await say(wecom, "完成 1") == "完成：提交材料 ✓\n还有 1 项待办。"
    assert (await say(wecom, "任务 复印材料")).startswith("已添加待办 1：复印材料")
    assert await say(wecom, "取消 买菜") == "已取消：买菜\n还有 1 项待办。"
    assert await say(wecom, "完成 9") == "没有找到编号 9 的待办。发「任务」看看列表。"


async def test_a_title_matching_several_tasks_asks_for_a_number(wecom: WeComSide) -> None:
    await say(wecom, "任务 交材料")
    await say(wecom, "任务 复印材料")
    reply = await say(wecom, "完成 材料")
    assert reply.startswith("有 2 项待办都含「材料」")
    assert "完成 1" in reply


async def test_the_task_list_shows_numbers_and_due_days(wecom: WeComSide) -> None:
    await say(wecom, "任务 明天 15:00 交材料")
    await say(wecom, "任务 买菜")
    assert await say(wecom, "任务") == (
        "待办 2 项：\n1 交材料（明天 15:00）\n2 买菜\n完成发「完成 编号」，取消发「取消 编号」。"
    )


async def test_an_event_is_stored_in_utc_and_shown_in_local_time(
    wecom: WeComSide, engine: AsyncEngine
) -> None:
    reply = await say(wecom, "日程 今天 14:00-15:00 复诊 提前15分钟")
    assert reply == "已加入日程 1：今天 14:00-15:00 复诊。\n13:45 提醒你。"
    assert "14:00-15:00 复诊" in await say(wecom, "今天")
    assert (await row_counts(engine))["calendar_events"] == 1


async def test_an_all_day_event_says_so(wecom: WeComSide) -> None:
    assert await say(wecom, "日程 明天 体检") == "已加入日程 1：明天 全天 体检。"


async def test_today_shows_overdue_tasks_first_and_counts_the_rest(
    wecom: WeComSide, clock: FakeClock
) -> None:
    await say(wecom, "任务 今天 交材料")
    await say(wecom, "任务 下周一 写总结")
    clock.advance(dt.timedelta(days=1))
    today = await say(wecom, "今天")
    assert "1 交材料（逾期，11月25日）" in today
    await say(wecom, "完成 1")
    assert "今天没有到期的（另有 1 项" in await say(wecom, "今天")


async def test_the_week_compares_weight_and_spending_with_the_week_before(
    wecom: WeComSide, clock: FakeClock
) -> None:
    clock.set(dt.datetime(2026, 11, 18, 2, 0, tzinfo=dt.UTC))  # Wednesday of the week before
    await say(wecom, "记账 20 午饭")
    clock.set(dt.datetime(2026, 11, 23, 2, 0, tzinfo=dt.UTC))  # Monday
    await say(wecom, "体重 73")
    await say(wecom, "记账 30 午饭")
    await say(wecom, "喝水 +3")
    clock.set(dt.datetime(2026, 11, 25, 2, 0, tzinfo=dt.UTC))  # Wednesday
    await say(wecom, "体重 72.2")
    await say(wecom, "任务 交材料")
    await say(wecom, "完成 1")
    week = await say(wecom, "本周")
    assert week.splitlines() == [
        "本周 11月23日-11月29日",
        "体重 73 → 72.2 kg（-0.8 kg），最低 72.2，最高 73",
        "支出 30.00 元（上周 20.00 元）",
        "  餐饮 30.00 元（上周 20.00 元）",
        "完成待办 1 项",
        "喝水（杯）周一 3 · 周二 0 · 周三 0",
    ]


async def test_undo_reopens_a_completed_task_and_removes_a_created_one(
    wecom: WeComSide, engine: AsyncEngine
) -> None:
    await say(wecom, "任务 交材料")
    await say(wecom, "完成 1")
    assert await say(wecom, "撤销") == "已撤销，待办 1 交材料 重新打开。"
    assert await say(wecom, "撤销") == "已撤销：任务 交材料。"
    assert (await row_counts(engine))["tasks"] == 0


async def test_users_never_see_each_others_records(wecom: WeComSide) -> None:
    await say(wecom, "体重 60", user="alice")
    await say(wecom, "记账 99 书", user="bob")
    alice_today = await say(wecom, "今天", user="alice")
    assert "支出 0.00 元" in alice_today
    assert "体重：还没记录" in await say(wecom, "今天", user="bob")
    assert await say(wecom, "撤销", user="bob") == "已撤销：记账 99 书。"


async def test_a_check_in_time_is_clamped_to_the_freshness_window(
    wecom: WeComSide, clock: FakeClock
) -> None:
    two_days_ago = wecom.now() - 2 * 86400
    reply = await wecom.send_text("alice", "喝水", create_time=two_days_ago)
    assert reply.text == "喝水 +1，今天第 1 杯。"  # counted today, not two days back
