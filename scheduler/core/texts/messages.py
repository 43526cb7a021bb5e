"""Every notification keeper sends on its own, in one module (replies live in
`handlers.texts`). Notifications never carry journal text or amounts: the functions
here take titles, times and counts only, so there is nothing else they could leak.

Everything is pure: plain values in, text out. Every text fits WeCom's 2048-byte limit
for a text message (`TEXT_MAX_BYTES`): titles are clipped, lists are capped.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from scheduler.core.texts.times import hm
from storage.vocabulary import JobStatus

WATER_REMINDER = "该喝水了 💧\n喝完回复「喝水」；想晚点再提醒，回复「稍后」。"
ADMIN_TEST = "keeper 测试消息：消息通道正常。"

# A template card carries its own buttons, so the card text says no reply words.
WATER_REMINDER_CARD = "该喝水了 💧"

TEXT_MAX_BYTES = 2048
"""WeCom's limit for one text message, in UTF-8 bytes; longer ones are refused."""

REMINDER_TITLE_MAX_CHARS = 200
"""A single reminder may show a long title; 200 CJK characters are 600 bytes."""

REPLY_REF_MAX_CHARS = 20
"""How much of a title a reply hint quotes; `完成 <words>` matches by containment."""

LATE_AFTER_MINUTES = 5
"""A notification this late (or later) says so; a few minutes of tick lag do not."""

MERGE_SEPARATOR = "\n———\n"
MISSED_MAX_LABELS = 5
_ELLIPSIS = "…"


def clip_title(title: str, max_chars: int) -> str:
    """A title on one line and at most `max_chars` characters (plus "…" when cut).

    Whitespace runs, newlines included, become one space, so a title cannot forge
    extra lines in a list.
    """
    flat = " ".join(title.split())
    return flat if len(flat) <= max_chars else flat[:max_chars] + _ELLIPSIS


def fit_bytes(text: str, limit: int = TEXT_MAX_BYTES) -> str:
    """`text` unchanged when it fits `limit` UTF-8 bytes, else cut at a character with "…".

    A last line of defence: callers cap their lists so this rarely cuts anything.
    """
    if len(text.encode()) <= limit:
        return text
    room = limit - len(_ELLIPSIS.encode())
    return text.encode()[:room].decode(errors="ignore") + _ELLIPSIS


def duration(minutes: int) -> str:
    """12 -> "12 分钟", 60 -> "1 小时", 65 -> "1 小时 5 分钟"."""
    hours, rest = divmod(minutes, 60)
    if not hours:
        return f"{rest} 分钟"
    return f"{hours} 小时" + (f" {rest} 分钟" if rest else "")


def event_reminder(title: str, start_local: dt.datetime, minutes_before: int) -> str:
    """ "⏰ 30 分钟后：14:00 复诊"; at the start itself "⏰ 现在：14:00 复诊"."""
    when = f"{duration(minutes_before)}后" if minutes_before > 0 else "现在"
    return f"⏰ {when}：{hm(start_local)} {clip_title(title, REMINDER_TITLE_MAX_CHARS)}"


def task_reminder(number: int | None, title: str, due_local: dt.datetime, *, cards: bool) -> str:
    """A task's due time has come; in text mode say how to answer it.

    Without a number the hint quotes the title's first words, which `完成` finds by
    containment. With cards the buttons do the answering, so no reply words.
    """
    which = f"待办 {number} " if number is not None else "待办"
    head = f"⏰ {which}到期：{hm(due_local)} {clip_title(title, REMINDER_TITLE_MAX_CHARS)}"
    if cards:
        return head
    ref = str(number) if number is not None else " ".join(title.split())[:REPLY_REF_MAX_CHARS]
    return f"{head}\n做完回复「完成 {ref}」，改到明天回复「明天再说 {ref}」"


def custom_reminder(title: str) -> str:
    """ "⏰ 提醒：吃药"."""
    return f"⏰ 提醒：{clip_title(title, REMINDER_TITLE_MAX_CHARS)}"


def water_reminder(*, cards: bool) -> str:
    """The water reminder; the card version leaves the reply words to its button."""
    return WATER_REMINDER_CARD if cards else WATER_REMINDER


