"""Nag until done (issue 12): `提醒 今天 HH:MM 吃药 直到完成` through the chat, the tick
and the fake WeCom API, on the fake clock (Wednesday 2026-11-25 10:00, Shanghai).

The user's answer is the only receipt: the repeats go out every interval until
`完成` / `收到` / the card's 知道了, or until the cap, whose last message says it stops.
"""

from __future__ import annotations

from sqlalchemy import update

from handlers import texts
from scheduler.core import cards
from storage.delivery_models import RULES
from tests.acceptance.conftest import Keeper
from tests.acceptance.test_reminders import (
    buttons,
    click,
    job_statuses,
    local,
    run_until,
    say_at,
    sent_at,
)
from tests.acceptance.test_water_reminders import _fake_recent_sends


async def test_a_nag_repeats_at_its_interval_and_stops_on_done(keeper: Keeper) -> None:
    added = await keeper.say("提醒 今天 14:30 吃药 直到完成")
    assert "每 10 分钟再提醒，最多提醒 6 次（含第一次）" in added
    await run_until(keeper, 0, "14:55")
    assert sent_at(keeper) == [local(0, "14:30"), local(0, "14:40"), local(0, "14:50")]
    assert keeper.sent_to()[0].startswith("⏰ 提醒：吃药")
    assert keeper.sent_to()[2].startswith("⏰ 再次提醒：吃药")
    assert await say_at(keeper, 0, "14:56", "完成") == "好的，不再提醒：吃药"
    await run_until(keeper, 0, "16:00")
    assert len(keeper.sent_to()) == 3  # none after the answer
    assert "吃药" not in await keeper.say("提醒")  # the rule is done


async def test_a_nag_with_its_own_interval_stops_at_the_cap_and_says_so(keeper: Keeper) -> None:
    await keeper.say("提醒 今天 11:00 交材料 直到完成 每5分钟 最多3次")
    await run_until(keeper, 0, "12:00")
    assert sent_at(keeper) == [local(0, "11:00"), local(0, "11:05"), local(0, "11:10")]
    assert keeper.sent_to()[-1] == "⏰ 最后一次提醒：交材料，之后不再提醒"
    assert await job_statuses(keeper, "nag") == ["accepted"] * 3
    # 收到 after the cap has nothing to stop: it says so
    assert await keeper.say("收到") == texts.NAG_ALREADY_OVER


async def test_shou_dao_answers_the_nag_that_fired_last(keeper: Keeper) -> None:
    await keeper.say("提醒 今天 11:00 交材料 直到完成")
    await keeper.say("下午3点提醒我吃药 每隔15分钟提醒一次 直到我回复收到")
    await run_until(keeper, 0, "11:01")
    assert await keeper.say("收到") == "好的，不再提醒：交材料"  # 吃药 has not fired yet
    await run_until(keeper, 0, "15:20")
    assert await keeper.say("收到了") == "好的，不再提醒：吃药"
    await run_until(keeper, 0, "17:00")
    assert sent_at(keeper) == [local(0, "11:00"), local(0, "15:00"), local(0, "15:15")]


async def test_income_said_with_shou_dao_is_still_income_while_a_nag_runs(keeper: Keeper) -> None:
    await keeper.say("提醒 今天 11:00 交材料 直到完成")
    await run_until(keeper, 0, "11:01")
    assert "8000" in await keeper.say("收到工资 8000")
    await run_until(keeper, 0, "11:10")
    assert len(keeper.sent_to()) == 2  # still nagging


async def test_no_repeat_goes_out_in_quiet_time_and_one_comes_after_it(keeper: Keeper) -> None:
    await keeper.say("提醒 今天 11:00 交材料 直到完成")
    await run_until(keeper, 0, "11:05")
    assert "11:35" in await keeper.say("免打扰 30分钟")
    await run_until(keeper, 0, "11:45")
    # 11:10, 11:20, 11:30 dropped (they count toward the cap); 11:40 is the next one
    assert sent_at(keeper) == [local(0, "11:00"), local(0, "11:40")]
    assert (await job_statuses(keeper, "nag"))[:5] == [  # then 11:50, made early, waits
        "accepted",
        "suppressed",
        "suppressed",
        "suppressed",
        "accepted",
    ]


