"""The retention run's figures in words, for 管理 状态: per pruned table, the period,
rows kept, the oldest row's age, and what the last run pruned and when.

`describe` is pure (figures in, lines out); `retention_lines` reads the figures
(`storage.repos.retention_runs.figures`). The period shown is the one the last run
used (kept on its row), so nothing here needs the settings; before the first run
there is none to show.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from zoneinfo import ZoneInfo

from handlers import texts
from scheduler.core.texts import times
from storage.database import Session
from storage.models import INBOUND
from storage.repos.retention_runs import RunRow, TableFigures, figures

RUNNING_AT_MOST = dt.timedelta(hours=6)
"""A run unfinished for longer has lost its scheduler (the next day's run goes on)."""


async def retention_lines(
    session: Session, *, tz: ZoneInfo, now: dt.datetime, asked_by_message: bool = False
) -> list[str]:
    """The figures' lines as of `now` (see `describe`). `asked_by_message`: a member's
    message asks (管理 状态), and it counts among the messages kept, although its row
    is written only with its reply, after this read (`bot.conversation`)."""
    found = await figures(session)
    if asked_by_message:
        found = [_with_the_asking_message(f, now) for f in found]
    return describe(found, tz=tz, now=now)


def _with_the_asking_message(f: TableFigures, now: dt.datetime) -> TableFigures:
    if f.table_name != INBOUND.name:
        return f
    oldest = now if f.oldest_at is None else min(f.oldest_at, now)
    return dataclasses.replace(f, kept=f.kept + 1, oldest_at=oldest)


def describe(found: list[TableFigures], *, tz: ZoneInfo, now: dt.datetime) -> list[str]:
    """A heading, then one line per table."""
    return [texts.RETENTION_HEAD] + [_line(f, tz, now) for f in found]


def _line(f: TableFigures, tz: ZoneInfo, now: dt.datetime) -> str:
    oldest = None if f.oldest_at is None else (now - f.oldest_at).days
    run = f.last_run
    keep = None if run is None else run.keep_days
    return texts.retention_table(
        texts.RETENTION_TABLE_NAMES.get(f.table_name, f.table_name),
        keep_days=keep,
        kept=f.kept,
        oldest_days=oldest,
        last_run=None if run is None else _run(run, tz, now),
    )


def _run(run: RunRow, tz: ZoneInfo, now: dt.datetime) -> str:
    if run.finished_at is not None:
        return texts.retention_done(times.stamp(run.finished_at, tz), run.pruned)
    since = times.stamp(run.started_at, tz)
    if now - run.started_at > RUNNING_AT_MOST:
        return texts.retention_interrupted(since, run.pruned)
    return texts.retention_running(since, run.pruned)
