"""The scheduled backups' state in words, for 管理 状态 and the admin page.

`describe` is pure (records in, lines out); `backup_lines` reads the two rows it needs.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from handlers import texts
from scheduler.core import times
from scheduler.core.backup_schedule import backup_overdue
from storage.database import Session
from storage.records import BackupRunRecord
from storage.repos import backups


async def backup_lines(
    session: Session, *, enabled: bool, tz: ZoneInfo, now: dt.datetime
) -> list[str]:
    """The backup's lines as of `now` (see `describe`)."""
    if not enabled:
        return describe(enabled=False, latest=None, verified=None, tz=tz, now=now)
    latest = await backups.latest(session)
    verified = await backups.last_verified(session)
    return describe(enabled=True, latest=latest, verified=verified, tz=tz, now=now)


def describe(
    *,
    enabled: bool,
    latest: BackupRunRecord | None,
    verified: BackupRunRecord | None,
    tz: ZoneInfo,
    now: dt.datetime,
) -> list[str]:
    """Off; none yet; the newest run (verified, failed or running) and, when that is not
    the verified one, the last verified; a warning when none is verified within 26 h."""
    if not enabled:
        return [texts.BACKUP_OFF]
    lines = [_newest(latest, verified, tz, now)]
    if latest is not None and latest != verified:
        lines.append(texts.backup_last_good(_at(verified, tz)))
    if latest is not None and backup_overdue(_finished(verified), now, enabled):
        lines.append(texts.BACKUP_OVERDUE)
    return lines


RUNNING_AT_MOST = dt.timedelta(hours=6)
"""A run unfinished for longer lost its process (killed or crashed mid-backup)."""


def _newest(
    latest: BackupRunRecord | None,
    verified: BackupRunRecord | None,
    tz: ZoneInfo,
    now: dt.datetime,
) -> str:
    if latest is None:
        return texts.BACKUP_NONE_YET
    if latest.finished_at is None:
        since = times.stamp(latest.started_at, tz)
        if now - latest.started_at > RUNNING_AT_MOST:
            return texts.backup_interrupted(since)
        return texts.backup_running(since)
    if latest.verified:
        return texts.backup_verified(times.stamp(latest.finished_at, tz), latest.rows)
    return texts.backup_failed(times.stamp(latest.finished_at, tz), latest.problem)


def _finished(run: BackupRunRecord | None) -> dt.datetime | None:
    return None if run is None else run.finished_at


def _at(run: BackupRunRecord | None, tz: ZoneInfo) -> str | None:
    finished = _finished(run)
    return None if finished is None else times.stamp(finished, tz)
