"""Water reminders end to end: encrypted callbacks in, ticks, fake WeCom traffic out."""

from __future__ import annotations

import datetime as dt

from scheduler import messages
from tests.acceptance.conftest import Keeper

HOUR = dt.timedelta(hours=1)


async def test_enabling_schedules_one_reminder_that_is_sent_once(keeper: Keeper) -> None:
    reply = await keeper.say("开启 喝水")
    assert reply.startswith("喝水提醒已开启，下次提醒 12:00")  # 10:00 + 120 min
    assert (await keeper.tick()).claimed == 0
    keeper.clock.advance(2 * HOUR)
    await keeper.tick()
    await keeper.tick()
    assert keeper.sent_to() == [messages.WATER_REMINDER]


async def test_after_a_reminder_the_plan_waits_for_a_check_in(keeper: Keeper) -> None:
    await keeper.say("开启 喝水")
    keeper.clock.advance(2 * HOUR)
    await keeper.tick()
    keeper.clock.advance(5 * HOUR)
    await keeper.tick()
    assert len(keeper.sent_to()) == 1
    assert "等你回复「喝水」" in await keeper.say("提醒")
    reply = await keeper.say("喝水")
    assert reply == "喝水 +1，今天第 1 杯。\n下次提醒 19:00。"
    keeper.clock.advance(2 * HOUR)
    await keeper.tick()
    assert len(keeper.sent_to()) == 2


async def test_a_check_in_before_the_reminder_moves_it(keeper: Keeper) -> None:
    await keeper.say("开启 喝水")
    keeper.clock.advance(HOUR)
    assert (await keeper.say("喝水")).endswith("下次提醒 13:00。")
    keeper.clock.advance(HOUR)
    await keeper.tick()
    assert keeper.sent_to() == []
    keeper.clock.advance(HOUR)
    await keeper.tick()
    assert len(keeper.sent_to()) == 1


async def test_after_closing_nothing_is_ever_sent(keeper: Keeper) -> None:
    await keeper.say("开启 喝水")
    keeper.clock.advance(2 * HOUR)
    await keeper.tick()  # one reminder
    await keeper.say("喝水")
    assert (await keeper.say("关闭 喝水")).startswith("喝水提醒已关闭")
    for _ in range(6):
        keeper.clock.advance(2 * HOUR)
        await keeper.tick()
    assert len(keeper.sent_to()) == 1


async def test_a_hanging_api_makes_the_send_unknown_pauses_the_plan_and_says_so(
    keeper: Keeper,
) -> None:
    await keeper.say("开启 喝水")
    keeper.api.hang_next(delivered=True)
    keeper.clock.advance(2 * HOUR)
    report = await keeper.tick()
    assert report.outcomes == {"unknown": 1}
    keeper.clock.advance(4 * HOUR)
    await keeper.tick()
    assert len(keeper.sent_to()) == 1  # delivered once by the hung call, never resent
    reply = await keeper.say("今天")
    assert "提醒先暂停了" in reply
    assert "提醒先暂停了" not in await keeper.say("今天")  # said once
    assert "已暂停" in await keeper.say("提醒")