async def test_the_nag_cards_button_stops_it_and_greys_out(keeper: Keeper) -> None:
    await keeper.say("设置 卡片 开")
    await keeper.say("提醒 今天 11:00 交材料 直到完成")
    await run_until(keeper, 0, "11:00")
    [card] = keeper.api.messages_to("alice")
    assert buttons(card) == ["知道了"]
    key = card.payload["template_card"]["button_list"][0]["key"]
    action = cards.parse_key(key)
    assert action is not None
    assert (action.kind, action.action) == ("nag", "ack")
    code = keeper.api.issue_click_code(card)
    assert await click(keeper, card, key, code, keeper.wecom.now()) == "好的，不再提醒：交材料"
    await keeper.tick()  # greys out the card
    await run_until(keeper, 0, "12:00")
    assert len(keeper.api.messages_to("alice")) == 1
    assert [u.replace_name for u in keeper.api.card_updates] == ["已收到"]


async def test_a_nag_is_listed_and_can_be_paused_and_resumed_where_the_clock_is(
    keeper: Keeper,
) -> None:
    added = await keeper.say("提醒 今天 11:00 交材料 直到完成")
    listed = await keeper.say("提醒")
    assert "交材料（直到完成，每10分钟）" in listed
    assert "11:00" in listed
    await run_until(keeper, 0, "11:05")
    number = added.split("提醒 ")[1].split("：")[0]
    assert "已暂停" in await keeper.say(f"暂停 提醒 {number}")
    await run_until(keeper, 0, "11:25")
    assert "11:30" in await keeper.say(f"恢复 提醒 {number}")
    await run_until(keeper, 0, "11:35")
    assert sent_at(keeper) == [local(0, "11:00"), local(0, "11:30")]


async def test_a_tasks_nag_stops_when_the_task_is_completed_by_number(keeper: Keeper) -> None:
    added = await keeper.say("任务 今天 14:30 交材料 直到完成 每15分钟")
    assert "每 15 分钟再提醒" in added
    await run_until(keeper, 0, "14:50")
    assert sent_at(keeper) == [local(0, "14:30"), local(0, "14:45")]
    done = await say_at(keeper, 0, "14:52", "完成 1")
    assert done.startswith("完成：交材料 ✓")
    assert done.endswith("不再提醒。")
    await run_until(keeper, 0, "16:00")
    assert len(keeper.sent_to()) == 2


async def test_a_bare_done_completes_the_nagged_task_and_shou_dao_only_stops_the_nag(
    keeper: Keeper,
) -> None:
    await keeper.say("任务 今天 11:00 交材料 直到完成")
    await keeper.say("任务 今天 11:05 取快递 直到完成")
    await run_until(keeper, 0, "11:06")
    assert await keeper.say("收到") == "好的，不再提醒：取快递"  # the message seen last
    assert "取快递" in await keeper.say("任务")  # 收到 stopped the nag, not the task
    # 完成 after 收到 still means the task its message named (做完回复「完成」)
    assert (await keeper.say("完成")).startswith("完成：取快递 ✓")
    await run_until(keeper, 0, "11:11")
    assert (await keeper.say("完成")).startswith("完成：交材料 ✓")  # its 11:10 repeat
    await run_until(keeper, 0, "12:00")
    assert sent_at(keeper) == [local(0, "11:00"), local(0, "11:05"), local(0, "11:10")]


