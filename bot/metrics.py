"""Prometheus metrics (`prometheus_client`), served on a port of their own.

`KEEPER_METRICS_PORT` (off when unset) on `KEEPER_METRICS_HOST` (127.0.0.1 by
default): a separate listener, so the reverse proxy that exposes the callback never
exposes this. What is counted:

- `keeper_callbacks_total{outcome}`, `keeper_callback_seconds` and
  `keeper_mp_rate_limited_total{limit}` (this process);
- `keeper_jobs{kind,status}`, `keeper_delivery_attempts_total{channel,outcome}`,
  `keeper_tick_lag_seconds` and `keeper_backup_last_verified_timestamp_seconds` (absent
  until a scheduled backup is verified), read from the database at scrape time, so
  every process reports the same deployment-wide figures;
- `keeper_token_refreshes_total` and `keeper_channel_holds_total` (this process's
  scheduler, from `scheduler.stats`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field

from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

from scheduler import stats
from scheduler.clock import Clock
from storage.database import Database
from storage.repos import admin, attempts, backups, ticks

log = logging.getLogger(__name__)

CALLBACKS = Counter(
    "keeper_callbacks",
    "WeCom callbacks by outcome: ok, duplicate-free replies and empty answers alike "
    "(ok), rejected (4xx), deadline (answered before the database did), error",
    ["outcome"],
    registry=None,
)
CALLBACK_SECONDS = Histogram(
    "keeper_callback_seconds",
    "Time to answer a WeCom message callback",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 4.0, 5.0),
    registry=None,
)
MP_RATE_LIMITED = Counter(
    "keeper_mp_rate_limited",
    "Mini-program API requests refused by keeper's own limits (bot.mp.limits), by limit: "
    "login_address, login_global, link_global, link_openid",
    ["limit"],
    registry=None,
)
SCRAPE_TIMEOUT_S = 2.0


@dataclass
class Snapshot:
    """The database's figures as of the last scrape."""

    jobs: dict[tuple[str, str], int] = field(default_factory=dict)
    attempts: dict[tuple[str, str], int] = field(default_factory=dict)
    tick_lag_s: float | None = None
    backup_verified_at: float | None = None
    """Unix time the newest verified scheduled backup finished."""


class DatabaseCollector(Collector):
    """Reports the last `Snapshot`; `refresh` reads a new one before each scrape."""

    def __init__(self, database: Database, clock: Clock) -> None:
        self.database, self.clock = database, clock
        self.snapshot = Snapshot()

    async def refresh(self) -> None:
        async with asyncio.timeout(SCRAPE_TIMEOUT_S):
            async with self.database.transaction() as session:
                by_kind = await admin.count_by_kind(session)
                by_outcome = await attempts.count_by_channel_outcome(session)
                last = await ticks.last_tick(session)
                verified = await backups.last_verified(session)
        lag = None if last is None else (self.clock.now() - last).total_seconds()
        at = verified.finished_at if verified is not None else None
        self.snapshot = Snapshot(
            jobs=by_kind,
            attempts=by_outcome,
            tick_lag_s=lag,
            backup_verified_at=None if at is None else at.timestamp(),
        )

    def collect(self) -> Iterator[Metric]:
        snap = self.snapshot
        jobs_family = GaugeMetricFamily(
            "keeper_jobs", "Notification jobs by kind and status", labels=["kind", "status"]
        )
        for (kind, status), n in sorted(snap.jobs.items()):
            jobs_family.add_metric([kind, status], n)
        yield jobs_family
        tries = CounterMetricFamily(
            "keeper_delivery_attempts",
            "Delivery attempts by channel and outcome",
            labels=["channel", "outcome"],
        )
        for (channel, outcome), n in sorted(snap.attempts.items()):
            tries.add_metric([channel, outcome], n)
        yield tries
        lag = GaugeMetricFamily(
            "keeper_tick_lag_seconds", "Seconds since any scheduler process last ticked"
        )
        if snap.tick_lag_s is not None:
            lag.add_metric([], snap.tick_lag_s)
        yield lag
        backup = GaugeMetricFamily(
            "keeper_backup_last_verified_timestamp_seconds",
            "Unix time the newest verified scheduled backup finished (alert when old)",
        )
        if snap.backup_verified_at is not None:
            backup.add_metric([], snap.backup_verified_at)
        yield backup


class SchedulerEventsCollector(Collector):
    """This process's token refreshes and channel holds (`scheduler.stats`)."""

    def collect(self) -> Iterator[Metric]:
        for name, doc in (
            ("token_refreshes", "WeCom access_token fetches by this process"),
            ("channel_holds", "Channels held after a configuration error, by this process"),
        ):
            family = CounterMetricFamily(f"keeper_{name}", doc)
            family.add_metric([], stats.EVENTS[name])
            yield family


def registry_for(database: Database, clock: Clock) -> tuple[CollectorRegistry, DatabaseCollector]:
    """A registry with every keeper metric, and the collector to refresh per scrape."""
    registry = CollectorRegistry(auto_describe=False)
    from_db = DatabaseCollector(database, clock)
    collectors = (CALLBACKS, CALLBACK_SECONDS, MP_RATE_LIMITED, from_db, SchedulerEventsCollector())
    for collector in collectors:
        registry.register(collector)
    return registry, from_db


def metrics_app(database: Database, clock: Clock) -> web.Application:
    """`GET /metrics` in Prometheus text; the database figures are read per scrape
    (a database that does not answer leaves them as last read, and says so in a log)."""
    registry, from_db = registry_for(database, clock)

    async def scrape(request: web.Request) -> web.Response:
        try:
            await from_db.refresh()
        except Exception:
            log.warning("metrics: database figures not refreshed")
        body = generate_latest(registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    app = web.Application()
    app.router.add_get("/metrics", scrape)
    return app


@contextlib.asynccontextmanager
async def serving(
    database: Database, clock: Clock, host: str, port: int | None
) -> AsyncIterator[int | None]:
    """Serve `/metrics` on (host, port) while inside; yields the bound port (None when
    metrics are off). Port 0 picks a free one (tests)."""
    if port is None:
        yield None
        return
    runner = web.AppRunner(metrics_app(database, clock), access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as exc:  # the port is taken: run without metrics rather than not at all
        log.error(
            "metrics not served: cannot listen",
            extra={"host": host, "port": port, "error": type(exc).__name__},
        )
        await runner.cleanup()
        yield None
        return
    bound = runner.addresses[0][1] if runner.addresses else port
    log.info("metrics served", extra={"host": host, "port": bound})
    try:
        yield bound
    finally:
        await runner.cleanup()
