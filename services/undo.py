"""撤销: reverse the user's latest record, and the reminders that came with it, in the
caller's transaction. The conversation (`handlers/undo.py`) only answers.

Repeated 撤销 walks back further: each one takes the latest message whose effect is
not undone yet (`inbound.last_undoable`) and marks it undone. What is reversed
depends on the effect:

- a task done or cancelled: the task reopens, and is reminded again as a reopened
  task is (`services.nag.reschedule_task`);
- a task added: the task is deleted, with its due reminder and its nag (直到完成);
- any other record (a weight, water, money, an event, a journal entry): the record
  is deleted, and an event's reminder with it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

import services.nag
import services.rules
from storage.database import Session
from storage.records import TaskRecord
from storage.repos import inbound, records, tasks
from storage.vocabulary import EffectKind, RuleKind

__all__ = ["Undone", "undo_last"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Undone:
    """What 撤销 reversed: the message's kind and content, and the task it reopened
    (None when it reopened none)."""

    kind: str
    content: str
    reopened: TaskRecord | None = None


async def undo_last(
    session: Session, user_id: int, *, tz: ZoneInfo, now: dt.datetime
) -> Undone | None:
    """Reverse the user's latest not-yet-undone record; None: nothing left to undo."""
    last = await inbound.last_undoable(session, user_id)
    if last is None:
        return None
    kind, record_id = last.effect.kind, last.effect.record_id
    await inbound.mark_undone(session, last.message_id, now=now)
    reopened = None
    if kind in (EffectKind.TASK_DONE, EffectKind.TASK_CANCEL):
        reopened = await tasks.reopen_task(session, record_id, user_id)
        if reopened is not None:
            await services.nag.reschedule_task(session, user_id, reopened, tz, now)
    elif kind == EffectKind.TASK_ADD:
        await tasks.delete_task(session, record_id, user_id)
        await services.rules.cancel_for(session, RuleKind.TASK_DUE, record_id, now)
        await services.rules.cancel_for(session, RuleKind.NAG, record_id, now)  # 直到完成
    else:
        await records.delete_record(session, kind=kind, record_id=record_id, user_id=user_id)
        if kind == EffectKind.EVENT:
            await services.rules.cancel_for(session, RuleKind.EVENT_REMINDER, record_id, now)
    return Undone(kind=last.kind, content=last.content, reopened=reopened)
