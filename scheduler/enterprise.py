"""Reserving a batch's WeCom calls in the enterprise budget every worker shares.

The arithmetic is `scheduler.channels.enterprise_budget` (pure); the counters are
`storage.repos.api_budget`. One reservation per API per batch, inside the batch's
prepare transaction: lock the counted buckets, grant what fits (high priority first),
add it. What is not granted waits until the budget frees.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from scheduler.channels.enterprise_budget import (
    MESSAGE_SEND,
    UPDATE_CARD,
    EnterpriseLimits,
    grant,
)
from storage.database import Session
from storage.repos import api_budget
from storage.vocabulary import Priority

RANK: dict[str, int] = {Priority.HIGH: 0, Priority.NORMAL: 1, Priority.LOW: 2}


@dataclass(frozen=True, kw_only=True, slots=True)
class Wanted:
    """One call the batch wants to make: on which channel, a card update or a
    message, at which priority."""

    channel: str
    update: bool
    priority: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Plan:
    """`granted`: indices of the wanted calls that may go, high priority first;
    `waiting`: the others, with when to try again; `start_by`: the granted sends must
    start by then (the windows' slack), None when nothing was reserved."""

    granted: list[int]
    waiting: dict[int, dt.datetime]
    start_by: dt.datetime | None


async def reserve(
    session: Session, limits: EnterpriseLimits, wanted: list[Wanted], now: dt.datetime
) -> Plan:
    """Reserve the calls of `wanted` that fit; see `Plan`. Calls on other channels
    than `limits.channel` are not counted here (they pass)."""
    order = sorted(range(len(wanted)), key=lambda i: RANK.get(wanted[i].priority, 2))
    waiting: dict[int, dt.datetime] = {}
    start_by: dt.datetime | None = None
    for api, update in ((MESSAGE_SEND, False), (UPDATE_CARD, True)):
        asked = [
            i for i in order if wanted[i].channel == limits.channel and wanted[i].update is update
        ]
        if not asked:
            continue
        windows = limits.windows(api)
        counted = {w.name: w.counted(now) for w in windows}
        used = await api_budget.lock_usage(session, api, counted)
        decision = grant(windows, used, [wanted[i].priority for i in asked], now)
        current = [(w.name, w.bucket(now)) for w in windows]
        await api_budget.add_usage(session, api, current, decision.granted)
        for i in asked[decision.granted :]:
            waiting[i] = decision.retry_at or now
        start_by = now + min(w.slack for w in windows)
    granted = [i for i in order if i not in waiting]
    return Plan(granted=granted, waiting=waiting, start_by=start_by)
