"""Issue 19 end to end: things named in plain words are found, and the issue's
examples do what they say, through encrypted callbacks on a real database.

The clock starts on Wednesday 2026-11-25 10:00 in Shanghai (the users' zone).
"""

from __future__ import annotations

from sqlalchemy import Table, func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.models import EVENTS, LEDGER, MEASUREMENTS
from storage.review_models import BUDGETS
from tests.acceptance.conftest import Keeper


async def count(engine: AsyncEngine, table: Table, *where: object) -> int:
    query = select(func.count()).select_from(table)
    for condition in where:
        query = query.where(condition)  # type: ignore[arg-type]
    async with engine.connect() as conn:
        return int((await conn.execute(query)).scalar_one())


async def test_a_reminder_is_deleted_by_its_title(keeper: Keeper) -> None:
    await keeper.say("提醒 每天 22:00 吃药")
    await keeper.say("提醒 每天 7:00 跑步")

    deleted = await keeper.say("把吃药那个提醒删了")
    listed = await keeper.say("提醒")
    unknown = await keeper.say("把喝茶那个提醒删了")

    assert "已删除" in deleted
    assert "吃药" not in listed
    assert "跑步" in listed
    assert "喝茶" in unknown


async def test_a_reminder_named_with_another_verb_is_found_by_its_thing(keeper: Keeper) -> None:
    await keeper.say("提醒 每天 21:00 吃维生素")
    await keeper.say("提醒 每月15号 9:00 养老保险")

    paused = await keeper.say("把喂维生素那个提醒停几天")
    deleted = await keeper.say("交养老保险的提醒删掉吧")
    listed = await keeper.say("提醒")

    assert "已暂停" in paused
    assert "已删除" in deleted
    assert "养老保险" not in listed


async def test_a_reminder_is_paused_by_its_number_in_words(keeper: Keeper) -> None:
    await keeper.say("提醒 每天 22:00 吃药")

    paused = await keeper.say("提醒1先停一下")

    assert "已暂停" in paused


async def test_two_reminders_with_the_title_are_asked_by_number(keeper: Keeper) -> None:
    await keeper.say("提醒 每天 8:00 吃药")
    await keeper.say("提醒 每天 20:00 吃药")

    answer = await keeper.say("吃药的提醒删掉")

    assert "2 个提醒" in answer
    assert "08:00" in answer
    assert "20:00" in answer
    assert "请用编号" in answer


async def test_an_event_is_cancelled_by_its_title_and_day(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    await keeper.say("日程 明天 10:00 开会")
    await keeper.say("日程 周五 10:00 开会")

    cancelled = await keeper.say("明天的会取消了")
    events = await keeper.say("日程")

    assert "已取消日程" in cancelled
    assert "11月27日" in events or "周五" in events
    assert await count(engine, EVENTS) == 2  # cancelled, not deleted


async def test_a_thing_called_off_that_is_no_task_cancels_the_event_of_that_name(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    await keeper.say("日程 周五 15:00 体测")
    await keeper.say("待办 周五 买跑鞋")

    cancelled = await keeper.say("体测取消了")
    unknown = await keeper.say("游泳取消了")
    tasks = await keeper.say("待办")

    assert "已取消日程" in cancelled
    assert "体测" in cancelled
    assert "游泳" in unknown
    assert "买跑鞋" in tasks  # the task of another name is left alone
    assert await count(engine, EVENTS) == 1  # cancelled, not deleted


async def test_a_thing_named_with_more_words_or_another_verb_is_found(keeper: Keeper) -> None:
    await keeper.say("日程 周五 10:00 疫苗第二针")
    await keeper.say("日程 周六 9:00 钢琴课")
    await keeper.say("待办 回款")
    await keeper.say("日程 周四 16:00 甲方视频会")

    moved = await keeper.say("打疫苗那个改到下午四点")
    cancelled = await keeper.say("孙女钢琴课这周不上了 日程删一下")
    done = await keeper.say("供应商回款打过去了")
    called_off = await keeper.say("取消跟甲方的视频会")

    assert "16:00" in moved
    assert "疫苗第二针" in moved
    assert "已取消日程" in cancelled
    assert "钢琴课" in cancelled
    assert "回款" in done
    assert "没有" not in done
    assert "已取消日程" in called_off
    assert "甲方视频会" in called_off


async def test_a_red_packet_given_is_an_expense(keeper: Keeper, engine: AsyncEngine) -> None:
    reply = await keeper.say("给侄子包了个红包 200")

    assert "支出 200.00 元（人情" in reply
    assert await count(engine, LEDGER) == 1


async def test_a_budget_sentence_sets_a_budget_and_records_nothing(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    reply = await keeper.say("娱乐每月最多花500")

    assert "娱乐" in reply
    assert "500" in reply
    assert await count(engine, LEDGER) == 0
    assert await count(engine, BUDGETS) == 1


async def test_a_remark_records_nothing(keeper: Keeper, engine: AsyncEngine) -> None:
    reply = await keeper.say("楼下新开的火锅店人均120")

    assert "记账" not in reply
    assert await count(engine, LEDGER) == 0


async def test_a_weight_with_extra_words_is_a_weight(keeper: Keeper, engine: AsyncEngine) -> None:
    reply = await keeper.say("我现在66.6kg")

    assert "66.6" in reply
    assert await count(engine, MEASUREMENTS) == 1
    assert await count(engine, LEDGER) == 0


async def test_a_trailing_every_day_makes_the_reminder_recur(keeper: Keeper) -> None:
    reply = await keeper.say("早上八点提醒我吃早饭，每天")

    assert "每天" in reply
    assert "吃早饭" in reply
    assert "每天" not in reply.split("吃早饭")[1][:3]  # not in the title


async def test_a_thing_done_in_plain_past_tense_finds_its_task_said_another_way(
    keeper: Keeper,
) -> None:
    await keeper.say("任务 周五 取快递")

    done = await keeper.say("快递拿到了")  # read as 拿快递; found as 快递
    listed = await keeper.say("任务")

    assert "取快递" in done
    assert "取快递" not in listed
