"""One scheduler pass: materialise -> recover -> expire -> claim -> deliver.

Delivering (prepare, compose, send, finalise) is `scheduler.delivery`; the shared
`Scheduler` value and limits are `scheduler.runtime`.

Each step is a small function that does one unit of work in its own short
transaction and reports how much it did. The channel call happens outside any
transaction; a finaliser always runs after it, and every state change is a
conditional UPDATE on the claim, so a late worker and the lease sweeper can never
overwrite each other. Which state follows which outcome is `scheduler.core.outcomes`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import time
from dataclasses import dataclass, field

from scheduler import routing, watchdog
from scheduler.core import outcomes, rule_kinds
from scheduler.core.job_state import expiry_cutoff
from scheduler.delivery import deliver, finish, tell_later
from scheduler.runtime import (
    BATCH,
    CATCH_UP_SLOTS,
    LEASE,
    MATERIALISE_BATCH,
    MERGE_WINDOW,
    SEND_CONCURRENCY,
    Scheduler,
)
from storage.database import Session
from storage.records import Addressee, JobRecord, NewJob, RuleRecord
from storage.repos import attempts, flags, job_claims, rules, ticks, users
from storage.retry import retrying
from storage.vocabulary import JobStatus, Priority

__all__ = [
    "BATCH",
    "LEASE",
    "SEND_CONCURRENCY",
    "Scheduler",
    "TickReport",
    "claim_batch",
    "deliver",
    "expire_stale",
    "materialise_due",
    "recover_leases",
    "tick",
]

log = logging.getLogger(__name__)


@dataclass(kw_only=True, slots=True)
class TickReport:
    materialised: int = 0
    expired: int = 0
    recovered: int = 0
    claimed: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    backup_started: bool = False
    pruned: int = 0


async def tick(s: Scheduler) -> TickReport:
    """Run one pass at the clock's current time; return what it did."""
    started = time.perf_counter()
    now = s.clock.now()
    report = TickReport()
    report.materialised = await materialise_due(s, now)
    # Recover first: a claim released because its send never started is a waiting job
    # again, and one past its catch-up window must expire now, not be sent late.
    report.recovered = await recover_leases(s, now)
    report.expired = await expire_stale(s, now)
    claimed = await claim_batch(s, now)
    report.claimed = len(claimed)
    report.outcomes = await deliver(s, claimed)
    report.backup_started = await _backup_step(s)
    report.pruned = await _retention_step(s)
    await _heartbeat(s, now, started)
    busy = (
        report.materialised
        or report.expired
        or report.recovered
        or report.claimed
        or report.backup_started
        or report.pruned
    )
    # A tick that found nothing is routine: DEBUG, so an idle worker's log stays quiet.
    log.log(
        logging.INFO if busy else logging.DEBUG,
        "tick done",
        extra={"owner": s.owner, **_flat(report)},
    )
    return report


async def materialise_due(s: Scheduler, now: dt.datetime) -> int:
    """Turn rules due by `now + MERGE_WINDOW` into jobs (insert-or-ignore) and move
    their `next_fire_at`.

    Why the look-ahead: `claim_batch` can only merge jobs that exist, so without it a
    user's 09:00 and 09:03 reminders left as two messages. An early job is harmless:
    it waits for its slot, and every kind re-reads the business state at send time.
    """
    horizon = now + MERGE_WINDOW

    async def unit() -> int:
        async with s.database.transaction() as session:
            due = await rules.due(session, now=horizon, limit=MATERIALISE_BATCH)
            addressees = await users.addressees(session, {r.user_id for r in due})
            planned: list[NewJob] = []
            moves: list[rules.Move] = []
            broken: list[tuple[RuleRecord, str]] = []
            for rule in due:
                try:
                    made, following = await _occurrences(
                        s, session, rule, addressees[rule.user_id], now, horizon
                    )
                except Exception as exc:  # one bad rule must not stall everyone's
                    broken.append((rule, f"{type(exc).__name__}: {exc}"))
                    continue
                planned += made
                moves.append(rules.Move(rule_id=rule.id, expected=rule.next_fire_at, to=following))
            planned = await routing.route_new(session, planned, s.channels)  # user's primary
            created = await job_claims.materialise_many(session, planned, now=now)
            await rules.move_next_fire(session, moves, now=now)
            for rule, reason in broken:
                await _set_aside(session, rule, reason, now)
        return created

    return await retrying(unit)


async def _occurrences(
    s: Scheduler,
    session: Session,
    rule: RuleRecord,
    to: Addressee,
    now: dt.datetime,
    horizon: dt.datetime,
) -> tuple[list[NewJob], dt.datetime | None]:
    """Every occurrence of the rule up to `horizon` (at most `CATCH_UP_SLOTS`), as jobs,
    and the rule's next occurrence after them. Writes nothing: the caller inserts the
    jobs and moves the rules for the whole batch at once."""
    made: list[NewJob] = []
    following: dt.datetime | None = rule.next_fire_at
    for _ in range(CATCH_UP_SLOTS):
        occurrence = await s.kinds[rule.kind].materialise(session, rule, to, now)
        made.append(occurrence.job)
        following = occurrence.next_fire_at
        if following is None or following > horizon:
            break
        rule = dataclasses.replace(rule, next_fire_at=following)
    return made, following