def late_note(due_at: dt.datetime, now: dt.datetime) -> str | None:
    """ "（晚了 12 分钟）" when sent `LATE_AFTER_MINUTES` or more after `due_at`, else None.

    Honest timing: a reminder that went out late (a restart, a slow tick) says so,
    so "30 分钟后" is not taken at face value.

    Raises:
        ValueError: either datetime is naive.
    """
    if due_at.tzinfo is None or now.tzinfo is None:
        raise ValueError("naive datetime; pass aware ones")
    # In UTC: two datetimes sharing a tzinfo subtract by wall clock, wrong across DST.
    minutes = int((now.astimezone(dt.UTC) - due_at.astimezone(dt.UTC)).total_seconds() // 60)
    if minutes < LATE_AFTER_MINUTES:
        return None
    return f"（晚了 {duration(minutes)}）"


def merged(parts: list[str]) -> str:
    """Several notifications of one user as one message of at most `TEXT_MAX_BYTES`.

    Parts keep their order; the ones that do not fit are dropped from the end and
    counted ("……还有 N 条提醒。"). A first part too long on its own is cut.

    Raises:
        ValueError: no parts (nothing to send is the caller's decision, not ours).
    """
    if not parts:
        raise ValueError("nothing to merge")
    for keep in range(len(parts), 0, -1):
        text = MERGE_SEPARATOR.join(parts[:keep]) + _more(len(parts) - keep)
        if len(text.encode()) <= TEXT_MAX_BYTES:
            return text
    tail = _more(len(parts) - 1)
    return fit_bytes(parts[0], TEXT_MAX_BYTES - len(tail.encode())) + tail


def _more(left: int) -> str:
    return f"{MERGE_SEPARATOR}……还有 {left} 条提醒。" if left else ""


def missed_summary(labels: list[str]) -> str:
    """One line, added to the user's next message after an outage, naming what was missed.

    Missed notifications are not sent late (they expired); this line is the honest
    account. Labels are short ("22:00 吃药", "晨报"); at most `MISSED_MAX_LABELS` are named.

    Raises:
        ValueError: no labels.
    """
    if not labels:
        raise ValueError("nothing was missed")
    shown = "、".join(
        clip_title(label, REPLY_REF_MAX_CHARS) for label in labels[:MISSED_MAX_LABELS]
    )
    more = "等" if len(labels) > MISSED_MAX_LABELS else ""
    return f"有 {len(labels)} 条提醒过了时间没能发出：{shown}{more}。没有补发。"


@dataclass(frozen=True, kw_only=True, slots=True)
class Lost:
    """A reminder that did not reach the user: how (`expired`, `failed`, `unknown`),
    and for a failure, why in plain words (`scheduler.core.texts.failure_words`)."""

    label: str
    how: str
    why: str = ""


_HOW: dict[str, str] = {
    JobStatus.EXPIRED: "过了时间",
    JobStatus.FAILED: "发送失败",
    JobStatus.UNKNOWN: "不确定是否送到",
}


def lost_summary(items: list[Lost]) -> str:
    """One line for the user's next message naming every reminder that did not reach
    them since the last such line: expired ones (after an outage), failed ones (with
    the reason) and uncertain ones. None of them is sent again.

    Raises:
        ValueError: no items.
    """
    if all(item.how == JobStatus.EXPIRED for item in items):
        return missed_summary([item.label for item in items])
    shown = "、".join(
        f"{clip_title(item.label, REPLY_REF_MAX_CHARS)}（{_how(item)}）"
        for item in items[:MISSED_MAX_LABELS]
    )
    more = "等" if len(items) > MISSED_MAX_LABELS else ""
    return f"有 {len(items)} 条提醒没能送到：{shown}{more}。没有补发。"


def lost_line(item: Lost) -> str:
    """One reminder that did not arrive, as a list line: "13:30 复诊（发送失败：…）"."""
    return f"{clip_title(item.label, REPLY_REF_MAX_CHARS)}（{_how(item)}）"


def _how(item: Lost) -> str:
    words = _HOW.get(item.how, "没能发出")
    return f"{words}：{item.why}" if item.why and item.how == JobStatus.FAILED else words
