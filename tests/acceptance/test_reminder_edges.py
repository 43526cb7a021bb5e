"""Edges found in review: the 5-minute look-ahead against the user's changes, quiet
time meeting the merge window, resends of at-least-once reminders, 提前0分钟."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

import pytest

from scheduler.core.texts import digests, messages
from scheduler.tick import LEASE, materialise_due
from scheduler.water_kind import WaterKind
from storage.database import Session
from storage.repos import job_claims, rules, users, water
from tests.acceptance.conftest import Keeper
from tests.acceptance.test_reminders import local, number_in, reminders, run_until, say_at


async def _tick_at(keeper: Keeper, *times: str) -> None:
    for hm in times:
        keeper.clock.set(local(0, hm))
        await keeper.tick()


async def test_pausing_and_resuming_inside_the_look_ahead_keeps_todays_reminder(
    keeper: Keeper,
) -> None:
    n = number_in(await keeper.say("提醒 每天 22:00 吃药"), "提醒")
    await _tick_at(keeper, "21:56")  # the look-ahead has made the 22:00 job
    await say_at(keeper, 0, "21:57", f"暂停 提醒 {n}")
    assert "下次 22:00" in await say_at(keeper, 0, "21:58", f"恢复 提醒 {n}")
    await run_until(keeper, 0, "22:10")
    assert keeper.sent_to() == [messages.custom_reminder("吃药")]


async def test_setting_the_digest_to_its_own_time_inside_the_look_ahead_keeps_it(
    keeper: Keeper,
) -> None:
    await keeper.say("任务 明天 交材料")
    keeper.clock.set(local(1, "07:56"))
    await keeper.tick()
    await say_at(keeper, 1, "07:57", "设置 晨报 08:00")
    await run_until(keeper, 1, "08:10")
    assert [m for m in keeper.sent_to() if m.startswith(digests.MORNING_HEAD)] != []


async def test_a_reminder_moved_to_the_end_of_quiet_time_survives_an_early_claim(
    keeper: Keeper,
) -> None:
    await keeper.say("免打扰 2小时")  # 10:00 -> 12:00
    await keeper.say("提醒 今天 11:00 交材料")  # plain: moved to 12:00
    await keeper.say("日程 今天 12:28 开会")  # reminded 11:58, claims 12:00 along
    await run_until(keeper, 0, "12:30")
    assert messages.custom_reminder("交材料") in "\n".join(keeper.sent_to())


async def test_a_digest_due_just_after_quiet_time_is_sent_even_when_claimed_during_it(
    keeper: Keeper,
) -> None:
    await keeper.say("任务 今天 交材料")
    await keeper.say("设置 晨报 12:03")
    await keeper.say("免打扰 2小时")  # until 12:00
    await keeper.say("日程 今天 12:28 开会")  # reminded 11:58
    await run_until(keeper, 0, "12:30")
    assert any(digests.MORNING_HEAD in m for m in keeper.sent_to())


async def test_an_event_moved_inside_the_look_ahead_is_reminded_once_at_its_new_time(
    keeper: Keeper,
) -> None:
    await keeper.say("日程 今天 11:00 开会")  # reminder 10:30
    await _tick_at(keeper, "10:26")  # its job exists already
    assert "10:27 提醒你" in await say_at(keeper, 0, "10:27", "改日程 1 10:50")
    await _tick_at(keeper, "10:27", "10:28", "10:30", "10:31")
    assert len(reminders(keeper)) == 1
    assert "10:50 开会" in reminders(keeper)[0]


async def test_a_one_off_reminder_can_be_deleted_in_its_last_five_minutes(
    keeper: Keeper,
) -> None:
    n = number_in(await keeper.say("提醒 今天 11:00 交材料"), "提醒")
    await _tick_at(keeper, "10:56")
    assert "交材料" in await say_at(keeper, 0, "10:56", "提醒")
    assert "已删除" in await say_at(keeper, 0, "10:57", f"删除 提醒 {n}")
    await _tick_at(keeper, "10:58", "11:00", "11:01")
    assert keeper.sent_to() == []


async def test_an_uncertain_event_reminder_is_resent_as_an_exact_repeat(keeper: Keeper) -> None:
    await keeper.say("日程 今天 11:00 开会")  # reminded 10:30, at least once
    keeper.api.reset_next(delivered=True)  # it arrives, but we see a reset
    keeper.api.reset_next(delivered=False)  # the resend is lost on the way
    keeper.clock.set(local(0, "10:30"))
    await keeper.tick()
    for _ in range(10):  # every 30 s until it is resent and accepted
        keeper.clock.advance(dt.timedelta(seconds=30))
        await keeper.tick()
    assert len(keeper.sent_to()) == 1  # WeCom's duplicate check dropped the repeat
    assert keeper.api.duplicates_dropped == 1


async def test_an_event_reminded_zero_minutes_before_is_sent_at_its_start(keeper: Keeper) -> None:
    assert "11:00 提醒你" in await keeper.say("日程 今天 11:00 开会 提前0分钟")
    await run_until(keeper, 0, "11:05")
    assert [m for m in keeper.sent_to() if "开会" in m] != []


# Found by the second review.


def _number_of(listing: str, title: str) -> int:
    line = next(line for line in listing.splitlines() if title in line)
    return int(line.split(".", 1)[0])


async def test_an_event_reminder_paused_and_resumed_inside_the_look_ahead_still_comes(
    keeper: Keeper,
) -> None:
    await keeper.say("日程 今天 11:00 开会")  # reminder 10:30
    n = _number_of(await keeper.say("提醒"), "开会")
    await _tick_at(keeper, "10:26")  # its job exists already
    await say_at(keeper, 0, "10:27", f"暂停 提醒 {n}")
    assert "已恢复" in await say_at(keeper, 0, "10:28", f"恢复 提醒 {n}")
    await run_until(keeper, 0, "10:45")
    assert len(reminders(keeper)) == 1


async def test_a_task_reminder_survives_turning_everything_off_and_on_at_the_last_minute(
    keeper: Keeper,
) -> None:
    await keeper.say("任务 今天 11:00 交材料")  # reminder 10:30
    await _tick_at(keeper, "10:26")
    await say_at(keeper, 0, "10:27", "关闭 提醒")
    await say_at(keeper, 0, "10:28", "开启 提醒")
    await run_until(keeper, 0, "10:45")
    assert len(reminders(keeper)) == 1


async def test_editing_an_event_after_its_reminder_went_out_does_not_remind_again(
    keeper: Keeper,
) -> None:
    await keeper.say("日程 今天 11:00 开会")
    await run_until(keeper, 0, "10:31")
    assert len(reminders(keeper)) == 1
    await say_at(keeper, 0, "10:35", "改日程 1 复盘会")  # a new title, the same time
    await run_until(keeper, 0, "11:00")
    assert len(reminders(keeper)) == 1


async def test_an_event_moved_later_after_its_reminder_is_reminded_again_for_the_new_time(
    keeper: Keeper,
) -> None:
    await keeper.say("日程 今天 11:00 开会")
    await run_until(keeper, 0, "10:31")
    assert "14:30 提醒你" in await say_at(keeper, 0, "10:35", "改日程 1 15:00")
    await run_until(keeper, 0, "14:31")
    assert len(reminders(keeper)) == 2
    assert "15:00 开会" in reminders(keeper)[1]


async def test_an_event_moved_just_as_the_tick_retires_its_rule_is_reminded_at_the_new_time(
    keeper: Keeper, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tick's `retire_spent` commits between the handler's read and its lock."""
    await keeper.say("日程 今天 11:00 开会")
    await _tick_at(keeper, "10:30")
    original = rules.of_ref

    async def read_then_the_tick_retires(session: Session, kind: str, ref_id: int) -> Any:
        found = await original(session, kind, ref_id)
        await rules.retire_spent(session, {found.id} if found else set(), now=keeper.clock.now())
        return found

    monkeypatch.setattr(rules, "of_ref", read_then_the_tick_retires)
    assert "11:30 提醒你" in await say_at(keeper, 0, "10:32", "改日程 1 12:00")
    monkeypatch.setattr(rules, "of_ref", original)
    await run_until(keeper, 0, "11:45")
    assert len(reminders(keeper)) == 2


