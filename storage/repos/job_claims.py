"""Notification jobs through their claims: made (materialised), claimed under a
lease, renewed, finalised or given back, settled unsent (suppressed, cancelled,
expired), recovered from a worker that died.

Every state change here is a conditional UPDATE naming the state it expects, so two
workers (or a worker and the lease sweeper) can never both win: the loser's UPDATE
matches no row and it learns it lost. Which transitions are allowed is decided by
`scheduler.core.job_state`; this module only performs them. What the user is told about
jobs that went out, were missed or failed is `storage.repos.sent_or_missed`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
from collections.abc import Collection
from typing import Any, cast

from sqlalchemy import (
    ColumnElement,
    CursorResult,
    Row,
    and_,
    delete,
    func,
    literal,
    select,
    update,
)
from sqlalchemy.dialects import sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.dml import Insert

from storage.database import Session
from storage.delivery_models import JOBS
from storage.dialect import insert_into, insert_unless_exists
from storage.records import JobEnd, JobRecord, NewJob
from storage.vocabulary import CLAIMABLE, NEVER_EARLY, DeliveryEvidence, JobStatus


def _record(row: Row[Any]) -> JobRecord:
    return JobRecord(
        id=row.id,
        user_id=row.user_id,
        rule_id=row.rule_id,
        slot=row.scheduled_slot_utc,
        status=row.status,
        policy=row.policy,
        priority=row.priority,
        channel=row.channel,
        recipient=row.recipient,
        payload_kind=row.payload_kind,
        payload_ref=row.payload_ref,
        attempts=row.attempts,
        lease_owner=row.lease_owner,
        payload=row.payload,
        send_started_at=row.send_started_at,
    )


async def materialise(session: Session, job: NewJob, *, now: dt.datetime) -> int | None:
    """Insert the job for this (user, rule, slot) unless it exists. Its id, or None."""
    return await insert_unless_exists(session, JOBS, _new_row(job, now))


MATERIALISE_CHUNK = 500
"""Rows per multi-row INSERT on MySQL/MariaDB: a clash sends only its chunk down the
slow path."""


async def materialise_many(session: Session, new: list[NewJob], *, now: dt.datetime) -> int:
    """Insert every job whose (user, rule, slot) does not exist yet; how many were new.

    The tick's planning path: one statement per batch (per chunk on MySQL/MariaDB),
    compiled once and cached; the rows travel as executemany parameters, not as a
    statement with thousands of bound values (compiling that cost more than the
    database's work).

    SQLite: `INSERT ... ON CONFLICT DO NOTHING`, executed for every row in-process; the
    conflict clause skips uniqueness clashes only, and the summed row count is how
    many were new. MySQL/MariaDB: one multi-row INSERT per chunk (the driver folds an
    executemany INSERT into one) inside a savepoint. A clash is rare: the rules these
    jobs come from are locked by the caller (`rules.due`), so no other tick inserts
    the same keys; it takes a job already there for the slot (quiet time moving one
    onto it). Then the chunk falls back to one insert-or-ignore per row, which skips
    exactly the duplicates. (A SELECT of the existing keys first cost every tick more
    than the rare fallback; on `(rule_id, slot)` it even scanned every job.)
    """
    rows = list({_key(job): _new_row(job, now) for job in new}.values())
    if not rows:
        return 0
    if session.dialect.name == "sqlite":
        result = await session.execute(_sqlite_insert_new(), rows)
        return int(cast(CursorResult[Any], result).rowcount)
    total = 0
    for start in range(0, len(rows), MATERIALISE_CHUNK):
        total += await _materialise_chunk(session, rows[start : start + MATERIALISE_CHUNK])
    return total


def _key(job: NewJob) -> tuple[int, int, dt.datetime]:
    return (job.user_id, job.rule_id, job.slot)  # aware instants hash as instants


@functools.cache
def _sqlite_insert_new() -> Insert:
    return sqlite.insert(JOBS).on_conflict_do_nothing()


async def _materialise_chunk(session: Session, rows: list[dict[str, Any]]) -> int:
    try:
        async with session.begin_nested():
            await session.execute(insert_into(JOBS), rows)
        return len(rows)
    except IntegrityError:
        made = 0
        for row in rows:
            made += await insert_unless_exists(session, JOBS, row) is not None
        return made


def _new_row(job: NewJob, now: dt.datetime) -> dict[str, Any]:
    return {
        "user_id": job.user_id,
        "rule_id": job.rule_id,
        "scheduled_slot_utc": job.slot,
        "status": JobStatus.PENDING,
        "policy": job.policy,
        "priority": job.priority,
        "channel": job.channel,
        "recipient": job.recipient,
        "payload_kind": job.payload_kind,
        "payload_ref": job.payload_ref,
        "payload": job.payload[:2048],
        "attempts": 0,
        "next_attempt_at": job.slot,
        "created_at": now,
        "updated_at": now,
        "outcome_note": "",
    }


async def claim(
    session: Session,
    *,
    now: dt.datetime,
    owner: str,
    lease: dt.timedelta,
    limit: int,
    kinds: tuple[str, ...] | None = None,
) -> list[JobRecord]:
    """Flip up to `limit` due jobs to `processing` under `owner`'s lease; return them,
    oldest first.

    SQLite: one conditional `UPDATE ... RETURNING`; the transaction holds SQLite's
    single write lock, so no other worker can pick the same rows. MySQL/MariaDB:
    `SELECT ... FOR UPDATE SKIP LOCKED`, one status at a time so that each read walks
    the (status, next_attempt_at) index and locks only the rows it returns (with
    `status IN (...)` InnoDB sorts, locking every due row, and a concurrent claimer
    finds nothing), then an UPDATE of exactly those ids. The caller runs this at READ
    COMMITTED and retries deadlocks.

    `kinds`: claim only jobs of these payload kinds (the watchdog sends admin alerts
    alone while no scheduler ticks); None: every kind.
    """
    changes = _claim_values(now, owner, lease)
    if session.dialect.name == "sqlite":
        due = and_(JOBS.c.status.in_(CLAIMABLE), JOBS.c.next_attempt_at <= now, *_of(kinds))
        ids = select(JOBS.c.id).where(due).order_by(*_OLDEST).limit(limit).scalar_subquery()
        stmt = update(JOBS).where(JOBS.c.id.in_(ids), due).values(changes).returning(*JOBS.c)
        claimed = sorted(await session.execute(stmt), key=lambda r: (r.next_attempt_at, r.id))
        return [_record(r) for r in claimed]
    picked: list[int] = []
    for status in CLAIMABLE:
        picked += await _lock_due(session, status, now, limit - len(picked), kinds)
    if not picked:
        return []
    await session.execute(update(JOBS).where(JOBS.c.id.in_(picked)).values(changes))
    rows = await session.execute(select(JOBS).where(JOBS.c.id.in_(picked)).order_by(*_OLDEST))
    return [_record(r) for r in rows]


_OLDEST = (JOBS.c.next_attempt_at, JOBS.c.id)


def _claim_values(now: dt.datetime, owner: str, lease: dt.timedelta) -> dict[str, Any]:
    """What a claim writes: `processing` under `owner`'s lease, one more attempt, its
    send not started yet."""
    return {
        "status": JobStatus.PROCESSING,
        "lease_owner": owner,
        "lease_expires_at": now + lease,
        "attempts": JOBS.c.attempts + 1,
        "updated_at": now,
        "send_started_at": None,
    }


async def lock_claims(session: Session, job_ids: list[int], *, owner: str) -> dict[int, int]:
    """Of these jobs, those still `processing` under `owner`: id -> the claim's attempt
    number. The rows stay locked to the end of the transaction (SELECT ... FOR UPDATE
    on MySQL/MariaDB; on SQLite the transaction holds the one write lock), so the
    sweeper cannot release or settle one between this read and the caller's UPDATEs:
    what this returns is exactly what `start_claimed` and `finalise_claimed` may
    change. One statement for a whole flush of the delivery window.
    """
    if not job_ids:
        return {}
    ours = and_(
        JOBS.c.id.in_(job_ids), JOBS.c.status == JobStatus.PROCESSING, JOBS.c.lease_owner == owner
    )
    pick = select(JOBS.c.id, JOBS.c.attempts).where(ours)
    if session.dialect.name != "sqlite":
        pick = pick.with_for_update()
    return {job_id: attempts for job_id, attempts in await session.execute(pick)}


async def start_claimed(
    session: Session, job_ids: list[int], *, now: dt.datetime, lease: dt.timedelta
) -> None:
    """Mark locked claims (`lock_claims`) as being sent, renewing their lease."""
    if job_ids:
        values = {"send_started_at": now, "lease_expires_at": now + lease, "updated_at": now}
        await session.execute(update(JOBS).where(JOBS.c.id.in_(job_ids)).values(values))


async def renew_leases(
    session: Session, job_ids: list[int], *, owner: str, now: dt.datetime, lease: dt.timedelta
) -> None:
    """Push the lease of these claims (still `processing` under `owner`) to now + lease:
    a long batch is not swept while its sends run or wait their turn."""
    if job_ids:
        ours = and_(
            JOBS.c.id.in_(job_ids),
            JOBS.c.status == JobStatus.PROCESSING,
            JOBS.c.lease_owner == owner,
        )
        values = {"lease_expires_at": now + lease, "updated_at": now}
        await session.execute(update(JOBS).where(ours).values(values))


async def finalise_claimed(session: Session, finals: list[JobEnd], *, now: dt.datetime) -> None:
    """`finalise` for claims locked by `lock_claims` in this transaction, one UPDATE per
    distinct outcome (status, note, next try): a flush of 30 accepted sends is one
    statement. The caller passes only the claims `lock_claims` returned as its own."""
    groups: dict[tuple[str, str, dt.datetime | None], list[int]] = {}
    for final in finals:
        key = (final.status, final.note[:200], final.next_attempt_at)
        groups.setdefault(key, []).append(final.job.id)
    for (status, note, next_attempt_at), ids in groups.items():
        values = _final_values(status, now, next_attempt_at, note)
        await session.execute(update(JOBS).where(JOBS.c.id.in_(ids)).values(values))


def _final_values(
    status: str, now: dt.datetime, next_attempt_at: dt.datetime | None, note: str
) -> dict[str, Any]:
    values: dict[str, Any] = {
        "status": status,
        "lease_owner": None,
        "lease_expires_at": None,
        "updated_at": now,
        "outcome_note": note[:200],
    }
    if next_attempt_at is not None:
        values["next_attempt_at"] = next_attempt_at
    if status != JobStatus.RETRY_WAIT:
        values["finished_at"] = now
    if status == JobStatus.ACCEPTED:  # the weakest evidence: never lowers a stronger one
        values["evidence"] = func.coalesce(JOBS.c.evidence, DeliveryEvidence.ACCEPTED)
        values["evidence_at"] = func.coalesce(
            JOBS.c.evidence_at, literal(now, JOBS.c.evidence_at.type)
        )
    return values


async def release_unstarted(
    session: Session, jobs: list[JobRecord], *, now: dt.datetime, note: str
) -> int:
    """`release` for many claims at once (one UPDATE per earlier-tries count, mostly
    one): each is given back only if it is still this claim and its send never
    started. How many were released."""
    released = 0
    by_attempts: dict[int, list[JobRecord]] = {}
    for job in jobs:
        by_attempts.setdefault(job.attempts, []).append(job)
    for attempts, group in by_attempts.items():
        claims = and_(
            JOBS.c.id.in_([job.id for job in group]),
            JOBS.c.status == JobStatus.PROCESSING,
            JOBS.c.lease_owner.in_({job.lease_owner for job in group}),
            JOBS.c.attempts == attempts,
            JOBS.c.send_started_at.is_(None),
        )
        values = {
            "status": JobStatus.RETRY_WAIT if attempts - 1 else JobStatus.PENDING,
            "attempts": attempts - 1,
            "lease_owner": None,
            "lease_expires_at": None,
            "updated_at": now,
            "outcome_note": note[:200],
        }
        result = await session.execute(update(JOBS).where(claims).values(values))
        released += int(cast(CursorResult[Any], result).rowcount)
    return released


async def release(session: Session, job: JobRecord, *, now: dt.datetime, note: str) -> bool:
    """Give back a claimed job whose send never started, as if it had never been
    claimed: `pending` (or `retry_wait` if an earlier try happened), the claim's
    attempt refunded, due when it was due. False if the claim was lost or its send
    had started (then its fate is uncertain and the policy decides, not this)."""
    earlier_tries = job.attempts - 1
    stmt = (
        update(JOBS)
        .where(_this_claim(job), JOBS.c.send_started_at.is_(None))
        .values(
            status=JobStatus.RETRY_WAIT if earlier_tries else JobStatus.PENDING,
            attempts=earlier_tries,
            lease_owner=None,
            lease_expires_at=None,
            updated_at=now,
            outcome_note=note[:200],
        )
    )
    return bool((await session.execute(stmt)).rowcount)


async def claim_companions(
    session: Session,
    recipients: set[str],
    *,
    until: dt.datetime,
    now: dt.datetime,
    owner: str,
    lease: dt.timedelta,
) -> list[JobRecord]:
    """Also claim these recipients' jobs that fall due before `until` (the merge window),
    so a user's reminders a few minutes apart leave as one message (not `NEVER_EARLY`
    kinds: a nag's repeats keep their own times).

    Same safety as `claim`: a conditional UPDATE on SQLite, SKIP LOCKED elsewhere.
    """
    if not recipients:
        return []
    soon = and_(
        JOBS.c.recipient.in_(recipients),
        JOBS.c.status == JobStatus.PENDING,
        JOBS.c.next_attempt_at > now,
        JOBS.c.next_attempt_at <= until,
        JOBS.c.payload_kind.not_in(NEVER_EARLY),
    )
    changes = _claim_values(now, owner, lease)
    if session.dialect.name == "sqlite":
        stmt = update(JOBS).where(soon).values(changes).returning(*JOBS.c)
        return [_record(r) for r in sorted(await session.execute(stmt), key=lambda r: r.id)]
    pick = select(JOBS.c.id).where(soon).order_by(JOBS.c.id).with_for_update(skip_locked=True)
    picked = list((await session.execute(pick)).scalars())
    if not picked:
        return []
    await session.execute(update(JOBS).where(JOBS.c.id.in_(picked)).values(changes))
    rows = await session.execute(select(JOBS).where(JOBS.c.id.in_(picked)).order_by(JOBS.c.id))
    return [_record(r) for r in rows]


def _of(kinds: tuple[str, ...] | None) -> list[ColumnElement[bool]]:
    return [] if kinds is None else [JOBS.c.payload_kind.in_(kinds)]


async def _lock_due(
    session: Session,
    status: str,
    now: dt.datetime,
    limit: int,
    kinds: tuple[str, ...] | None = None,
) -> list[int]:
    """Lock up to `limit` due jobs in `status` that no one else holds (MySQL/MariaDB)."""
    if limit <= 0:
        return []
    stmt = (
        select(JOBS.c.id)
        .where(JOBS.c.status == status, JOBS.c.next_attempt_at <= now, *_of(kinds))
        .order_by(*_OLDEST)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    return list((await session.execute(stmt)).scalars())


async def finalise(
    session: Session,
    job: JobRecord,
    *,
    status: str,
    now: dt.datetime,
    next_attempt_at: dt.datetime | None = None,
    note: str = "",
    refund_attempt: bool = False,
) -> bool:
    """Move a job this worker claimed out of `processing`. False if the claim was lost.

    The WHERE names the claim (status, owner, attempt number): a late worker whose
    lease the sweeper already settled changes nothing, and vice versa.
    `refund_attempt`: nothing was tried (a deferral), so the claim's count is undone.
    """
    values = _final_values(status, now, next_attempt_at, note)
    return await _end_claim(session, job, values, refund_attempt=refund_attempt)


async def _end_claim(
    session: Session, job: JobRecord, values: dict[str, Any], *, refund_attempt: bool
) -> bool:
    """Write `values` to the job while this claim holds it; with `refund_attempt`, undo
    the claim's count. False if the claim was lost."""
    if refund_attempt:
        values = {**values, "attempts": JOBS.c.attempts - 1}
    stmt = update(JOBS).where(_this_claim(job)).values(values)
    return bool((await session.execute(stmt)).rowcount)


async def reroute(session: Session, job: JobRecord, *, channel: str, recipient: str) -> bool:
    """Point a job this worker still claims at another (channel, recipient): the
    fallback's, before the caller finalises it in the same transaction. False if the
    claim was lost (another worker's claim of the same job is never touched)."""
    stmt = update(JOBS).where(_this_claim(job)).values(channel=channel, recipient=recipient)
    return bool((await session.execute(stmt)).rowcount)


async def divert(
    session: Session,
    job: JobRecord,
    *,
    channel: str,
    recipient: str,
    now: dt.datetime,
    note: str,
    refund_attempt: bool = False,
) -> bool:
    """One conditional UPDATE: a job this worker claims goes back to `retry_wait`,
    due now, on another route (the fallback's, or back to the WeCom app). False if
    the claim was lost: then nothing changed, and the caller records no attempt.
    `refund_attempt`: nothing was tried, so the claim's count is undone."""
    values = _final_values(JobStatus.RETRY_WAIT, now, now, note)
    values.update(channel=channel, recipient=recipient)
    return await _end_claim(session, job, values, refund_attempt=refund_attempt)


async def move_waiting(
    session: Session,
    user_id: int,
    *,
    from_channel: str,
    channel: str,
    recipient: str,
    keep_kinds: Collection[str],
    untried_only: bool,
    now: dt.datetime,
) -> int:
    """Point the user's waiting jobs (pending, retry_wait) on `from_channel` at another
    route, in the caller's transaction (the user's change of channels). A claimed job
    is not touched (it is being sent where it was routed). `untried_only`: only jobs
    with no attempt yet, so a resend after an uncertain try stays on its own road
    (its duplicate check). How many moved."""
    conditions = [
        JOBS.c.user_id == user_id,
        JOBS.c.channel == from_channel,
        JOBS.c.status.in_(CLAIMABLE),
        JOBS.c.payload_kind.not_in(list(keep_kinds)),
    ]
    if untried_only:
        conditions.append(JOBS.c.attempts == 0)
    stmt = (
        update(JOBS).where(*conditions).values(channel=channel, recipient=recipient, updated_at=now)
    )
    return int(cast(CursorResult[Any], await session.execute(stmt)).rowcount)


def _this_claim(job: JobRecord) -> ColumnElement[bool]:
    """The job as this claim left it: still `processing` under the same owner and
    attempt. A late worker or the lease sweeper that lost the claim matches nothing."""
    return and_(
        JOBS.c.id == job.id,
        JOBS.c.status == JobStatus.PROCESSING,
        JOBS.c.lease_owner == job.lease_owner,
        JOBS.c.attempts == job.attempts,
    )


async def settle_waiting(
    session: Session, job_ids: list[int], *, status: str, now: dt.datetime, note: str = ""
) -> int:
    """Suppress, cancel or expire jobs that are still waiting (pending or retry_wait)."""
    if not job_ids:
        return 0
    stmt = (
        update(JOBS)
        .where(JOBS.c.id.in_(job_ids), JOBS.c.status.in_(CLAIMABLE))
        .values(status=status, updated_at=now, finished_at=now, outcome_note=note[:200])
    )
    return int((await session.execute(stmt)).rowcount)


async def cancel_pending_for_rule(
    session: Session, rule_id: int, *, now: dt.datetime, note: str
) -> int:
    """Withdraw every waiting job of a rule (the user closed, paused, moved it).

    A job whose slot is still ahead and that was never tried exists only because the
    tick looks a few minutes ahead (to merge): it is deleted, not cancelled, so the
    same slot can be made again if the user switches the rule back on at once (a
    cancelled row would hold the slot's unique key). Due ones end `cancelled`.
    """
    future = delete(JOBS).where(
        JOBS.c.rule_id == rule_id,
        JOBS.c.status == JobStatus.PENDING,
        JOBS.c.attempts == 0,
        JOBS.c.scheduled_slot_utc > now,
    )
    withdrawn = int(cast(CursorResult[Any], await session.execute(future)).rowcount)
    stmt = (
        update(JOBS)
        .where(JOBS.c.rule_id == rule_id, JOBS.c.status.in_(CLAIMABLE))
        .values(
            status=JobStatus.CANCELLED, updated_at=now, finished_at=now, outcome_note=note[:200]
        )
    )
    return withdrawn + int((await session.execute(stmt)).rowcount)


async def expire_older_than(
    session: Session, *, priority: str, cutoff: dt.datetime, now: dt.datetime
) -> list[JobRecord]:
    """Expire waiting jobs of `priority` whose slot is before `cutoff`; return exactly
    the jobs this call expired (a job a claimer holds is skipped, not reported)."""
    stale = and_(
        JOBS.c.status.in_(CLAIMABLE),
        JOBS.c.priority == priority,
        JOBS.c.scheduled_slot_utc < cutoff,
    )
    pick = select(JOBS).where(stale).order_by(JOBS.c.id)
    if session.dialect.name != "sqlite":
        pick = pick.with_for_update(skip_locked=True)
    rows = [_record(r) for r in await session.execute(pick)]
    if not rows:
        return []
    note = "catch-up window passed"
    await settle_waiting(
        session, [r.id for r in rows], status=JobStatus.EXPIRED, now=now, note=note
    )
    return [dataclasses.replace(r, status=JobStatus.EXPIRED) for r in rows]


async def last_slot(session: Session, rule_id: int) -> dt.datetime | None:
    """The latest slot of any job of the rule (rules whose jobs are queued by hand,
    such as admin alerts, pick the next free one from it)."""
    stmt = select(func.max(JOBS.c.scheduled_slot_utc)).where(JOBS.c.rule_id == rule_id)
    latest: dt.datetime | None = (await session.execute(stmt)).scalar_one_or_none()
    return latest


async def expired_leases(session: Session, *, now: dt.datetime, limit: int) -> list[JobRecord]:
    """Jobs still `processing` whose lease ran out: their worker died or hung."""
    stmt = (
        select(JOBS)
        .where(JOBS.c.status == JobStatus.PROCESSING, JOBS.c.lease_expires_at < now)
        .order_by(JOBS.c.lease_expires_at)
        .limit(limit)
    )
    return [_record(r) for r in await session.execute(stmt)]


async def waiting_slot(session: Session, rule_id: int) -> dt.datetime | None:
    """The slot of the rule's job still waiting to be sent, if any (a one-off whose job
    the look-ahead made early still shows its time in 提醒)."""
    stmt = select(func.min(JOBS.c.scheduled_slot_utc)).where(
        JOBS.c.rule_id == rule_id, JOBS.c.status.in_(CLAIMABLE)
    )
    slot: dt.datetime | None = (await session.execute(stmt)).scalar_one_or_none()
    return slot


async def set_payload(session: Session, job_id: int, payload: str) -> None:
    """Keep small per-job data (an at-least-once job's exact text) for later tries."""
    await session.execute(update(JOBS).where(JOBS.c.id == job_id).values(payload=payload[:2048]))


async def get(session: Session, job_id: int) -> JobRecord | None:
    """The job, or None."""
    row = (await session.execute(select(JOBS).where(JOBS.c.id == job_id))).first()
    return None if row is None else _record(row)


async def next_waiting_at(session: Session) -> dt.datetime | None:
    """The earliest time a waiting job may be tried (for the demo's clock jumps)."""
    stmt = select(func.min(JOBS.c.next_attempt_at)).where(JOBS.c.status.in_(CLAIMABLE))
    earliest: dt.datetime | None = (await session.execute(stmt)).scalar_one_or_none()
    return earliest
