"""Which messages answer a reminder, so its delivery is raised to `received`.

An answer is evidence that the reminder reached the person (`scheduler.core.evidence`);
which delivery it means is `services.evidence`'s rule. This table says which commands
are answers, and to what kind of reminder: a water check-in or the water card's 稍后
answers the latest water reminder, a task's 完成 or 明天再说 (typed, or its card
button) the latest task reminder. A nag's answer (`收到`, the card's 知道了) is noted by
its own handler (`handlers.nag`), which knows the nag it answered and whether the
`收到` confirmed a channel test instead.
"""

from __future__ import annotations

import services.evidence
from handlers.commands import CheckInWater, Command, CompleteTask, PostponeTask, SnoozeWater
from handlers.context import Context
from storage.database import Session
from storage.vocabulary import RuleKind

ANSWERS: dict[type, tuple[RuleKind, ...]] = {
    CheckInWater: (RuleKind.WATER,),
    SnoozeWater: (RuleKind.WATER,),
    CompleteTask: (RuleKind.TASK_DUE,),
    PostponeTask: (RuleKind.TASK_DUE,),
}
"""Command -> the kinds of reminder it answers."""


async def note(session: Session, ctx: Context, command: Command) -> None:
    """Raise the evidence of the reminder `command` answers, if it answers one (a
    water correction, `喝水 -1`, answers nothing)."""
    kinds = ANSWERS.get(type(command))
    if kinds is None or (isinstance(command, CheckInWater) and command.glasses <= 0):
        return
    await services.evidence.note_answer(session, ctx.user.id, now=ctx.now, kinds=kinds)
