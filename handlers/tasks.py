"""Handlers for tasks: add, complete, cancel, postpone, list.

A task with a due time gets a reminder 30 minutes before (`services.rules`). Completing
it leaves the reminder alone: the tick re-checks the task at send time and suppresses
it, so `撤销` of a 完成 brings the reminder back with the task.

A task made with 直到完成 is nagged from its due time instead (`services.nag`):
completing or cancelling it ends the nag, and 明天再说, the review's move and `撤销`
of a 完成 start it over at the (new) due time while that is still ahead
(`services.nag.reschedule_task`, the one place that chooses between a nag and the
30-minute reminder).
"""

from __future__ import annotations

import datetime as dt

import handlers.events
import services.nag
import services.rules
from handlers import texts
from handlers.commands import AddTask, CancelTask, CompleteTask, PostponeTask, ShowTasks, TaskRef
from handlers.context import Context, Outcome
from handlers.naming import named
from handlers.router import Router
from scheduler.core import nag
from scheduler.core.reminder_rules import task_due_at
from storage.database import Session
from storage.records import Effect, TaskRecord
from storage.repos import tasks
from storage.vocabulary import EffectKind, TaskStatus

router = Router("tasks")


@router.handles(AddTask)
async def add_task(session: Session, ctx: Context, cmd: AddTask) -> Outcome:
    if cmd.until_done is not None:
        return await _add_task_nag(session, ctx, cmd)
    task = await _new_task(session, ctx, cmd)
    due = texts.task_due_label(cmd.due_date, cmd.due_time, ctx.today)
    assert task.number is not None
    remind_at = await services.rules.schedule_task(session, ctx.user.id, task, ctx.tz, ctx.now)
    remind = ctx.when(remind_at) if remind_at else None
    return Outcome(
        reply=texts.task_added(task.number, task.title, due, remind),
        effect=Effect(kind=EffectKind.TASK_ADD, record_id=task.id),
    )


async def _new_task(session: Session, ctx: Context, cmd: AddTask) -> TaskRecord:
    """The task row itself, the same whether it is reminded once or nagged."""
    return await tasks.add_task(
        session,
        user_id=ctx.user.id,
        title=cmd.title,
        due_date=cmd.due_date,
        due_time=cmd.due_time,
        now=ctx.now,
        source_key=ctx.source_key,
    )


async def _add_task_nag(session: Session, ctx: Context, cmd: AddTask) -> Outcome:
    """`任务 明天 9:00 交材料 直到完成`: the task, nagged from its due time until it is
    done (instead of the one reminder 30 minutes before). Nothing is saved when that
    time has passed."""
    assert cmd.until_done is not None
    start = task_due_at(cmd.due_date, cmd.due_time, ctx.tz)  # the parser made sure of both
    if start is None or start <= ctx.now:
        return Outcome(reply=texts.TASK_NAG_IN_THE_PAST)
    task = await _new_task(session, ctx, cmd)
    spec = nag.NagSpec(start=start, every=cmd.until_done.every, cap=cmd.until_done.cap)
    await services.nag.add(
        session,
        ctx.user.id,
        title=cmd.title,
        spec=spec,
        important=False,
        now=ctx.now,
        task_id=task.id,
    )
    assert task.number is not None
    reply = texts.task_nag_added(task.number, task.title, ctx.when(start), spec.every, spec.cap)
    return Outcome(reply=reply, effect=Effect(kind=EffectKind.TASK_ADD, record_id=task.id))


@router.handles(CompleteTask)
async def complete_task(session: Session, ctx: Context, cmd: CompleteTask) -> Outcome:
    return await _close(session, ctx, await _resolve(session, ctx.user.id, cmd.ref), done=True)


@router.handles(CancelTask)
async def cancel_task(session: Session, ctx: Context, cmd: CancelTask) -> Outcome:
    """`体测取消了`: the open task named so; when there is none, the one upcoming event
    whose title holds the words (a thing called off is a task or an event, and the
    words alone do not say which), else the task's own "not found"."""
    found = await _resolve(session, ctx.user.id, cmd.ref)
    by_title = cmd.ref.number is None and cmd.ref.task_id is None and cmd.ref.title is not None
    if by_title and isinstance(found, str):
        event = await handlers.events.named_event(session, ctx, cmd.ref.title or "")
        if event is not None:
            return await handlers.events.cancel(session, ctx, event)
    return await _close(session, ctx, found, done=False)


async def _close(session: Session, ctx: Context, found: TaskRecord | str, *, done: bool) -> Outcome:
    """Close the task `_resolve` found (or answer with why there is none)."""
    if isinstance(found, str):
        return Outcome(reply=found)
    status = TaskStatus.DONE if done else TaskStatus.CANCELLED
    await tasks.close_task(session, found.id, status=status, now=ctx.now)
    left = len(await tasks.open_tasks(session, ctx.user.id))
    kind = EffectKind.TASK_DONE if done else EffectKind.TASK_CANCEL
    reply = texts.task_closed(found.title, done, left)
    if await services.nag.stop_for_task(session, found.id, ctx.now):
        reply += f"\n{texts.NAG_STOPPED_TOO}"
    return Outcome(
        reply=reply,
        effect=Effect(kind=kind, record_id=found.id),
    )


async def _resolve(session: Session, user_id: int, ref: TaskRef) -> TaskRecord | str:
    """The one open task `ref` names, or the reply explaining why there is none."""
    if ref.task_id is not None:  # a card button: the row itself, if it is still open
        task = await tasks.get(session, ref.task_id)
        mine = task is not None and await tasks.owner_of(session, ref.task_id) == user_id
        if task is None or not mine or task.status != TaskStatus.OPEN:
            return texts.TASK_ALREADY_CLOSED
        return task
    if ref.number is not None:
        task = await tasks.find_open_by_number(session, user_id, ref.number)
        return task or texts.task_not_found(ref.number, None)
    title = ref.title or ""
    matches = named(await tasks.open_tasks(session, user_id), title, lambda task: task.title)
    if len(matches) == 1:
        return matches[0]
    if not matches:
        return texts.task_not_found(None, title)
    return texts.task_ambiguous(title, [(t.number, t.title) for t in matches])


@router.handles(PostponeTask)
async def postpone_task(session: Session, ctx: Context, cmd: PostponeTask) -> Outcome:
    """明天再说: due tomorrow (same time), and its reminder moves with it."""
    found = await _resolve(session, ctx.user.id, cmd.ref)
    if isinstance(found, str):
        return Outcome(reply=found)
    tomorrow = ctx.today + dt.timedelta(days=1)
    await tasks.set_due(session, found.id, due_date=tomorrow)
    moved = await tasks.get(session, found.id)
    assert moved is not None
    await services.nag.reschedule_task(session, ctx.user.id, moved, ctx.tz, ctx.now)
    due = texts.task_due_label(tomorrow, moved.due_time, ctx.today) or ""
    return Outcome(reply=texts.task_postponed(moved.number, moved.title, due))


@router.handles(ShowTasks)
async def show_tasks(session: Session, ctx: Context, cmd: ShowTasks) -> Outcome:
    open_tasks = await tasks.open_tasks(session, ctx.user.id)
    rows = [
        (t.number, t.title, texts.task_due_label(t.due_date, t.due_time, ctx.today))
        for t in open_tasks
    ]
    return Outcome(reply=texts.tasks_view(rows))
