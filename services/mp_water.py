"""The water mini-program's writes: login, subscribe answers, glasses, the plan, linking.

The mini-program's reminders travel as one-time subscribe messages: WeChat lets us
send one message per `accept`, and says nothing about what is left (PROVIDERS §5).
So for a mini-program user the plan's grant (DESIGN §6) is an accepted subscribe
request, never a glass alone:

- `answer`: an `accept` while the plan is enabled and holds no available grant
  (awaiting_checkin, paused, or sending: parked until the send settles) is a check-in
  whose request key is `mp:<openid>:<request_id>`: the machine makes it the grant.
  An accept while one is available (or the plan is off) is kept as an answer only: the
  plan holds one grant at most, and the unused WeChat quota harms nothing.
  `reject` / `ban` pause a running plan; `filter` changes nothing.
- `record` then `settle`: the glass is written first, keyed `mp:<action_id>`, with
  the action's row, in a transaction of its own; then, if its grant's answer never
  arrived, that answer is taken, a `scheduled` plan books its next time from
  `occurred_at`, and the answer is stored for replays. A glass without a grant never
  makes one, so an mp user's plan cannot hold a grant WeChat would refuse (43101).
- `change_plan("enable")` with no unused accept: the machine's `enable` would grant
  on the user's word alone, which WeChat does not honour. So the plan is enabled and
  at once paused (two legal steps of the machine): enabled, holding no grant, and
  `needs_grant` is true; the next accepted glass moves it paused -> scheduled.
- Which door a reminder takes follows its grant (`WaterKind.materialise`): a grant
  keyed `mp:` leaves as a subscribe message, any other (a chat message) through the
  WeCom app. That is "the door the last grant came through", and never a send the
  grant does not cover.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Protocol
from zoneinfo import ZoneInfo

import services.water
from scheduler import water_plan as wp
from storage.database import Session
from storage.repos import mp, reads, records, rules, water
from storage.repos.users import ensure_and_lock_user

LINK_TTL = dt.timedelta(minutes=10)
LINK_MAX_FAILURES = 5
LINK_LOCKOUT = dt.timedelta(hours=1)
"""Five wrong codes in an hour lock an openid's /link for the rest of the hour:
1e6 codes, so guessing one is hopeless (and every openid costs a WeChat login)."""
MP_PREFIX = "mp:"
_RUNNING = (wp.PlanState.SCHEDULED, wp.PlanState.SENDING, wp.PlanState.AWAITING_CHECKIN)
_NEEDS = (wp.PlanState.AWAITING_CHECKIN, wp.PlanState.PAUSED, wp.PlanState.SENDING)


@dataclass(frozen=True, kw_only=True, slots=True)
class Status:
    """The contract's status object, in its field order."""

    state: str
    needs_grant: bool
    next_due_at: str | None
    today_count: int
    daily_goal: int
    interval_minutes: int
    wake: str
    sleep: str
    template_id: str

    def as_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)


def grant_key(openid: str, request_id: str) -> str:
    """The `water_grants.request_key` of an accepted subscribe request."""
    return f"{MP_PREFIX}{openid}:{request_id}"


async def login(session: Session, openid: str, timezone: str, now: dt.datetime) -> int:
    """The keeper user the openid acts as; a new mini-program-only user at first login."""
    found = await mp.identity(session, openid)
    if found is not None:
        return found.user_id
    user = await ensure_and_lock_user(session, MP_PREFIX + openid, timezone=timezone, now=now)
    await mp.add_identity(session, openid=openid, user_id=user.id, now=now)
    found = await mp.identity(session, openid)
    assert found is not None
    return found.user_id


