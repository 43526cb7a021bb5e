"""Where the tick notices incidents: a channel's configuration error opens (or
refreshes) its hold incident, and an accepted send on a held channel heals it.

Called from each delivery flush, inside its transaction, so the incident, its alert
job and the attempts that revealed it commit together. The cost on the hot path: a
flush without a configuration error or an accepted send on a held channel writes
nothing here, and the set of held channels is read at most once per
`INCIDENTS_REREAD` (a hold another worker opened is noticed within that).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable

from sqlalchemy.exc import DBAPIError

from scheduler.core.channel import SendResult
from scheduler.runtime import INCIDENTS_REREAD, Scheduler
from services import alerts
from storage.database import Session
from storage.repos import incidents
from storage.retry import is_retryable
from storage.vocabulary import AttemptOutcome, ErrorClass, IncidentKind

log = logging.getLogger(__name__)

HOLD = IncidentKind.CHANNEL_HOLD


async def after_sends(
    s: Scheduler, session: Session, sent: Iterable[tuple[str, SendResult]], now: dt.datetime
) -> None:
    """Record the holds these sends revealed, heal the held channels that took one.

    In a savepoint: a failure here (a bug, a lock wait) is logged and undone alone,
    never costing the flush that finalises the sends; a deadlock, which ends the
    whole transaction, goes up so the flush is retried as usual."""
    broken: dict[str, SendResult] = {}
    working: set[str] = set()
    for channel, result in sent:
        if result.error_class == ErrorClass.CONFIG:
            broken.setdefault(channel, result)
        elif result.outcome == AttemptOutcome.ACCEPTED:
            working.add(channel)
    working -= broken.keys()
    healed = working & await _held(s, session, now) if working else set()
    if not broken and not healed:
        return  # the usual flush: no statement at all, or one read a minute
    try:
        async with session.begin_nested():
            await _record(s, session, broken, healed, now)
    except DBAPIError as exc:
        if is_retryable(exc):
            raise
        log.exception("incident not recorded", extra={"channels": ",".join(broken)})
    except Exception:
        log.exception("incident not recorded", extra={"channels": ",".join(broken)})


async def _record(
    s: Scheduler,
    session: Session,
    broken: dict[str, SendResult],
    healed: set[str],
    now: dt.datetime,
) -> None:
    for channel, result in broken.items():
        await alerts.failure_seen(
            session,
            s.alerts,
            HOLD,
            channel,
            code=result.provider_code,
            detail=result.error,
            now=now,
        )
        s.open_holds.channels.add(channel)
    for channel in healed:
        await alerts.healed(session, s.alerts, HOLD, channel, now=now)
        s.open_holds.channels.discard(channel)


async def _held(s: Scheduler, session: Session, now: dt.datetime) -> set[str]:
    """The channels with an open hold incident, re-read when this copy is stale."""
    copy = s.open_holds
    if copy.read_at is None or now - copy.read_at >= INCIDENTS_REREAD:
        copy.channels = await incidents.open_subjects(session, HOLD)
        copy.read_at = now
    return copy.channels
