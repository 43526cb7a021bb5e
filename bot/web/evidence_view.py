"""The admin page's per-channel evidence: the last device check and the answered share
(`handlers.evidence_status`), as rows for `templates/_evidence.html`. Read-only.

Kept apart from `admin_view` so the page takes it with one include: the template
context gains `evidence`, a list of rows of plain words.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection
from typing import Any
from zoneinfo import ZoneInfo

from handlers import evidence_status
from handlers.texts import channel_tests as t
from storage.database import Session


async def gather(
    session: Session, now: dt.datetime, channels: Collection[str], tz: ZoneInfo
) -> dict[str, Any]:
    """`{"evidence": [...]}`: per channel its name, its device check in words, its
    answered share in words, and whether it was ever confirmed on a phone."""
    found = await evidence_status.rows(session, now, channels)
    return {
        "evidence": [
            {
                "channel": row.channel,
                "name": row.name,
                "check": evidence_status.check_words(row, tz, never=t.NEVER_CHECKED_ADMIN),
                "share": t.answered_share(row.share.percent, row.share.sent),
                "confirmed": row.check is not None and row.check.confirmed_at is not None,
            }
            for row in found
        ]
    }
