"""The shells around `scheduler.core.fallback`: route new jobs, divert failed ones.

Routing is decided at materialisation (`route_new`), so a job's `channel` and
`recipient` say where it goes before it is claimed, the attempts table and 管理 状态
name the right channel, and the per-channel budgets and holds apply as to any job.

The fallback is decided where a claimed job would end: `divert_failed` (after a send
failed for good or its transient retries ran out, in the flush that finalises it)
and `divert_held` (a job claimed while its channel is held after a configuration
error: instead of waiting silently for the hold to pass, an at-least-once job with a
fallback records that its channel could not be used, this attempt `failed`/`config`,
and goes to the fallback). Either way the job is pointed at the fallback and put
back to `retry_wait`, due at once: the next claim sends it there as its next
attempt, with the same text (stored on the job at its first try). Every move is a
conditional UPDATE naming this worker's claim (`job_claims.reroute`, `job_claims.divert`), in
the caller's transaction: a claim lost meanwhile moves nothing.

`recall` takes back claimed jobs routed to a channel this process does not have,
to the WeCom app, unless they may have arrived already (then they fail).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping

from scheduler.core.channel import SendResult
from scheduler.core.fallback import (
    NOT_ROUTED,
    SERVERCHAN_USER,
    WECOM_APP,
    Route,
    fallback_for,
    primary_route,
    route_of,
    user_of_ref,
)
from storage.database import Database, Session
from storage.records import Addressee, AttemptRecord, JobEnd, JobRecord, NewJob, Receiver
from storage.repos import attempts, job_claims, user_channels
from storage.secret_box import KeyRing, open_secret
from storage.vocabulary import AttemptOutcome, ChannelRole, DeliveryPolicy, ErrorClass, JobStatus

HELD_NOTE = "channel held after a configuration error; sent through the fallback"


def _routes(found: Mapping[int, Receiver]) -> dict[int, Route]:
    return {uid: route_of(uid, r.channel, r.receiver) for uid, r in found.items()}


async def route_new(
    session: Session, planned: list[NewJob], configured: Collection[str]
) -> list[NewJob]:
    """The planned jobs, each on its user's primary route (`fallback.primary_route`)."""
    users = {job.user_id for job in planned}
    primaries = _routes(await user_channels.with_role(session, users, ChannelRole.PRIMARY))
    if not primaries:
        return planned
    routed: list[NewJob] = []
    for job in planned:
        made = Route(channel=job.channel, recipient=job.recipient)
        route = primary_route(
            kind=job.payload_kind,
            made=made,
            primary=primaries.get(job.user_id),
            configured=configured,
        )
        if route != made:
            job = dataclasses.replace(job, channel=route.channel, recipient=route.recipient)
        routed.append(job)
    return routed


async def _fallbacks(
    session: Session,
    candidates: Iterable[tuple[JobRecord, str, str, str]],
    configured: Collection[str],
) -> dict[int, Route]:
    """For (job, outcome, error class, status it would end with): the jobs that go to
    their fallback. The recorded attempts say which roads each took and whether any
    send may have arrived (this flush's attempt, already recorded, is never one)."""
    wanted = list(candidates)
    if not wanted:
        return {}
    users = {job.user_id for job, *_ in wanted}
    fallbacks = _routes(await user_channels.with_role(session, users, ChannelRole.FALLBACK))
    history = await attempts.routes_and_outcomes(session, {job.id for job, *_ in wanted})
    chosen: dict[int, Route] = {}
    for job, outcome, error_class, ends in wanted:
        past = history.get(job.id, set())
        route = fallback_for(
            kind=job.payload_kind,
            policy=job.policy,
            outcome=outcome,
            error_class=error_class,
            ends=ends,
            uncertain_before=any(o in UNCERTAIN for _, o in past),
            channel=job.channel,
            tried={c for c, _ in past} | {job.channel},
            fallback=fallbacks.get(job.user_id),
            configured=configured,
        )
        if route is not None:
            chosen[job.id] = route
    return chosen


UNCERTAIN = frozenset({AttemptOutcome.UNKNOWN, AttemptOutcome.ACCEPTED})
"""Attempt outcomes after which a job may have reached the user: no fallback then."""


