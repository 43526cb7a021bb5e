"""Plain, frozen values that repositories hand to handlers (no ORM objects leak out)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True, kw_only=True, slots=True)
class UserRecord:
    id: int
    wecom_user_id: str
    timezone: str
    quiet_until: dt.datetime | None = None
    cards: bool = False
    defaults_version: int = 0
    missed_since: dt.datetime | None = None
    pending_guess: str | None = None
    pending_guess_at: dt.datetime | None = None
    water_notice_owed: bool = False  # the water plan paused itself and has not said so


@dataclass(frozen=True, kw_only=True, slots=True)
class StoredReply:
    """What an earlier delivery of the same message was answered."""

    reply_text: str | None


@dataclass(frozen=True, kw_only=True, slots=True)
class Effect:
    """The record a message made: what `撤销` would reverse."""

    kind: str
    record_id: int


@dataclass(frozen=True, kw_only=True, slots=True)
class UndoableMessage:
    message_id: int
    kind: str
    content: str
    effect: Effect


@dataclass(frozen=True, kw_only=True, slots=True)
class TaskRecord:
    id: int
    number: int | None
    title: str
    due_date: dt.date | None
    due_time: dt.time | None
    status: str


@dataclass(frozen=True, kw_only=True, slots=True)
class EventRecord:
    id: int
    title: str
    day: dt.date
    starts_at: dt.datetime | None
    ends_at: dt.datetime | None
    status: str
    number: int | None = None
    remind_minutes_before: int | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class WeightPoint:
    value: Decimal
    occurred_at: dt.datetime


@dataclass(frozen=True, kw_only=True, slots=True)
class LedgerRow:
    direction: str
    amount: Decimal
    category: str
    occurred_at: dt.datetime
