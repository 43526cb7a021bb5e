"""Users' receivers in the database (`storage.repos.user_channels`), on both engines."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from storage.channel_models import USER_CHANNELS
from storage.records import AttemptRecord, Receiver
from storage.repos import attempts, job_claims, user_channels
from tests.integration.conftest import new_user
from tests.integration.job_setup import force_job, job_row, pending_jobs


async def _receivers(engine: AsyncEngine, user: int) -> list[Receiver]:
    async with engine.begin() as session:
        return await user_channels.receivers(session, user)


async def test_binding_twice_keeps_one_row_with_the_new_receiver_and_the_old_role(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    user = await new_user(engine, clock, "zhangsan")
    async with engine.begin() as session:
        first = await user_channels.bind(
            session, user, "wxpusher", receiver="UID_a", hint="a", now=clock.now()
        )
        await user_channels.set_role(session, user, "wxpusher", "fallback", now=clock.now())
        again = await user_channels.bind(
            session, user, "wxpusher", receiver="UID_b", hint="b", now=clock.now()
        )
    assert (first, again) == (True, False)
    assert await _receivers(engine, user) == [
        Receiver(channel="wxpusher", receiver="UID_b", hint="b", role="fallback")
    ]


async def test_the_database_refuses_a_second_row_for_the_same_channel(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    user = await new_user(engine, clock, "zhangsan")
    row = {
        "user_id": user, "channel": "wxpusher", "receiver": "UID_a", "hint": "a",
        "role": "none", "created_at": clock.now(), "updated_at": clock.now(),
    }  # fmt: skip
    async with engine.begin() as session:
        await session.execute(USER_CHANNELS.insert().values(**row))
    with pytest.raises(IntegrityError):
        async with engine.begin() as session:
            await session.execute(USER_CHANNELS.insert().values(**row))


async def test_a_role_has_one_holder_and_the_wecom_app_is_addressed_by_its_user_id(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    user = await new_user(engine, clock, "zhangsan")
    other = await new_user(engine, clock, "lisi")
    now = clock.now()
    async with engine.begin() as session:
        await user_channels.bind(session, user, "wxpusher", receiver="UID_a", hint="a", now=now)
        await user_channels.set_role(session, user, "wxpusher", "primary", now=now)
        await user_channels.set_role(session, user, "wecom_app", "fallback", now=now)
        await user_channels.set_role(session, user, "wecom_app", "primary", now=now)
        primaries = await user_channels.with_role(session, {user, other}, "primary")
        fallbacks = await user_channels.with_role(session, {user, other}, "fallback")
    assert primaries == {
        user: Receiver(channel="wecom_app", receiver="zhangsan", hint="", role="primary")
    }
    assert fallbacks == {}  # the WeCom app moved from fallback to primary
    roles = {r.channel: r.role for r in await _receivers(engine, user)}
    assert roles == {"wecom_app": "primary", "wxpusher": "none"}


async def test_unbinding_returns_what_was_bound_once(engine: AsyncEngine, clock: FakeClock) -> None:
    user = await new_user(engine, clock, "zhangsan")
    async with engine.begin() as session:
        await user_channels.bind(
            session, user, "wxpusher", receiver="UID_a", hint="a", now=clock.now()
        )
        gone = await user_channels.unbind(session, user, "wxpusher")
        again = await user_channels.unbind(session, user, "wxpusher")
        stored = await user_channels.receiver_on(session, user, "wxpusher")
    assert gone == Receiver(channel="wxpusher", receiver="UID_a", hint="a", role="none")
    assert (again, stored) == (None, None)


async def test_a_job_is_rerouted_only_under_this_claim_and_its_past_routes_are_read(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    claimed, waiting = await pending_jobs(engine, clock, [dt.timedelta(0), dt.timedelta(minutes=1)])
    await force_job(engine, claimed, status="processing", attempts=1, lease_owner="w1")
    user = await new_user(engine, clock, "zhangsan")  # the jobs' owner
    async with engine.begin() as session:
        mine = await job_claims.get(session, claimed)
        other = await job_claims.get(session, waiting)
        assert mine is not None
        assert other is not None
        stale = dataclasses.replace(mine, attempts=2)  # another claim of the same job
        to = {"channel": "wxpusher", "recipient": "UID_a"}
        won = [
            await job_claims.reroute(session, stale, **to),
            await job_claims.reroute(session, other, **to),
            await job_claims.reroute(session, mine, **to),
        ]
        for no, channel, outcome in ((1, "wecom_app", "failed"), (2, "wxpusher", "accepted")):
            await attempts.record_attempt(session, _attempt(claimed, no, channel, outcome, clock))
        tried = await attempts.routes_and_outcomes(session, {claimed, waiting})
        recent = await user_channels.recent_outcomes(
            session, user, clock.now() - dt.timedelta(days=1)
        )
    moved, stayed = await job_row(engine, claimed), await job_row(engine, waiting)
    assert (moved.channel, moved.recipient) == ("wxpusher", "UID_a")
    assert (stayed.channel, stayed.recipient) == ("wecom_app", "zhangsan")
    assert won == [False, False, True]
    assert tried == {claimed: {("wecom_app", "failed"), ("wxpusher", "accepted")}}
    assert recent == {"wecom_app": ["failed:config"], "wxpusher": ["accepted"]}


def _attempt(job_id: int, no: int, channel: str, outcome: str, clock: FakeClock) -> AttemptRecord:
    return AttemptRecord(
        job_id=job_id,
        attempt_no=no,
        channel=channel,
        started_at=clock.now() + dt.timedelta(seconds=no),
        duration_ms=5,
        outcome=outcome,
        error_class="none" if outcome == "accepted" else "config",
        provider_code=None,
        provider_message_id=None,
        error="",
    )
