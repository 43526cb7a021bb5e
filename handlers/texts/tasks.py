"""Tasks (待办, 完成, 取消, 明天再说): how to write one, and the replies
(`handlers/tasks.py`)."""

from __future__ import annotations

import datetime as dt

from scheduler.core.texts.times import day_label, hm

COMPLETE = "完成"
"""The verb that completes a task, as a reply quotes it."""
GO_PREFIX = "去"
"""A title's leading 去 that a task's own title may lack: `完成 去银行` finds 银行."""
OF = "的"
"""`跟甲方的视频会`: what follows the last 的 of a reference names the thing."""
TASK_NEEDS_TITLE = "待办要写做什么，比如：任务 周五 提交材料"
TASK_ONE_TIME = (
    "待办只要一个时间，比如：任务 明天 15:00 交材料。有起止时间的请用：日程 明天 14:00-15:00 开会"
)
TASK_NUMBER_INVALID = "待办编号从 1 开始，发「任务」可以看到编号。"


def task_ref_missing(verb: str) -> str:
    """`完成` alone: ask which one."""
    return f"{verb}哪一项？写成：{verb} 3 或 {verb} 提交材料"


def task_one_at_a_time(verb: str) -> str:
    """`完成 3 4`: one task per message."""
    return f"一次{verb}一项，比如：{verb} 3"


def task_added(number: int, title: str, due: str | None, remind_at: str | None = None) -> str:
    when = f"，{due}" if due else ""
    remind = f"{remind_at} 提醒你；" if remind_at else ""
    return f"已添加待办 {number}：{title}{when}。\n{remind}做完回复「完成 {number}」。"


def task_due_label(day: dt.date | None, at: dt.time | None, today: dt.date) -> str | None:
    if day is None:
        return None
    label = day_label(day, today)
    return f"{label} {hm(at)}" if at else label


def task_closed(title: str, done: bool, open_left: int) -> str:
    head = f"完成：{title} ✓" if done else f"已取消：{title}"
    return f"{head}\n还有 {open_left} 项待办。" if open_left else f"{head}\n待办清空了。"


TASK_ALREADY_CLOSED = "这项待办已经完成或取消了。"


def task_not_found(number: int | None, title: str | None) -> str:
    what = f"编号 {number} " if number is not None else f"「{title}」"
    return f"没有找到{what}的待办。发「任务」看看列表。"


def task_ambiguous(title: str, candidates: list[tuple[int | None, str]]) -> str:
    listed = "、".join(f"{n} {t}" for n, t in candidates[:5])
    return f"有 {len(candidates)} 项待办都含「{title}」：{listed}。\n请用编号，比如：完成 {candidates[0][0]}"


def tasks_view(tasks: list[tuple[int | None, str, str | None]]) -> str:
    if not tasks:
        return "没有待办。发「任务 明天 交材料」添加一项。"
    lines = [f"待办 {len(tasks)} 项："]
    lines.extend(f"{n} {title}" + (f"（{due}）" if due else "") for n, title, due in tasks)
    lines.append("完成发「完成 编号」，取消发「取消 编号」。")
    return "\n".join(lines)


def task_postponed(number: int | None, title: str, due: str) -> str:
    return f"待办 {number} {title} 改到 {due}。"
