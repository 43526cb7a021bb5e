"""Per channel, what keeper knows of reaching the phone: the last device check and the
share of reminders answered in the last 30 days (`scheduler.core.evidence`).

One reading (`rows`) for every view that shows it: 设置 渠道 (the user's own),
管理 状态, the admin page (`bot.web.evidence_view`) and `keeper doctor` (everyone's).
A channel never checked says so and says how to check it. Nothing here calls an
accepted send "delivered": the share counts answers, the only receipt there is.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection
from dataclasses import dataclass
from zoneinfo import ZoneInfo

import services.evidence
from handlers.texts import channel_tests as t
from handlers.texts.channels import NAMES
from scheduler.core.evidence import CheckState, Share, check_state
from scheduler.core.fallback import WECOM_APP
from storage.database import Session
from storage.records import DeviceCheckRecord


@dataclass(frozen=True, kw_only=True, slots=True)
class ChannelEvidence:
    """One channel's figures: its last device check (the latest confirmed one, else
    the latest asked for; None: never tested) and its answered share."""

    channel: str
    name: str
    check: DeviceCheckRecord | None
    state: CheckState | None
    """The check as of the reading: confirmed, still waiting, or expired unconfirmed."""
    share: Share


def _last(checks: Collection[DeviceCheckRecord]) -> DeviceCheckRecord | None:
    confirmed = [c for c in checks if c.confirmed_at is not None]
    pool = confirmed or list(checks)
    if not pool:
        return None
    return max(pool, key=lambda c: (c.confirmed_at or c.sent_at, c.id))


async def rows(
    session: Session, now: dt.datetime, channels: Collection[str], *, user_id: int | None = None
) -> list[ChannelEvidence]:
    """The figures of `channels` and of any other channel with figures, in that order
    (of one user, or of everyone)."""
    found = await services.evidence.per_channel(session, now, user_id=user_id)
    first = sorted(channels, key=lambda c: (c != WECOM_APP, c))  # the WeCom app first
    ordered = list(dict.fromkeys([*first, *sorted(found)]))
    result = []
    for channel in ordered:
        checks, share = found.get(channel, ({}, Share(sent=0, answered=0)))
        last = _last(checks.values())
        state = None if last is None else check_state(last.sent_at, last.confirmed_at, now)
        name = NAMES.get(channel, channel)
        result.append(
            ChannelEvidence(channel=channel, name=name, check=last, state=state, share=share)
        )
    return result


def check_words(row: ChannelEvidence, tz: ZoneInfo, *, never: str = t.NEVER_CHECKED) -> str:
    """The device check in words; `never`: what a channel never checked says (how to
    check it, for whoever reads it)."""
    if row.check is None:
        return never
    if row.check.confirmed_at is not None:
        return t.checked_at(row.check.confirmed_at, tz)
    if row.state is CheckState.WAITING:
        return t.check_waiting(row.check.sent_at, tz)
    return t.unconfirmed(row.check.sent_at, tz)


def line(row: ChannelEvidence, tz: ZoneInfo, *, never: str = t.NEVER_CHECKED) -> str:
    """One channel's line: `· WxPusher：…确认收到过测试；近 30 天回复了 40% 的提醒`."""
    share = t.answered_share(row.share.percent, row.share.sent)
    return t.evidence_line(row.name, check_words(row, tz, never=never), share)


async def admin_lines(
    session: Session, now: dt.datetime, channels: Collection[str], tz: ZoneInfo
) -> list[str]:
    """管理 状态's block: a heading, then one line per channel."""
    found = await rows(session, now, channels)
    return [t.EVIDENCE_HEAD] + [line(r, tz, never=t.NEVER_CHECKED_ADMIN) for r in found]
