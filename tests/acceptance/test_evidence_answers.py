"""Which answer raises which delivery to `received`, and how a bare `收到` is read while
a nag and a channel test both wait (issue 22 item 1; `services.evidence`'s rule).
Through the chat, the tick and the fake WeCom API, on the fake clock (Wednesday
2026-11-25 10:00, Shanghai)."""

from __future__ import annotations

from sqlalchemy import select

from scheduler.core import cards
from storage.delivery_models import JOBS
from tests.acceptance.conftest import Keeper
from tests.acceptance.test_reminders import click, run_until, say_at, task_id


async def evidence(keeper: Keeper, kind: str) -> list[str | None]:
    """The evidence of every job of this payload kind, oldest slot first."""
    stmt = select(JOBS.c.evidence).where(JOBS.c.payload_kind == kind)
    async with keeper.scheduler.database.transaction() as session:
        rows = await session.execute(stmt.order_by(JOBS.c.scheduled_slot_utc, JOBS.c.id))
        return list(rows.scalars())


async def test_with_a_nag_nagging_shou_dao_answers_it_and_the_test_waits_for_its_own_word(
    keeper: Keeper,
) -> None:
    await keeper.say("提醒 今天 11:00 交材料 直到完成")
    await run_until(keeper, 0, "11:01")
    await say_at(keeper, 0, "11:02", "测试 渠道")
    await run_until(keeper, 0, "11:03")
    assert keeper.sent_to()[-1].startswith("keeper 渠道测试（企业微信应用）")

    answered = await say_at(keeper, 0, "11:04", "收到")
    assert answered.splitlines() == [
        "好的，不再提醒：交材料",
        "（渠道测试还在等确认：看到了就回复「收到 企业微信应用」。）",
    ]
    assert await evidence(keeper, "nag") == ["received"]
    assert await evidence(keeper, "channel_test") == ["accepted"]  # a test proves itself on 收到
    assert (
        await keeper.say("收到 企业微信应用") == "好的，记下了：企业微信应用 的消息能到你手机上。"
    )
    assert "在手机上确认收到过测试" in await keeper.say("设置 渠道")


async def test_a_test_not_answered_within_thirty_minutes_confirms_nothing(keeper: Keeper) -> None:
    await keeper.say("测试 渠道")
    await keeper.tick()
    assert "10:00 发了测试，等回复「收到」" in await say_at(keeper, 0, "10:20", "设置 渠道")
    late = await say_at(keeper, 0, "10:31", "收到")
    assert "好的，记下了" not in late
    shown = await keeper.say("设置 渠道")
    assert "测试过，没有确认收到" in shown


async def test_a_task_card_button_raises_its_reminder_to_received(keeper: Keeper) -> None:
    await keeper.say("设置 卡片 开")
    await keeper.say("任务 今天 14:00 交报告")
    await run_until(keeper, 0, "13:30")
    assert await evidence(keeper, "task_due") == ["accepted"]
    [card] = keeper.api.messages_to("alice")
    key = cards.task_key("done", await task_id(keeper, "交报告"))
    await click(keeper, card, key, keeper.api.issue_click_code(card), keeper.wecom.now())
    assert await evidence(keeper, "task_due") == ["received"]


async def test_a_digest_is_not_answered_by_a_check_in(keeper: Keeper) -> None:
    await keeper.say("任务 明天 交报告")  # something for the morning digest to say
    await run_until(keeper, 1, "08:01")
    assert await evidence(keeper, "digest_morning") == ["accepted"]
    await keeper.say("喝了一杯水")
    assert await evidence(keeper, "digest_morning") == ["accepted"]  # a digest asks nothing