async def test_pausing_a_rule_the_tick_just_retired_is_answered_not_crashed(
    keeper: Keeper, monkeypatch: pytest.MonkeyPatch
) -> None:
    n = number_in(await keeper.say("提醒 今天 11:00 交材料"), "提醒")
    await _tick_at(keeper, "11:00")
    original = rules.by_number

    async def read_then_the_tick_retires(session: Session, user_id: int, number: int) -> Any:
        found = await original(session, user_id, number)
        await rules.retire_spent(session, {found.id} if found else set(), now=keeper.clock.now())
        return found

    monkeypatch.setattr(rules, "by_number", read_then_the_tick_retires)
    assert (
        await say_at(keeper, 0, "11:02", f"暂停 提醒 {n}")
        == f"没有编号 {n} 的提醒。发「提醒」看看列表。"
    )


async def test_the_list_shows_a_reminders_time_while_its_job_waits_in_the_look_ahead(
    keeper: Keeper,
) -> None:
    await keeper.say("日程 今天 11:00 开会")
    await _tick_at(keeper, "10:26")
    assert "开会（开，下次 10:30）" in await say_at(keeper, 0, "10:27", "提醒")


async def test_a_dead_workers_claim_released_past_its_window_expires_and_is_told(
    keeper: Keeper,
) -> None:
    """Review of issue 8: a never-started claim is released, and the same tick's expiry
    then sees it; it must not leave hours late."""
    await keeper.say("提醒 每天 12:00 吃药")
    keeper.clock.advance(dt.timedelta(hours=2))  # 12:00
    await materialise_due(keeper.scheduler, keeper.clock.now())
    async with keeper.scheduler.database.transaction() as session:  # claims, then dies
        await job_claims.claim(
            session, now=keeper.clock.now(), owner="dead:1", lease=LEASE, limit=10
        )
    keeper.clock.advance(dt.timedelta(hours=3))  # no scheduler until 15:00
    report = await keeper.tick()
    assert (report.recovered, report.expired, report.claimed) == (1, 1, 0)
    assert keeper.sent_to() == []
    assert "12:00 吃药" in (await keeper.say("今天")).splitlines()[-1]


