"""Issue 9 end to end: people type as they type, keeper understands, asks when unsure,
and a `是` records the guess exactly once, through encrypted callbacks.

The clock starts on Wednesday 2026-11-25 10:00 in Shanghai (the users' zone).
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import Table, func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.models import EVENTS, LEDGER, MEASUREMENTS, TASKS, WATER_CHECKINS
from tests.acceptance.conftest import Keeper


async def count(engine: AsyncEngine, table: Table) -> int:
    async with engine.connect() as conn:
        return int((await conn.execute(select(func.count()).select_from(table))).scalar_one())


async def test_a_lone_number_is_asked_and_yes_records_it_once(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    question = await keeper.say("35")
    assert question == "记一笔支出 35.00 元（其他）？回「是」记下"
    assert await count(engine, LEDGER) == 0

    first = await keeper.wecom.send_text("alice", "是", msg_id=9001)
    retried = await keeper.wecom.send_text("alice", "是", msg_id=9001)

    assert first.text == "记账：支出 35.00 元（其他）。"
    assert retried.text == first.text
    assert await count(engine, LEDGER) == 1
    assert "支出 35.00 元" in await keeper.say("今天")


async def test_a_guess_is_dropped_by_any_other_message(keeper: Keeper, engine: AsyncEngine) -> None:
    assert "回「是」记下" in await keeper.say("称了一下 140")
    view = await keeper.say("今天")
    late_yes = await keeper.say("是")

    assert view.startswith("今天 11月25日")
    assert late_yes.startswith("没看懂")
    assert await count(engine, MEASUREMENTS) == 0


async def test_a_yes_after_ten_minutes_records_nothing(keeper: Keeper, engine: AsyncEngine) -> None:
    assert "记体重 72.4 kg" in await keeper.say("72.4")
    keeper.clock.advance(dt.timedelta(minutes=11))

    await keeper.say("好")

    assert await count(engine, MEASUREMENTS) == 0


async def test_a_guess_belongs_to_the_user_it_was_asked(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    await keeper.say("48", user="alice")
    await keeper.say("是", user="bob")
    assert await count(engine, LEDGER) == 0
    assert (await keeper.say("嗯", user="alice")).startswith("记账：支出 48.00 元")
    assert await count(engine, LEDGER) == 1


async def test_the_nine_phrases_of_the_issue_are_understood_recorded_once_and_visible(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    await keeper.say("待办 取快递")

    assert await keeper.say("晚饭 48") == "记账：支出 48.00 元（餐饮 晚饭）。"
    assert "体重 70.1 kg" in await keeper.say("称了下 70.1")
    assert "喝水 +3" in await keeper.say("喝了三杯水")
    assert await keeper.say("地铁 4块") == "记账：支出 4.00 元（交通 地铁）。"
    undone = await keeper.say("刚才记错了")
    assert "完成：取快递" in await keeper.say("取快递搞定了")
    daily = await keeper.say("每天早上七点半提醒我吃维生素")
    later = await keeper.say("四十分钟后提醒我关烤箱")
    week = await keeper.say("这周花了多少")

    assert "地铁 4块" in undone
    assert "吃维生素" in daily
    assert "07:30" in daily
    assert "关烤箱" in later
    assert "10:40" in later
    assert week.startswith("本周")
    assert "48.00" in week
    assert await count(engine, LEDGER) == 1
    assert await count(engine, MEASUREMENTS) == 1
    assert await count(engine, WATER_CHECKINS) == 1
    assert await count(engine, TASKS) == 1
    today = await keeper.say("今天")
    assert "体重 70.1 kg" in today
    assert "喝水 3 杯" in today
    assert "支出 48.00 元" in today


async def test_an_unreadable_message_gets_three_short_lines(keeper: Keeper) -> None:
    for text in ("今天天气真好呀", "asdfgh", "我想想", "72.4 磅"):
        reply = await keeper.say(text)
        assert len(reply.splitlines()) <= 3, reply
        assert len(reply.encode()) <= 300, reply
        assert "帮助" in reply


async def test_help_is_a_short_menu_with_a_page_per_topic(keeper: Keeper) -> None:
    menu = await keeper.say("帮助")
    pages = [await keeper.say(f"帮助 {topic}") for topic in ("记账", "提醒", "喝水", "待办")]

    assert "帮助 记账" in menu
    for page in (menu, *pages):
        assert len(page.encode()) < 1024, page
        assert len(page.splitlines()) <= 6, page
    assert "午饭 35" in pages[0]
    assert "每天早上七点半提醒我吃维生素" in pages[1]


async def test_a_day_and_a_title_without_a_verb_is_asked_as_a_task(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    question = await keeper.say("周五交材料")
    assert question == "加待办：交材料，后天？回「是」记下"
    assert await count(engine, TASKS) == 0
    assert "已添加待办" in await keeper.say("对")
    assert await count(engine, TASKS) == 1
    assert await count(engine, EVENTS) == 0


async def test_an_event_is_moved_by_its_title(keeper: Keeper, engine: AsyncEngine) -> None:
    await keeper.say("日程 周四 14:00-15:00 复诊")
    await keeper.say("日程 周五 10:00 开会")

    moved = await keeper.say("把复诊改到周六下午3点")
    unknown = await keeper.say("把体检改到周六")
    asked = await keeper.say("开会改到3点")
    confirmed = await keeper.say("是")

    assert "11月28日" in moved
    assert "15:00-16:00" in moved  # the length is kept
    assert "复诊" in moved
    assert "体检" in unknown
    assert asked == "把日程「开会」改到 15:00？回「是」记下"
    assert "15:00" in confirmed
    assert "开会" in confirmed
    assert await count(engine, EVENTS) == 2


async def test_a_no_drops_the_guess_and_says_so(keeper: Keeper, engine: AsyncEngine) -> None:
    await keeper.say("35")
    assert await keeper.say("不") == "好的，没有记。"
    assert (await keeper.say("是")).startswith("没看懂")
    assert await count(engine, LEDGER) == 0
