"""Handlers for the user's reminders as a whole: the list (提醒), custom reminders,
one rule by number, all at once (关闭 提醒 / 开启 提醒), digests, quiet time, cards.

Rules change only through `services.rules` (water's through
`services.water`); these handlers turn words into those calls and back.

Decisions: 暂停/恢复/删除 提醒 N on the water rule act on the water plan (删除 is
refused: 关闭 喝水 turns it off); digests cannot be deleted, only switched off.
关闭 提醒 pauses the water plan too and 开启 提醒 resumes it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

import handlers.nag
import services.nag
import services.rules
import services.water
from handlers import texts
from handlers.commands import (
    AddReminder,
    ChangeRule,
    EndQuiet,
    SetCards,
    SetDigest,
    SetQuiet,
    ShowReminders,
    SwitchAllReminders,
)
from handlers.context import Context, Outcome
from handlers.naming import named
from handlers.router import Router
from scheduler.core import nag, quiet, rule_kinds
from scheduler.core import water_plan as wp
from scheduler.core.reminder_rules import DEFAULT_DIGEST_TIMES, DIGESTS, digest_time, review_time
from scheduler.core.schedule import Schedule, next_after
from scheduler.core.texts import messages
from scheduler.core.texts.failure_words import failure_words
from scheduler.core.texts.schedule import describe
from storage.database import Session
from storage.records import RuleRecord
from storage.repos import job_claims, rules, sent_or_missed, tasks, users, water
from storage.vocabulary import DeliveryPolicy, PlanState, RuleKind, RuleStatus, TaskStatus

router = Router("reminders")


@router.handles(ShowReminders)
async def show_reminders(session: Session, ctx: Context, cmd: ShowReminders) -> Outcome:
    lines = [
        await _line(session, ctx, rule)
        for rule in await rules.listed(session, ctx.user.id)
        if await _still_relevant(session, rule)
    ]
    if ctx.user.quiet_until and ctx.user.quiet_until > ctx.now:
        lines.append(texts.quiet_line(ctx.when(ctx.user.quiet_until)))
    lines += await _failures(session, ctx)
    if not lines:
        return Outcome(reply=texts.NO_RULES)
    return Outcome(reply=texts.rules_list(lines))


FAILURES_SHOWN_FOR = dt.timedelta(days=7)


async def _failures(session: Session, ctx: Context) -> list[str]:
    """Reminders that did not reach the user stay listed, with why, until the rule is
    sent successfully, paused or deleted, or for a week (a one-off has nothing else
    to wait for)."""
    failed = await sent_or_missed.unresolved_failures(
        session, ctx.user.id, ctx.now - FAILURES_SHOWN_FOR
    )
    return [
        texts.failed_reminder_line(
            messages.Lost(
                label=f"{ctx.when(f.slot)} {f.label}".strip(),
                how=f.status,
                why=failure_words(f.note),
            )
        )
        for f in failed
    ]


async def _still_relevant(session: Session, rule: RuleRecord) -> bool:
    """A done task's reminder waits to be suppressed at send time (so 撤销 can bring it
    back); it is not worth a line in the list meanwhile."""
    if rule.kind != RuleKind.TASK_DUE or rule.ref_id is None:
        return True
    task = await tasks.get(session, rule.ref_id)
    return task is not None and task.status == TaskStatus.OPEN


async def _line(session: Session, ctx: Context, rule: RuleRecord) -> str:
    assert rule.number is not None
    if rule.status == RuleStatus.ERROR:  # its spec may be what broke: only its words are safe
        return texts.set_aside_rule_line(
            rule.number, rule.kind, rule.label, deletable=_deletable(rule)
        )
    state = texts.RULE_STATE_NAMES.get(rule.status, rule.status)
    label = rule.label
    if rule.kind == RuleKind.WATER:
        plan = await water.plan_of(session, ctx.user.id)
        state = texts.WATER_STATE.get(plan.state if plan else PlanState.DISABLED, state)
        habit = await water.habit(session, ctx.user.id)
        label = texts.water_habit(habit.wake_at, habit.sleep_at, habit.interval_minutes, habit.goal)
    elif rule.kind in DIGESTS:
        label = rule.spec
    elif rule.kind == RuleKind.WEEKLY_REVIEW:
        label = texts.review_when(*review_time(rule.spec))
    elif rule.kind == RuleKind.CUSTOM:
        label = f"{describe(Schedule.from_json(rule.spec))} {rule.label}"
        label += texts.IMPORTANT_MARK if rule.policy == DeliveryPolicy.AT_LEAST_ONCE else ""
    elif rule.kind == RuleKind.NAG:
        spec = services.nag.spec_of(rule)  # a malformed one is set aside, not a crash
        every = nag.DEFAULT_EVERY if spec is None else spec.every
        label = texts.nag_rule_label(rule.label, every)
    next_at = rule.next_fire_at
    if rule.status == RuleStatus.ACTIVE and next_at is None and rule_kinds.row(rule.kind).runs_out:
        next_at = await job_claims.waiting_slot(session, rule.id)  # made early, not yet sent
    shown = _when_or_none(next_at, ctx) if rule.status == RuleStatus.ACTIVE else None
    return texts.rule_line(rule.number, rule.kind, label, state, shown)


@router.handles(AddReminder)
async def add_reminder(session: Session, ctx: Context, cmd: AddReminder) -> Outcome:
    if cmd.until_done is not None:
        return await handlers.nag.add_nag(session, ctx, cmd)
    if next_after(cmd.schedule, ctx.now, ctx.tz) is None:
        return Outcome(reply=texts.REMINDER_HAS_NO_TIME)
    rule = await services.rules.add_custom(
        session,
        ctx.user.id,
        title=cmd.title,
        schedule=cmd.schedule,
        important=cmd.important,
        tz=ctx.tz,
        now=ctx.now,
    )
    assert rule.number is not None
    assert rule.next_fire_at is not None
    reply = texts.reminder_added(
        rule.number,
        cmd.title,
        describe(cmd.schedule),
        ctx.when(rule.next_fire_at),
        cmd.important,
    )
    return Outcome(reply=reply)


@router.handles(ChangeRule)
async def change_rule(session: Session, ctx: Context, cmd: ChangeRule) -> Outcome:
    if cmd.title_ref is not None:
        named = await _rule_named(session, ctx, cmd.title_ref)
        if isinstance(named, str):
            return Outcome(reply=named)
        cmd = dataclasses.replace(cmd, number=named, title_ref=None)
    rule = await rules.by_number(session, ctx.user.id, cmd.number)
    if rule is None:
        return Outcome(reply=texts.rule_not_found(cmd.number))
    if cmd.verb == "delete" and not _deletable(rule):
        return Outcome(reply=texts.NOT_DELETABLE[rule.kind])
    if rule.kind == RuleKind.WATER:
        return await _water_rule(session, ctx, cmd)
    if cmd.verb == "delete":
        if not await services.rules.delete(session, rule, ctx.now):
            return Outcome(reply=texts.rule_not_found(cmd.number))
        return Outcome(reply=texts.rule_changed(cmd.number, "delete", None))
    if rule.status == RuleStatus.ERROR:
        return Outcome(reply=texts.set_aside_only_delete(cmd.number, deletable=_deletable(rule)))
    if (cmd.verb == "pause") == (rule.status != RuleStatus.ACTIVE):
        return Outcome(reply=texts.RULE_ALREADY[cmd.verb])
    if cmd.verb == "pause":
        if not await services.rules.pause(session, rule, ctx.now):
            return Outcome(reply=texts.rule_not_found(cmd.number))
        return Outcome(reply=texts.rule_changed(cmd.number, "pause", None))
    resumed = await services.rules.resume(session, rule, ctx.tz, ctx.now)
    found = await rules.get(session, rule.id)
    next_at = found.next_fire_at if resumed and found else None
    return Outcome(reply=texts.rule_changed(cmd.number, "resume", _when_or_none(next_at, ctx)))


async def _rule_named(session: Session, ctx: Context, title: str) -> int | str:
    """The number of the one listed rule that `title` names (`把吃药那个提醒删了`;
    `handlers.naming`: `交养老保险的提醒` finds 养老保险), or the reply saying there is
    none or which ones match."""
    listed = [rule for rule in await rules.listed(session, ctx.user.id) if rule.number is not None]
    found = named(listed, title, lambda rule: rule.label)
    if not found:
        return texts.rule_title_not_found(title)
    if len(found) > 1:
        shown = [(r.number or 0, _label_with_next(r, ctx)) for r in found]
        return texts.rule_title_ambiguous(title, shown)
    assert found[0].number is not None
    return found[0].number


def _label_with_next(rule: RuleRecord, ctx: Context) -> str:
    """The label, with the next time when there is one (`texts.label_with_next`)."""
    if rule.next_fire_at is None:
        return rule.label
    return texts.label_with_next(rule.label, ctx.when(rule.next_fire_at))


def _deletable(rule: RuleRecord) -> bool:
    """删除 提醒 N refuses water, digests and the weekly review: their rows are not
    `deletable` (they are switched off instead)."""
    return rule_kinds.row(rule.kind).deletable


async def _water_rule(session: Session, ctx: Context, cmd: ChangeRule) -> Outcome:
    """Pause or resume the water plan (deleting it was refused before)."""
    event = await _water_switch(session, ctx, on=cmd.verb == "resume")
    if event is None:
        return Outcome(reply=texts.RULE_ALREADY[cmd.verb])
    if cmd.verb == "pause":
        return Outcome(reply=texts.WATER_PAUSED)
    return Outcome(reply=texts.water_resumed(_when_or_none(event.next_at, ctx) or ""))


async def _water_switch(session: Session, ctx: Context, *, on: bool) -> wp.Event | None:
    """Pause or resume the water plan; the event applied, or None if it was refused."""
    record = await water.plan_of(session, ctx.user.id, lock=True)
    if record is None:
        return None
    loaded = await services.water.load(session, record)
    event = wp.PAUSE
    if on:
        next_at = await services.water.next_time(session, ctx.user.id, ctx.now, ctx.now)
        event = wp.Event(kind=wp.EventKind.RESUME, request_id=ctx.source_key, next_at=next_at)
    result = await services.water.act(session, loaded, event, ctx.now)
    return None if isinstance(result, wp.Refused) else event


@router.handles(SwitchAllReminders)
async def switch_all(session: Session, ctx: Context, cmd: SwitchAllReminders) -> Outcome:
    """关闭 提醒: every active rule `off` (and the water plan paused); 开启 提醒: back."""
    on, off = RuleStatus.ACTIVE, RuleStatus.OFF
    from_status, to_status = (off, on) if cmd.on else (on, off)
    found = [
        r
        for r in await rules.of_user(session, ctx.user.id)
        if r.status == from_status and rule_kinds.row(r.kind).switched_by_all
    ]
    count = 0
    for rule in found:
        if cmd.on:
            count += await services.rules.resume(session, rule, ctx.tz, ctx.now)
        else:
            count += await services.rules.pause(session, rule, ctx.now, to=to_status)
    count += await _water_switch(session, ctx, on=cmd.on) is not None
    return Outcome(reply=texts.all_switched(cmd.on, count))


@router.handles(SetDigest)
async def set_digest(session: Session, ctx: Context, cmd: SetDigest) -> Outcome:
    at = None
    if cmd.on:
        current = await rules.of_user(session, ctx.user.id, cmd.kind)
        default = DEFAULT_DIGEST_TIMES[cmd.kind]
        at = cmd.at or (digest_time(current[0]) if current else default)
    await services.rules.set_digest(session, ctx.user.id, cmd.kind, at, ctx.tz, ctx.now)
    return Outcome(reply=texts.digest_set(cmd.kind, at.strftime("%H:%M") if at else None))


@router.handles(SetQuiet)
async def set_quiet(session: Session, ctx: Context, cmd: SetQuiet) -> Outcome:
    try:
        until = quiet.quiet_end(
            ctx.now, minutes=cmd.minutes, until_local=cmd.until_local, tz=ctx.tz
        )
    except ValueError:
        return Outcome(reply=texts.QUIET_IN_THE_PAST)
    await users.update_user(session, ctx.user.id, quiet_until=until)
    return Outcome(reply=texts.quiet_set(ctx.when(until)))


@router.handles(EndQuiet)
async def end_quiet(session: Session, ctx: Context, cmd: EndQuiet) -> Outcome:
    if ctx.user.quiet_until is None or ctx.user.quiet_until <= ctx.now:
        return Outcome(reply=texts.QUIET_NOT_SET)
    await users.update_user(session, ctx.user.id, quiet_until=None)
    return Outcome(reply=texts.QUIET_ENDED)


@router.handles(SetCards)
async def set_cards(session: Session, ctx: Context, cmd: SetCards) -> Outcome:
    await users.update_user(session, ctx.user.id, cards=int(cmd.on))
    return Outcome(reply=texts.cards_set(cmd.on))


def _when_or_none(at: dt.datetime | None, ctx: Context) -> str | None:
    return None if at is None else ctx.when(at)