@pytest.mark.parametrize(
    "database_url", [pytest.param("mariadb", marks=pytest.mark.mariadb)], indirect=True
)
async def test_a_pause_committed_while_the_tick_claims_water_waits_and_then_wins(
    database_url: str, keeper: Keeper, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review of issue 8: the tick read the plan without a lock, so a 暂停 committing in
    between was overwritten (or the tick failed). The tick now locks the plan row; the
    user's 暂停 waits for it and then applies to the plan as it is."""
    await keeper.say("开启 喝水")
    keeper.clock.advance(dt.timedelta(hours=2))
    original_load, original_plan_of = WaterKind._load, water.plan_of
    asking = asyncio.Event()  # the user's message is about to read the plan, locking
    pausing: list[asyncio.Task[str]] = []

    async def plan_of(session: Any, user_id: int, *, lock: bool = False) -> Any:
        if lock and pausing:
            asking.set()
        return await original_plan_of(session, user_id, lock=lock)

    async def load_then_pause(self: WaterKind, session: Any, job: Any) -> Any:
        loaded = await original_load(self, session, job)  # the tick now holds the row
        if not pausing:
            pausing.append(asyncio.create_task(keeper.say("暂停 喝水")))
            await asyncio.wait_for(asking.wait(), 10)
        return loaded

    monkeypatch.setattr(water, "plan_of", plan_of)
    monkeypatch.setattr(WaterKind, "_load", load_then_pause)
    report = await keeper.tick()
    assert report.outcomes == {"accepted": 1}
    assert (await pausing[0]).startswith("喝水提醒已暂停")
    async with keeper.scheduler.database.transaction() as session:
        user = await users.ensure_and_lock_user(
            session, "alice", timezone="UTC", now=keeper.clock.now()
        )
        plan = await original_plan_of(session, user.id)
    assert plan is not None
    assert plan.state == "paused"
