"""SQLAlchemy 2 ORM models: one table per aggregate, no catch-all `records` table.

Conventions that hold for every table:
- Times are stored as UTC (`UTCDateTime`): aware datetimes in, aware UTC out; a naive
  datetime is rejected at the boundary.
- Money and weights are exact decimals stored as integers of hundredths
  (`Hundredths`), so SQLite and MariaDB agree to the cent without float rounding.
- Every record written from a message carries `source_key` (the inbound message's
  idempotency key) under a unique constraint: no code path can record it twice.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any, cast

from sqlalchemy import (
    BigInteger,
    Date,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    Time,
    UniqueConstraint,
)
from sqlalchemy.dialects import mysql
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import DateTime, TypeDecorator

KEY_LENGTH = 191  # longest utf8mb4 VARCHAR that an InnoDB index takes on every MariaDB


class UTCDateTime(TypeDecorator[dt.datetime]):
    """Aware datetime <-> naive UTC column. Naive input is a bug and is refused."""

    impl = DateTime
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> Any:
        if dialect.name in ("mysql", "mariadb"):
            return dialect.type_descriptor(mysql.DATETIME(fsp=6))
        return dialect.type_descriptor(DateTime())

    def process_bind_param(self, value: dt.datetime | None, dialect: Dialect) -> Any:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(dt.UTC).replace(tzinfo=None)

    def process_result_value(self, value: Any, dialect: Dialect) -> dt.datetime | None:
        if value is None:
            return None
        assert isinstance(value, dt.datetime)
        return value.replace(tzinfo=dt.UTC)


class Hundredths(TypeDecorator[Decimal]):
    """Exact Decimal with two places, stored as an integer count of hundredths."""

    impl = BigInteger
    cache_ok = True

    def process_bind_param(self, value: Decimal | None, dialect: Dialect) -> Any:
        if value is None:
            return None
        scaled = value * 100
        if scaled != scaled.to_integral_value():
            raise ValueError("more than two decimal places")
        return int(scaled)

    def process_result_value(self, value: Any, dialect: Dialect) -> Decimal | None:
        if value is None:
            return None
        return (Decimal(int(value)) / 100).quantize(Decimal("0.01"))


NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


TABLE_OPTIONS = {"mysql_charset": "utf8mb4", "mysql_collate": "utf8mb4_bin"}
"""Binary collation on MySQL/MariaDB: keys compare byte for byte, as on SQLite."""
CACHE = "cache"
"""The `Table.info` key of a table whose rows are a cache keeper refetches on demand
(live access tokens): a backup carries its schema, never its rows."""


def _user_fk() -> Mapped[int]:
    return mapped_column(ForeignKey("users.id", ondelete="CASCADE"), nullable=False)


class User(Base):
    """A WeCom member who has talked to keeper."""

    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    wecom_user_id: Mapped[str] = mapped_column(String(64), unique=True)
    timezone: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    # The day the user wants reminders in (local wall-clock times), and the water habit.
    wake_at: Mapped[dt.time] = mapped_column(Time, server_default="08:00:00")
    sleep_at: Mapped[dt.time] = mapped_column(Time, server_default="22:00:00")
    water_interval_minutes: Mapped[int] = mapped_column(Integer, server_default="120")
    water_goal: Mapped[int] = mapped_column(Integer, server_default="8")
    # Quiet time (免打扰): low-priority notifications wait or are dropped until then.
    quiet_until: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    # Reminders as WeCom template cards with buttons (设置 卡片 开); 0 = plain text.
    cards: Mapped[int] = mapped_column(Integer, server_default="0")
    # Which set of default rules (the digests) this user has been given; bumping
    # `users.DEFAULTS_VERSION` gives existing users new defaults on their next message
    # without an extra query on every message.
    defaults_version: Mapped[int] = mapped_column(Integer, server_default="0")
    # Set when reminders of this user expired unsent (an outage); the next message
    # tells them once which, then clears it.
    missed_since: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    # A reading keeper asked about instead of recording (`35` -> "记一笔支出…？"): the
    # guessed command as JSON (`handlers.confirm`) and when it was asked; `是` within
    # ten minutes carries it out, any other message drops it.
    pending_guess: Mapped[str | None] = mapped_column(Text)
    pending_guess_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    # `目标体重 68` (kg): shown as a distance in 今天 and the weekly review.
    goal_weight: Mapped[Decimal | None] = mapped_column(Hundredths())

    __table_args__ = (TABLE_OPTIONS,)


class InboundMessage(Base):
    """Every callback message, once, keyed by MsgId (or the event's natural key).

    `reply_text` is what we answered the first time; a retry gets it again.
    `effect_kind`/`effect_id` name the record the message made, which is what `撤销`
    reverses; `undone_at` marks it reversed. `received_at` and `handled_ms` are what
    the admin page's callback chart counts and times.
    """

    __tablename__ = "inbound_messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    dedup_key: Mapped[str] = mapped_column(String(KEY_LENGTH), unique=True)
    wecom_user_id: Mapped[str] = mapped_column(String(64))
    user_id: Mapped[int] = _user_fk()
    kind: Mapped[str] = mapped_column(String(64))  # "text", "image", "event:<name>"
    content: Mapped[str] = mapped_column(Text)
    sent_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    received_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    reply_text: Mapped[str | None] = mapped_column(Text)
    effect_kind: Mapped[str | None] = mapped_column(String(32))
    effect_id: Mapped[int | None] = mapped_column(Integer)
    undone_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    # Milliseconds from taking the message up to storing its reply (the admin page's
    # p95); NULL on rows from before migration 0020.
    handled_ms: Mapped[int | None] = mapped_column(Integer)

    __table_args__ = (
        Index("ix_inbound_messages_user_effect", "user_id", "effect_kind", "id"),
        TABLE_OPTIONS,
    )


class Measurement(Base):
    """A body measurement; `kind` is "weight" (kg) for now."""

    __tablename__ = "measurements"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = _user_fk()
    kind: Mapped[str] = mapped_column(String(16))
    value: Mapped[Decimal] = mapped_column(Hundredths())
    occurred_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    source_key: Mapped[str] = mapped_column(String(KEY_LENGTH), unique=True)

    __table_args__ = (
        Index("ix_measurements_user_time", "user_id", "kind", "occurred_at"),
        TABLE_OPTIONS,
    )


class WaterCheckin(Base):
    """Glasses of water checked in (negative corrects an earlier slip)."""

    __tablename__ = "water_checkins"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = _user_fk()
    glasses: Mapped[int] = mapped_column(Integer)
    occurred_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    source_key: Mapped[str] = mapped_column(String(KEY_LENGTH), unique=True)

    __table_args__ = (Index("ix_water_checkins_user_time", "user_id", "occurred_at"), TABLE_OPTIONS)


class LedgerEntry(Base):
    """Money out (`expense`) or in (`income`); `amount` is positive."""

    __tablename__ = "ledger_entries"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = _user_fk()
    direction: Mapped[str] = mapped_column(String(8))
    amount: Mapped[Decimal] = mapped_column(Hundredths())
    category: Mapped[str] = mapped_column(String(32))
    note: Mapped[str] = mapped_column(String(200))
    occurred_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    source_key: Mapped[str] = mapped_column(String(KEY_LENGTH), unique=True)

    __table_args__ = (Index("ix_ledger_entries_user_time", "user_id", "occurred_at"), TABLE_OPTIONS)


class Task(Base):
    """A to-do. `number` is the short number shown to the user while it is open.

    Numbers are the smallest free positive integer among the user's open tasks and
    are released (set to NULL) when the task is done or cancelled, so they stay short.
    """

    __tablename__ = "tasks"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = _user_fk()
    number: Mapped[int | None] = mapped_column(Integer)
    title: Mapped[str] = mapped_column(String(200))
    due_date: Mapped[dt.date | None] = mapped_column(Date)
    due_time: Mapped[dt.time | None] = mapped_column(Time)
    status: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    closed_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    source_key: Mapped[str] = mapped_column(String(KEY_LENGTH), unique=True)

    __table_args__ = (
        UniqueConstraint("user_id", "number", name="uq_tasks_user_number"),
        Index("ix_tasks_user_status_due", "user_id", "status", "due_date"),
        TABLE_OPTIONS,
    )


class CalendarEvent(Base):
    """Booked time. `day` is the local date; `starts_at` is None for all-day events."""

    __tablename__ = "calendar_events"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = _user_fk()
    title: Mapped[str] = mapped_column(String(200))
    day: Mapped[dt.date] = mapped_column(Date)
    starts_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    ends_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    remind_minutes_before: Mapped[int | None] = mapped_column(Integer)
    # Short number shown while the event is upcoming (取消日程 2); reused after it passes.
    number: Mapped[int | None] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    source_key: Mapped[str] = mapped_column(String(KEY_LENGTH), unique=True)

    __table_args__ = (Index("ix_calendar_events_user_day", "user_id", "day"), TABLE_OPTIONS)


class JournalEntry(Base):
    """A free-text note, kept verbatim. Never copied into a notification."""

    __tablename__ = "journal_entries"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = _user_fk()
    text: Mapped[str] = mapped_column(Text)
    occurred_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    source_key: Mapped[str] = mapped_column(String(KEY_LENGTH), unique=True)

    __table_args__ = (
        Index("ix_journal_entries_user_time", "user_id", "occurred_at"),
        TABLE_OPTIONS,
    )


def _table(model: type[Base]) -> Table:
    return cast(Table, model.__table__)


# Core handles for the repositories. Statements written against tables, not mapped
# classes, skip the ORM's execution layer: measured 120-170 us per statement instead
# of 240-430 us, on the path every message takes.
USERS = _table(User)
INBOUND = _table(InboundMessage)
MEASUREMENTS = _table(Measurement)
WATER_CHECKINS = _table(WaterCheckin)
LEDGER = _table(LedgerEntry)
TASKS = _table(Task)
EVENTS = _table(CalendarEvent)
JOURNAL = _table(JournalEntry)