async def divert_failed(
    session: Session,
    finals: list[JobEnd],
    results: Mapping[int, SendResult],
    configured: Collection[str],
    now: dt.datetime,
) -> list[JobEnd]:
    """The finals that would end failed and are owed a fallback, turned into
    `retry_wait` on the fallback's route (the attempts of this flush already
    recorded; `finals` holds only claims locked as ours)."""
    candidates = (
        (end.job, results[end.job.id].outcome, results[end.job.id].error_class, end.status)
        for end in finals
        if end.status == JobStatus.FAILED and end.job.policy == DeliveryPolicy.AT_LEAST_ONCE
    )
    chosen = await _fallbacks(session, candidates, configured)
    moved: set[int] = set()
    for end in finals:
        if (route := chosen.get(end.job.id)) is not None and await job_claims.reroute(
            session, end.job, channel=route.channel, recipient=route.recipient
        ):
            moved.add(end.job.id)
    return [
        JobEnd(
            job=end.job,
            status=JobStatus.RETRY_WAIT,
            next_attempt_at=now,
            note=f"{end.note}; fallback through {chosen[end.job.id].channel}",
        )
        if end.job.id in moved
        else end
        for end in finals
    ]


async def divert_held(
    session: Session, group: list[JobRecord], configured: Collection[str], now: dt.datetime
) -> tuple[int, list[JobRecord]]:
    """Send the group's at-least-once jobs that have a fallback there instead of
    waiting for their held channel (see the module note): how many moved, and the
    jobs left to wait.

    Each move is one UPDATE under this worker's claim (`job_claims.divert`); only when it
    wins is the held attempt recorded and the move counted, so a claim lost meanwhile
    (swept, claimed again elsewhere) changes nothing of the other worker's, writes no
    attempt and counts nothing. The jobs left are exactly those not owed a fallback
    (their claims unchecked here, as for any deferred job): one owed a fallback whose
    claim was lost is not ours to defer, so it is not returned either."""
    candidates = (
        (job, AttemptOutcome.FAILED, ErrorClass.CONFIG, JobStatus.FAILED)
        for job in group
        if job.policy == DeliveryPolicy.AT_LEAST_ONCE
    )
    chosen = await _fallbacks(session, candidates, configured)
    if not chosen:
        return 0, group
    moved = 0
    for job in group:
        if (route := chosen.get(job.id)) is None:
            continue
        won = await job_claims.divert(
            session, job, channel=route.channel, recipient=route.recipient, now=now, note=HELD_NOTE
        )
        if won:
            await attempts.record_attempt(session, _held_attempt(job, now))
            moved += 1
    return moved, [job for job in group if job.id not in chosen]


async def recall(
    session: Session,
    group: list[JobRecord],
    addressees: Mapping[int, Addressee],
    configured: Collection[str],
    now: dt.datetime,
) -> tuple[int, list[JobRecord]]:
    """Claimed jobs routed to a channel this process does not have (its setting was
    cleared after routing, or this worker runs with other settings): a user's
    reminder goes back to the WeCom app, to the user's UserID, due now, its attempt
    refunded (nothing was tried). Returns how many moved, and the jobs that cannot
    move (card updates, admin alerts, no WeCom app either, or a job whose earlier
    attempt was `unknown` or `accepted`: it may have arrived, and a second road could
    double it, as the fallback rule forbids): the caller fails them as a
    configuration error."""
    history = await attempts.routes_and_outcomes(session, {job.id for job in group})
    moved, stuck = 0, []
    for job in group:
        uncertain = any(o in UNCERTAIN for _, o in history.get(job.id, set()))
        if job.payload_kind in NOT_ROUTED or WECOM_APP not in configured or uncertain:
            stuck.append(job)
            continue
        moved += await job_claims.divert(
            session,
            job,
            channel=WECOM_APP,
            recipient=addressees[job.user_id].wecom_user_id,
            now=now,
            note=f"{job.channel} not configured here: back to the WeCom app",
            refund_attempt=True,
        )
    return moved, stuck


def _held_attempt(job: JobRecord, now: dt.datetime) -> AttemptRecord:
    return AttemptRecord(
        job_id=job.id,
        attempt_no=job.attempts,
        channel=job.channel,
        started_at=now,
        duration_ms=0,
        outcome=AttemptOutcome.FAILED,
        error_class=ErrorClass.CONFIG,
        provider_code=None,
        provider_message_id=None,
        error="channel held after a configuration error; not called",
    )


def sendkey_resolver(database: Database, keys: KeyRing) -> Callable[[str], Awaitable[str | None]]:
    """How the personal Server酱 channel finds a job's SendKey: the recipient names
    the user, the key is read in its own short transaction and opened with `keys`
    (whichever of them it names, so `keeper rekey` may move it at any moment).
    None: no key bound (any more). Raises `secret_box.Unreadable` when no key here
    opens it (a data key removed before `keeper rekey` moved what it sealed)."""

    async def resolve(recipient: str) -> str | None:
        user_id = user_of_ref(recipient)
        if user_id is None:
            return None
        async with database.transaction() as session:
            sealed = await user_channels.receiver_on(session, user_id, SERVERCHAN_USER)
        if sealed is None:
            return None
        return open_secret(keys, sealed, user_id=user_id, channel=SERVERCHAN_USER)

    return resolve
