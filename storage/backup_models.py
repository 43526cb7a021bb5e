"""The scheduled backups' record (issue 13): one row per day's run.

Same conventions as `storage.models`. `run_day` (the local date of the run's slot) is
unique: the row is the claim, so of several schedulers reaching the slot exactly one
inserts it and makes the backup (`storage.repos.backups.claim_day`).
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import BigInteger, Boolean, Date, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from storage.models import TABLE_OPTIONS, Base, UTCDateTime, _table


class BackupRun(Base):
    """One scheduled backup: claimed (`started_at`), then finished with its outcome.

    `finished_at` is NULL while it runs (or when its process died mid-way). `path` is
    the file's name only, never the directory; `problem` is one line safe to show.
    """

    __tablename__ = "backup_runs"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    run_day: Mapped[dt.date] = mapped_column(Date, unique=True)
    started_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    finished_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    path: Mapped[str | None] = mapped_column(String(64))
    verified: Mapped[bool] = mapped_column(Boolean, default=False)
    revision: Mapped[str] = mapped_column(String(32), default="")
    rows: Mapped[int] = mapped_column(BigInteger, default=0)
    size_bytes: Mapped[int] = mapped_column(BigInteger, default=0)
    problem: Mapped[str] = mapped_column(String(500), default="")
    claimed_by: Mapped[str] = mapped_column(String(64))

    __table_args__ = (Index("ix_backup_runs_verified", "verified", "finished_at"), TABLE_OPTIONS)


BACKUP_RUNS = _table(BackupRun)
