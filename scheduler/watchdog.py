"""Who notices that the scheduler stopped: `keeper serve`, once a minute.

A stopped scheduler cannot report itself, and a second worker is not always there,
so the web process (always running, since WeCom calls it) watches the heartbeats:
when rules or jobs wait and no scheduler ticked for `SCHEDULER_STALE` (the same test
as `/healthz`), it opens the `scheduler_stopped` incident and, since no tick will
send the alert job it queued, sends the admin alerts itself (claiming only
`admin_alert` jobs, recorded like any other send). The first tick after the outage
resolves the incident (`heal_on_tick`) and queues the all-clear, which that
scheduler then sends.
"""

from __future__ import annotations

import datetime as dt

from scheduler.core.backup_schedule import backup_overdue
from scheduler.core.liveness import SCHEDULER_STALE, scheduler_health, tick_age
from scheduler.delivery import deliver
from scheduler.runtime import Scheduler
from services import alerts
from storage.database import Session
from storage.records import JobRecord
from storage.repos import backups, job_claims, rules, ticks
from storage.retry import retrying
from storage.vocabulary import IncidentKind, RuleKind

STOPPED = IncidentKind.SCHEDULER_STOPPED
SUBJECT = "scheduler"
WATCH_INTERVAL = dt.timedelta(minutes=1)


async def watch_once(s: Scheduler, *, watching_since: dt.datetime) -> str:
    """One look at the heartbeats; the scheduler's health (`ok`, `idle`, `stopped`).
    When stopped, the incident is recorded and any waiting admin alert is sent.

    `watching_since`: when this watchdog started. Nothing is recorded before it has
    watched for `SCHEDULER_STALE` itself: at a deployment's start the web process
    often comes up before the worker, which has never ticked yet (/healthz says
    `stopped` meanwhile; an alert would be false)."""
    now = s.clock.now()

    async def look() -> str:
        async with s.database.transaction() as session:
            last = await ticks.last_tick(session)
            age = tick_age(last, now)
            health = scheduler_health(age, waiting=await _waiting(session, age))
            if health == "stopped" and now - watching_since >= SCHEDULER_STALE:
                detail = f"no tick since {last:%Y-%m-%dT%H:%M}Z" if last else "no tick yet"
                await alerts.failure_seen(
                    session,
                    s.alerts,
                    STOPPED,
                    SUBJECT,
                    code=None,
                    detail=detail,
                    now=now,
                    since=last,
                )
        return health

    health = await retrying(look)
    if health == "stopped" and now - watching_since >= SCHEDULER_STALE:
        await send_alerts(s, now)
    return health


async def _waiting(session: Session, age: dt.timedelta | None) -> bool:
    if age is not None and age <= SCHEDULER_STALE:
        return False  # ticking: no need to look
    return (
        await rules.next_fire_min(session) is not None
        or await job_claims.next_waiting_at(session) is not None
    )


async def send_alerts(s: Scheduler, now: dt.datetime) -> dict[str, int]:
    """Claim and send the due admin alerts only (nothing else: reminders wait for a
    scheduler, as `/healthz` reports)."""

    async def claim() -> list[JobRecord]:
        async with s.database.transaction() as session:
            return await job_claims.claim(
                session,
                now=now,
                owner=s.owner,
                lease=s.lease,
                limit=s.batch,
                kinds=(RuleKind.ADMIN_ALERT,),
            )

    return await deliver(s, await retrying(claim))


async def heal_on_tick(s: Scheduler, session: Session, now: dt.datetime) -> None:
    """A tick ran: the scheduler works (called in the heartbeat's transaction)."""
    await alerts.healed(session, s.alerts, STOPPED, SUBJECT, now=now)
    await check_backups(s, session, now)


async def check_backups(s: Scheduler, session: Session, now: dt.datetime) -> None:
    """With scheduled backups on, open or heal the backup-overdue incident.

    Overdue is `backup_overdue` of the newest verified run's finish. Before any run has
    been verified: overdue as soon as a run has ended unverified, or when the first
    run is still unfinished after 26 hours; a deployment that just turned backups on is
    not alarmed while its first backup is being made. With no run at all nothing is
    said yet (the tick owes one and starts it).
    """
    if s.backups is None:
        return
    verified = await backups.last_verified(session)
    if verified is not None:
        since = verified.finished_at or verified.started_at
        overdue = backup_overdue(since, now, enabled=True)
    else:
        latest = await backups.latest(session)
        if latest is None:
            return
        ended_unverified = latest.finished_at is not None
        overdue = ended_unverified or backup_overdue(latest.started_at, now, enabled=True)
    last = verified.finished_at if verified is not None else None
    await backup_checked(s, session, overdue=overdue, last_verified_at=last, now=now)


BACKUP = IncidentKind.BACKUP_OVERDUE


async def backup_checked(
    s: Scheduler,
    session: Session,
    *,
    overdue: bool,
    last_verified_at: dt.datetime | None,
    now: dt.datetime,
) -> None:
    """The backup-overdue incident, opened or healed by a check's verdict
    (`check_backups` gives the verdict on every tick; tests may give their own)."""
    if overdue:
        detail = f"last verified {last_verified_at:%Y-%m-%d}" if last_verified_at else "never"
        await alerts.failure_seen(
            session,
            s.alerts,
            BACKUP,
            "backup",
            code=None,
            detail=f"backup overdue; {detail}",
            now=now,
            since=last_verified_at,
        )
    else:
        await alerts.healed(session, s.alerts, BACKUP, "backup", now=now)
