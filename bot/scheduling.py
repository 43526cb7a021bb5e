"""Composition of the scheduler: settings -> channels, kinds, `Scheduler`; the loop.

`keeper tick` runs one pass; `keeper worker` (and `keeper serve` with
KEEPER_SCHEDULER=on) runs `run_loop`, whose rhythm comes from an APScheduler interval
trigger used purely as a calculator (APScheduler's job store is not involved: the
database is the only source of truth). SIGTERM stops the loop after the tick in
progress, so in-flight sends finish and are finalised.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import os
import socket
from collections.abc import AsyncIterator

import aiohttp
from apscheduler.triggers.interval import IntervalTrigger

from bot.settings import Settings
from scheduler.backup_job import BackupDuty, BackupPlan
from scheduler.channels.enterprise_budget import EnterpriseLimits
from scheduler.channels.token_store import DatabaseTokenStore
from scheduler.channels.wecom_app import WeComAppChannel, WeComAppConfig
from scheduler.clock import Clock
from scheduler.kinds import Kind
from scheduler.reminder_kinds import CardUpdateKind, OneOffKind, RecurringKind
from scheduler.tick import Scheduler, TickReport, tick
from scheduler.water_kind import WaterKind
from storage.database import Database
from storage.records import RuleKind

log = logging.getLogger(__name__)

TICK_INTERVAL = dt.timedelta(seconds=30)
SEND_TIMEOUT_S = 15.0


def worker_name() -> str:
    """Unique per process: the lease owner written on claimed jobs."""
    return f"{socket.gethostname()}:{os.getpid()}"


@contextlib.asynccontextmanager
async def scheduler_for(
    settings: Settings,
    database: Database,
    clock: Clock,
    *,
    send_timeout: float = SEND_TIMEOUT_S,
    owner: str | None = None,
) -> AsyncIterator[Scheduler]:
    """A `Scheduler` with its WeCom channel open for the duration.

    `send_timeout` bounds one API call; past it, a sent request counts as unknown.
    `owner` names the process in leases and heartbeats (default: `worker_name()`).
    """
    config = WeComAppConfig(
        api_base=settings.api_base,
        corp_id=settings.corp_id,
        agent_id=settings.agent_id,
        secret=settings.secret,
        connect_timeout=min(5.0, send_timeout),
        total_timeout=send_timeout,
    )
    async with aiohttp.ClientSession() as http:
        channel = WeComAppChannel(
            config, session=http, store=DatabaseTokenStore(database), now=clock.now
        )
        yield Scheduler(
            database=database,
            kinds=all_kinds(),
            channels={channel.name: channel},
            clock=clock,
            owner=owner or worker_name(),
            secrets=settings.secrets(),
            enterprise=EnterpriseLimits(daily=settings.wecom_daily_cap, channel=channel.name),
            backups=backup_duty(settings),
        )


def backup_duty(settings: Settings) -> BackupDuty | None:
    """The daily backup when KEEPER_BACKUP_DIR is set (settings then hold the key)."""
    if settings.backup_dir is None:
        return None
    plan = BackupPlan(
        database_url=settings.database_url,
        directory=settings.backup_dir,
        key=settings.backup_key,
        at=settings.backup_at,
        zone=settings.timezone,
        keep=settings.backup_keep,
    )
    return BackupDuty(plan)


def all_kinds() -> dict[str, Kind]:
    """Every rule kind the tick knows, by the name stored on rules and jobs."""
    kinds: list[Kind] = [
        WaterKind(),
        RecurringKind(RuleKind.DIGEST_MORNING),
        RecurringKind(RuleKind.DIGEST_EVENING),
        RecurringKind(RuleKind.WEEKLY_REVIEW),
        RecurringKind(RuleKind.CUSTOM),
        OneOffKind(RuleKind.EVENT_REMINDER),
        OneOffKind(RuleKind.TASK_DUE),
        CardUpdateKind(),
    ]
    return {kind.name: kind for kind in kinds}


async def run_loop(
    scheduler: Scheduler, stop: asyncio.Event, *, interval: dt.timedelta = TICK_INTERVAL
) -> None:
    """Tick on the trigger's rhythm until `stop` is set; a failing tick is logged, not fatal.

    On stop, a daily backup this process is running is waited for (see `BackupDuty.wait`).
    """
    trigger = IntervalTrigger(seconds=interval.total_seconds(), timezone=dt.UTC)
    previous: dt.datetime | None = None
    while not stop.is_set():
        now = scheduler.clock.now()
        await _tick_safely(scheduler)
        previous = trigger.get_next_fire_time(previous, now) or now + interval
        wait = max(0.0, (previous - scheduler.clock.now()).total_seconds())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=wait)
    if scheduler.backups is not None:
        await scheduler.backups.wait()


async def _tick_safely(scheduler: Scheduler) -> TickReport | None:
    try:
        return await tick(scheduler)
    except Exception:
        log.exception("tick failed; the next one will try again")
        return None
