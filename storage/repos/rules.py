"""Reminder rules: the due scan, the moving of `next_fire_at`, and the user's list.

Statuses: `active` (fires), `paused` (the user paused this one), `off` (turned off
with every other rule by 关闭 提醒; 开启 提醒 brings back exactly these), `done` (a
one-off that fired) and `deleted`. Only `active` rules are scanned. A listed rule has
a short `number`, the smallest free among the user's rules, released when the rule
is done or deleted, like task numbers.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import CursorResult, Row, bindparam, func, select, text, update

from storage.database import Session
from storage.delivery_models import JOBS, RULES
from storage.dialect import insert_into, insert_returning_id
from storage.models import UTCDateTime
from storage.records import Broken, RuleRecord
from storage.repos.numbers import smallest_free
from storage.vocabulary import CLAIMABLE, RUNS_OUT, JobStatus, RuleStatus

LISTED = (RuleStatus.ACTIVE, RuleStatus.PAUSED, RuleStatus.OFF)
"""Statuses of the rules the user switches and edits (their numbers are theirs)."""
SHOWN = (*LISTED, RuleStatus.ERROR)
"""Statuses the user's list shows and a number finds: also a rule the tick set aside,
which keeps its number until the user deletes it (deleting is all it allows)."""


_RECORD_COLUMNS = tuple(RULES.c[f.name] for f in dataclasses.fields(RuleRecord))


def _record(row: Row[Any]) -> RuleRecord:
    return RuleRecord(
        id=row.id,
        user_id=row.user_id,
        kind=row.kind,
        status=row.status,
        policy=row.policy,
        priority=row.priority,
        channel=row.channel,
        next_fire_at=row.next_fire_at,
        spec=row.spec,
        number=row.number,
        ref_id=row.ref_id,
        label=row.label,
    )


async def create(
    session: Session,
    *,
    user_id: int,
    kind: str,
    policy: str,
    priority: str,
    channel: str,
    now: dt.datetime,
    next_fire_at: dt.datetime | None = None,
    status: str = RuleStatus.ACTIVE,
    spec: str = "",
    ref_id: int | None = None,
    label: str = "",
    listed: bool = True,
) -> int:
    """Create a rule (a listed one gets the user's smallest free number); its id.

    Stores what it is given. The code creates rules through `services.rules.create`,
    which takes policy and priority from the kind's terms (`scheduler.core.rule_kinds`).
    """
    values = {
        "number": await _free_number(session, user_id) if listed else None,
        "ref_id": ref_id,
        "label": label[:200],
        "user_id": user_id,
        "kind": kind,
        "status": status,
        "policy": policy,
        "priority": priority,
        "channel": channel,
        "next_fire_at": next_fire_at,
        "spec": spec,
        "created_at": now,
        "updated_at": now,
    }
    return await insert_returning_id(session, insert_into(RULES), values)


async def _free_number(session: Session, user_id: int) -> int:
    stmt = select(RULES.c.number).where(RULES.c.user_id == user_id, RULES.c.number.is_not(None))
    return smallest_free((await session.execute(stmt)).scalars())


async def get(session: Session, rule_id: int, *, lock: bool = False) -> RuleRecord | None:
    """The rule, or None. `lock`: hold its row until commit (MySQL/MariaDB), so a tick
    materialising it waits, or skips it (`due` uses SKIP LOCKED), while a user's
    change to it is in progress; SQLite's single writer already serialises them."""
    stmt = select(RULES).where(RULES.c.id == rule_id)
    if lock:
        stmt = stmt.with_for_update()
    row = (await session.execute(stmt)).first()
    return None if row is None else _record(row)


async def of_user(session: Session, user_id: int, kind: str | None = None) -> list[RuleRecord]:
    """Every rule of the user (any status), oldest first; only `kind`'s when given."""
    stmt = select(RULES).where(RULES.c.user_id == user_id).order_by(RULES.c.id)
    if kind is not None:
        stmt = stmt.where(RULES.c.kind == kind)
    return [_record(r) for r in await session.execute(stmt)]


async def listed(session: Session, user_id: int) -> list[RuleRecord]:
    """The rules the user sees in 提醒, by number."""
    stmt = (
        select(RULES)
        .where(
            RULES.c.user_id == user_id,
            RULES.c.status.in_(SHOWN),
            RULES.c.number.is_not(None),
        )
        .order_by(RULES.c.number)
    )
    return [_record(r) for r in await session.execute(stmt)]


async def by_number(session: Session, user_id: int, number: int) -> RuleRecord | None:
    stmt = select(RULES).where(
        RULES.c.user_id == user_id, RULES.c.number == number, RULES.c.status.in_(SHOWN)
    )
    row = (await session.execute(stmt)).first()
    return None if row is None else _record(row)


async def of_ref(session: Session, kind: str, ref_id: int) -> RuleRecord | None:
    """The listed rule of `kind` that belongs to a task or event, if any."""
    stmt = select(RULES).where(
        RULES.c.kind == kind, RULES.c.ref_id == ref_id, RULES.c.status.in_(LISTED)
    )
    row = (await session.execute(stmt)).first()
    return None if row is None else _record(row)


async def last_of_ref(session: Session, kind: str, ref_id: int) -> RuleRecord | None:
    """The latest rule of `kind` made for a task or event, whatever its status (a
    nagged task's nag that was answered or ran out still says how it nagged)."""
    stmt = select(RULES).where(RULES.c.kind == kind, RULES.c.ref_id == ref_id)
    row = (await session.execute(stmt.order_by(RULES.c.id.desc()).limit(1))).first()
    return None if row is None else _record(row)


async def due(session: Session, *, now: dt.datetime, limit: int) -> list[RuleRecord]:
    """Active rules whose `next_fire_at` has come, oldest first, at most `limit`.

    Uses the (status, next_fire_at) index: the cost is the number of due rules, not
    the number of rules. On MySQL/MariaDB the rows are locked with SKIP LOCKED so
    concurrent ticks split the work; the job's unique slot key makes a race harmless.
    """
    stmt = (
        select(*_RECORD_COLUMNS)  # not created_at/updated_at/error_note: rows cost per column
        .where(RULES.c.status == RuleStatus.ACTIVE, RULES.c.next_fire_at <= now)
        .order_by(RULES.c.next_fire_at, RULES.c.id)
        .limit(limit)
    )
    if session.dialect.name != "sqlite":
        stmt = stmt.with_for_update(skip_locked=True)
    return [_record(r) for r in await session.execute(stmt)]


async def set_next_fire(
    session: Session,
    rule_id: int,
    next_fire_at: dt.datetime | None,
    *,
    now: dt.datetime,
    expected: dt.datetime | None = None,
) -> bool:
    """Move the rule's next occurrence. With `expected`, only if it still is that."""
    stmt = update(RULES).where(RULES.c.id == rule_id)
    if expected is not None:
        stmt = stmt.where(RULES.c.next_fire_at == expected)
    result = await session.execute(stmt.values(next_fire_at=next_fire_at, updated_at=now))
    return bool(result.rowcount)


@dataclass(frozen=True, kw_only=True, slots=True)
class Move:
    """A rule's `next_fire_at` from `expected` to `to` (the tick's planning)."""

    rule_id: int
    expected: dt.datetime | None
    to: dt.datetime | None


async def move_next_fire(session: Session, moves: list[Move], *, now: dt.datetime) -> int:
    """Move many rules' next occurrences in one statement; how many moved. A rule whose
    `next_fire_at` is no longer `expected` is left alone (the caller locked the rows,
    so this is a guard, not the concurrency control).

    Both spellings are compiled once and cached, whatever the batch size (an
    `UPDATE ... CASE` with two bound values per rule was compiled anew each tick and
    cost more than the database's work). SQLite: one UPDATE by primary key, executed
    for every move in-process. MySQL/MariaDB: an UPDATE joined by primary key to the
    moves, sent as one JSON parameter and read with JSON_TABLE, so one round trip.
    """
    if not moves:
        return 0
    if session.dialect.name == "sqlite":
        params = [{"rule_id": m.rule_id, "was": m.expected, "to": m.to, "now": now} for m in moves]
        result = await session.execute(_MOVE_ONE, params)
    else:
        data = json.dumps([[m.rule_id, _naive_utc(m.expected), _naive_utc(m.to)] for m in moves])
        result = await session.execute(_MOVE_JOINED, {"moves": data, "now": now})
    return int(cast(CursorResult[Any], result).rowcount)


_INSTANT = UTCDateTime()
_MOVE_ONE = (
    update(RULES)
    .where(
        RULES.c.id == bindparam("rule_id"), RULES.c.next_fire_at == bindparam("was", type_=_INSTANT)
    )
    .values(
        next_fire_at=bindparam("to", type_=_INSTANT), updated_at=bindparam("now", type_=_INSTANT)
    )
)
_MOVE_JOINED = text(
    """
    UPDATE reminder_rules AS r
    JOIN JSON_TABLE(:moves, '$[*]' COLUMNS (
        rule_id BIGINT PATH '$[0]',
        was DATETIME(6) PATH '$[1]',
        dest DATETIME(6) PATH '$[2]'
    )) AS m ON r.id = m.rule_id
    SET r.next_fire_at = m.dest, r.updated_at = :now
    WHERE r.next_fire_at = m.was
    """
).bindparams(bindparam("now", type_=_INSTANT))


def _naive_utc(at: dt.datetime | None) -> str | None:
    """`at` as the column stores it (naive UTC, microseconds), or None (JSON null)."""
    if at is not None and at.tzinfo is None:
        raise ValueError("naive datetime given to a UTC column")
    return None if at is None else at.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


async def set_aside(session: Session, rule_id: int, reason: str, *, now: dt.datetime) -> None:
    """Status `error` with the reason: the tick could not plan the rule. It keeps its
    number, so the user sees it in 提醒 and can delete it."""
    values = {"status": RuleStatus.ERROR, "error_note": reason[:200], "next_fire_at": None}
    await session.execute(
        update(RULES).where(RULES.c.id == rule_id).values(updated_at=now, **values)
    )


async def set_aside_since(session: Session, user_id: int, since: dt.datetime) -> list[RuleRecord]:
    """The user's rules set aside at or after `since` and not deleted since, oldest
    first (told once on the user's next message)."""
    stmt = (
        select(*_RECORD_COLUMNS)
        .where(
            RULES.c.user_id == user_id,
            RULES.c.status == RuleStatus.ERROR,
            RULES.c.updated_at >= since,
        )
        .order_by(RULES.c.updated_at, RULES.c.id)
    )
    return [_record(r) for r in await session.execute(stmt)]


async def set_aside_rules(session: Session, *, limit: int = 5) -> tuple[int, list[Broken]]:
    """How many rules are set aside, and the latest `limit` of them."""
    count = (
        await session.execute(select(func.count()).where(RULES.c.status == RuleStatus.ERROR))
    ).scalar_one()
    stmt = (
        select(RULES.c.id, RULES.c.kind, RULES.c.error_note)
        .where(RULES.c.status == RuleStatus.ERROR)
        .order_by(RULES.c.updated_at.desc(), RULES.c.id.desc())
        .limit(limit)
    )
    latest = [Broken(rule_id=i, kind=k, reason=r) for i, k, r in await session.execute(stmt)]
    return int(count), latest


async def set_status(session: Session, rule_id: int, status: str, *, now: dt.datetime) -> None:
    """Change the status; `done` and `deleted` release the short number."""
    values: dict[str, Any] = {"status": status, "updated_at": now}
    if status not in LISTED:
        values |= {"number": None, "next_fire_at": None}
    await session.execute(update(RULES).where(RULES.c.id == rule_id).values(values))


async def change(session: Session, rule_id: int, *, now: dt.datetime, **values: Any) -> None:
    """Update a rule's schedule fields (`next_fire_at`, `spec`, `label`, `policy` ...)."""
    await session.execute(
        update(RULES).where(RULES.c.id == rule_id).values(updated_at=now, **values)
    )


async def count_by_kind(session: Session) -> dict[tuple[str, str], int]:
    """How many rules per (kind, status), for 管理 状态."""
    stmt = select(RULES.c.kind, RULES.c.status, func.count()).group_by(RULES.c.kind, RULES.c.status)
    return {(kind, status): int(n) for kind, status, n in await session.execute(stmt)}


async def next_fire_min(session: Session) -> dt.datetime | None:
    """The earliest `next_fire_at` of any active rule (for the demo's clock jumps)."""
    stmt = select(func.min(RULES.c.next_fire_at)).where(RULES.c.status == RuleStatus.ACTIVE)
    earliest: dt.datetime | None = (await session.execute(stmt)).scalar_one_or_none()
    return earliest


async def retire_spent(session: Session, rule_ids: set[int], *, now: dt.datetime) -> int:
    """Mark `done` (releasing the number) those of `rule_ids` that are active one-off
    rules with no next occurrence and no job still waiting or being sent. Called with
    the rules of the jobs that just finished, so the cost is the batch, not a scan."""
    if not rule_ids:
        return 0
    waiting = (
        select(JOBS.c.id)
        .where(
            JOBS.c.rule_id == RULES.c.id,
            JOBS.c.status.in_((*CLAIMABLE, JobStatus.PROCESSING)),
        )
        .exists()
    )
    stmt = (
        update(RULES)
        .where(
            RULES.c.id.in_(rule_ids),
            RULES.c.status == RuleStatus.ACTIVE,
            RULES.c.next_fire_at.is_(None),
            RULES.c.kind.in_(RUNS_OUT),
            ~waiting,
        )
        .values(status=RuleStatus.DONE, number=None, updated_at=now)
    )
    return int(cast(CursorResult[Any], await session.execute(stmt)).rowcount)