async def test_a_bare_done_completes_a_task_whose_nag_ran_out(keeper: Keeper) -> None:
    await keeper.say("任务 今天 11:00 交材料 直到完成 最多2次")
    await run_until(keeper, 0, "11:30")
    assert keeper.sent_to()[-1].startswith("⏰ 最后一次提醒：交材料")
    assert (await keeper.say("完成")).startswith("完成：交材料 ✓")
    assert (await keeper.say("任务")).startswith("没有待办")


async def test_a_done_word_to_a_plain_nag_that_ran_out_keeps_its_old_meaning(
    keeper: Keeper,
) -> None:
    await keeper.say("任务 明天 取快递")
    await keeper.say("提醒 今天 11:00 交材料 直到完成 每5分钟 最多2次")
    await run_until(keeper, 0, "11:30")
    assert await keeper.say("完成") == texts.task_ref_missing("完成")  # which task?
    assert await keeper.say("收到") == texts.NAG_ALREADY_OVER  # a stop word: it had ended
    assert "取快递" in await keeper.say("任务")


async def test_done_to_one_message_of_a_plain_and_a_task_nag_completes_and_stops_both(
    keeper: Keeper,
) -> None:
    await keeper.say("提醒 今天 11:00 吃药 直到完成")
    await keeper.say("任务 今天 11:00 交材料 直到完成")
    await run_until(keeper, 0, "11:01")
    assert len(keeper.sent_to()) == 1  # one message about both
    assert (await keeper.say("完成")).startswith("完成：交材料 ✓")
    await run_until(keeper, 0, "12:00")
    assert len(keeper.sent_to()) == 1  # the plain nag stopped with it
    assert "吃药" not in await keeper.say("提醒")


async def test_done_to_one_message_about_two_tasks_asks_which(keeper: Keeper) -> None:
    await keeper.say("任务 今天 11:00 交材料 直到完成")
    await keeper.say("任务 今天 11:00 取快递 直到完成")
    await run_until(keeper, 0, "11:01")
    assert len(keeper.sent_to()) == 1
    assert await keeper.say("完成") == texts.task_ref_missing("完成")
    listed = await keeper.say("任务")
    assert "交材料" in listed
    assert "取快递" in listed


async def test_shou_dao_means_the_nag_that_sent_last_not_the_one_that_started_last(
    keeper: Keeper,
) -> None:
    await keeper.say("提醒 今天 11:00 交材料 直到完成")
    await keeper.say("提醒 今天 11:05 吃药 直到完成 每30分钟")
    await run_until(keeper, 0, "11:11")  # 吃药 started later, 交材料 sent at 11:10
    assert await keeper.say("收到") == "好的，不再提醒：交材料"
    await run_until(keeper, 0, "11:40")
    assert sent_at(keeper)[-1] == local(0, "11:35")  # 吃药 still nags


async def test_shou_dao_to_a_nag_that_ended_says_so_and_leaves_the_other(keeper: Keeper) -> None:
    await keeper.say("提醒 今天 10:30 吃药 直到完成 每60分钟")
    await keeper.say("提醒 今天 11:00 交材料 直到完成 每5分钟 最多2次")
    await run_until(keeper, 0, "11:06")  # 交材料's last message went out at 11:05
    assert await keeper.say("收到") == texts.NAG_ALREADY_OVER
    await run_until(keeper, 0, "11:31")
    assert sent_at(keeper)[-1] == local(0, "11:30")  # 吃药 was not stopped


async def test_one_answer_to_two_nags_that_left_as_one_message_stops_both(
    keeper: Keeper,
) -> None:
    await keeper.say("提醒 今天 11:00 交材料 直到完成")
    await keeper.say("提醒 今天 11:00 取快递 直到完成")
    await run_until(keeper, 0, "11:01")
    [both] = keeper.sent_to()
    assert "交材料" in both
    assert "取快递" in both
    assert await keeper.say("收到") == "好的，不再提醒：交材料、取快递"
    await run_until(keeper, 0, "12:00")
    assert len(keeper.sent_to()) == 1