async def status(session: Session, user_id: int, now: dt.datetime, template_id: str) -> Status:
    """The plan as the client shows it; `needs_grant` decided here, never by the client:
    true when the plan is on (not disabled) and holds no available grant, except
    while a sending plan has an accept parked (it becomes the grant when the send
    settles, so asking again would waste the user's tap)."""
    habit = await water.habit(session, user_id)
    tz = ZoneInfo(habit.timezone)
    record = await water.plan_of(session, user_id)
    loaded = None if record is None else await services.water.load(session, record)
    plan = loaded.plan if loaded is not None else wp.Plan()
    rule = None if record is None else await rules.get(session, record.rule_id)
    due = rule.next_fire_at if rule is not None and plan.state is wp.PlanState.SCHEDULED else None
    start = dt.datetime.combine(now.astimezone(tz).date(), dt.time(), tz)
    today = await reads.water_total(session, user_id, start, start + dt.timedelta(days=1))
    return Status(
        state=plan.state.value,
        needs_grant=plan.state in _NEEDS and plan.parked is None,
        next_due_at=None if due is None else due.astimezone(tz).isoformat(),
        today_count=today,
        daily_goal=habit.goal,
        interval_minutes=habit.interval_minutes,
        wake=habit.wake_at.strftime("%H:%M"),
        sleep=habit.sleep_at.strftime("%H:%M"),
        template_id=template_id,
    )


async def answer(
    session: Session, user_id: int, openid: str, request_id: str, result: str, now: dt.datetime
) -> None:
    """Record one subscribe answer and let the plan take it (once: a retry does nothing)."""
    fresh = await mp.add_answer(
        session, openid=openid, request_id=request_id, result=result, user_id=user_id, now=now
    )
    if fresh:
        await _take(session, user_id, grant_key(openid, request_id), result, now)


async def _take(session: Session, user_id: int, key: str, result: str, now: dt.datetime) -> None:
    loaded = await _loaded(session, user_id, now)
    state = loaded.plan.state
    if result == "accept" and state in _NEEDS:
        next_at = await services.water.next_time(session, user_id, now, now)
        event = wp.Event(kind=wp.EventKind.CHECKIN, request_id=key, next_at=next_at)
        await services.water.act(session, loaded, event, now)
    elif result in ("reject", "ban") and state in _RUNNING:
        await services.water.act(session, loaded, wp.PAUSE, now)


async def act(
    session: Session,
    user_id: int,
    openid: str,
    action: ActionLike,
    now: dt.datetime,
    template_id: str,
) -> str | None:
    """`record` and `settle` in the caller's one transaction (see them)."""
    stored = await record(session, user_id, openid, action, now)
    if stored is None or stored:
        return stored
    return await settle(session, user_id, openid, action, now, template_id)


async def record(
    session: Session, user_id: int, openid: str, action: ActionLike, now: dt.datetime
) -> str | None:
    """First, and in a transaction of its own: the action's row and its glass.

    Returns "" for an action not yet settled (new, or whose settling failed before),
    the stored answer for one already answered, None when the action_id belongs to
    another openid (a client bug). So a failure on the reminder side (the plan) can
    never take the glass with it: the replay finds it and settles it again.
    """
    if await mp.claim_action(
        session, action_id=action.action_id, openid=openid, user_id=user_id, now=now
    ):
        source = f"{MP_PREFIX}{action.action_id}"
        await records.add_water(
            session, user_id=user_id, glasses=1, occurred_at=action.occurred_at, source_key=source
        )
        return ""
    stored = await mp.action_answer(session, action.action_id)
    return None if stored is None or stored[0] != openid else stored[1]


async def settle(
    session: Session,
    user_id: int,
    openid: str,
    action: ActionLike,
    now: dt.datetime,
    template_id: str,
) -> str:
    """Then: the plan takes the action (its grant's answer if it never arrived, and a
    scheduled plan's next time from `occurred_at`) and the answer is stored. The
    caller holds the user's row, so a racing copy that got here second finds the
    answer the first stored and returns it unchanged."""
    stored = await mp.action_answer(session, action.action_id)
    if stored is not None and stored[1]:
        return stored[1]
    if action.grant_request_id is not None and action.subscription_status != "skipped":
        await answer(
            session, user_id, openid, action.grant_request_id, action.subscription_status, now
        )
    loaded = await _loaded(session, user_id, now)
    if loaded.plan.state is wp.PlanState.SCHEDULED:
        source = f"{MP_PREFIX}{action.action_id}"
        next_at = await services.water.next_time(session, user_id, action.occurred_at, now)
        event = wp.Event(kind=wp.EventKind.CHECKIN, request_id=source, next_at=next_at)
        await services.water.act(session, loaded, event, now)
    reply = (await status(session, user_id, now, template_id)).as_json()
    await mp.set_action_answer(session, action.action_id, reply)
    return reply


