"""Nag until done (直到完成): how to write it, and the replies (`handlers/nag.py`).
The nag's own messages are the scheduler's: `scheduler/core/texts/nag.py`."""

from __future__ import annotations

NAG_DONE_WORDS = ("完成", "做完", "搞定", "弄完")
"""Answers that say the thing is done (`handlers.nag`): on a task's nag they complete the
task; the others (`收到`, `知道了`, `好的收到`) only stop the nagging."""
NAG_ACK = "收到"
"""The answer that stops a nag (`AnswerNag.word` when the card's button is pressed)."""
NAG_EVERY_RANGE = "重复间隔要在 5 到 120 分钟之间，比如：直到完成 每10分钟。没有保存。"
NAG_CAP_RANGE = "最多提醒次数要在 2 到 20 次之间，比如：直到完成 最多6次。没有保存。"
NAG_ONCE_ONLY = "「直到完成」只用于一次性的提醒，比如：提醒 明天 9:00 交材料 直到完成。没有保存。"
NAG_ALREADY_OVER = "这个提醒已经停了。"
NAG_EVERY_TWICE = "只能写一个间隔，比如：直到完成 每10分钟。没有保存。"
NAG_CAP_TWICE = "只能写一个最多次数，比如：直到完成 最多6次。没有保存。"
NAG_EVERY_UNREAD = "没看懂间隔，比如：直到完成 每10分钟、每半小时。没有保存。"
NAG_CAP_UNREAD = "没看懂最多几次，比如：直到完成 最多6次。没有保存。"
NAG_NEEDS_TIME = "「直到完成」要写几点开始提醒，比如：任务 明天 9:00 交材料 直到完成。没有保存。"
NAG_STOPPED_TOO = "不再提醒。"
TASK_NAG_IN_THE_PAST = "这个时间已经过了，换个以后的时间吧，比如：任务 明天 9:00 交材料 直到完成"


def nag_added(number: int, title: str, first_at: str, every: int, cap: int) -> str:
    return (
        f"好的，提醒 {number}：{first_at} {title}，没回复就每 {every} 分钟再提醒，"
        f"最多提醒 {cap} 次（含第一次）。\n回复「收到」就停。"
    )


def task_nag_added(number: int, title: str, first_at: str, every: int, cap: int) -> str:
    return (
        f"已添加待办 {number}：{title}。\n{first_at} 开始提醒，没完成就每 {every} 分钟再提醒，"
        f"最多提醒 {cap} 次（含第一次）。做完回复「完成 {number}」，只想停下提醒回复「收到」。"
    )


def nag_answered(titles: list[str]) -> str:
    return f"好的，不再提醒：{'、'.join(titles)}"


def nag_rule_label(title: str, every: int) -> str:
    return f"{title}（直到完成，每{every}分钟）"
