"""What the admin page shows: delivery health, read in one transaction. Read-only.

Recipients are masked (`mask_user`) and errors redacted again with the configured
secrets, the row's recipient and every UserID the database holds (read once per
page: rows stored before that masking existed are masked here too) before anything
reaches the template.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from handlers import texts
from handlers.backup_status import backup_lines
from scheduler.core.failure_words import failure_words
from scheduler.core.redact import mask_user, redact
from scheduler.core.user_ids import KNOWN
from scheduler.runtime import CONFIG_HOLD
from storage.database import Session
from storage.repos import admin, admin_page, flags, known_ids


def _kind(kind: str) -> str:
    return texts.RULE_KIND_NAMES.get(kind, kind)


def _status(status: str) -> str:
    return texts.JOB_STATUS_NAMES.get(status, status)


async def _hold(session: Session, channel: str, now: dt.datetime) -> str:
    """The channel's hold as the worker sets it: a configuration error holds the
    channel for `CONFIG_HOLD` (the worker keeps the hold in memory; the attempt that
    caused it is in the database, so the page derives it from there)."""
    found = await admin_page.last_config_error(session, channel)
    if found is None or found[0] + CONFIG_HOLD <= now:
        return ""
    at, code = found
    why = failure_words(f"config: {code}") or "配置错误"
    return f"暂停到 {(at + CONFIG_HOLD):%H:%M} UTC：{why}" + (f"（{code}）" if code else "")


def _table(counts: dict[tuple[str, str], int]) -> list[tuple[str, str, int]]:
    return [(_kind(k), _status(s), n) for (k, s), n in sorted(counts.items())]


async def gather(
    session: Session,
    now: dt.datetime,
    secrets: Iterable[str],
    tz: Any,
    *,
    backups_on: bool = False,
) -> dict[str, Any]:
    """The admin page's template context (`backups_on`: KEEPER_BACKUP_DIR is set)."""
    local_midnight = dt.datetime.combine(now.astimezone(tz).date(), dt.time(), tz)
    # Read on every view (this process may run no tick, and the page names members);
    # stamped, so a tick in this process uses the fresh copy instead of reading again.
    KNOWN.replace(await known_ids.user_ids(session), now=now)
    channels = []
    for s in await admin.channel_stats(session):
        channels.append({"stats": s, "hold": await _hold(session, s.channel, now)})
    failures = [
        {
            "at": f.started_at,
            "job": f.job_id,
            "kind": _kind(f.kind),
            "channel": f.channel,
            "to": mask_user(f.recipient),
            "outcome": f.outcome,
            "why": failure_words(f"{f.error_class}: {f.provider_code}") or f.error_class,
            "error": redact(f.error, secrets, users=(f.recipient,), max_length=200),
        }
        for f in await admin_page.recent_failures(session)
    ]
    return {
        "now": now,
        "channels": channels,
        "held_all": await flags.get(session, flags.SENDS_PAUSED) == "on",
        "jobs_today": _table(await admin_page.jobs_by_kind_since(session, local_midnight)),
        "jobs_week": _table(
            await admin_page.jobs_by_kind_since(session, local_midnight - dt.timedelta(days=6))
        ),
        "heartbeats": [
            (w, at, ms, int((now - at).total_seconds()))
            for w, at, ms in await admin_page.heartbeats(session)
        ],
        "backup": await backup_lines(session, enabled=backups_on, tz=tz, now=now),
        "failures": failures,
    }