async def test_a_tasks_nag_card_completes_the_task(keeper: Keeper) -> None:
    await keeper.say("设置 卡片 开")
    await keeper.say("任务 今天 11:00 交材料 直到完成")
    await run_until(keeper, 0, "11:00")
    [card] = keeper.api.messages_to("alice")
    assert buttons(card) == ["完成", "明天再说"]
    key = card.payload["template_card"]["button_list"][0]["key"]
    code = keeper.api.issue_click_code(card)
    done = await click(keeper, card, key, code, keeper.wecom.now())
    assert done.startswith("完成：交材料 ✓")
    await run_until(keeper, 0, "12:00")
    assert len(keeper.api.messages_to("alice")) == 1


async def test_putting_a_nagged_task_off_to_tomorrow_starts_the_nag_over_then(
    keeper: Keeper,
) -> None:
    await keeper.say("任务 今天 11:00 交材料 直到完成 最多2次")
    await run_until(keeper, 0, "11:05")
    assert "明天" in await keeper.say("明天再说 1")
    assert "交材料" not in " ".join(keeper.sent_to()[1:])
    await run_until(keeper, 1, "11:30")
    nagged = [m.received_at for m in keeper.api.messages_to("alice") if "最后一次" in m.content]
    assert nagged == [local(1, "11:10")]  # the second and last of tomorrow's two
    about = [m.received_at for m in keeper.api.messages_to("alice") if m.content.startswith("⏰")]
    assert about == [local(0, "11:00"), local(1, "11:00"), local(1, "11:10")]  # no 10:30 one


async def test_undoing_a_nagged_task_takes_its_nag_with_it(keeper: Keeper) -> None:
    await keeper.say("任务 今天 11:00 交材料 直到完成")
    await keeper.say("撤销")
    assert "交材料" not in await keeper.say("提醒")
    await run_until(keeper, 0, "12:00")
    assert not [m for m in keeper.sent_to() if m.startswith("⏰")]


async def test_the_answer_words_the_grammar_promises_stop_a_nag(keeper: Keeper) -> None:
    assert "没看懂" in await keeper.say("搞定了")  # no nag has sent: not understood, as before
    await keeper.say("提醒 今天 11:00 交材料 直到我说搞定")
    await run_until(keeper, 0, "11:01")
    assert await keeper.say("搞定了") == "好的，不再提醒：交材料"
    await keeper.say("任务 今天 12:00 写周报 直到我说做完")
    await run_until(keeper, 0, "12:01")
    assert (await keeper.say("做完了")).startswith("完成：写周报 ✓")  # the task is done
    assert await keeper.say("搞定") == texts.miss("搞定")  # the task is done: as before nags
    assert await keeper.say("收到") == texts.NAG_ALREADY_OVER  # the last one has ended


async def test_a_nag_an_outage_swallowed_whole_is_told_once(keeper: Keeper) -> None:
    await keeper.say("提醒 今天 11:00 交材料 直到完成")
    keeper.clock.set(local(0, "12:30"))  # the worker was down from 10:00 to 12:30
    await run_until(keeper, 0, "12:40")
    assert keeper.sent_to() == []  # every repeat expired or was superseded: no burst
    reply = await keeper.say("今天")
    assert reply.splitlines()[-1] == "（有 1 条提醒过了时间没能发出：11:00 交材料。没有补发。）"
    assert "没能发出" not in await keeper.say("今天")  # told once


async def test_a_nag_that_was_seen_is_not_told_as_missed_after_an_outage(keeper: Keeper) -> None:
    await keeper.say("提醒 今天 11:00 交材料 直到完成")
    await run_until(keeper, 0, "11:01")
    keeper.clock.set(local(0, "12:30"))  # down after its first message went out
    await run_until(keeper, 0, "12:40")
    assert "没能发出" not in await keeper.say("今天")