class ActionLike(Protocol):
    """What `act` reads of a validated action (`bot.mp.validate.Action` has it)."""

    @property
    def action_id(self) -> str: ...
    @property
    def grant_request_id(self) -> str | None: ...
    @property
    def subscription_status(self) -> str: ...
    @property
    def occurred_at(self) -> dt.datetime: ...


async def change_plan(
    session: Session,
    user_id: int,
    kind: str,
    now: dt.datetime,
    habit: dict[str, object],
) -> None:
    """enable / close / update the plan; `habit` holds the day window, interval, goal
    changes (applied first, so an enable books with the new values)."""
    if habit:
        await water.set_habit(session, user_id, **habit)
    loaded = await _loaded(session, user_id, now)
    if kind == "close":
        await services.water.act(session, loaded, wp.CLOSE, now)
    elif kind == "enable" and loaded.plan.state is wp.PlanState.DISABLED:
        next_at = await services.water.next_time(session, user_id, now, now)
        key = f"{MP_PREFIX}enable:{user_id}:{now.timestamp():.6f}"
        result = await services.water.act(
            session,
            loaded,
            wp.Event(kind=wp.EventKind.ENABLE, request_id=key, next_at=next_at),
            now,
        )
        if isinstance(result, wp.Applied):  # no accept behind it: wait for one, paused
            again = await _loaded(session, user_id, now)
            await services.water.act(session, again, wp.PAUSE, now)


async def _loaded(session: Session, user_id: int, now: dt.datetime) -> services.water.Loaded:
    record = await services.water.ensure(session, user_id, now)
    return await services.water.load(session, record)


def code_hash(code: str) -> str:
    """A link code as stored: its SHA-256 (as `web_links` keeps its tokens). Six digits
    are few, so the hash alone would not hide one from someone holding the table; what
    protects a code is that it lives ten minutes, works once, and `/link` locks an
    openid after five wrong tries."""
    return hashlib.sha256(code.encode()).hexdigest()


def _draw() -> str:
    return f"{secrets.randbelow(10**6):06d}"


async def new_link_code(
    session: Session, user_id: int, now: dt.datetime, draw: Callable[[], str] = _draw
) -> str:
    """A fresh 6-digit code for the member, good once and for `LINK_TTL`."""
    for _ in range(10):
        code = draw()
        if await mp.replace_link_code(
            session,
            user_id=user_id,
            code_hash=code_hash(code),
            now=now,
            expires_at=now + LINK_TTL,
        ):
            return code
    raise RuntimeError("no free link code after 10 draws")


async def link(session: Session, openid: str, code: str, now: dt.datetime) -> int | str:
    """Link the openid to the member whose code this is: the member's user id, or the
    contract's error code (`rate_limited`, `already_linked`, `link_code_invalid`; a
    wrong code's count is written, so the caller commits either way).

    The mini-program-only user's glasses move to the member (so 今天 counts both
    doors), and its own plan is closed (grants invalid, pending jobs cancelled): the
    member's plan is the one that runs, and asks for a subscription on the next glass.
    """
    found = await mp.identity(session, openid)
    if found is None:
        return "unauthorized"
    if found.linked:
        return "already_linked"
    recent = found.link_failed_at is not None and now - found.link_failed_at < LINK_LOCKOUT
    failures = found.link_failures if recent else 0
    if failures >= LINK_MAX_FAILURES:
        return "rate_limited"
    member = await mp.use_link_code(session, code_hash(code), now)
    if member is None:
        await mp.note_link_failure(session, openid, failures + 1, now)
        return "link_code_invalid"
    own = await _loaded(session, found.own_user_id, now)
    await services.water.act(session, own, wp.CLOSE, now)  # refused when already off
    await mp.move_water(session, found.own_user_id, member)
    await mp.link(session, openid, member, now)
    return member