async def _set_aside(session: Session, rule: RuleRecord, reason: str, now: dt.datetime) -> None:
    """A rule whose occurrences cannot be computed is set aside (status `error`, the
    reason kept for 管理 状态): it would fail again every tick and, before, took the
    whole batch down with it. Its owner is told once, on their next message, as with
    reminders that did not arrive (`users.mark_missed`, `rules.set_aside_since`)."""
    await rules.set_aside(session, rule.id, reason, now=now)
    await users.mark_missed(session, {rule.user_id}, since=now)
    log.error(
        "rule set aside: its next occurrence cannot be computed",
        extra={"rule": rule.id, "kind": rule.kind, "reason": reason[:200]},
    )


async def expire_stale(s: Scheduler, now: dt.datetime) -> int:
    """Expire waiting jobs older than their priority's catch-up window."""

    async def unit() -> int:
        expired = 0
        async with s.database.transaction() as session:
            for priority in Priority:
                cutoff = expiry_cutoff(priority, now)
                gone = await job_claims.expire_older_than(
                    session, priority=priority.value, cutoff=cutoff, now=now
                )
                for job in gone:
                    await s.kinds[job.payload_kind].unsent(session, job, JobStatus.EXPIRED, now)
                    await attempts.record_attempt(
                        session,
                        outcomes.not_sent(job, JobStatus.EXPIRED, "catch-up window passed", now),
                    )
                told = {
                    job.user_id for job in gone if rule_kinds.row(job.payload_kind).told_expired
                }
                await users.mark_missed(session, told, since=now)
                await rules.retire_spent(session, {job.rule_id for job in gone}, now=now)
                expired += len(gone)
        return expired

    return await retrying(unit)


async def recover_leases(s: Scheduler, now: dt.datetime) -> int:
    """Settle jobs whose worker died or hung: a job whose send never started goes back
    to the queue as if never claimed (`job_claims.release`); one whose send started may have
    gone out, so its policy decides (at most once: `unknown`, never silently resent)."""

    async def unit() -> int:
        recovered = 0
        ended: list[tuple[JobRecord, str | None]] = []
        async with s.database.transaction() as session:
            found = await job_claims.expired_leases(session, now=now, limit=s.batch)
            for job in found:
                if job.send_started_at is None:
                    note = "lease expired before the send began; released"
                    recovered += await job_claims.release(session, job, now=now, note=note)
                    continue
                result = outcomes.lease_lost(job)
                ended.append((job, status := await finish(s, session, job, result, now)))
                if status is not None:
                    # The dead worker wrote no attempt: record what is known, so the
                    # admin's counts and 管理 对账 see this unknown send too.
                    await attempts.record_attempt(
                        session, outcomes.attempt(job, result, now, s.secrets)
                    )
                    recovered += 1
            await tell_later(session, ended, now)
            await rules.retire_spent(session, {job.rule_id for job in found}, now=now)
        return recovered

    return await retrying(unit)


async def claim_batch(s: Scheduler, now: dt.datetime) -> list[JobRecord]:
    """Claim due jobs, and the same users' jobs due within `MERGE_WINDOW` to merge.

    While an admin holds every send (管理 暂停 全部) nothing is claimed: jobs wait,
    and expire by the catch-up rules if the hold outlasts their window.
    """

    async def unit() -> list[JobRecord]:
        async with s.database.transaction() as session:
            if await flags.get(session, flags.SENDS_PAUSED) == "on":
                return []
            claimed = await job_claims.claim(
                session, now=now, owner=s.owner, lease=s.lease, limit=s.batch
            )
            companions = await job_claims.claim_companions(
                session,
                {job.recipient for job in claimed},
                until=now + MERGE_WINDOW,
                now=now,
                owner=s.owner,
                lease=s.lease,
            )
            return claimed + companions

    return await retrying(unit)


async def _backup_step(s: Scheduler) -> bool:
    """Start the day's backup when it is owed and this process wins the claim. It runs
    in the background (`scheduler.backup_job`); a failed claim must not cost the
    heartbeat, so it is logged here and tried again next tick."""
    if s.backups is None:
        return False
    try:
        return await s.backups.step(s.database, s.clock, s.owner)
    except Exception:
        log.exception("the daily backup could not be claimed; the next tick tries again")
        return False


async def _retention_step(s: Scheduler) -> int:
    """Prune a few batches of the day's retention run when one is in hand
    (`scheduler.retention_job`), after the sends. A failed batch must not cost the
    heartbeat: it is logged, and the next tick goes on from where the run stands."""
    if s.retention is None:
        return 0
    try:
        return await s.retention.step(s.database, s.clock, s.owner)
    except Exception:
        log.exception("the retention run failed a step; the next tick goes on")
        return 0


async def _heartbeat(s: Scheduler, now: dt.datetime, started: float) -> None:
    duration_ms = int((time.perf_counter() - started) * 1000)

    async def unit() -> None:
        async with s.database.transaction() as session:
            await ticks.heartbeat(session, worker=s.owner, at=now, duration_ms=duration_ms)
            await watchdog.heal_on_tick(s, session, now)

    await retrying(unit)


def _flat(report: TickReport) -> dict[str, object]:
    return {
        "materialised": report.materialised,
        "expired": report.expired,
        "recovered": report.recovered,
        "claimed": report.claimed,
        "backup_started": report.backup_started,
        "pruned": report.pruned,
        "sent": ",".join(f"{k}={v}" for k, v in sorted(report.outcomes.items())),
    }
