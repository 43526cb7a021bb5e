"""Calendar feeds (`calendar_feeds`): the private addresses of `日历订阅`, and what a
feed reads.

Only `links.hash_token(token)` is stored or looked up, as for one-time links: the
database never holds a token, so a copy of it (or a backup) subscribes to nothing.
A member keeps at most `MAX_LIVE` live addresses (each `日历订阅` makes one; a phone
already subscribed keeps working), the oldest revoked past that; `revoke_all` is
`日历订阅 重置`.
"""

from __future__ import annotations

import datetime as dt
import hmac

from sqlalchemy import insert, select, update

from storage.database import Session
from storage.delivery_models import RULES
from storage.models import EVENTS, TASKS
from storage.records import EventRecord, RuleRecord, TaskRecord
from storage.repos.links import member
from storage.repos.reads import event_record
from storage.vocabulary import EventStatus, RuleKind, RuleStatus, TaskStatus
from storage.web_models import CALENDAR_FEEDS

MAX_LIVE = 3
"""Live addresses a member may hold: a phone and a tablet, say, and one more."""


async def create(session: Session, *, user_id: int, token_hash: str, now: dt.datetime) -> None:
    """A new live address; past `MAX_LIVE`, the member's oldest ones are revoked."""
    await session.execute(
        insert(CALENDAR_FEEDS).values(
            token_hash=token_hash, user_id=user_id, created_at=now, revoked_at=None
        )
    )
    live = (
        await session.execute(
            select(CALENDAR_FEEDS.c.id)
            .where(CALENDAR_FEEDS.c.user_id == user_id, CALENDAR_FEEDS.c.revoked_at.is_(None))
            .order_by(CALENDAR_FEEDS.c.created_at.desc(), CALENDAR_FEEDS.c.id.desc())
        )
    ).scalars()
    too_old = list(live)[MAX_LIVE:]
    if too_old:
        await session.execute(
            update(CALENDAR_FEEDS).where(CALENDAR_FEEDS.c.id.in_(too_old)).values(revoked_at=now)
        )


async def revoke_all(session: Session, user_id: int, now: dt.datetime) -> int:
    """Revoke every live address of the member; returns how many there were."""
    result = await session.execute(
        update(CALENDAR_FEEDS)
        .where(CALENDAR_FEEDS.c.user_id == user_id, CALENDAR_FEEDS.c.revoked_at.is_(None))
        .values(revoked_at=now)
    )
    return int(getattr(result, "rowcount", 0) or 0)


async def owner(session: Session, token_hash: str) -> tuple[int, str] | None:
    """(user id, time zone name) of a live address; None for an unknown or revoked one.

    The lookup is by the token's hash, so its timing says nothing about the token;
    the stored hash is compared once more in constant time all the same."""
    row = (
        await session.execute(
            select(CALENDAR_FEEDS.c.user_id, CALENDAR_FEEDS.c.token_hash).where(
                CALENDAR_FEEDS.c.token_hash == token_hash, CALENDAR_FEEDS.c.revoked_at.is_(None)
            )
        )
    ).first()
    if row is None or not hmac.compare_digest(row.token_hash, token_hash):
        return None
    who = await member(session, row.user_id)
    return None if who is None else (row.user_id, who[1])


async def events_between(
    session: Session, user_id: int, first: dt.date, last: dt.date
) -> list[EventRecord]:
    """Scheduled events on the local days `first` to `last`, both included."""
    stmt = (
        select(EVENTS)
        .where(
            EVENTS.c.user_id == user_id,
            EVENTS.c.status == EventStatus.SCHEDULED,
            EVENTS.c.day >= first,
            EVENTS.c.day <= last,
        )
        .order_by(EVENTS.c.day, EVENTS.c.id)
    )
    return [event_record(r) for r in await session.execute(stmt)]


async def timed_tasks_between(
    session: Session, user_id: int, first: dt.date, last: dt.date
) -> list[TaskRecord]:
    """Open tasks due at a time of day on the local days `first` to `last`."""
    stmt = (
        select(TASKS)
        .where(
            TASKS.c.user_id == user_id,
            TASKS.c.status == TaskStatus.OPEN,
            TASKS.c.due_date >= first,
            TASKS.c.due_date <= last,
            TASKS.c.due_time.is_not(None),
        )
        .order_by(TASKS.c.due_date, TASKS.c.due_time, TASKS.c.id)
    )
    return [
        TaskRecord(
            id=r.id,
            number=r.number,
            title=r.title,
            due_date=r.due_date,
            due_time=r.due_time,
            status=r.status,
        )
        for r in await session.execute(stmt)
    ]


async def custom_reminders_between(
    session: Session, user_id: int, start: dt.datetime, end: dt.datetime
) -> list[RuleRecord]:
    """Active custom reminders whose next time falls in [start, end) (the caller keeps
    the one-offs: a repeating one would put only its next time in a calendar)."""
    stmt = (
        select(RULES)
        .where(
            RULES.c.user_id == user_id,
            RULES.c.kind == RuleKind.CUSTOM,
            RULES.c.status == RuleStatus.ACTIVE,
            RULES.c.next_fire_at >= start,
            RULES.c.next_fire_at < end,
        )
        .order_by(RULES.c.next_fire_at, RULES.c.id)
    )
    return [
        RuleRecord(
            id=r.id,
            user_id=r.user_id,
            kind=r.kind,
            status=r.status,
            policy=r.policy,
            priority=r.priority,
            channel=r.channel,
            next_fire_at=r.next_fire_at,
            spec=r.spec,
            number=r.number,
            ref_id=r.ref_id,
            label=r.label,
        )
        for r in await session.execute(stmt)
    ]
