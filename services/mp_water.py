"""The water mini-program's writes: login, subscribe answers, glasses, the plan.

The mini-program's reminders travel as one-time subscribe messages: WeChat lets us
send one message per `accept`, and says nothing about what is left (PROVIDERS §5).
So for a mini-program user the plan's grant (DESIGN §6) is an accepted subscribe
request, never a glass alone:

- `answer`: an `accept` while the plan is enabled and holds no available grant
  (awaiting_checkin, paused, or sending: parked until the send settles) is a check-in
  whose request key is `mp:<openid>:<request_id>`: the machine makes it the grant.
  An accept while one is available (or the plan is off) is kept as an answer only: the
  plan holds one grant at most, and the unused WeChat quota harms nothing.
  `reject` / `ban` pause a running plan whose newest grant came through the
  mini-program (a linked member's plan granted in chat keeps its WeCom reminders:
  refusing subscribe messages says nothing about them); `filter` changes nothing.
- A replay with another body (the same `action_id` with another count or time, the
  same grant `request_id` with another result) changes nothing and raises `Conflict`
  carrying the first one's answer: the caller says 409, never a silent 200.
- `record` then `settle`: the glass is written first, keyed
  `mp:<openid>:glass:<action_id>`, with the action's row (unique per openid), in a
  transaction of its own; then a `scheduled` plan books its next time from
  `occurred_at`, and the answer is stored for replays. An action's
  `subscription_status` is never taken as a grant: only `/water/grants` (which checks
  the template) makes one, so a refused grant cannot come back through its action.
- `change_plan("enable")`, always: the machine's `enable` would grant on the user's
  word alone, which WeChat does not honour (an accept kept from before is not reused:
  it was taken, or dropped, when it arrived). So the plan is enabled and at once
  paused (two legal steps of the machine): enabled, holding no grant, `needs_grant`
  true; the next accept posted to `/water/grants` moves it paused -> scheduled.
- Which door a reminder takes follows its grant (`WaterKind.materialise`): a grant
  keyed `mp:` leaves as a subscribe message, any other (a chat message) through the
  WeCom app. That is "the door the last grant came through", and never a send the
  grant does not cover.
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
from dataclasses import asdict, dataclass
from typing import Protocol
from zoneinfo import ZoneInfo

import services.water
from scheduler.core import water_plan as wp
from storage.database import Session
from storage.repos import mp, reads, records, rules, water
from storage.repos.users import ensure_and_lock_user
from storage.vocabulary import GrantResult, PlanState

MP_PREFIX = "mp:"
_RUNNING = (PlanState.SCHEDULED, PlanState.SENDING, PlanState.AWAITING_CHECKIN)
_NEEDS = (PlanState.AWAITING_CHECKIN, PlanState.PAUSED, PlanState.SENDING)


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


class Conflict(Exception):
    """A request id came back with another body. Nothing was changed; `answer` is what
    the first one was answered ("" when there is none to repeat: a grant's answer is
    the status now, and an action not yet settled has none)."""

    def __init__(self, answer: str) -> None:
        super().__init__("the same id with another body")
        self.answer = answer


def grant_key(openid: str, request_id: str) -> str:
    """The `water_grants.request_key` of an accepted subscribe request."""
    return f"{MP_PREFIX}{openid}:{request_id}"


def glass_key(openid: str, action_id: str) -> str:
    """The source key of an action's glass (and its check-in): per openid, as the
    action ids are."""
    return f"{MP_PREFIX}{openid}:glass:{action_id}"


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
    due = rule.next_fire_at if rule is not None and plan.state is PlanState.SCHEDULED else None
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
    """Record one subscribe answer and let the plan take it (once: a retry does nothing;
    the same `request_id` with another result raises `Conflict`)."""
    fresh = await mp.add_answer(
        session, openid=openid, request_id=request_id, result=result, user_id=user_id, now=now
    )
    if fresh:
        await _take(session, user_id, grant_key(openid, request_id), result, now)
    elif await mp.answer_of(session, openid, request_id) != result:
        raise Conflict("")


async def _take(session: Session, user_id: int, key: str, result: str, now: dt.datetime) -> None:
    loaded = await loaded_plan(session, user_id, now)
    state = loaded.plan.state
    if result == GrantResult.ACCEPT and state in _NEEDS:
        next_at = await services.water.next_time(session, user_id, now, now)
        event = wp.Event(kind=wp.EventKind.CHECKIN, request_id=key, next_at=next_at)
        await services.water.act(session, loaded, event, now)
    elif result in (GrantResult.REJECT, GrantResult.BAN) and state in _RUNNING:
        if not await mp.last_grant_from_mp(session, user_id):
            return  # a linked member's chat-granted plan: WeChat's no is not about it
        await services.water.act(session, loaded, wp.PAUSE, now)


async def record(
    session: Session,
    user_id: int,
    openid: str,
    action: ActionLike,
    now: dt.datetime,
    *,
    digest: str,
) -> str:
    """First, and in a transaction of its own: the action's row and its glass.

    Returns "" for an action not yet settled (new, or whose settling failed before),
    the stored answer for one already answered. So a failure on the reminder side
    (the plan) can never take the glass with it: the replay finds it and settles it
    again. Action ids are the openid's own (unique per openid), so another client's
    id never touches this one's glass. `digest` names the request's body: a replay
    whose digest differs from the first one's raises `Conflict` (rows stored before
    there were digests take any body, as they always did).
    """
    if await mp.claim_action(
        session, action_id=action.action_id, openid=openid, user_id=user_id, now=now, digest=digest
    ):
        source = glass_key(openid, action.action_id)
        await records.add_water(
            session, user_id=user_id, glasses=1, occurred_at=action.occurred_at, source_key=source
        )
        return ""
    first = await mp.stored_action(session, openid, action.action_id)
    if first is not None and first.digest not in (None, digest):
        raise Conflict(first.answer)
    return first.answer if first is not None else ""


async def known(session: Session, openid: str, action_id: str) -> bool:
    """Whether this openid's action is already recorded (a replay: its glass counted,
    so it is answered whatever its `occurred_at` says by now)."""
    return await mp.action_answer(session, openid, action_id) is not None


async def settle(
    session: Session,
    user_id: int,
    openid: str,
    action: ActionLike,
    now: dt.datetime,
    template_id: str,
) -> str:
    """Then: the plan takes the action (a scheduled plan books its next time from
    `occurred_at`) and the answer is stored. The caller holds the user's row, so a
    racing copy that got here second finds the answer the first stored and returns it
    unchanged. The action's `subscription_status` is never taken as an answer: only
    `/water/grants` checks the template, and a grant it refused must not come back
    through the action (the client posts grant before action, so an accept it made
    is already recorded)."""
    stored = await mp.action_answer(session, openid, action.action_id)
    if stored:
        return stored
    loaded = await loaded_plan(session, user_id, now)
    if loaded.plan.state is PlanState.SCHEDULED:
        source = glass_key(openid, action.action_id)
        next_at = await services.water.next_time(session, user_id, action.occurred_at, now)
        if next_at <= now:  # a glass replayed hours late: the user is here now
            next_at = await services.water.next_time(session, user_id, now, now)
        event = wp.Event(kind=wp.EventKind.CHECKIN, request_id=source, next_at=next_at)
        await services.water.act(session, loaded, event, now)
    reply = (await status(session, user_id, now, template_id)).as_json()
    await mp.set_action_answer(session, openid, action.action_id, reply)
    return reply


class ActionLike(Protocol):
    """What `record` and `settle` read of a validated action (`bot.mp.validate.Action` has it)."""

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
    loaded = await loaded_plan(session, user_id, now)
    if kind == "close":
        await services.water.act(session, loaded, wp.CLOSE, now)
    elif kind == "enable" and loaded.plan.state is PlanState.DISABLED:
        next_at = await services.water.next_time(session, user_id, now, now)
        # Random, not the time: two enables in one instant (close in between) must not
        # share a key, or the second one's grant is ignored and the plan holds none.
        key = f"{MP_PREFIX}enable:{user_id}:{secrets.token_hex(8)}"
        result = await services.water.act(
            session,
            loaded,
            wp.Event(kind=wp.EventKind.ENABLE, request_id=key, next_at=next_at),
            now,
        )
        if isinstance(result, wp.Applied):  # no accept behind it: wait for one, paused
            again = await loaded_plan(session, user_id, now)
            await services.water.act(session, again, wp.PAUSE, now)


async def loaded_plan(session: Session, user_id: int, now: dt.datetime) -> services.water.Loaded:
    record = await services.water.ensure(session, user_id, now)
    return await services.water.load(session, record)
