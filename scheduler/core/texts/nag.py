"""The words of a nag's messages (直到完成); `scheduler.core.nag` decides which repeat
goes out, this module what it says. The messages carry no count (see there why)."""

from __future__ import annotations

from scheduler.core.nag import Repeat
from scheduler.core.texts.messages import REMINDER_TITLE_MAX_CHARS, clip_title

_FIRST = "⏰ 提醒：{title}（{hint}）"
_AGAIN = "⏰ 再次提醒：{title}（{hint}）"
_HINT = "回复「收到」就不再提醒"
_TASK_HINT = "做完回复「完成」"
_LAST = "⏰ 最后一次提醒：{title}，之后不再提醒"
CARD_TITLE = "⏰ 提醒"


def text(title: str, repeat: Repeat, *, task: bool = False) -> str:
    """The words of one message of the nag (`task`: a task's, answered by 完成)."""
    title = clip_title(title, REMINDER_TITLE_MAX_CHARS)
    hint = _TASK_HINT if task else _HINT
    if repeat.last and repeat.index > 0:
        return _LAST.format(title=title)
    if repeat.index == 0:
        return _FIRST.format(title=title, hint=hint)
    return _AGAIN.format(title=title, hint=hint)
