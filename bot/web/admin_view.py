"""What the admin page shows: delivery health, read in one transaction. Read-only.

Every time is in the deployment's zone (KEEPER_TIMEZONE), said once at the top, and
every age as people say it (`times.age_words`). Per channel (`ChannelView`): its
facts, its 14-day chart of sends by outcome and of reminders answered, and the
figures behind the chart; once for the deployment, the callbacks handled per day
and their p95 time (`bot.web.admin_series` makes the series).

Recipients are masked (`mask_user`) and errors redacted again with the configured
secrets, the row's recipient and every UserID the database holds (read once per
page: rows stored before that masking existed are masked here too) before anything
reaches the template.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from zoneinfo import ZoneInfo

from markupsafe import Markup

from bot.web import admin_series, charts
from handlers import texts
from handlers.backup_status import backup_lines
from handlers.retention_status import retention_lines
from scheduler.core.redact import mask_user, redact
from scheduler.core.texts import times
from scheduler.core.texts.failure_words import failure_words
from scheduler.core.user_ids import KNOWN
from scheduler.runtime import CONFIG_HOLD
from storage.database import Session
from storage.records import ChannelStats
from storage.repos import admin, admin_days, admin_page, flags, known_ids


def _kind(kind: str) -> str:
    return texts.RULE_KIND_NAMES.get(kind, kind)


def _status(status: str) -> str:
    return texts.JOB_STATUS_NAMES.get(status, status)


def when(at: dt.datetime | None, tz: ZoneInfo, now: dt.datetime) -> str:
    """An instant for a table: local "12-01 20:40（3 分钟前）", or "—" for none."""
    if at is None:
        return texts.WEB_NEVER
    return texts.web_when(times.stamp(at, tz), times.age_words((now - at).total_seconds()))


async def _hold(session: Session, channel: str, now: dt.datetime, tz: ZoneInfo) -> str:
    """The channel's hold as the worker sets it: a configuration error holds the
    channel for `CONFIG_HOLD` (the worker keeps the hold in memory; the attempt that
    caused it is in the database, so the page derives it from there)."""
    found = await admin_page.last_config_error(session, channel)
    if found is None or found[0] + CONFIG_HOLD <= now:
        return ""
    at, code = found
    why = failure_words(f"config: {code}") or texts.WEB_CONFIG_ERROR
    return texts.web_hold(times.stamp(at + CONFIG_HOLD, tz), why, code)


def _table(counts: dict[tuple[str, str], int]) -> list[tuple[str, str, int]]:
    return [(_kind(k), _status(s), n) for (k, s), n in sorted(counts.items())]


@dataclass(frozen=True, kw_only=True, slots=True)
class ChannelView:
    """One channel's part of the page.

    `facts` are the (label, value) lines of the channel's card, in order: a figure
    about one channel (a device check, the share of reminders answered ...) is one
    more pair appended in `channel_view`, and the template shows it with no change.
    `chart` draws `days`; `data` is the same figures as JSON (the page carries them
    next to the chart)."""

    name: str
    stats: ChannelStats
    hold: str
    last_success: str
    days: admin_series.ChannelDays
    chart: Markup
    data: dict[str, Any]
    facts: list[tuple[str, str]] = field(default_factory=list)


def channel_view(
    stats: ChannelStats,
    hold: str,
    days: admin_series.ChannelDays,
    tz: ZoneInfo,
    now: dt.datetime,
) -> ChannelView:
    last_success = when(stats.last_success, tz, now)
    return ChannelView(
        name=stats.channel,
        stats=stats,
        hold=hold,
        last_success=last_success,
        days=days,
        chart=sends_chart(days),
        data=admin_series.as_data(days),
        facts=[
            (texts.WEB_FACT_LAST_SUCCESS, last_success),
            (texts.WEB_FACT_HOLD, hold or texts.WEB_NEVER),
        ],
    )


def sends_chart(days: admin_series.ChannelDays) -> Markup:
    """Sends stacked by outcome (accepted at the bottom), reminders answered as a line."""
    return charts.day_chart(
        days.days,
        [
            charts.Series(name=texts.SERIES_ACCEPTED, css="ok", values=days.accepted),
            charts.Series(name=texts.SERIES_FAILED, css="bad", values=days.failed),
            charts.Series(name=texts.SERIES_UNKNOWN, css="unk", values=days.unknown),
        ],
        title=texts.chart_sends_title(days.channel),
        line=charts.Series(name=texts.SERIES_ANSWERED, css="ans", values=days.answered),
    )


def callbacks_chart(days: admin_series.CallbackDays) -> Markup:
    """Callbacks handled as bars; their p95 as a line on its own scale (ms)."""
    return charts.day_chart(
        days.days,
        [charts.Series(name=texts.SERIES_HANDLED, css="cb", values=days.handled)],
        title=texts.CHART_CALLBACKS_TITLE,
        line=charts.Series(name=texts.SERIES_P95, css="p95", values=days.p95_ms),
        line_unit="ms",
    )


async def gather(
    session: Session,
    now: dt.datetime,
    secrets: Iterable[str],
    tz: ZoneInfo,
    *,
    backups_on: bool = False,
) -> dict[str, Any]:
    """The admin page's template context (`backups_on`: KEEPER_BACKUP_DIR is set)."""
    today = now.astimezone(tz).date()
    local_midnight = dt.datetime.combine(today, dt.time(), tz)
    # Read on every view (this process may run no tick, and the page names members);
    # stamped, so a tick in this process uses the fresh copy instead of reading again.
    KNOWN.replace(await known_ids.user_ids(session), now=now)
    since = admin_series.first_instant(today, tz)
    sends = await admin_days.sends_since(session, since)
    reminders = await admin_days.reminders_answered(session, since, now)
    channels = [
        channel_view(
            s,
            await _hold(session, s.channel, now, tz),
            admin_series.channel_days(s.channel, sends, reminders, tz, today),
            tz,
            now,
        )
        for s in await admin.channel_stats(session)
    ]
    callbacks = admin_series.callback_days(
        await admin_days.callbacks_since(session, since), tz, today
    )
    failures = [
        {
            "at": times.stamp(f.started_at, tz),
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
    offset = now.astimezone(tz).utcoffset() or dt.timedelta()
    return {
        "zone_note": texts.web_zone_note(tz.key, offset, f"{now.astimezone(tz):%Y-%m-%d %H:%M}"),
        "channels": channels,
        "callbacks_chart": callbacks_chart(callbacks),
        "callbacks_data": admin_series.as_data(callbacks),
        "held_all": await flags.get(session, flags.SENDS_PAUSED) == "on",
        "jobs_today": _table(await admin_page.jobs_by_kind_since(session, local_midnight)),
        "jobs_week": _table(
            await admin_page.jobs_by_kind_since(session, local_midnight - dt.timedelta(days=6))
        ),
        "heartbeats": [
            (w, when(at, tz, now), ms) for w, at, ms in await admin_page.heartbeats(session)
        ],
        "backup": await backup_lines(session, enabled=backups_on, tz=tz, now=now),
        "retention": await retention_lines(session, tz=tz, now=now),
        "failures": failures,
    }
