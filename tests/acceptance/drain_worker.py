"""Drain due notification jobs from a process of its own, as `keeper worker` would.

    python tests/acceptance/drain_worker.py --db URL --api BASE --until-empty [--at ISO]

The scheduler is built the way `keeper worker` builds it (settings from the
environment, `bot.scheduling.scheduler_for`), plus one test-only rule kind, `plain`:
its job's text is "job <id>" and it has no business state, so thousands of due jobs can
be inserted in bulk (`seed_plain_jobs`) and every message names its job. The loop ticks
back to back while it finds work; with `--until-empty` it stops once a tick found
nothing and no job is pending, in flight, or waiting for a retry due by now. It also stops at the
deadline or on SIGTERM (after the tick in progress). As in `keeper worker`, a tick
that fails is logged and the loop goes on. It prints one JSON line: what its ticks did
(failures counted), and the statements, commits and connection checkouts the database
saw (SQLAlchemy events), for `bench/scheduler.py`.

With `--go-on-stdin` it prints `{"ready": owner}` once built and waits for a line on
stdin first, so that a test can start several workers and release them together.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import dataclasses
import datetime as dt
import json
import logging
import signal
import sys
import time
from collections import Counter
from collections.abc import Iterable
from typing import Any

from sqlalchemy import and_, event, func, or_, select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.logs import configure_logging
from bot.scheduling import scheduler_for
from bot.settings import load_settings
from scheduler.channels.enterprise_budget import EnterpriseLimits
from scheduler.clock import Clock, FakeClock, SystemClock
from scheduler.core.channel import SendResult
from scheduler.kinds import Occurrence, Send, Skip, job_for
from scheduler.tick import BATCH, SEND_CONCURRENCY, Scheduler, TickReport, tick
from storage.database import Database, Session
from storage.delivery_models import JOBS, RULES
from storage.dialect import insert_into
from storage.engine import create_engine
from storage.models import USERS
from storage.records import Addressee, JobRecord, RuleRecord
from storage.retry import retrying

log = logging.getLogger(__name__)

PLAIN = "plain"
SEED_CHUNK = 5000
IDLE_S = 0.05  # between ticks that found nothing while other workers finish


class PlainKind:
    """A test-only rule kind: one text per job, nothing to re-read or settle."""

    name = PLAIN

    async def materialise(
        self, session: Session, rule: RuleRecord, to: Addressee, now: dt.datetime
    ) -> Occurrence:
        assert rule.next_fire_at is not None
        return Occurrence(job=job_for(rule, to, rule.next_fire_at), next_fire_at=None)

    async def prepare(
        self, session: Session, job: JobRecord, to: Addressee, now: dt.datetime
    ) -> Send | Skip:
        return Send(text=f"job {job.id}")

    async def settle(
        self, session: Session, job: JobRecord, result: SendResult, status: str, now: dt.datetime
    ) -> None:
        return None

    async def unsent(self, session: Session, job: JobRecord, status: str, now: dt.datetime) -> None:
        return None


def with_plain(scheduler: Scheduler, **changes: Any) -> Scheduler:
    """`scheduler` that also knows the `plain` kind (and any other field changed)."""
    return dataclasses.replace(scheduler, kinds={**scheduler.kinds, PLAIN: PlainKind()}, **changes)


# -- seeding ---------------------------------------------------------------------------


async def seed_plain_jobs(
    engine: AsyncEngine, *, count: int, due: dt.datetime, priority: str = "normal"
) -> range:
    """Insert `count` users, each with one plain rule and one job due at `due`, in bulk.

    Each job has a recipient of its own, so no two are merged into one message.
    Returns the new jobs' ids.
    """
    async with engine.begin() as conn:
        user0, rule0, job0 = [await next_id(conn, table) for table in (USERS, RULES, JOBS)]
        for chunk in chunks(range(count)):
            users = [user_row(user0 + i, f"plain{user0 + i:07d}", due) for i in chunk]
            rules = [rule_row(rule0 + i, user0 + i, None, priority, due) for i in chunk]
            jobs = [_job_row(job0 + i, rules[n], users[n], due) for n, i in enumerate(chunk)]
            for table, rows in ((USERS, users), (RULES, rules), (JOBS, jobs)):
                await conn.execute(insert_into(table), rows)
    return range(job0, job0 + count)


async def next_id(conn: Session, table: Any) -> int:
    """The first id after the table's highest (rows are inserted with explicit ids)."""
    return int((await conn.execute(select(func.max(table.c.id)))).scalar_one() or 0) + 1


