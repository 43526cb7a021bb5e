"""One scheduler pass: materialise -> expire -> recover -> claim -> deliver.

Each step is a small function that does one unit of work in its own short
transaction and reports how much it did. The channel call happens outside any
transaction; a finaliser always runs after it, and every state change is a
conditional UPDATE on the claim, so a late worker and the lease sweeper can never
overwrite each other. Which state follows which outcome is `scheduler.outcomes`.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

from scheduler import outcomes
from scheduler.channels.base import Channel, OutboundMessage, SendResult
from scheduler.channels.budget import Defer, budget_decision
from scheduler.clock import Clock
from scheduler.job_state import CATCH_UP_WINDOWS
from scheduler.kinds import Kind, Send, Skip
from storage.database import Database, Session
from storage.repos import jobs, rules, users
from storage.repos.jobs import JobRecord
from storage.retry import retrying

log = logging.getLogger(__name__)

LEASE = dt.timedelta(minutes=2)
BATCH = 100
MATERIALISE_BATCH = 500
SEND_CONCURRENCY = 16
CONFIG_HOLD = dt.timedelta(minutes=10)


@dataclass(frozen=True, kw_only=True, slots=True)
class Scheduler:
    """What a tick needs; built once by the composition root."""

    database: Database
    kinds: Mapping[str, Kind]
    channels: Mapping[str, Channel]
    clock: Clock
    owner: str
    secrets: tuple[str, ...] = ()
    lease: dt.timedelta = LEASE
    batch: int = BATCH
    concurrency: int = SEND_CONCURRENCY
    holds: dict[str, dt.datetime] = field(default_factory=dict)
    """Channels held after a configuration error, until when (this process only)."""


@dataclass(kw_only=True, slots=True)
class TickReport:
    materialised: int = 0
    expired: int = 0
    recovered: int = 0
    claimed: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)


async def tick(s: Scheduler) -> TickReport:
    """Run one pass at the clock's current time; return what it did."""
    started = time.perf_counter()
    now = s.clock.now()
    report = TickReport()
    report.materialised = await materialise_due(s, now)
    report.expired = await expire_stale(s, now)
    report.recovered = await recover_leases(s, now)
    claimed = await claim_batch(s, now)
    report.claimed = len(claimed)
    report.outcomes = await deliver(s, claimed)
    await _heartbeat(s, now, started)
    log.info("tick done", extra={"owner": s.owner, **_flat(report)})
    return report


async def materialise_due(s: Scheduler, now: dt.datetime) -> int:
    """Turn due rules into jobs (insert-or-ignore) and move their `next_fire_at`."""

    async def unit() -> int:
        made = 0
        async with s.database.transaction() as session:
            due = await rules.due(session, now=now, limit=MATERIALISE_BATCH)
            recipients = await users.wecom_ids(session, {r.user_id for r in due})
            for rule in due:
                occurrence = await s.kinds[rule.kind].materialise(
                    session, rule, recipients[rule.user_id], now
                )
                made += await jobs.materialise(session, occurrence.job, now=now) is not None
                await rules.set_next_fire(
                    session, rule.id, occurrence.next_fire_at, now=now, expected=rule.next_fire_at
                )
        return made

    return await retrying(unit)


async def expire_stale(s: Scheduler, now: dt.datetime) -> int:
    """Expire waiting jobs older than their priority's catch-up window."""

    async def unit() -> int:
        expired = 0
        async with s.database.transaction() as session:
            for priority, window in CATCH_UP_WINDOWS.items():
                gone = await jobs.expire_older_than(
                    session, priority=priority.value, cutoff=now - window, now=now
                )
                for job in gone:
                    await s.kinds[job.payload_kind].expired(session, job, now)
                expired += len(gone)
        return expired

    return await retrying(unit)


async def recover_leases(s: Scheduler, now: dt.datetime) -> int:
    """Settle jobs whose worker died mid-send, by their policy (never silently resent)."""

    async def unit() -> int:
        recovered = 0
        async with s.database.transaction() as session:
            for job in await jobs.expired_leases(session, now=now, limit=s.batch):
                result = outcomes.lease_lost(job)
                if await _finish(s, session, job, result, now):
                    # The dead worker wrote no attempt: record what is known, so the
                    # admin's counts and 管理 对账 see this unknown send too.
                    await jobs.record_attempt(
                        session, outcomes.attempt(job, result, now, s.secrets)
                    )
                    recovered += 1
        return recovered

    return await retrying(unit)


async def claim_batch(s: Scheduler, now: dt.datetime) -> list[JobRecord]:
    async def unit() -> list[JobRecord]:
        async with s.database.transaction() as session:
            return await jobs.claim(session, now=now, owner=s.owner, lease=s.lease, limit=s.batch)

    return await retrying(unit)


@dataclass(frozen=True, kw_only=True, slots=True)
class _Ready:
    """One message to send: a recipient's jobs that are still worth it, merged."""

    recipient: str
    channel: str
    jobs: list[JobRecord]
    message: OutboundMessage


async def deliver(s: Scheduler, claimed: list[JobRecord]) -> dict[str, int]:
    """Send the claimed jobs, one message per (recipient, channel), and finalise them.

    The whole batch is prepared in one transaction and finalised in another, so a
    batch of 100 costs two commits, not two per job; the sends happen in between,
    outside any transaction, `s.concurrency` at a time.
    """
    groups: dict[tuple[str, str], list[JobRecord]] = {}
    for job in claimed:
        groups.setdefault((job.recipient, job.channel), []).append(job)
    counts: dict[str, int] = {}
    ready = await retrying(lambda: _prepare_batch(s, groups, counts))
    gate = asyncio.Semaphore(s.concurrency)

    async def send(item: _Ready) -> SendResult:
        async with gate:
            return await _send(s, item.channel, item.recipient, item.message)

    results = await asyncio.gather(*(send(item) for item in ready))
    await retrying(lambda: _settle_batch(s, list(zip(ready, results, strict=True))))
    now = s.clock.now()
    for item, result in zip(ready, results, strict=True):
        for job in item.jobs:
            status = outcomes.job_status(job, result, now)
            counts[status] = counts.get(status, 0) + 1
    return counts


