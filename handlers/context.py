"""What every handler receives besides its command, and what it gives back."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from handlers.deployment import Deployment
from scheduler.core.texts import times
from storage.records import Effect, UserRecord


@dataclass(frozen=True, kw_only=True, slots=True)
class Context:
    """One inbound message's circumstances.

    `now` is the server clock (UTC); `occurred_at` is when the user sent the message
    (WeCom's CreateTime clamped to a sane window), which is when a check-in happened.
    `source_key` is the message's idempotency key, stamped on every record it makes.
    """

    user: UserRecord
    tz: ZoneInfo
    now: dt.datetime
    occurred_at: dt.datetime
    source_key: str
    deployment: Deployment
    """What the conversation knows of the deployment (`handlers.deployment`): its
    pages' address, its channels, its keys; read as `ctx.deployment.web.public_url`."""
    is_admin: bool = False

    @property
    def today(self) -> dt.date:
        """The user's local date."""
        return self.now.astimezone(self.tz).date()

    def local_midnight(self, day: dt.date) -> dt.datetime:
        """The UTC instant at which `day` starts in the user's zone."""
        return dt.datetime.combine(day, dt.time(), self.tz).astimezone(dt.UTC)

    def local(self, day: dt.date, at: dt.time) -> dt.datetime:
        """A local wall-clock time on `day`, as a UTC instant."""
        return dt.datetime.combine(day, at, self.tz).astimezone(dt.UTC)

    def when(self, at: dt.datetime) -> str:
        """An instant named for a reply, in the user's zone: "12:00", "明天 08:00"."""
        return times.when(at, now_utc=self.now, tz=self.tz)


@dataclass(frozen=True, kw_only=True, slots=True)
class Outcome:
    """A handler's result: the reply text and the record made (for `撤销`), if any."""

    reply: str
    effect: Effect | None = None
    retry_reply: str | None = None
    """What a retried callback of the same message gets instead of `reply`, when the
    reply must not be stored (it holds a one-time link); None: `reply` itself."""
