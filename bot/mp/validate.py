"""The mini-program API's request bodies -> frozen commands, or a `Bad`. Pure, no I/O.

Every check the contract names lives here, so a route only parses, calls the
service and renders. `now` is passed in (the skew check), never read.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from handlers import texts
from handlers.parse.settings import GOAL_RANGE, INTERVAL_RANGE
from storage.vocabulary import GrantResult

AHEAD = dt.timedelta(minutes=10)
BEHIND = dt.timedelta(hours=48)
"""How far `occurred_at` may be from the server clock (the contract's sane skew)."""

ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
"""A client id (request_id, action_id): a uuid, with or without dashes."""
RESULTS = tuple(GrantResult)
STATUSES = (*RESULTS, "skipped")
HM = re.compile(r"([01]\d|2[0-3]):([0-5]\d)")


class Bad(Exception):
    """A refused request: the contract's error code and the sentence for the user."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(code)
        self.code, self.message = code, message


@dataclass(frozen=True, kw_only=True, slots=True)
class GrantAnswer:
    request_id: str
    result: GrantResult


@dataclass(frozen=True, kw_only=True, slots=True)
class Action:
    action_id: str
    grant_request_id: str | None
    subscription_status: str
    occurred_at: dt.datetime
    current_count: int
    daily_goal: int


@dataclass(frozen=True, kw_only=True, slots=True)
class PlanChange:
    action: Literal["enable", "close", "update"]
    interval_minutes: int | None = None
    wake: dt.time | None = None
    sleep: dt.time | None = None
    daily_goal: int | None = None


def js_code(body: object) -> str:
    value = _obj(body).get("js_code")
    if not isinstance(value, str) or not value.strip() or len(value) > 128:
        raise Bad("bad_request")
    return value.strip()


def link_code(body: object) -> str:
    value = _obj(body).get("code")
    if not isinstance(value, str) or not re.fullmatch(r"\d{6}", value):
        raise Bad("link_code_invalid")
    return value


def grant(body: object, template_id: str) -> GrantAnswer:
    data = _obj(body)
    result = data.get("result")
    if data.get("template_id") != template_id or result not in RESULTS:
        raise Bad("bad_request")
    chosen: GrantResult = result
    return GrantAnswer(request_id=_id(data.get("request_id")), result=chosen)


def action(body: object) -> Action:
    """The action's shape only; `occurred` checks its time, for new actions alone (a
    replay of a recorded one is answered whatever its age by now)."""
    data = _obj(body)
    grant_id = data.get("grant_request_id")
    status = data.get("subscription_status")
    if status not in STATUSES or (grant_id is None) != (status == "skipped"):
        raise Bad("bad_request")
    return Action(
        action_id=_id(data.get("action_id")),
        grant_request_id=None if grant_id is None else _id(grant_id),
        subscription_status=str(status),
        occurred_at=_instant(data.get("occurred_at")),
        current_count=_count(data.get("current_count"), 0, 1000),
        daily_goal=_count(data.get("daily_goal"), 0, 1000),
    )


def digest(action: Action) -> str:
    """The SHA-256 of the action's canonical form: every field, the time as a UTC
    instant. Two bodies that say the same thing (the same instant written in another
    offset, keys in another order) have one digest; any other count, goal, time,
    grant or status gives another, and a replay with it is a conflict."""
    canonical = [
        action.action_id,
        action.grant_request_id,
        action.subscription_status,
        action.occurred_at.astimezone(dt.UTC).isoformat(),
        action.current_count,
        action.daily_goal,
    ]
    return hashlib.sha256(json.dumps(canonical).encode()).hexdigest()


def occurred(action: Action, now: dt.datetime) -> None:
    """A new action's `occurred_at` within the sane skew of the server clock."""
    if not now - BEHIND <= action.occurred_at <= now + AHEAD:
        raise Bad("occurred_at_out_of_range")


def plan(body: object) -> PlanChange:
    data = _obj(body)
    kind = data.get("action")
    if kind not in ("enable", "close", "update"):
        raise Bad("bad_request")
    interval = _setting(data, "interval_minutes", INTERVAL_RANGE, texts.INTERVAL_HINT)
    goal = _setting(data, "daily_goal", GOAL_RANGE, texts.GOAL_HINT)
    wake, sleep = _time(data, "wake"), _time(data, "sleep")
    if (wake is None) != (sleep is None):
        raise Bad("bad_request", texts.WINDOW_HINT)
    if wake is not None and sleep is not None and wake >= sleep:
        raise Bad("bad_request", texts.WINDOW_ORDER)
    if kind == "update" and interval is None and goal is None and wake is None:
        raise Bad("bad_request")
    return PlanChange(
        action=kind, interval_minutes=interval, wake=wake, sleep=sleep, daily_goal=goal
    )


def _obj(body: object) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise Bad("bad_request")
    return body


def _id(value: object) -> str:
    if not isinstance(value, str) or not ID.fullmatch(value):
        raise Bad("bad_request")
    return value


def _count(value: object, lo: int, hi: int) -> int:
    if type(value) is not int or not lo <= value <= hi:
        raise Bad("bad_request")
    return value


def _instant(value: object) -> dt.datetime:
    if not isinstance(value, str) or len(value) > 40:
        raise Bad("bad_request")
    try:
        parsed = dt.datetime.fromisoformat(value)
    except ValueError:
        raise Bad("bad_request") from None
    if parsed.tzinfo is None:
        raise Bad("bad_request")
    try:  # 0001-01-01T00:00+01:00 is a year 0 in UTC: no datetime holds it
        return parsed.astimezone(dt.UTC)
    except OverflowError:
        raise Bad("bad_request") from None


def _setting(data: dict[str, Any], name: str, bounds: tuple[int, int], hint: str) -> int | None:
    value = data.get(name)
    if value is None:
        return None
    if type(value) is not int or not bounds[0] <= value <= bounds[1]:
        raise Bad("bad_request", hint)
    return value


def _time(data: dict[str, Any], name: str) -> dt.time | None:
    value = data.get(name)
    if value is None:
        return None
    match = HM.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        raise Bad("bad_request", texts.WINDOW_HINT)
    return dt.time(int(match[1]), int(match[2]))