def chunks(ids: range, size: int = SEED_CHUNK) -> Iterable[range]:
    """`ids` in consecutive slices of at most `size` (one multi-row INSERT each)."""
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


def user_row(user_id: int, wecom_id: str, now: dt.datetime) -> dict[str, Any]:
    """A `users` row, the other columns left to their defaults."""
    return {"id": user_id, "wecom_user_id": wecom_id, "timezone": "UTC", "created_at": now}


def rule_row(
    rule_id: int, user_id: int, next_fire_at: dt.datetime | None, priority: str, now: dt.datetime
) -> dict[str, Any]:
    """An active, at-most-once `plain` rule on the WeCom app channel."""
    return {
        "id": rule_id,
        "user_id": user_id,
        "kind": PLAIN,
        "status": "active",
        "policy": "at_most_once",
        "priority": priority,
        "channel": "wecom_app",
        "next_fire_at": next_fire_at,
        "spec": "",
        "created_at": now,
        "updated_at": now,
    }


def _job_row(
    job_id: int, rule: dict[str, Any], user: dict[str, Any], due: dt.datetime
) -> dict[str, Any]:
    """The row `storage.repos.job_claims.materialise` writes for this rule's occurrence."""
    return {
        "id": job_id,
        "user_id": user["id"],
        "rule_id": rule["id"],
        "scheduled_slot_utc": due,
        "status": "pending",
        "policy": rule["policy"],
        "priority": rule["priority"],
        "channel": rule["channel"],
        "recipient": user["wecom_user_id"],
        "payload_kind": PLAIN,
        "payload_ref": None,
        "attempts": 0,
        "next_attempt_at": due,
        "created_at": due,
        "updated_at": due,
        "outcome_note": "",
    }


# -- the worker ------------------------------------------------------------------------


@dataclasses.dataclass(kw_only=True, slots=True)
class Totals:
    """What one worker's ticks did, summed."""

    ticks: int = 0
    materialised: int = 0
    expired: int = 0
    recovered: int = 0
    claimed: int = 0
    failed_ticks: int = 0
    outcomes: Counter[str] = dataclasses.field(default_factory=Counter)

    def add(self, report: TickReport | None) -> bool:
        """Count one tick (None: it failed); True when it found work."""
        self.ticks += 1
        if report is None:
            self.failed_ticks += 1
            return True  # try again at once, as after work
        self.materialised += report.materialised
        self.expired += report.expired
        self.recovered += report.recovered
        self.claimed += report.claimed
        self.outcomes.update(report.outcomes)
        return bool(report.materialised or report.expired or report.recovered or report.claimed)


def count_database_calls(engine: AsyncEngine) -> Counter[str]:
    """Count statements, commits and pool checkouts (each checkout pings on MariaDB)."""
    counts: Counter[str] = Counter()

    def on(name: str) -> None:
        event.listen(engine.sync_engine, name, lambda *_: counts.update((name,)))

    for name in ("before_cursor_execute", "commit", "checkout"):
        on(name)
    return counts


async def drain(
    scheduler: Scheduler, stop: asyncio.Event, *, until_empty: bool, deadline: float
) -> tuple[Totals, str]:
    """Tick until the queue is empty (if asked), the deadline, or `stop`; say which."""
    totals = Totals()
    while not stop.is_set():
        if time.monotonic() >= deadline:
            return totals, "deadline"
        if totals.add(await _tick_safely(scheduler)):
            continue
        if until_empty and await retrying(lambda: _nothing_left(scheduler)):
            return totals, "empty"
        await asyncio.sleep(IDLE_S)  # others still hold jobs that may come back
    return totals, "signal"


async def _tick_safely(scheduler: Scheduler) -> TickReport | None:
    """A tick; one that fails is logged and counted, not fatal (as in `keeper worker`)."""
    try:
        return await tick(scheduler)
    except Exception:
        log.exception("tick failed; the next one will try again")
        return None