async def test_quiet_time_over_a_whole_nag_starts_it_when_quiet_time_ends(keeper: Keeper) -> None:
    assert "12:00" in await keeper.say("免打扰 2小时")
    await keeper.say("提醒 今天 11:00 交材料 直到完成")  # all six slots inside quiet time
    await run_until(keeper, 0, "13:10")
    assert sent_at(keeper) == [local(0, f"12:{m}0") for m in range(6)]  # the full cap
    assert keeper.sent_to()[0].startswith("⏰ 提醒：交材料")
    assert keeper.sent_to()[-1] == "⏰ 最后一次提醒：交材料，之后不再提醒"


async def test_an_important_nag_passes_quiet_time(keeper: Keeper) -> None:
    await keeper.say("免打扰 2小时")
    await keeper.say("提醒 今天 11:00 交材料 直到完成 重要")
    await run_until(keeper, 0, "11:25")
    assert sent_at(keeper) == [local(0, "11:00"), local(0, "11:10"), local(0, "11:20")]


async def test_undoing_a_done_typed_before_the_due_time_brings_the_nag_back(
    keeper: Keeper,
) -> None:
    await keeper.say("任务 今天 11:00 交材料 直到完成")
    assert (await keeper.say("完成 1")).endswith("不再提醒。")
    await keeper.say("撤销")
    await run_until(keeper, 0, "11:25")
    assert sent_at(keeper) == [local(0, "11:00"), local(0, "11:10"), local(0, "11:20")]
    assert all(m.startswith("⏰") and "完成" in m for m in keeper.sent_to())  # the nag's words


async def test_putting_off_a_task_whose_nag_was_stopped_nags_it_at_the_new_time(
    keeper: Keeper,
) -> None:
    await keeper.say("任务 今天 11:00 交材料 直到完成 最多2次")
    await run_until(keeper, 0, "11:01")
    assert await keeper.say("收到") == "好的，不再提醒：交材料"
    await keeper.say("明天再说 1")
    await run_until(keeper, 1, "11:30")
    about = [m.received_at for m in keeper.api.messages_to("alice") if m.content.startswith("⏰")]
    assert about == [local(0, "11:00"), local(1, "11:00"), local(1, "11:10")]


async def test_a_nag_with_a_damaged_spec_does_not_break_the_list(keeper: Keeper) -> None:
    await keeper.say("提醒 今天 11:00 交材料 直到完成")
    async with keeper.scheduler.database.transaction() as session:
        await session.execute(update(RULES).where(RULES.c.kind == "nag").values(spec="{"))
    assert "交材料" in await keeper.say("提醒")


async def test_a_task_nag_in_the_past_is_refused_with_a_task_example(keeper: Keeper) -> None:
    assert await keeper.say("任务 今天 8:00 交材料 直到完成") == texts.TASK_NAG_IN_THE_PAST
    assert "任务 明天 9:00" in texts.TASK_NAG_IN_THE_PAST
    assert (await keeper.say("任务")).startswith("没有待办")  # nothing saved


async def test_the_recipients_budget_applies_a_deferred_nag_message_goes_out_late(
    keeper: Keeper,
) -> None:
    await keeper.say("提醒 今天 11:00 交材料 直到完成")
    await run_until(keeper, 0, "10:59")
    keeper.clock.set(local(0, "11:00"))
    await _fake_recent_sends(keeper, "alice", 30)  # WeCom's minute budget is spent
    report = await keeper.tick()
    assert report.outcomes == {"deferred": 1}
    assert keeper.sent_to() == []
    await run_until(keeper, 0, "11:15")
    first, second = sent_at(keeper)  # late, not dropped; the repeat keeps its own slot
    assert local(0, "11:00") < first < local(0, "11:01")
    assert second == local(0, "11:10")
    assert keeper.sent_to()[0].startswith("⏰ 提醒：交材料")


async def test_a_bare_done_with_nothing_nagging_asks_which_task(keeper: Keeper) -> None:
    await keeper.say("任务 明天 交材料")
    assert await keeper.say("完成") == texts.task_ref_missing("完成")
    assert "交材料" in await keeper.say("任务")  # nothing changed


