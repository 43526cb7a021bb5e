"""撤销: reverse the user's latest record, and the reminder that came with it."""

from __future__ import annotations

import services.nag
import services.rules
from handlers import texts
from handlers.commands import Undo
from handlers.context import Context, Outcome
from handlers.router import Router
from storage.database import Session
from storage.repos import inbound, records, tasks
from storage.vocabulary import EffectKind, RuleKind

router = Router("undo")


@router.handles(Undo)
async def undo(session: Session, ctx: Context, cmd: Undo) -> Outcome:
    """Reverse the user's latest not-yet-undone record; repeated 撤销 walks back further."""
    last = await inbound.last_undoable(session, ctx.user.id)
    if last is None:
        return Outcome(reply=texts.NOTHING_TO_UNDO)
    kind, record_id = last.effect.kind, last.effect.record_id
    await inbound.mark_undone(session, last.message_id, now=ctx.now)
    if kind in (EffectKind.TASK_DONE, EffectKind.TASK_CANCEL):
        task = await tasks.reopen_task(session, record_id, ctx.user.id)
        if task is not None:
            await services.nag.reschedule_task(session, ctx.user.id, task, ctx.tz, ctx.now)
            return Outcome(reply=texts.task_reopened(task.number, task.title))
    elif kind == EffectKind.TASK_ADD:
        await tasks.delete_task(session, record_id, ctx.user.id)
        await services.rules.cancel_for(session, RuleKind.TASK_DUE, record_id, ctx.now)
        await services.rules.cancel_for(session, RuleKind.NAG, record_id, ctx.now)  # 直到完成
    else:
        await records.delete_record(session, kind=kind, record_id=record_id, user_id=ctx.user.id)
        if kind == EffectKind.EVENT:
            await services.rules.cancel_for(session, RuleKind.EVENT_REMINDER, record_id, ctx.now)
    return Outcome(reply=texts.undone(last.kind, last.content))
