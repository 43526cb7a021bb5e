"""Delivery evidence and device checks in the database (`storage.repos.evidence`,
`services.evidence`), on both engines."""

from __future__ import annotations

import datetime as dt

from sqlalchemy.ext.asyncio import AsyncEngine

import services.evidence
from scheduler.clock import FakeClock
from scheduler.core.evidence import ANSWERABLE, CHECK_WINDOW, Share
from storage.repos import evidence, job_claims
from tests.integration.conftest import new_rule, new_user
from tests.integration.job_setup import force_job, job_row, pending_jobs

LEASE = dt.timedelta(minutes=5)


async def _send(engine: AsyncEngine, clock: FakeClock, status: str = "accepted") -> None:
    """Claim every due job and end it with `status`, as a flush does."""
    async with engine.begin() as session:
        claimed = await job_claims.claim(session, now=clock.now(), owner="w", lease=LEASE, limit=50)
        for job in claimed:
            assert await job_claims.finalise(session, job, status=status, now=clock.now())


async def test_an_accepted_send_holds_accepted_and_an_answer_raises_it_to_received(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    [job_id] = await pending_jobs(engine, clock, [dt.timedelta(0)], kind="water")
    await _send(engine, clock)
    row = await job_row(engine, job_id)
    assert (row.evidence, row.evidence_at) == ("accepted", clock.now())

    clock.advance(dt.timedelta(minutes=20))
    async with engine.begin() as session:
        user_id = row.user_id
        answered = await services.evidence.note_answer(
            session, user_id, now=clock.now(), kinds=["water"]
        )
        again = await services.evidence.note_answer(
            session, user_id, now=clock.now(), kinds=["water"]
        )
    assert (answered, again) == (job_id, None)  # raised once; the second finds it raised
    row = await job_row(engine, job_id)
    assert (row.evidence, row.evidence_at) == ("received", clock.now())


async def test_a_later_accepted_never_lowers_an_answer(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    """An at-least-once job answered after an `unknown` send, then resent and
    accepted: it keeps `received`."""
    [job_id] = await pending_jobs(engine, clock, [dt.timedelta(0)])
    await force_job(engine, job_id, evidence="received", evidence_at=clock.now())
    await _send(engine, clock)
    row = await job_row(engine, job_id)
    assert (row.status, row.evidence) == ("accepted", "received")


async def test_an_answer_means_the_latest_sent_reminder_of_its_kind_within_the_window(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    old, new = await pending_jobs(
        engine, clock, [dt.timedelta(minutes=-30), dt.timedelta(0)], kind="water"
    )
    async with engine.begin() as session:
        for _ in (old, new):
            [job] = await job_claims.claim(
                session, now=clock.now(), owner="w", lease=LEASE, limit=1
            )
            await job_claims.finalise(session, job, status="accepted", now=clock.now())
            clock.advance(dt.timedelta(minutes=1))
    user_id = (await job_row(engine, new)).user_id
    async with engine.begin() as session:
        other_kind = await services.evidence.note_answer(
            session, user_id, now=clock.now(), kinds=["task_due"]
        )
        meant = await services.evidence.note_answer(
            session, user_id, now=clock.now(), kinds=["water"]
        )
    assert (other_kind, meant) == (None, new)
    assert (await job_row(engine, old)).evidence == "accepted"

    clock.advance(dt.timedelta(hours=13))  # past the answer window: nothing is meant
    async with engine.begin() as session:
        assert (
            await evidence.latest_sent(
                session, user_id, since=clock.now() - dt.timedelta(hours=12), kinds=["water"]
            )
            is None
        )


async def test_a_nag_answer_names_its_rule(engine: AsyncEngine, clock: FakeClock) -> None:
    user_id = await new_user(engine, clock, "lisi")
    nag_rule = await new_rule(engine, clock, user_id, kind="nag")
    [job_id] = await pending_jobs(engine, clock, [dt.timedelta(0)], recipient="lisi", kind="custom")
    await force_job(engine, job_id, rule_id=nag_rule, payload_kind="nag")
    await _send(engine, clock, status="unknown")  # it may have arrived: the answer says it did
    async with engine.begin() as session:
        meant = await services.evidence.note_answer(
            session, user_id, now=clock.now(), rule_ids=[nag_rule]
        )
    assert meant == job_id
    row = await job_row(engine, job_id)
    assert (row.status, row.evidence) == ("unknown", "received")


async def test_the_answered_share_is_counted_per_channel_over_thirty_days(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    ids = await pending_jobs(
        engine, clock, [dt.timedelta(minutes=-m) for m in range(4)], kind="water"
    )
    await _send(engine, clock)
    await force_job(engine, ids[0], evidence="received")
    await force_job(engine, ids[1], channel="wxpusher")
    digest = await pending_jobs(
        engine, clock, [dt.timedelta(0)], recipient="w2", kind="digest_morning"
    )
    await _send(engine, clock)
    digest_user = (await job_row(engine, digest[0])).user_id
    async with engine.begin() as session:
        found = await services.evidence.per_channel(session, clock.now())
        mine = await services.evidence.per_channel(session, clock.now(), user_id=digest_user)
    assert found["wecom_app"][1] == Share(sent=3, answered=1)  # a digest asks for nothing
    assert found["wxpusher"][1] == Share(sent=1, answered=0)
    assert mine == {}
    clock.advance(dt.timedelta(days=31))
    async with engine.begin() as session:
        later = await evidence.evidence_by_channel(
            session, since=clock.now() - dt.timedelta(days=30), kinds=ANSWERABLE
        )
    assert later == {}


async def test_a_device_check_is_confirmed_within_thirty_minutes_only(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    user_id = await new_user(engine, clock, "wangwu")
    one = [services.evidence.TestedChannel(channel="wecom_app", recipient="wangwu")]
    async with engine.begin() as session:
        await services.evidence.queue_tests(session, user_id, one, now=clock.now())
    clock.advance(CHECK_WINDOW + dt.timedelta(seconds=1))
    async with engine.begin() as session:
        late = await services.evidence.confirm(session, user_id, None, clock.now())
        await services.evidence.queue_tests(session, user_id, one, now=clock.now())
    clock.advance(dt.timedelta(minutes=3))
    async with engine.begin() as session:
        done = await services.evidence.confirm(session, user_id, None, clock.now())
        checks = await evidence.last_checks(session, [user_id])
        jobs = await job_claims.claim(session, now=clock.now(), owner="w", lease=LEASE, limit=9)
    assert late == services.evidence.Confirmed()
    assert done == services.evidence.Confirmed(confirmed=("wecom_app",))
    assert checks[(user_id, "wecom_app")].confirmed_at == clock.now()
    assert [(j.payload_kind, j.channel, j.recipient) for j in jobs] == [
        ("channel_test", "wecom_app", "wangwu")
    ] * 2


async def test_a_bare_answer_asks_which_when_several_channels_wait(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    user_id = await new_user(engine, clock, "zhaoliu")
    both = [
        services.evidence.TestedChannel(channel="wecom_app", recipient="zhaoliu"),
        services.evidence.TestedChannel(channel="wxpusher", recipient="UID_abcd"),
    ]
    async with engine.begin() as session:
        await services.evidence.queue_tests(session, user_id, both, now=clock.now())
        asked = await services.evidence.confirm(session, user_id, None, clock.now())
        named = await services.evidence.confirm(session, user_id, "wxpusher", clock.now())
        left = await services.evidence.waiting(session, user_id, clock.now())
        jobs = await job_claims.claim(session, now=clock.now(), owner="w", lease=LEASE, limit=9)
    assert asked == services.evidence.Confirmed(ask=("wecom_app", "wxpusher"))
    assert named == services.evidence.Confirmed(confirmed=("wxpusher",))
    assert [c.channel for c in left] == ["wecom_app"]
    assert sorted(j.payload for j in jobs) == ["wecom_app", "wxpusher"]  # each names itself
