"""`keeper doctor`'s retention line: the periods, the daily run's state, and per pruned
table the rows kept, the oldest row's age and what the last run pruned and when.

It fails only when the daily run has been missing for two slots
(`retention_policy.overdue`): then nothing is being pruned. Before the first run it
passes: the scheduler's first tick starts one, and the scheduler line already says
whether a scheduler ticks.
"""

from __future__ import annotations

import datetime as dt

from bot.doctor_checks import Check
from bot.settings import Settings
from scheduler.core.retention_policy import RUN_AT, overdue
from storage.repos.retention_runs import RunRow, TableFigures


async def check_retention(settings: Settings, now: dt.datetime) -> Check:
    """The retention line, with one indented line per table under it."""
    found = await _figures(settings.database.url)
    p = settings.operations.retention
    head = (
        f"keeps messages {p.messages} d, jobs {p.jobs} d, links {p.links} d; "
        f"pruned daily at {RUN_AT:%H:%M} {settings.operations.timezone.key}"
    )
    started = [f.last_run.started_at for f in found if f.last_run is not None]
    last = max(started, default=None)
    more = tuple(_table_line(f, now) for f in found)
    if last is not None and overdue(last, now):
        return Check(
            ok=False,
            name="retention",
            detail=f"{head}; no run since {_utc(last)}: old rows are not being pruned",
            fix="the scheduler runs it (keeper worker, or serve with KEEPER_SCHEDULER=on); "
            "is it running? its log says why a run failed",
            more=more,
        )
    state = (
        "no run yet (the scheduler's next tick starts one)"
        if last is None
        else (f"last run started {_utc(last)}")
    )
    return Check(ok=True, name="retention", detail=f"{head}; {state}", more=more)


def _table_line(f: TableFigures, now: dt.datetime) -> str:
    oldest = "" if f.oldest_at is None else f", oldest {_age(now - f.oldest_at)}"
    return f"{f.table_name}: {f.kept:,} kept{oldest}; {_run(f.last_run, now)}"


def _run(run: RunRow | None, now: dt.datetime) -> str:
    if run is None:
        return "not pruned yet"
    if run.finished_at is not None:
        return f"last run pruned {run.pruned:,} (finished {_utc(run.finished_at)})"
    return f"last run pruned {run.pruned:,} so far (started {_utc(run.started_at)}, unfinished)"


def _age(age: dt.timedelta) -> str:
    return f"{age.days} d" if age.days >= 1 else f"{int(age.total_seconds() // 3600)} h"


def _utc(at: dt.datetime) -> str:
    return f"{at.astimezone(dt.UTC):%Y-%m-%d %H:%M} UTC"


async def _figures(url: str) -> list[TableFigures]:
    from storage.database import Database
    from storage.engine import opened_engine
    from storage.repos import retention_runs

    async with opened_engine(url) as engine, Database(engine).transaction() as session:
        return await retention_runs.figures(session)