async def _prepare_batch(
    s: Scheduler, groups: dict[tuple[str, str], list[JobRecord]], counts: dict[str, int]
) -> list[_Ready]:
    """Hold, defer, skip or ready each group, re-reading the business state."""
    counts.clear()
    now = s.clock.now()
    ready: list[_Ready] = []
    async with s.database.transaction() as session:
        for (recipient, channel), group in groups.items():
            held = _held_until(s, channel, now)
            wait = held or await _over_budget(session, recipient, channel, now)
            if wait is not None:
                await _defer(session, group, wait, now)
                key = "held" if held else "deferred"
                counts[key] = counts.get(key, 0) + len(group)
                continue
            sends = await _prepare(s, session, group, now)
            if skipped := len(group) - len(sends):
                counts["skipped"] = counts.get("skipped", 0) + skipped
            if sends:
                text = "\n\n".join(send.text for _, send in sends)
                message = OutboundMessage(text=text, dedup=any(send.dedup for _, send in sends))
                ready.append(
                    _Ready(
                        recipient=recipient,
                        channel=channel,
                        jobs=[j for j, _ in sends],
                        message=message,
                    )
                )
    return ready


def _held_until(s: Scheduler, channel: str, now: dt.datetime) -> dt.datetime | None:
    held = s.holds.get(channel)
    return held if held is not None and held > now else None


async def _over_budget(
    session: Session, recipient: str, channel: str, now: dt.datetime
) -> dt.datetime | None:
    """WeCom silently drops sends past 30/min or 1000/h per member: check first.

    The count comes from the database, so it holds across processes.
    """
    sent = await jobs.accepted_sends_since(session, recipient, channel, now - dt.timedelta(hours=1))
    decision = budget_decision(sent, now)
    return decision.until if isinstance(decision, Defer) else None


async def _defer(
    session: Session, group: list[JobRecord], until: dt.datetime, now: dt.datetime
) -> None:
    """Put claimed jobs back to wait until `until`; nothing was sent."""
    for job in group:
        await jobs.finalise(
            session,
            job,
            status="retry_wait",
            now=now,
            next_attempt_at=until,
            note="deferred: channel held or recipient budget",
        )


def _hold(s: Scheduler, channel: str) -> None:
    """A configuration error (untrusted IP, bad secret, no permission) will not heal by
    retrying: stop using the channel for a while and say so loudly; 管理 状态 shows
    the failures."""
    s.holds[channel] = s.clock.now() + CONFIG_HOLD
    log.error("channel held after a configuration error", extra={"channel": channel})


async def _prepare(
    s: Scheduler, session: Session, group: list[JobRecord], now: dt.datetime
) -> list[tuple[JobRecord, Send]]:
    """Re-read the business state; finish what is no longer worth sending."""
    sends: list[tuple[JobRecord, Send]] = []
    for job in group:
        decision = await s.kinds[job.payload_kind].prepare(session, job, now)
        if isinstance(decision, Skip):
            await jobs.finalise(session, job, status=decision.status, now=now, note=decision.reason)
        else:
            sends.append((job, decision))
    return sends


async def _settle_batch(s: Scheduler, sent: list[tuple[_Ready, SendResult]]) -> None:
    now = s.clock.now()
    async with s.database.transaction() as session:
        for item, result in sent:
            if result.error_class == "config":
                _hold(s, item.channel)
            for job in item.jobs:
                await jobs.record_attempt(session, outcomes.attempt(job, result, now, s.secrets))
                await _finish(s, session, job, result, now)


async def _send(s: Scheduler, channel: str, recipient: str, message: OutboundMessage) -> SendResult:
    """The channel call, outside any transaction; never raises."""
    try:
        return await s.channels[channel].send(recipient, message)
    except Exception as exc:  # a bug or an unmapped error: we cannot know if it left
        log.exception("channel raised", extra={"channel": channel})
        return outcomes.crashed(type(exc).__name__)


async def _finish(
    s: Scheduler, session: Session, job: JobRecord, result: SendResult, now: dt.datetime
) -> bool:
    """Finalise the job by the result and its policy; if this claim won, tell its kind."""
    decision = outcomes.decide(job, result, now)
    won = await jobs.finalise(
        session,
        job,
        status=decision.status,
        now=now,
        next_attempt_at=decision.next_attempt_at,
        note=decision.note,
    )
    if won:
        await s.kinds[job.payload_kind].settle(session, job, result, decision.status, now)
    return won


async def _heartbeat(s: Scheduler, now: dt.datetime, started: float) -> None:
    duration_ms = int((time.perf_counter() - started) * 1000)

    async def unit() -> None:
        async with s.database.transaction() as session:
            await jobs.heartbeat(session, worker=s.owner, at=now, duration_ms=duration_ms)

    await retrying(unit)


def _flat(report: TickReport) -> dict[str, object]:
    return {
        "materialised": report.materialised,
        "expired": report.expired,
        "recovered": report.recovered,
        "claimed": report.claimed,
        "sent": ",".join(f"{k}={v}" for k, v in sorted(report.outcomes.items())),
    }
