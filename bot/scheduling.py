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
from scheduler.alert_kind import AdminAlertKind
from scheduler.backup_job import BackupDuty, BackupPlan
from scheduler.channel_test_kind import ChannelTestKind
from scheduler.channels.enterprise_budget import EnterpriseLimits
from scheduler.channels.factory import from_settings
from scheduler.channels.mp_subscribe import MpSubscribeChannel, MpSubscribeConfig
from scheduler.channels.serverchan_user import UserServerChanChannel
from scheduler.channels.token_store import DatabaseTokenStore
from scheduler.channels.wecom_app import WeComAppChannel, WeComAppConfig
from scheduler.clock import Clock
from scheduler.core import rule_kinds
from scheduler.core.incidents import AlertRoute
from scheduler.kinds import Kind
from scheduler.nag_kind import NagKind
from scheduler.reminder_kinds import CardUpdateKind, OneOffKind, RecurringKind
from scheduler.retention_job import RetentionDuty, RetentionPlan
from scheduler.routing import sendkey_resolver
from scheduler.tick import Scheduler, TickReport, tick
from scheduler.water_kind import WaterKind
from storage.database import Database

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
        api_base=settings.wecom.api_base,
        corp_id=settings.wecom.corp_id,
        agent_id=settings.wecom.agent_id,
        secret=settings.wecom.secret,
        connect_timeout=min(5.0, send_timeout),
        total_timeout=send_timeout,
    )
    async with aiohttp.ClientSession() as http:
        channel = WeComAppChannel(
            config, session=http, store=DatabaseTokenStore(database), now=clock.now
        )
        extra = from_settings(
            settings.channels, http, robot_api_base=settings.wecom.api_base, now=clock.now
        )
        personal = user_serverchan(settings, database, http, clock)
        extra.update(mp_channel(settings, database, http, clock))
        yield Scheduler(
            database=database,
            kinds=all_kinds(),
            channels={channel.name: channel, **extra, personal.name: personal},
            clock=clock,
            owner=owner or worker_name(),
            secrets=settings.secrets(),
            enterprise=EnterpriseLimits(daily=settings.wecom.daily_cap, channel=channel.name),
            backups=backup_duty(settings),
            retention=retention_duty(settings),
            alerts=alert_route(settings),
        )


def user_serverchan(
    settings: Settings, database: Database, http: aiohttp.ClientSession, clock: Clock
) -> UserServerChanChannel:
    """Server酱 with each user's own SendKey (`绑定 Server酱`): always there, since a
    SendKey needs nothing of keeper's but the API base; keys are opened with
    `Settings.key_ring` (current, previous or legacy key) just before each send."""
    return UserServerChanChannel(
        api_base=settings.channels.serverchan_api_base,
        resolve=sendkey_resolver(database, settings.key_ring()),
        session=http,
        now=clock.now,
    )


def mp_channel(
    settings: Settings, database: Database, http: aiohttp.ClientSession, clock: Clock
) -> dict[str, MpSubscribeChannel]:
    """The mini-program's subscribe-message channel when KEEPER_MP_* are set; its
    token is cached in the database like WeCom's."""
    if not settings.mp.configured:
        return {}
    config = MpSubscribeConfig(
        api_base=settings.mp.api_base,
        appid=settings.mp.appid,
        secret=settings.mp.secret,
        template_id=settings.mp.template_id,
        timezone=settings.operations.timezone.key,
    )
    store = DatabaseTokenStore(database)
    channel = MpSubscribeChannel(config, store=store, session=http, now=clock.now)
    return {channel.name: channel}


def backup_duty(settings: Settings) -> BackupDuty | None:
    """The daily backup when KEEPER_BACKUP_DIR is set (settings then hold the key)."""
    if settings.backup.directory is None:
        return None
    plan = BackupPlan(
        database_url=settings.database.url,
        directory=settings.backup.directory,
        key=settings.backup.key,
        at=settings.backup.at,
        zone=settings.operations.timezone,
        keep=settings.backup.keep,
    )
    return BackupDuty(plan)


def retention_duty(settings: Settings) -> RetentionDuty:
    """The daily retention run, always on (KEEPER_RETAIN_*_DAYS say how long rows stay)."""
    ops = settings.operations
    return RetentionDuty(RetentionPlan(periods=ops.retention, zone=ops.timezone))


def alert_route(settings: Settings) -> AlertRoute | None:
    """How the admins are told of incidents (`scheduler.core.incidents`).

    With KEEPER_ALERT_CHANNEL: through that channel, to KEEPER_ALERT_TO or else the
    first admin (alphabetically: KEEPER_ADMINS is a set). Without it: through the
    WeCom app to every admin, a fallback that cannot report the app's own hold
    (管理 状态 says so). None without admins: incidents are still recorded.
    """
    admins = sorted(settings.operations.admins)
    if not admins:
        return None
    tz = settings.operations.timezone.key
    if settings.channels.alert_channel:
        to = settings.channels.alert_to or admins[0]
        return AlertRoute(
            channel=settings.channels.alert_channel, owner=admins[0], recipients=(to,), timezone=tz
        )
    return AlertRoute(
        channel=WeComAppChannel.name,
        owner=admins[0],
        recipients=tuple(admins),
        timezone=tz,
        fallback=True,
    )


def all_kinds() -> dict[str, Kind]:
    """Every rule kind the tick knows, by the name stored on rules and jobs: each row's
    `runs_as` (`scheduler.core.rule_kinds`) says whether the kind is a recurring or a
    one-off reminder or has a class of its own."""
    own: list[Kind] = [
        WaterKind(),
        CardUpdateKind(),
        AdminAlertKind(),
        NagKind(),
        ChannelTestKind(),
    ]
    kinds = {kind.name: kind for kind in own}
    for name, row in rule_kinds.ROWS.items():
        if row.runs_as == "recurring":
            kinds[name] = RecurringKind(name)
        elif row.runs_as == "one_off":
            kinds[name] = OneOffKind(name)
    return kinds


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
