"""`keeper doctor`'s evidence line, and the device checks `--send-test` records.

A test message the WeCom API accepted proves only that WeCom took it. So when
`--send-test` was accepted, each admin gets a waiting device check on the WeCom app
(`services.evidence`), as `测试 渠道` gives a user: their `收到` within 30 minutes
confirms it. The `evidence` line shows, per channel, the last device check and the
share of reminders answered in 30 days (`handlers.evidence_status`); a channel never
checked says how to check it. The line is information, never a ✗: a fresh install
has checked nothing yet.
"""

from __future__ import annotations

import datetime as dt

from bot.doctor_checks import Check
from bot.settings import Settings
from scheduler.core.fallback import WECOM_APP


async def record_admin_tests(settings: Settings, admins: list[str], now: dt.datetime) -> None:
    """A waiting device check on the WeCom app for each admin the test went to."""
    from storage.database import Database
    from storage.engine import opened_engine
    from storage.repos import evidence, users

    zone = settings.operations.timezone.key
    url = settings.database.url
    async with opened_engine(url) as engine, Database(engine).transaction() as session:
        for wecom_user_id in admins:
            user = await users.ensure_and_lock_user(session, wecom_user_id, timezone=zone, now=now)
            await evidence.add_check(session, user.id, WECOM_APP, job_id=None, now=now)


async def check_evidence(settings: Settings, now: dt.datetime) -> Check:
    """Per channel: the last device check and the answered share (everyone's)."""
    from handlers import evidence_status
    from handlers.texts import channel_tests as t
    from storage.database import Database
    from storage.engine import opened_engine

    tz = settings.operations.timezone
    channels = settings.channels.user_channels
    url = settings.database.url
    async with opened_engine(url) as engine, Database(engine).transaction() as session:
        rows = await evidence_status.rows(session, now, channels)
    confirmed = [r.name for r in rows if r.check is not None and r.check.confirmed_at]
    detail = (
        f"confirmed on a phone: {', '.join(confirmed)}" if confirmed else t.DOCTOR_NONE_CONFIRMED
    )
    more = tuple(evidence_status.line(r, tz, never=t.NEVER_CHECKED_DOCTOR) for r in rows)
    return Check(ok=True, name="evidence", detail=detail, more=more)