async def _nothing_left(scheduler: Scheduler) -> bool:
    """No job is pending or in flight, and none waits for a retry due by now (with a
    fixed clock, a later retry would never come: it shows in the statuses instead)."""
    now = scheduler.clock.now()
    waiting = or_(
        JOBS.c.status.in_(("pending", "processing")),
        and_(JOBS.c.status == "retry_wait", JOBS.c.next_attempt_at <= now),
    )
    async with scheduler.database.transaction() as session:
        left = (await session.execute(select(func.count()).where(waiting))).scalar_one()
    return left == 0


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Build the scheduler like `keeper worker`, drain, and return the figures."""
    environment = load_settings(dotenv=None)
    settings = dataclasses.replace(
        environment,
        database=dataclasses.replace(environment.database, url=args.db),
        wecom=dataclasses.replace(environment.wecom, api_base=args.api),
    )
    configure_logging(
        settings.secrets(), level=logging.getLevelNamesMapping()[args.log_level.upper()]
    )
    clock: Clock = (
        SystemClock() if args.at is None else FakeClock(dt.datetime.fromisoformat(args.at))
    )
    engine = create_engine(settings.database.url)
    calls = count_database_calls(engine)
    stop = _stop_on_sigterm()
    try:
        async with scheduler_for(
            settings, Database(engine), clock, send_timeout=args.send_timeout
        ) as built:
            scheduler = with_plain(
                built,
                batch=args.batch,
                concurrency=args.concurrency,
                enterprise=_enterprise(built.enterprise, args),
            )
            if args.go_on_stdin:
                print(json.dumps({"ready": scheduler.owner}), flush=True)  # noqa: T201
                sys.stdin.readline()  # blocking on purpose: nothing else runs yet
            started = time.monotonic()
            totals, why = await drain(
                scheduler, stop, until_empty=args.until_empty, deadline=started + args.deadline_s
            )
            elapsed = time.monotonic() - started
    finally:
        await engine.dispose()
    return _figures(scheduler.owner, totals, why, elapsed, calls)


def _enterprise(
    limits: EnterpriseLimits | None, args: argparse.Namespace
) -> EnterpriseLimits | None:
    """The enterprise limits from the settings, with `--per-minute` / `--per-hour`
    instead of WeCom's if given (the benchmark lifts them, still counting)."""
    if limits is None:
        return None
    changes = {"per_minute": args.per_minute, "per_hour": args.per_hour}
    return dataclasses.replace(limits, **{k: v for k, v in changes.items() if v is not None})


def _stop_on_sigterm() -> asyncio.Event:
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    return stop


def _figures(
    owner: str, totals: Totals, why: str, elapsed: float, calls: Counter[str]
) -> dict[str, Any]:
    sends = sum(totals.outcomes.values())
    return {
        "owner": owner,
        "stopped": why,
        "elapsed_s": round(elapsed, 3),
        "ticks": totals.ticks,
        "materialised": totals.materialised,
        "expired": totals.expired,
        "recovered": totals.recovered,
        "claimed": totals.claimed,
        "failed_ticks": totals.failed_ticks,
        "outcomes": dict(totals.outcomes),
        "sends": sends,
        "statements": calls["before_cursor_execute"],
        "commits": calls["commit"],
        "checkouts": calls["checkout"],
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="database URL")
    parser.add_argument("--api", required=True, help="WeCom API base URL (the fake's)")
    parser.add_argument("--at", help="a fixed 'now' (ISO 8601 with offset); default: real time")
    parser.add_argument("--until-empty", action="store_true", help="stop when nothing is left")
    parser.add_argument("--go-on-stdin", action="store_true", help="wait for a line to start")
    parser.add_argument("--batch", type=int, default=BATCH, help="jobs claimed per tick")
    parser.add_argument("--concurrency", type=int, default=SEND_CONCURRENCY, help="sends in flight")
    parser.add_argument("--deadline-s", type=float, default=120.0, help="stop after this long")
    parser.add_argument("--send-timeout", type=float, default=15.0, help="seconds per API call")
    parser.add_argument("--log-level", default="INFO", help="as `keeper worker`: INFO")
    parser.add_argument("--per-minute", type=int, help="enterprise calls a minute (WeCom's)")
    parser.add_argument("--per-hour", type=int, help="enterprise calls an hour (WeCom's)")
    parser.add_argument("--profile", help="write cProfile stats (CPU time) to this file")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.profile is None:
        figures = asyncio.run(run(args))
    else:  # CPU time, not wall time: on a shared machine waiting says nothing
        profiler = cProfile.Profile(time.process_time)
        figures = profiler.runcall(asyncio.run, run(args))
        profiler.dump_stats(args.profile)
    print(json.dumps(figures), flush=True)  # noqa: T201


if __name__ == "__main__":
    main()
