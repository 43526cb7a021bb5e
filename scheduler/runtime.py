"""What every scheduler step shares: the `Scheduler` value and its default limits."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field

from scheduler.backup_job import BackupDuty
from scheduler.channels.enterprise_budget import EnterpriseLimits
from scheduler.clock import Clock
from scheduler.core.channel import Channel
from scheduler.core.incidents import AlertRoute
from scheduler.kinds import Kind
from scheduler.retention_job import RetentionDuty
from storage.database import Database

LEASE = dt.timedelta(minutes=2)
BATCH = 100
MATERIALISE_BATCH = 1_000
"""Rules one tick plans, in one transaction (a thousand take tens of milliseconds)."""
SEND_CONCURRENCY = 16
CONFIG_HOLD = dt.timedelta(minutes=10)
INCIDENTS_REREAD = dt.timedelta(minutes=1)
"""How stale this process's copy of the held channels (open incidents) may be before
an accepted send reads it again: a hold another worker saw is healed within this."""
MERGE_WINDOW = dt.timedelta(minutes=5)
"""A user's jobs due within this window of a claimed one leave with it, as one message."""
CATCH_UP_SLOTS = 48
"""At most this many past occurrences of one rule are materialised in one pass (after
an outage they expire at once and are reported; more waits for the next pass)."""


@dataclass(kw_only=True, slots=True)
class OpenHolds:
    """The channels with an open `channel_hold` incident, as last read (or opened) by
    this process, and when it was read; see `INCIDENTS_REREAD`."""

    channels: set[str] = field(default_factory=set)
    read_at: dt.datetime | None = None


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
    enterprise: EnterpriseLimits | None = None
    """WeCom's enterprise limits, counted in the database for every worker (None:
    not counted, as in most tests and in the drain benchmark)."""
    backups: BackupDuty | None = None
    """The daily backup (KEEPER_BACKUP_DIR set), or None: no scheduled backups."""
    retention: RetentionDuty | None = None
    """The daily retention run (always built by `bot.scheduling`; None in most tests)."""
    holds: dict[str, dt.datetime] = field(default_factory=dict)
    """Channels held after a configuration error, until when (this process only)."""
    alerts: AlertRoute | None = None
    """How the admins hear of incidents (None: nobody to tell; incidents are recorded)."""
    open_holds: OpenHolds = field(default_factory=OpenHolds)
    """This process's copy of the channels with an open hold incident."""
