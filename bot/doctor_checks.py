"""`keeper doctor`'s checks of what lives on this machine: settings, database, scheduler,
scheduled backups.

Each check is a small function returning a `Check`; none raises for a failure it was
written to find, and none shows a secret (the database password is masked).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy.exc import DBAPIError

from bot.maintenance import database_failure, real_tick_since
from bot.settings import Settings, SettingsError, load_database_url, load_settings
from handlers import texts
from scheduler.core.backup_schedule import backup_overdue
from storage.records import BackupRunRecord

SCHEDULER_FRESH = dt.timedelta(minutes=2)
ENV_FILE_HINT = "set it in /etc/keeper/keeper.env (or deploy/keeper.env); see deploy/env.example"


@dataclass(frozen=True, kw_only=True, slots=True)
class Check:
    """One line of the doctor's table: passed or not, what was seen, how to fix it."""

    ok: bool
    name: str
    detail: str
    fix: str = ""
    more: tuple[str, ...] = ()
    """Further lines of figures, shown indented under the check's line."""


def check_settings(environ: Mapping[str, str] | None) -> tuple[Check, Settings | None]:
    """Every setting present and well-formed (the first problem is named)."""
    try:
        settings = load_settings(environ)
    except SettingsError as exc:
        return Check(ok=False, name="settings", detail=str(exc), fix=ENV_FILE_HINT), None
    on, wecom = settings.operations.scheduler_on, settings.wecom
    mode = "on (keeper serve sends)" if on else "off (keeper worker sends)"
    detail = f"CorpID {wecom.corp_id}, AgentId {wecom.agent_id}, KEEPER_SCHEDULER {mode}"
    return Check(ok=True, name="settings", detail=detail), settings


def check_admins(settings: Settings) -> Check:
    """KEEPER_ADMINS names someone: admin alerts and `--send-test` go to them."""
    if settings.operations.admins:
        return Check(ok=True, name="admins", detail=", ".join(sorted(settings.operations.admins)))
    return Check(
        ok=False,
        name="admins",
        detail=f"KEEPER_ADMINS is empty: nobody gets admin alerts or may use {texts.ADMIN_COMMAND}",
        fix=f"KEEPER_ADMINS=<your UserID> ({texts.CONSOLE_OWN_ACCOUNT}); " + ENV_FILE_HINT,
    )


def database_url(settings: Settings | None, environ: Mapping[str, str] | None) -> str | None:
    """The URL to check: from the settings, or alone when other settings are broken."""
    if settings is not None:
        return settings.database.url
    try:
        return load_database_url(environ)
    except SettingsError:
        return None


async def check_database(url: str | None) -> Check:
    """Reachable, and migrated to the newest revision the code knows."""
    from bot.settings import mask_database_url
    from storage.engine import opened_engine
    from storage.migrate import current_revision, pending_revisions

    if url is None:
        return Check(
            ok=False, name="database", detail="no usable KEEPER_DATABASE_URL", fix=ENV_FILE_HINT
        )
    try:
        async with opened_engine(url) as engine:
            pending = await pending_revisions(engine)
            revision = await current_revision(engine)
    except (DBAPIError, OSError) as exc:
        line = database_failure(exc, url).removeprefix("keeper: ")
        fix = "start the database, check the URL, user, password and that the database exists"
        return Check(ok=False, name="database", detail=line, fix=fix)
    where = mask_database_url(url)
    if pending:
        detail = f"{where} at revision {revision}; missing {', '.join(pending)}"
        return Check(ok=False, name="database", detail=detail, fix="keeper migrate")
    return Check(ok=True, name="database", detail=f"{where} at revision {revision} (newest)")


async def check_scheduler(settings: Settings, now: dt.datetime) -> Check:
    """A real scheduler ticked in the last two minutes, or `keeper serve` runs one."""
    recent = await real_tick_since(settings.database.url, now - SCHEDULER_FRESH)
    if recent is not None:
        worker, at = recent
        age = int((now - at).total_seconds())
        return Check(ok=True, name="scheduler", detail=f"{worker} ticked {age} s ago")
    if settings.operations.scheduler_on:
        detail = "KEEPER_SCHEDULER=on: keeper serve runs it (no tick seen yet: is it running?)"
        return Check(ok=True, name="scheduler", detail=detail)
    last = await real_tick_since(settings.database.url, dt.datetime(2000, 1, 1, tzinfo=dt.UTC))
    seen = (
        "never" if last is None else f"last by {last[0]} at {last[1].isoformat(timespec='seconds')}"
    )
    return Check(
        ok=False,
        name="scheduler",
        detail=f"no scheduler ticked in the last 2 minutes ({seen}): no reminder will be sent",
        fix=(
            "start the worker: systemctl enable --now keeper-worker (compose: the worker "
            "service), or set KEEPER_SCHEDULER=on for a single keeper serve"
        ),
    )


async def check_backups(settings: Settings, now: dt.datetime) -> Check:
    """Scheduled backups: off, or one verified within 26 h.

    The scheduler's recorded outcome is the evidence, not a look at the directory: the
    doctor may run as another user (systemd-run's DynamicUser) who cannot see it, and
    the scheduler records a directory it cannot write as the run's problem.
    """
    directory = settings.backup.directory
    if directory is None:
        detail = "off (KEEPER_BACKUP_DIR is empty: no scheduled backups)"
        return Check(ok=True, name="backups", detail=detail)
    latest, verified = await _backup_runs(settings.database.url)
    last = verified.finished_at if verified is not None else None
    if verified is not None and last is not None and not backup_overdue(last, now, True):
        hours = (now - last).total_seconds() / 3600
        detail = f"{verified.path} verified {hours:.1f} h ago ({verified.rows:,} rows)"
        return Check(ok=True, name="backups", detail=detail)
    seen = "never" if last is None else f"last at {last.isoformat(timespec='minutes')}"
    failed = f"; the latest failed: {latest.problem}" if latest and latest.problem else ""
    return Check(
        ok=False,
        name="backups",
        detail=f"no verified backup in the last 26 h ({seen}){failed}",
        fix=(
            f"the scheduler (keeper worker, or serve with KEEPER_SCHEDULER=on) backs up daily "
            f"at {settings.backup.at:%H:%M}; is it running? "
            f"`keeper backup --out {directory}/try.kbak` shows what fails"
        ),
    )


async def _backup_runs(url: str) -> tuple[BackupRunRecord | None, BackupRunRecord | None]:
    """The newest scheduled backup run and the newest verified one."""
    from storage.database import Database
    from storage.engine import opened_engine
    from storage.repos import backups

    async with opened_engine(url) as engine, Database(engine).transaction() as session:
        return await backups.latest(session), await backups.last_verified(session)
