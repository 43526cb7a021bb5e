"""Handlers for the weekly review (issue 14): 周报, its timing, budgets, the weight goal,
and carrying out the review's one suggestion after a `好`.

「周报」 in chat reviews the 7 days ending today (on the review day itself that is
the week the push was about) and keeps its suggestion, if any, for a `好` within
24 hours (`handlers.confirm`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal

import services.nag
import services.review
import services.rules
from handlers import confirm, texts
from handlers.commands import (
    AddTask,
    CancelBudget,
    Command,
    MoveTasks,
    SetBudget,
    SetGoalWeight,
    SetReview,
    ShowBudgets,
    ShowReview,
)
from handlers.context import Context, Outcome
from handlers.router import Router
from scheduler.core import review
from scheduler.core.reminder_rules import REVIEW_DEFAULT, review_time
from scheduler.core.texts import review_text, times
from storage.database import Session
from storage.repos import budgets, reads, rules, tasks
from storage.vocabulary import LedgerDirection, RuleKind, TaskStatus

router = Router("review")


@router.handles(ShowReview)
async def show_review(session: Session, ctx: Context, cmd: ShowReview) -> Outcome:
    found = await services.review.build(session, ctx.user.id, ctx.today, ctx.tz)
    if found.suggestion is not None:
        await confirm.suggest(session, ctx, as_command(found.suggestion))
    return Outcome(reply=review_text.full(found))


def as_command(suggestion: review.Suggestion) -> Command:
    """The command a `好` to the review's suggestion runs."""
    if isinstance(suggestion, review.SuggestBudget):
        return SetBudget(category=suggestion.category, amount=suggestion.amount)
    if isinstance(suggestion, review.SuggestTask):
        return AddTask(title=suggestion.title, due_date=suggestion.due)
    return MoveTasks(task_ids=suggestion.task_ids, to=suggestion.to)


@router.handles(SetReview)
async def set_review(session: Session, ctx: Context, cmd: SetReview) -> Outcome:
    when: tuple[int, dt.time] | None = None
    if cmd.on:
        current = await rules.of_user(session, ctx.user.id, RuleKind.WEEKLY_REVIEW)
        when = REVIEW_DEFAULT if not current else review_time(current[0].spec)
        if cmd.weekday is not None and cmd.at is not None:
            when = (cmd.weekday, cmd.at)
    await services.rules.set_review(session, ctx.user.id, when, ctx.tz, ctx.now)
    return Outcome(reply=texts.review_set(texts.review_when(*when) if when else None))


@router.handles(SetBudget)
async def set_budget(session: Session, ctx: Context, cmd: SetBudget) -> Outcome:
    new = await budgets.set_budget(session, ctx.user.id, cmd.category, cmd.amount)
    spent = (await month_spent(session, ctx)).get(cmd.category, Decimal(0))
    return Outcome(
        reply=texts.budget_set(cmd.category, review.plain(cmd.amount), review.plain(spent), new)
    )


@router.handles(ShowBudgets)
async def show_budgets(session: Session, ctx: Context, cmd: ShowBudgets) -> Outcome:
    lines = await budget_lines(session, ctx)
    return Outcome(reply=texts.budgets_view(lines) if lines else texts.NO_BUDGETS)


async def budget_lines(session: Session, ctx: Context) -> list[str]:
    """This month's progress of each budget, the fullest first (also for 账单)."""
    have = {b.category: b.amount for b in await budgets.of_user(session, ctx.user.id)}
    progress = review.budget_progress(have, await month_spent(session, ctx))
    return [
        texts.budget_line(b.category, review.plain(b.spent), review.plain(b.budget), b.percent)
        for b in progress
    ]


async def month_spent(session: Session, ctx: Context) -> dict[str, Decimal]:
    """This local month's expenses per category, to now."""
    first = ctx.local_midnight(ctx.today.replace(day=1))
    spent: dict[str, Decimal] = {}
    for row in await reads.ledger_between(
        session, ctx.user.id, first, ctx.now + dt.timedelta(seconds=1)
    ):
        if row.direction == LedgerDirection.EXPENSE:
            spent[row.category] = spent.get(row.category, Decimal(0)) + row.amount
    return spent


@router.handles(CancelBudget)
async def cancel_budget(session: Session, ctx: Context, cmd: CancelBudget) -> Outcome:
    if not await budgets.delete_budget(session, ctx.user.id, cmd.category):
        return Outcome(reply=texts.budget_not_found(cmd.category))
    return Outcome(reply=texts.budget_cancelled(cmd.category))


@router.handles(SetGoalWeight)
async def set_goal_weight(session: Session, ctx: Context, cmd: SetGoalWeight) -> Outcome:
    if cmd.kg is None:
        if await budgets.goal_weight(session, ctx.user.id) is None:
            return Outcome(reply=texts.GOAL_NOT_SET)
        await budgets.set_goal_weight(session, ctx.user.id, None)
        return Outcome(reply=texts.GOAL_CLEARED)
    await budgets.set_goal_weight(session, ctx.user.id, cmd.kg)
    latest = await reads.latest_weight(session, ctx.user.id)
    distance = goal_distance(latest.value, cmd.kg) if latest else None
    return Outcome(reply=texts.goal_weight_set(review.plain(cmd.kg), distance))


def goal_distance(weight: Decimal, goal: Decimal) -> str:
    """How far the goal is, in kg to one decimal, unsigned (never a verdict)."""
    return review.plain(abs(goal - weight).quantize(Decimal("0.1")))


@router.handles(MoveTasks)
async def move_tasks(session: Session, ctx: Context, cmd: MoveTasks) -> Outcome:
    """The review's suggestion: the long-overdue tasks (still open, still the user's)
    move to `to`, and their reminders with them."""
    moved = 0
    for task_id in cmd.task_ids:
        task = await tasks.get(session, task_id)
        if (
            task is None
            or task.status != TaskStatus.OPEN
            or await tasks.owner_of(session, task_id) != ctx.user.id
        ):
            continue
        await tasks.set_due(session, task_id, due_date=cmd.to)
        moved_task = dataclasses.replace(task, due_date=cmd.to)  # open, so set_due applied
        await services.nag.reschedule_task(session, ctx.user.id, moved_task, ctx.tz, ctx.now)
        moved += 1
    if not moved:
        return Outcome(reply=texts.SUGGESTION_GONE)
    return Outcome(reply=texts.tasks_moved(moved, times.day_label(cmd.to, ctx.today), cmd.to))
