"""Water reminders end to end: encrypted callbacks in, ticks, fake WeCom traffic out."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from scheduler.core.texts import messages
from storage.records import AttemptRecord, NewJob
from storage.repos import attempts, job_claims, rules, users, water
from tests.acceptance.conftest import Keeper
from tests.integration.job_setup import count_by_status

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
    assert reply == "喝水 +1，今天第 1 杯。\n目标 8 杯，还差 7 杯。下次提醒 19:00。"
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


@pytest.mark.hangs_a_send
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


async def test_the_health_check_reports_the_last_ticks_age(keeper: Keeper) -> None:
    await keeper.tick()
    keeper.clock.advance(dt.timedelta(seconds=42))
    response = await keeper.wecom.require_session().get(
        keeper.wecom.url.replace("/wecom/callback", "/healthz")
    )
    assert await response.json() == {
        "database": "ok",
        "scheduler": "ok",
        "last_tick_age_seconds": 42.0,
    }


async def _health(keeper: Keeper) -> tuple[int, dict[str, object]]:
    response = await keeper.wecom.require_session().get(
        keeper.wecom.url.replace("/wecom/callback", "/healthz")
    )
    body: dict[str, object] = await response.json()
    return response.status, body


async def test_the_health_check_fails_when_reminders_wait_and_no_scheduler_ticks(
    keeper: Keeper,
) -> None:
    """Issue 10: with the scheduler off and an active reminder, 503 within 10 minutes."""
    await keeper.say("提醒 每天 22:00 吃药")  # an active rule; nothing has ever ticked
    status, body = await _health(keeper)
    assert (status, body["scheduler"]) == (503, "stopped")
    await keeper.tick()
    keeper.clock.advance(dt.timedelta(minutes=9))
    assert (await _health(keeper))[0] == 200
    keeper.clock.advance(dt.timedelta(minutes=2))  # 11 minutes since the last tick
    status, body = await _health(keeper)
    assert (status, body["scheduler"], body["database"]) == (503, "stopped", "ok")


async def test_a_recipient_over_wecoms_minute_budget_is_deferred_not_dropped(
    keeper: Keeper,
) -> None:
    await keeper.say("开启 喝水")
    keeper.clock.advance(2 * HOUR)
    await _fake_recent_sends(keeper, "alice", 25)
    report = await keeper.tick()
    assert report.outcomes == {"deferred": 1}
    assert keeper.sent_to() == []
    keeper.clock.advance(dt.timedelta(minutes=1))
    await keeper.tick()
    assert keeper.sent_to() == [messages.WATER_REMINDER]


async def _fake_recent_sends(keeper: Keeper, user: str, count: int) -> None:
    """Record `count` accepted sends to `user` in the last minute (another rule's)."""
    database = keeper.scheduler.database
    now = keeper.clock.now()
    async with database.transaction() as session:
        user_id = (await users.ensure_and_lock_user(session, user, timezone="UTC", now=now)).id
        rule_id = await rules.create(
            session,
            user_id=user_id,
            kind="water",
            policy="at_most_once",
            priority="low",
            channel="wecom_app",
            now=now,
            status="disabled",
        )
        for i in range(count):
            slot = now - dt.timedelta(seconds=50 - i)
            new = NewJob(
                user_id=user_id,
                rule_id=rule_id,
                slot=slot,
                policy="at_most_once",
                priority="low",
                channel="wecom_app",
                recipient=user,
                payload_kind="water",
            )
            job_id = await job_claims.materialise(session, new, now=now)
            assert job_id is not None
            await job_claims.settle_waiting(session, [job_id], status="accepted", now=now)
            await attempts.record_attempt(
                session,
                AttemptRecord(
                    job_id=job_id,
                    attempt_no=1,
                    channel="wecom_app",
                    started_at=slot,
                    duration_ms=5,
                    outcome="accepted",
                    error_class="none",
                    provider_code=0,
                    provider_message_id=f"m{i}",
                    error="",
                ),
            )


async def _plan_state(keeper: Keeper, user: str = "alice") -> str:
    async with keeper.scheduler.database.transaction() as session:
        user_id = (
            await users.ensure_and_lock_user(session, user, timezone="UTC", now=keeper.clock.now())
        ).id
        plan = await water.plan_of(session, user_id)
    assert plan is not None
    return plan.state


@pytest.mark.parametrize(
    ("fault", "job_status", "plan_state", "delivered"),
    [
        (lambda api: None, "accepted", "awaiting_checkin", 1),
        (lambda api: api.fail_next(60020), "failed", "paused", 0),  # untrusted IP: config
        (lambda api: api.fail_next(81013), "failed", "paused", 0),  # nobody can receive it
        (lambda api: api.fail_next(-1), "retry_wait", "sending", 0),  # busy: retried later
        (lambda api: api.fail_next(45009), "retry_wait", "sending", 0),  # frequency limit
        (lambda api: api.status_next(502), "unknown", "paused", 0),  # a gateway, after the POST
        (lambda api: api.reset_next(delivered=True), "unknown", "paused", 1),
        (lambda api: api.reset_next(delivered=False), "unknown", "paused", 0),
        pytest.param(
            lambda api: api.hang_next(delivered=True),
            "unknown",
            "paused",
            1,
            marks=pytest.mark.hangs_a_send,
        ),
        (lambda api: api.expire_tokens(), "accepted", "awaiting_checkin", 1),  # refreshed once
    ],
    ids=[
        "ok",
        "60020",
        "81013",
        "-1",
        "45009",
        "502",
        "reset-after",
        "reset-before",
        "hang",
        "token-expired",
    ],
)
async def test_each_api_outcome_ends_the_job_and_plan_as_its_class_says(
    keeper: Keeper, fault: Any, job_status: str, plan_state: str, delivered: int
) -> None:
    await keeper.say("开启 喝水")
    await keeper.tick()  # fetches a token (nothing due yet), so expire_tokens bites later
    fault(keeper.api)
    keeper.clock.advance(2 * HOUR)
    report = await keeper.tick()
    assert report.outcomes == {job_status: 1}
    assert await _plan_state(keeper) == plan_state
    assert len(keeper.sent_to()) == delivered


async def test_a_recipient_unknown_to_wecom_fails_permanently_and_is_not_retried(
    keeper: Keeper,
) -> None:
    keeper.api.users = {"bob"}  # alice is not a member WeCom knows
    await keeper.say("开启 喝水")
    keeper.clock.advance(2 * HOUR)
    assert (await keeper.tick()).outcomes == {"failed": 1}
    keeper.clock.advance(2 * HOUR)
    assert (await keeper.tick()).claimed == 0
    assert await _plan_state(keeper) == "paused"


async def test_a_configuration_error_holds_the_channel_for_everyone_for_a_while(
    keeper: Keeper,
) -> None:
    minutes = dt.timedelta(minutes=1)
    await keeper.say("开启 喝水", user="alice")  # due 12:00
    keeper.clock.advance(5 * minutes)
    await keeper.say("开启 喝水", user="bob")  # due 12:05
    keeper.api.fail_next(60020)  # untrusted IP: nothing will work until the admin fixes it
    keeper.clock.advance(115 * minutes)
    assert (await keeper.tick()).outcomes == {"failed": 1}  # alice's, at 12:00
    keeper.clock.advance(5 * minutes)
    assert (await keeper.tick()).outcomes == {"held": 1}  # bob's waits, nothing is sent
    keeper.clock.advance(5 * minutes)
    assert (await keeper.tick()).outcomes == {"accepted": 1}
    assert len(keeper.sent_to("bob")) == 1


async def test_reaching_the_goal_rests_the_reminders_until_tomorrow(keeper: Keeper) -> None:
    await keeper.say("设置 喝水目标 2")
    await keeper.say("开启 喝水")
    assert (
        await keeper.say("喝水") == "喝水 +1，今天第 1 杯。\n目标 2 杯，还差 1 杯。下次提醒 12:00。"
    )
    reply = await keeper.say("喝水")
    assert reply == "喝水 +1，今天第 2 杯。\n今天的 2 杯目标达成 🎉 下次提醒 明天 08:00。"


@pytest.mark.parametrize(
    "errcode",
    [45009, -1, 42001],  # frequency limit, busy, and a token refused even when fresh
    ids=["45009", "busy", "42001-after-refresh"],
)
async def test_a_reminder_retried_past_its_window_leaves_the_plan_booked_not_sending(
    keeper: Keeper, errcode: int
) -> None:
    """Issue 8, loss 1: retry -> expired used to leave the plan `sending` for good."""
    await keeper.say("开启 喝水")  # 10:00: next reminder 12:00
    keeper.api.fail_next(errcode, times=10_000)
    keeper.clock.advance(2 * HOUR)
    for _ in range(4):  # 12:00, 12:03, 12:06, 12:09: four tries, each refused
        await keeper.tick()
        keeper.clock.advance(dt.timedelta(minutes=3))
    await keeper.tick()  # 12:12: past the 10-minute window, expired between retries
    assert keeper.sent_to() == []
    assert await _plan_state(keeper) == "scheduled"
    async with keeper.scheduler.database.transaction() as session:
        assert (await count_by_status(session)).get("expired") == 1
    listing = await keeper.say("提醒")
    assert "正在发送" not in listing
    assert "下次 14:1" in listing  # booked again from when the reminder gave up
    keeper.api.heal()
    keeper.clock.advance(2 * HOUR)
    await keeper.tick()
    assert keeper.sent_to() == [messages.WATER_REMINDER]
    assert await _plan_state(keeper) == "awaiting_checkin"


async def test_a_reminder_that_runs_out_of_tries_pauses_the_plan_and_says_so_once(
    keeper: Keeper,
) -> None:
    await keeper.say("开启 喝水")
    keeper.api.fail_next(45009, times=10_000)
    keeper.clock.advance(2 * HOUR)
    for _ in range(8):  # a try a minute: the fifth refused try is the last
        await keeper.tick()
        keeper.clock.advance(dt.timedelta(minutes=1))
    assert keeper.sent_to() == []
    assert await _plan_state(keeper) == "paused"
    reply = await keeper.say("今天")
    assert "提醒先暂停了" in reply
    assert "提醒先暂停了" not in await keeper.say("今天")