async def test_a_card_click_on_a_nag_that_already_stopped_says_so(keeper: Keeper) -> None:
    await keeper.say("设置 卡片 开")
    await keeper.say("提醒 今天 11:00 交材料 直到完成")
    await run_until(keeper, 0, "11:00")
    [card] = keeper.api.messages_to("alice")
    assert await keeper.say("收到") == "好的，不再提醒：交材料"  # stopped by typing
    key = card.payload["template_card"]["button_list"][0]["key"]
    code = keeper.api.issue_click_code(card)
    assert await click(keeper, card, key, code, keeper.wecom.now()) == texts.NAG_ALREADY_OVER


async def test_quiet_time_over_a_put_off_nags_whole_new_run_starts_it_after(
    keeper: Keeper,
) -> None:
    await keeper.say("任务 今天 11:00 交材料 直到完成 最多2次")
    await run_until(keeper, 0, "11:05")  # seen today
    assert "明天" in await keeper.say("明天再说 1")
    await run_until(keeper, 1, "10:30")
    await keeper.say("免打扰 2小时")  # tomorrow's run inside quiet time
    await run_until(keeper, 1, "13:00")
    about = [m.received_at for m in keeper.api.messages_to("alice") if m.content.startswith("⏰")]
    assert about == [local(0, "11:00"), local(1, "12:30"), local(1, "12:40")]


async def test_an_outage_over_a_put_off_nags_whole_new_run_is_told(keeper: Keeper) -> None:
    await keeper.say("任务 今天 11:00 交材料 直到完成 最多2次")
    await run_until(keeper, 0, "11:05")  # seen today
    assert "明天" in await keeper.say("明天再说 1")
    keeper.clock.set(local(1, "12:30"))  # the worker was down through tomorrow's run
    await run_until(keeper, 1, "12:40")
    reply = await keeper.say("今天")
    assert "没能发出：11:00 交材料" in reply.splitlines()[-1]


async def test_a_damaged_nag_in_quiet_time_does_not_stop_another_users_send(
    keeper: Keeper,
) -> None:
    await keeper.say("免打扰 2小时")
    await keeper.say("提醒 今天 11:00 交材料 直到完成")
    await keeper.say("提醒 今天 11:00 吃药 直到完成", user="bob")
    await run_until(keeper, 0, "10:59")
    assert await job_statuses(keeper, "nag") == ["pending", "pending"]  # both in one batch
    async with keeper.scheduler.database.transaction() as session:
        await session.execute(
            update(RULES).where(RULES.c.kind == "nag", RULES.c.label == "交材料").values(spec="{")
        )
    await run_until(keeper, 0, "11:01")
    assert [m for m in keeper.sent_to("bob") if m.startswith("⏰ 提醒：吃药")]
    assert keeper.sent_to() == []  # alice's is quiet


async def test_putting_off_a_task_whose_nag_is_paused_keeps_it_paused(keeper: Keeper) -> None:
    await keeper.say("任务 今天 11:00 交材料 直到完成 最多2次")
    listed = await keeper.say("提醒")
    [number] = [line.split(".")[0] for line in listed.splitlines() if "催办 交材料" in line]
    assert "已暂停" in await keeper.say(f"暂停 提醒 {number}")
    assert "明天" in await keeper.say("明天再说 1")
    await run_until(keeper, 1, "10:30")
    assert not [m for m in keeper.sent_to() if m.startswith("⏰")]  # paused: nothing today
    assert "已恢复" in await keeper.say(f"恢复 提醒 {number}")
    await run_until(keeper, 1, "11:30")
    about = [m.received_at for m in keeper.api.messages_to("alice") if m.content.startswith("⏰")]
    assert about == [local(1, "11:00"), local(1, "11:10")]  # from the new due time
