"""撤销: reverse the user's latest record, and the reminder that came with it.

What is reversed, and how, is `services.undo`; this handler only answers.
"""

from __future__ import annotations

import services.undo
from handlers import texts
from handlers.commands import Undo
from handlers.context import Context, Outcome
from handlers.router import Router
from storage.database import Session

router = Router("undo")


@router.handles(Undo)
async def undo(session: Session, ctx: Context, cmd: Undo) -> Outcome:
    """Reverse the user's latest not-yet-undone record; repeated 撤销 walks back further."""
    undone = await services.undo.undo_last(session, ctx.user.id, tz=ctx.tz, now=ctx.now)
    if undone is None:
        return Outcome(reply=texts.NOTHING_TO_UNDO)
    if undone.reopened is not None:
        task = undone.reopened
        return Outcome(reply=texts.task_reopened(task.number, task.title))
    return Outcome(reply=texts.undone(undone.kind, undone.content))
