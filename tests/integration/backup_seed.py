"""A database full of plausible records, for backup tests and `bench/backup.py`.

Per user: the profile, a water plan and its rule, digests, then per day one weight,
three glasses of water, two ledger entries and one journal note (each from its own
inbound message), a task and an event every few days, and a sent reminder with its
attempt. About 8 rows per user-day: 1,000 users x 365 days is about 3 million rows.
Values cover what the codec must carry: Chinese text, emoji, decimals, aware times,
local dates and times, NULLs.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from sqlalchemy import Table, insert, inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.delivery_models import ATTEMPTS, JOBS, RULES, WATER_PLANS
from storage.engine import create_engine
from storage.models import (
    EVENTS,
    INBOUND,
    JOURNAL,
    LEDGER,
    MEASUREMENTS,
    TASKS,
    USERS,
    WATER_CHECKINS,
)

BATCH = 2000
NOTES = ("午饭", "打车 回家", "咖啡☕", "书", "超市 买菜")
JOURNAL_TEXTS = ("复诊以后感觉轻松了一些", "今天不错 🙂", "跑了5公里，\n晚上早睡", "")


async def seed(engine: AsyncEngine, *, users: int, days: int, start: dt.datetime) -> int:
    """Fill an empty, migrated database; returns the number of rows written."""
    written = 0
    rng = random.Random(1)
    tables = [USERS, RULES, WATER_PLANS, INBOUND, MEASUREMENTS, WATER_CHECKINS, LEDGER, JOURNAL]
    tables += [TASKS, EVENTS, JOBS, ATTEMPTS]
    for first in range(1, users + 1, 50):  # 50 users per transaction keeps memory flat
        rows = _rows(range(first, min(first + 50, users + 1)), days, start, rng)
        async with engine.begin() as connection:
            for table in tables:
                batch = rows.get(table.name, [])
                for i in range(0, len(batch), BATCH):
                    await connection.execute(insert(table), batch[i : i + BATCH])
                written += len(batch)
    return written


def _rows(
    user_ids: range, days: int, start: dt.datetime, rng: random.Random
) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for user_id in user_ids:
        for table, row in _user(user_id, days, start, rng):
            out.setdefault(table.name, []).append(row)
    return out


def _user(
    uid: int, days: int, start: dt.datetime, rng: random.Random
) -> Iterator[tuple[Table, dict[str, Any]]]:
    yield (
        USERS,
        {
            "id": uid,
            "wecom_user_id": f"member{uid:05d}",
            "timezone": "Asia/Shanghai",
            "created_at": start,
            "wake_at": dt.time(7, 30),
            "quiet_until": None if uid % 3 else start + dt.timedelta(hours=2),
            "pending_guess": '{"kind": "expense", "amount": "35"}' if uid % 7 == 0 else None,
        },
    )
    yield RULES, _rule(uid, uid, "water", start)
    yield (
        WATER_PLANS,
        {"id": uid, "user_id": uid, "rule_id": uid, "state": "scheduled", "updated_at": start},
    )
    for day in range(days):
        yield from _day(uid, day, start + dt.timedelta(days=day, hours=1), rng)


def _rule(rule_id: int, uid: int, kind: str, at: dt.datetime) -> dict[str, Any]:
    return {
        "id": rule_id,
        "user_id": uid,
        "kind": kind,
        "status": "active",
        "policy": "at_most_once",
        "priority": "normal",
        "channel": "wecom_app",
        "next_fire_at": at + dt.timedelta(hours=2),
        "spec": "120",
        "created_at": at,
        "updated_at": at,
    }


def _day(
    uid: int, day: int, at: dt.datetime, rng: random.Random
) -> Iterator[tuple[Table, dict[str, Any]]]:
    key = f"{uid}:{day}"
    yield INBOUND, _inbound(uid, key, at)
    yield (
        MEASUREMENTS,
        {
            "user_id": uid,
            "kind": "weight",
            "value": Decimal(rng.randrange(5000, 9000)) / 100,
            "occurred_at": at,
            "source_key": f"m:{key}",
        },
    )
    for glass in range(3):
        yield (
            WATER_CHECKINS,
            {
                "user_id": uid,
                "glasses": 1 if glass else -1 if day % 11 == 0 else 2,
                "occurred_at": at + dt.timedelta(hours=glass, microseconds=glass * 7),
                "source_key": f"w:{key}:{glass}",
            },
        )
    for n in range(2):
        yield (
            LEDGER,
            {
                "user_id": uid,
                "direction": "expense" if n else "income",
                "amount": Decimal(rng.randrange(1, 100000)) / 100,
                "category": "餐饮",
                "note": NOTES[(day + n) % len(NOTES)],
                "occurred_at": at + dt.timedelta(minutes=n),
                "source_key": f"l:{key}:{n}",
            },
        )
    yield (
        JOURNAL,
        {
            "user_id": uid,
            "text": JOURNAL_TEXTS[day % len(JOURNAL_TEXTS)],
            "occurred_at": at,
            "source_key": f"j:{key}",
        },
    )
    if day % 5 == 0:
        yield from _weekly(uid, key, day, at)


def _inbound(uid: int, key: str, at: dt.datetime) -> dict[str, Any]:
    return {
        "dedup_key": f"msg:{key}",
        "wecom_user_id": f"member{uid:05d}",
        "user_id": uid,
        "kind": "text",
        "content": "体重 72.4",
        "sent_at": at,
        "received_at": at + dt.timedelta(milliseconds=250),
        "reply_text": "记下了：体重 72.4 kg。",
        "effect_kind": "measurement",
    }


def _weekly(
    uid: int, key: str, day: int, at: dt.datetime
) -> Iterator[tuple[Table, dict[str, Any]]]:
    done = day % 10 == 0
    yield (
        TASKS,
        {
            "user_id": uid,
            "number": None if done else day // 5 + 1,
            "title": "交材料",
            "due_date": at.date() + dt.timedelta(days=2),
            "due_time": None if day % 3 else dt.time(17, 0),
            "status": "done" if done else "open",
            "created_at": at,
            "closed_at": at + dt.timedelta(days=1) if done else None,
            "source_key": f"t:{key}",
        },
    )
    yield (
        EVENTS,
        {
            "user_id": uid,
            "title": "复诊",
            "day": at.date(),
            "starts_at": at + dt.timedelta(hours=5),
            "ends_at": at + dt.timedelta(hours=6),
            "remind_minutes_before": 15,
            "status": "upcoming",
            "created_at": at,
            "source_key": f"e:{key}",
        },
    )
    yield from _sent(uid, day, at)


def _sent(uid: int, day: int, at: dt.datetime) -> Iterator[tuple[Table, dict[str, Any]]]:
    job_id = uid * 1000 + day
    yield (
        JOBS,
        {
            "id": job_id,
            "user_id": uid,
            "rule_id": uid,
            "scheduled_slot_utc": at,
            "status": "accepted",
            "policy": "at_most_once",
            "priority": "normal",
            "channel": "wecom_app",
            "recipient": f"member{uid:05d}",
            "payload_kind": "water",
            "next_attempt_at": at,
            "created_at": at,
            "updated_at": at,
            "finished_at": at + dt.timedelta(seconds=1),
        },
    )
    yield (
        ATTEMPTS,
        {
            "job_id": job_id,
            "attempt_no": 1,
            "channel": "wecom_app",
            "started_at": at,
            "duration_ms": 120,
            "outcome": "accepted",
            "error_class": "",
            "provider_code": 0,
            "provider_message_id": f"msgid-{job_id}",
        },
    )


async def table_counts(url: str) -> dict[str, int]:
    """Each table of the database at `url` and its row count (alembic_version included)."""
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            return await connection.run_sync(_count_all)
    finally:
        await engine.dispose()


def _count_all(connection: Connection) -> dict[str, int]:
    names = inspect(connection).get_table_names()
    return {n: connection.execute(text(f"SELECT COUNT(*) FROM {n}")).scalar_one() for n in names}
