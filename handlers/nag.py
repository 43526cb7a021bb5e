"""Handlers for nags (`提醒 ... 直到完成`): making one, and the user's answer.

Nags change only through `services.nag`; the pure rules are `scheduler.core.nag`.

Decisions: a typed `收到` (or a bare `完成`) answers the nag whose message the user
saw last (`services.nag.last_sent`): both, when two left as one message (a bare
`完成` then asks which, if both are tasks). When the nag is a task's (`任务 ...
直到完成`), a bare `完成` completes that task while it is open, even after the nag ran
out or `收到` stopped it (every message said 做完回复「完成」), while `收到` only stops
the nagging and leaves the task open. A `收到` to a nag that has ended says so; a
done word there, or either word with no nag seen, keeps the meaning it had before
nags existed (`完成` asks which task, `收到` is not understood). A card's 知道了
answers its own nag, or says it had already stopped.

A bare `收到` while a channel test waits (`测试 渠道`): with no nag nagging it
confirms the test (`handlers.channel_tests.confirm_bare`); with one nagging it
answers the nag, as before, and says how to confirm the test (`收到 <渠道>`). Any
answer to a nag raises the evidence of that nag's latest message to `received`
(`services.evidence.note_answer`).
"""

from __future__ import annotations

import handlers.tasks
import services.evidence
import services.nag
from handlers import channel_tests, texts
from handlers.commands import AddReminder, AnswerNag, CompleteTask, TaskRef
from handlers.context import Context, Outcome
from handlers.router import Router
from scheduler.core import nag
from scheduler.core.schedule import next_after
from storage.database import Session
from storage.records import RuleRecord
from storage.repos import tasks
from storage.vocabulary import RuleStatus, TaskStatus

router = Router("nag")


async def add_nag(session: Session, ctx: Context, cmd: AddReminder) -> Outcome:
    """`提醒 明天 9:00 交材料 直到完成`: the first message at the reminder's time, then
    a repeat every N minutes until the answer or the cap. (Called by the AddReminder
    handler, which owns the command.)"""
    assert cmd.until_done is not None
    start = next_after(cmd.schedule, ctx.now, ctx.tz)  # the same reading as any reminder
    if start is None:
        return Outcome(reply=texts.REMINDER_HAS_NO_TIME)
    spec = nag.NagSpec(start=start, every=cmd.until_done.every, cap=cmd.until_done.cap)
    rule = await services.nag.add(
        session,
        ctx.user.id,
        title=cmd.title,
        spec=spec,
        important=cmd.important,
        now=ctx.now,
    )
    assert rule.number is not None
    reply = texts.nag_added(rule.number, cmd.title, ctx.when(start), spec.every, spec.cap)
    return Outcome(reply=reply)


@router.handles(AnswerNag)
async def answer_nag(session: Session, ctx: Context, cmd: AnswerNag) -> Outcome:
    if cmd.rule_id is not None:
        rule = await services.nag.of_card(session, ctx.user.id, cmd.rule_id)
        saw = [] if rule is None else [rule]
    else:
        saw = await services.nag.last_sent(session, ctx.user.id, ctx.now)
    nagging = [rule for rule in saw if rule.status == RuleStatus.ACTIVE]
    bare_ack = cmd.rule_id is None and cmd.word.startswith(texts.NAG_ACK)
    tested = await channel_tests.confirm_bare(session, ctx) if bare_ack and not nagging else None
    if tested is not None:
        return tested  # 收到 to a channel test, no nag waiting for it
    if saw:  # an answer about the nag's message: it reached the person
        rule_ids = [rule.id for rule in saw]
        await services.evidence.note_answer(session, ctx.user.id, now=ctx.now, rule_ids=rule_ids)
    outcome = await _answer(session, ctx, cmd, saw, nagging)
    note = await channel_tests.still_waiting_note(session, ctx) if bare_ack and nagging else None
    if note is not None:
        outcome = Outcome(reply=f"{outcome.reply}\n{note}", effect=outcome.effect)
    return outcome


async def _answer(
    session: Session, ctx: Context, cmd: AnswerNag, saw: list[RuleRecord], nagging: list[RuleRecord]
) -> Outcome:
    if cmd.word.startswith(texts.NAG_DONE_WORDS):
        # A task's nag (even one that ran out or was stopped by 收到): a bare 完成
        # completes the task it names while that task is open.
        tasks_seen = [rule.ref_id for rule in saw if rule.ref_id is not None]
        open_tasks = [task_id for task_id in tasks_seen if await _open(session, task_id)]
        if len(open_tasks) > 1:  # one message about two tasks: which is done?
            return Outcome(reply=texts.task_ref_missing(texts.COMPLETE))
        if open_tasks:  # a plain nag in the same message stops with it
            for rule in nagging:
                if rule.ref_id is None:
                    await services.nag.answer(session, rule, ctx.now)
            return await handlers.tasks.complete_task(
                session, ctx, CompleteTask(ref=TaskRef(task_id=open_tasks[0]))
            )
    elif saw and not nagging:  # 收到 to a message from a nag that ended
        return Outcome(reply=texts.NAG_ALREADY_OVER)
    stopped = [rule.label for rule in nagging if await services.nag.answer(session, rule, ctx.now)]
    if not stopped:
        return Outcome(reply=_without_nag(cmd))
    return Outcome(reply=texts.nag_answered(stopped))


async def _open(session: Session, task_id: int) -> bool:
    task = await tasks.get(session, task_id)
    return task is not None and task.status == TaskStatus.OPEN


def _without_nag(cmd: AnswerNag) -> str:
    """What the word says when no nag is nagging: what it said before nags existed."""
    if cmd.rule_id is not None:
        return texts.NAG_ALREADY_OVER
    if cmd.word.startswith(texts.COMPLETE):
        return texts.task_ref_missing(texts.COMPLETE)
    return texts.miss(cmd.word)
