"""The fallback on real databases (issue 12 item 2): one more send through the user's
fallback channel, as the next attempt of the same job, and never more than that.

Each test makes one job by hand on a rule of zhangsan's, with his receivers bound
through the repository, and ticks against the local fakes of WeCom and WxPusher.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sandbox.fake_wecom import FakeWeCom, run_fake_wecom
from bot.sandbox.fake_wxpusher import FakeWxPusher, run_fake_wxpusher
from bot.scheduling import scheduler_for
from scheduler import delivery, routing
from scheduler.clock import FakeClock
from scheduler.core.channel import OutboundMessage
from scheduler.tick import Scheduler, tick
from storage.database import Database
from storage.delivery_models import ATTEMPTS, JOBS
from storage.engine import create_engine
from storage.records import AttemptRecord, NewJob
from storage.repos import attempts, job_claims, user_channels
from tests.conftest import TEST_SETTINGS
from tests.integration.conftest import new_rule, new_user
from tests.integration.job_setup import force_job, job_row
from tests.settings_env import changed

UID = "UID_zhangsan000000000000001"
STRANGER = "UID_notfollowing0000000001"


@dataclass
class Setup:
    engine: AsyncEngine
    clock: FakeClock
    api: FakeWeCom
    pusher: FakeWxPusher
    scheduler: Scheduler

    async def job(self, *, policy: str, channel: str, recipient: str, fallback: str | None) -> int:
        """A due job of zhangsan's custom rule on (channel, recipient); his WxPusher UID
        bound, and `fallback` (a channel name) made his fallback."""
        user = await new_user(self.engine, self.clock, "zhangsan")
        rule = await new_rule(self.engine, self.clock, user, label="吃药", policy=policy)
        now = self.clock.now()
        async with self.engine.begin() as session:
            await user_channels.bind(
                session, user, "wxpusher", receiver=UID, hint="UID_zh…01", now=now
            )
            if fallback is not None:
                await user_channels.set_role(session, user, fallback, "fallback", now=now)
            new = NewJob(
                user_id=user,
                rule_id=rule,
                slot=now,
                policy=policy,
                priority="high",
                channel=channel,
                recipient=recipient,
                payload_kind="custom",
            )
            job_id = await job_claims.materialise(session, new, now=now)
        assert job_id is not None
        return job_id

    async def ticks(self, n: int = 3) -> None:
        for _ in range(n):
            await tick(self.scheduler)
            self.clock.advance(dt.timedelta(seconds=1))

    async def attempts(self, job_id: int) -> list[tuple[int, str, str]]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(ATTEMPTS.c.attempt_no, ATTEMPTS.c.channel, ATTEMPTS.c.outcome)
                .where(ATTEMPTS.c.job_id == job_id)
                .order_by(ATTEMPTS.c.id)
            )
            return [(int(a), str(c), str(o)) for a, c, o in rows]

    async def status(self, job_id: int) -> str:
        async with self.engine.connect() as conn:
            query = select(JOBS.c.status).where(JOBS.c.id == job_id)
            return str((await conn.execute(query)).scalar_one())


@pytest.fixture
async def setup(engine: AsyncEngine, clock: FakeClock) -> AsyncIterator[Setup]:
    s = TEST_SETTINGS
    api = FakeWeCom(
        corp_id=s.wecom.corp_id, secret=s.wecom.secret, agent_id=s.wecom.agent_id, clock=clock.now
    )
    pusher = FakeWxPusher(app_token=s.channels.wxpusher_app_token, uids={UID}, clock=clock.now)
    async with run_fake_wecom(api) as api_base, run_fake_wxpusher(pusher) as pusher_base:
        settings = changed(
            s, wecom={"api_base": api_base}, channels={"wxpusher_api_base": pusher_base}
        )
        async with scheduler_for(settings, Database(engine), clock, send_timeout=5) as sched:
            yield Setup(engine, clock, api, pusher, sched)


async def test_a_permanent_failure_goes_once_through_the_fallback_as_attempt_two(
    setup: Setup,
) -> None:
    job = await setup.job(
        policy="at_least_once", channel="wxpusher", recipient=STRANGER, fallback="wecom_app"
    )
    await setup.ticks()
    assert await setup.attempts(job) == [(1, "wxpusher", "failed"), (2, "wecom_app", "accepted")]
    assert [m.content for m in setup.api.messages_to("zhangsan")] == ["⏰ 提醒：吃药"]
    assert await setup.status(job) == "accepted"
    assert setup.pusher.messages == []


async def test_a_fallback_that_fails_too_ends_the_job_failed_without_a_third_try(
    setup: Setup,
) -> None:
    job = await setup.job(
        policy="at_least_once", channel="wxpusher", recipient=STRANGER, fallback="wecom_app"
    )
    setup.api.fail_next(60020)  # the fallback's road is closed as well
    await setup.ticks(5)
    assert await setup.attempts(job) == [(1, "wxpusher", "failed"), (2, "wecom_app", "failed")]
    assert await setup.status(job) == "failed"


async def test_an_uncertain_at_most_once_send_never_goes_through_the_fallback(
    setup: Setup,
) -> None:
    job = await setup.job(
        policy="at_most_once", channel="wecom_app", recipient="zhangsan", fallback="wxpusher"
    )
    setup.api.reset_next(delivered=True)  # it may well have arrived
    await setup.ticks()
    assert await setup.attempts(job) == [(1, "wecom_app", "unknown")]
    assert await setup.status(job) == "unknown"
    assert setup.pusher.messages == []


async def test_an_at_most_once_permanent_failure_is_not_sent_again_anywhere(
    setup: Setup,
) -> None:
    job = await setup.job(
        policy="at_most_once", channel="wxpusher", recipient=STRANGER, fallback="wecom_app"
    )
    await setup.ticks()
    assert await setup.attempts(job) == [(1, "wxpusher", "failed")]
    assert await setup.status(job) == "failed"
    assert setup.api.messages_to("zhangsan") == []


async def test_without_a_fallback_a_permanent_failure_just_fails(setup: Setup) -> None:
    job = await setup.job(
        policy="at_least_once", channel="wxpusher", recipient=STRANGER, fallback=None
    )
    await setup.ticks()
    assert await setup.attempts(job) == [(1, "wxpusher", "failed")]
    assert await setup.status(job) == "failed"


async def test_a_job_on_a_channel_this_process_lacks_goes_back_to_the_wecom_app(
    setup: Setup,
) -> None:
    """Routed to WxPusher, then the worker runs without it: no crash of the tick, the
    reminder goes to the user's UserID on the WeCom app (the claim's attempt refunded)."""
    job = await setup.job(policy="at_least_once", channel="wxpusher", recipient=UID, fallback=None)
    channels = dict(setup.scheduler.channels)
    del channels["wxpusher"]
    setup.scheduler = dataclasses.replace(setup.scheduler, channels=channels)
    await setup.ticks()
    assert await setup.attempts(job) == [(1, "wecom_app", "accepted")]
    assert [m.content for m in setup.api.messages_to("zhangsan")] == ["⏰ 提醒：吃药"]
    assert await setup.status(job) == "accepted"


async def test_a_job_that_may_have_arrived_is_not_recalled_to_the_wecom_app(
    setup: Setup, caplog: pytest.LogCaptureFixture
) -> None:
    """An `unknown` on WxPusher, then the worker runs without it: moving the resend to
    the app could double the reminder, so it fails as a configuration error."""
    job = await setup.job(policy="at_least_once", channel="wxpusher", recipient=UID, fallback=None)
    async with setup.engine.begin() as session:
        tried = dataclasses.replace(_attempt(job, 1, "unknown", setup.clock), channel="wxpusher")
        await attempts.record_attempt(session, tried)
    await force_job(setup.engine, job, status="retry_wait", attempts=1)
    channels = dict(setup.scheduler.channels)
    del channels["wxpusher"]
    setup.scheduler = dataclasses.replace(setup.scheduler, channels=channels)
    await setup.ticks()
    assert await setup.attempts(job) == [(1, "wxpusher", "unknown"), (2, "wxpusher", "failed")]
    assert setup.api.messages_to("zhangsan") == []
    assert await setup.status(job) == "failed"
    (line,) = [r for r in caplog.records if "cannot move" in r.getMessage()]
    assert (line.levelname, vars(line)["kind"], vars(line)["channel"]) == (
        "ERROR",
        "custom",
        "wxpusher",
    )


async def test_a_send_on_a_channel_this_process_lacks_failed_and_is_not_uncertain(
    setup: Setup,
) -> None:
    """Nothing left: an `unknown` would resend and block the fallback."""
    channels = dict(setup.scheduler.channels)
    del channels["wxpusher"]
    lacking = dataclasses.replace(setup.scheduler, channels=channels)
    item = delivery._Ready(
        recipient=UID, channel="wxpusher", jobs=[], message=OutboundMessage(text="吃药")
    )
    result = await delivery._send(lacking, item)
    assert (result.outcome, result.error_class) == ("failed", "config")
    assert setup.pusher.messages == []


async def test_transient_errors_to_the_last_attempt_reach_the_fallback(setup: Setup) -> None:
    job = await setup.job(
        policy="at_least_once", channel="wecom_app", recipient="zhangsan", fallback="wxpusher"
    )
    async with setup.engine.begin() as session:  # four transient tries already made
        for no in range(1, 5):
            await attempts.record_attempt(session, _attempt(job, no, "retry", setup.clock))
    await force_job(setup.engine, job, attempts=4)
    setup.api.fail_next(-1)  # system busy: the fifth and last try fails too
    await setup.ticks()
    tail = (await setup.attempts(job))[-2:]
    assert tail == [(5, "wecom_app", "retry"), (6, "wxpusher", "accepted")]
    assert await setup.status(job) == "accepted"
    assert len(setup.pusher.messages) == 1


async def test_no_fallback_after_an_earlier_uncertain_attempt(setup: Setup) -> None:
    """Attempt 1 may have arrived: a failure of attempt 2 must not send it elsewhere."""
    job = await setup.job(
        policy="at_least_once", channel="wecom_app", recipient="zhangsan", fallback="wxpusher"
    )
    async with setup.engine.begin() as session:
        await attempts.record_attempt(session, _attempt(job, 1, "unknown", setup.clock))
    await force_job(setup.engine, job, attempts=1)
    setup.api.fail_next(81013)  # permanent
    await setup.ticks()
    assert await setup.attempts(job) == [(1, "wecom_app", "unknown"), (2, "wecom_app", "failed")]
    assert await setup.status(job) == "failed"
    assert setup.pusher.messages == []


async def test_divert_held_with_a_lost_claim_changes_nothing_and_records_nothing(
    setup: Setup,
) -> None:
    """Swept and claimed again by another worker: the late worker's divert must not
    move that worker's job nor write an attempt."""
    job = await setup.job(
        policy="at_least_once", channel="wecom_app", recipient="zhangsan", fallback="wxpusher"
    )
    await force_job(setup.engine, job, status="processing", attempts=2, lease_owner="other")
    async with setup.engine.begin() as session:
        theirs = await job_claims.get(session, job)
        assert theirs is not None
        late = dataclasses.replace(theirs, attempts=1, lease_owner="late")
        diverted, left = await routing.divert_held(
            session, [late], setup.scheduler.channels, setup.clock.now()
        )
    assert (diverted, left) == (0, [])  # a move that lost its claim is not counted
    row = await job_row(setup.engine, job)
    assert (row.status, row.channel, row.lease_owner, row.attempts) == (
        "processing",
        "wecom_app",
        "other",
        2,
    )
    assert await setup.attempts(job) == []


