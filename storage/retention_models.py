"""Tables of the retention run (issue 20 item 9): its daily record, and the delivery
counts kept for the admin once jobs and attempts are pruned.

Same conventions as `storage.models`.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import BigInteger, Date, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from storage.models import TABLE_OPTIONS, Base, UTCDateTime, _table


class RetentionRun(Base):
    """One table's part of one day's retention run.

    The day's rows are made together by the first scheduler that reaches the day's
    slot; (`run_day`, `table_name`) is unique, so several schedulers make them once.
    `claimed_by` and `updated_at` are a lease: the scheduler pruning the table renews
    it every tick, and one that stopped (a `keeper tick` from cron exits after one
    pass) leaves it to the next scheduler after a few minutes. `pruned` grows in the
    same transaction as each deletion, so it is exactly what was deleted.
    """

    __tablename__ = "retention_runs"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    run_day: Mapped[dt.date] = mapped_column(Date)
    table_name: Mapped[str] = mapped_column(String(32))
    keep_days: Mapped[int] = mapped_column(Integer)
    cutoff: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    started_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    finished_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    claimed_by: Mapped[str] = mapped_column(String(64), default="")
    pruned: Mapped[int] = mapped_column(BigInteger, default=0)

    __table_args__ = (
        UniqueConstraint("run_day", "table_name", name="uq_retention_runs_day_table"),
        TABLE_OPTIONS,
    )


class DeliveryDayCount(Base):
    """How many pruned jobs or attempts there were, by UTC day and what they were.

    Written in the transaction that deletes them, one row per group per batch (no
    unique key: batches of concurrent runs add rows instead of contending for one), so
    readers sum. `subject` "job": `status` is the job's final status, `day` its slot's
    date, `last_at` when the latest of them ended. `subject` "attempt": `status` is the
    outcome, with its error class and provider code, `day` the date it started,
    `last_at` when the latest of them started (the channel's last success, once the
    attempt itself is gone).
    """

    __tablename__ = "delivery_day_counts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    day: Mapped[dt.date] = mapped_column(Date)
    subject: Mapped[str] = mapped_column(String(8))
    channel: Mapped[str] = mapped_column(String(32))
    kind: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))
    error_class: Mapped[str] = mapped_column(String(16), default="")
    provider_code: Mapped[int | None] = mapped_column(Integer)
    count: Mapped[int] = mapped_column(Integer)
    last_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())

    __table_args__ = (
        Index("ix_delivery_day_counts_subject", "subject", "channel", "day"),
        TABLE_OPTIONS,
    )


RETENTION_RUNS = _table(RetentionRun)
DAY_COUNTS = _table(DeliveryDayCount)
