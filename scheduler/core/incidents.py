"""Admin incidents: the pure state machine (what the admins are told: `texts.incidents`).

An incident is one thing that broke (a channel held after a configuration error, the
scheduler stopped, a verified backup overdue), stored in the `incidents` table with
its kind and subject (the channel's name, "scheduler", "backup"). The admins are told
once when it opens and once when it heals, never on every failure in between:

| state | event | next | action |
|---|---|---|---|
| (none) | seen | open | alert |
| open | seen | open | alert (the first alert found no road: try again) |
| alerted | seen | alerted | refresh (last_seen_at, detail) |
| open | healed | closed | none (nobody was told, nobody needs the all-clear) |
| alerted | healed | recovered | tell_recovery |
| recovered / closed | seen | (a new incident) | alert |
| recovered / closed | healed | same | none |

`open` means the alert is not queued yet (no road to the admins: the only road is
the broken one); `alerted` means the alert job was queued (the job then has its own
fate, recorded like any other); `recovered` means the all-clear was queued.
The words (the alert and the all-clear) are `scheduler.core.texts.incidents`.
The shell (`services.alerts`) applies a step under the incident's row lock, with a
conditional UPDATE, so two workers seeing the same failure queue one alert.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

__all__ = [
    "Action",
    "AlertRoute",
    "Event",
    "State",
    "Step",
    "outbound_ip",
    "state_of",
    "step",
]


class State(StrEnum):
    NONE = "none"
    OPEN = "open"
    ALERTED = "alerted"
    RECOVERED = "recovered"
    CLOSED = "closed"


class Event(StrEnum):
    SEEN = "seen"
    HEALED = "healed"


class Action(StrEnum):
    ALERT = "alert"
    REFRESH = "refresh"
    TELL_RECOVERY = "tell_recovery"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class Step:
    state: State
    action: Action


TRANSITIONS: Final[dict[tuple[State, Event], Step]] = {
    (State.NONE, Event.SEEN): Step(State.ALERTED, Action.ALERT),
    (State.OPEN, Event.SEEN): Step(State.ALERTED, Action.ALERT),
    (State.ALERTED, Event.SEEN): Step(State.ALERTED, Action.REFRESH),
    (State.OPEN, Event.HEALED): Step(State.CLOSED, Action.NONE),
    (State.ALERTED, Event.HEALED): Step(State.RECOVERED, Action.TELL_RECOVERY),
    (State.RECOVERED, Event.SEEN): Step(State.ALERTED, Action.ALERT),
    (State.CLOSED, Event.SEEN): Step(State.ALERTED, Action.ALERT),
    (State.RECOVERED, Event.HEALED): Step(State.RECOVERED, Action.NONE),
    (State.CLOSED, Event.HEALED): Step(State.CLOSED, Action.NONE),
    (State.NONE, Event.HEALED): Step(State.NONE, Action.NONE),
}
"""Every transition, in one place (the module table). An ALERT whose queueing finds
no road leaves the incident `open` (the shell does not stamp `alerted_at`)."""


def step(state: State, event: Event) -> Step:
    """The next state and what to do; total over `State` x `Event`."""
    return TRANSITIONS[(state, event)]


def state_of(
    *, alerted_at: dt.datetime | None, resolved_at: dt.datetime | None, told: dt.datetime | None
) -> State:
    """An incident row's state from its timestamps (None row: `State.NONE`)."""
    if resolved_at is None:
        return State.OPEN if alerted_at is None else State.ALERTED
    return State.RECOVERED if told is not None else State.CLOSED


_FROM_IP = re.compile(r"from ip:\s*([0-9A-Fa-f.:]+)")


def outbound_ip(errmsg: str) -> str | None:
    """The caller's address WeCom reports in an errmsg ("..., from ip: 1.2.3.4, ...")."""
    match = _FROM_IP.search(errmsg)
    return match.group(1).rstrip(".,") if match else None


@dataclass(frozen=True, kw_only=True, slots=True)
class AlertRoute:
    """How the admins are told: through `channel`, as jobs of the admin `owner`'s
    (a WeCom UserID: the users row the jobs belong to), to each of `recipients` (the
    channel's own target: the robot's @-mention, a WxPusher UID, the admins' UserIDs
    for the WeCom app). `fallback`: no `KEEPER_ALERT_CHANNEL` was set, so this is the
    WeCom app, which cannot tell about its own hold (管理 状态 says so)."""

    channel: str
    owner: str
    recipients: tuple[str, ...]
    timezone: str
    fallback: bool = False

    def reaches_around(self, subject: str) -> bool:
        """Whether this road is not the broken one."""
        return self.channel != subject