def _attempt(job_id: int, no: int, outcome: str, clock: FakeClock) -> AttemptRecord:
    return AttemptRecord(
        job_id=job_id,
        attempt_no=no,
        channel="wecom_app",
        started_at=clock.now(),
        duration_ms=0,
        outcome=outcome,
        error_class="transient" if outcome == "retry" else "uncertain",
        provider_code=None,
        provider_message_id=None,
        error="",
    )


async def test_jobs_divert_held_moves_are_counted(setup: Setup) -> None:
    job = await setup.job(
        policy="at_least_once", channel="wecom_app", recipient="zhangsan", fallback="wxpusher"
    )
    setup.scheduler.holds["wecom_app"] = setup.clock.now() + dt.timedelta(hours=1)
    report = await tick(setup.scheduler)
    assert report.outcomes.get("diverted") == 1
    assert await setup.attempts(job) == [(1, "wecom_app", "failed")]


RACERS = 8


@pytest.mark.parametrize(
    "database_url", [pytest.param("mariadb", marks=[pytest.mark.mariadb])], indirect=True
)
@pytest.mark.parametrize("held", [False, True], ids=["failed", "held"])
async def test_two_racing_workers_send_each_fallback_once(
    database_url: str, engine: AsyncEngine, clock: FakeClock, held: bool
) -> None:
    """Two schedulers on engines of their own (two `keeper worker` processes) tick at
    the same instants over jobs that fail for good (or meet a held channel): each job
    has one attempt per number, and its fallback leaves exactly once."""
    user = await new_user(engine, clock, "zhangsan")
    first, fallback = ("wecom_app", "wxpusher") if held else ("wxpusher", "wecom_app")
    to = "zhangsan" if held else STRANGER
    async with engine.begin() as session:
        await user_channels.bind(session, user, "wxpusher", receiver=UID, hint="h", now=clock.now())
        await user_channels.set_role(session, user, fallback, "fallback", now=clock.now())
    made = []
    for n in range(RACERS):
        rule = await new_rule(engine, clock, user, label=f"吃药{n}", policy="at_least_once")
        new = NewJob(
            user_id=user,
            rule_id=rule,
            slot=clock.now(),
            policy="at_least_once",
            priority="high",
            channel=first,
            recipient=to,
            payload_kind="custom",
        )
        async with engine.begin() as session:
            made.append(await job_claims.materialise(session, new, now=clock.now()))
    s = TEST_SETTINGS
    api = FakeWeCom(
        corp_id=s.wecom.corp_id, secret=s.wecom.secret, agent_id=s.wecom.agent_id, clock=clock.now
    )
    pusher = FakeWxPusher(app_token=s.channels.wxpusher_app_token, uids={UID}, clock=clock.now)
    second = create_engine(database_url)
    try:
        async with run_fake_wecom(api) as api_base, run_fake_wxpusher(pusher) as pusher_base:
            settings = changed(
                s, wecom={"api_base": api_base}, channels={"wxpusher_api_base": pusher_base}
            )
            async with (
                scheduler_for(settings, Database(engine), clock, owner="w1") as w1,
                scheduler_for(settings, Database(second), clock, owner="w2") as w2,
            ):
                for w in (w1, w2):
                    if held:
                        w.holds["wecom_app"] = clock.now() + dt.timedelta(hours=1)
                for _ in range(4):
                    await asyncio.gather(tick(w1), tick(w2))
                    clock.advance(dt.timedelta(seconds=1))
    finally:
        await second.dispose()
    async with engine.connect() as conn:
        rows = await conn.execute(
            select(ATTEMPTS.c.job_id, ATTEMPTS.c.attempt_no, ATTEMPTS.c.channel, ATTEMPTS.c.outcome)
            .where(ATTEMPTS.c.job_id.in_(made))
            .order_by(ATTEMPTS.c.job_id, ATTEMPTS.c.attempt_no)
        )
        found = [(int(j), int(a), str(c), str(o)) for j, a, c, o in rows]
    assert found == [
        row for j in made for row in ((j, 1, first, "failed"), (j, 2, fallback, "accepted"))
    ]
    delivered = len(pusher.messages) if held else len(api.messages_to("zhangsan"))
    assert delivered == RACERS
