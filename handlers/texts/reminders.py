"""Reminders (提醒): how to write a custom one, the list, deleting, pausing and
resuming, switching all, rules set aside (`handlers/reminders.py`)."""

from __future__ import annotations

from scheduler.core.texts.messages import MISSED_MAX_LABELS, REPLY_REF_MAX_CHARS, clip_title
from scheduler.core.texts.rules import RULE_KIND_NAMES as RULE_KIND_NAMES
from storage.vocabulary import RuleKind, RuleStatus

SWITCH_NEEDS_TARGET = "要{keyword}什么？比如：{keyword} 喝水"
SWITCH_UNKNOWN_TARGET = (
    "可以开关的有：喝水、晨报、晚报、周报、提醒（全部）或 提醒 3（一条）。比如：关闭 晚报"
)
DELETE_HINT = "删除提醒要写编号，比如：删除 提醒 3。发「提醒」看编号。"
RULE_NUMBER_INVALID = "提醒编号从 1 开始，发「提醒」看编号。"
REMINDER_EXAMPLES = "比如：提醒 每天 22:00 吃药、提醒 明天 9:00 交材料、提醒 每周一 09:00 写周报"
NEEDS_WHEN = "什么时候提醒？时间写在前面，" + REMINDER_EXAMPLES
NEEDS_TITLE = "提醒做什么？把事情写在时间后面，比如：提醒 每天 22:00 吃药"
TITLE_TOO_LONG = "提醒的事情最多 100 个字，写短一点吧。"
IN_THE_PAST = "这个时间已经过了，换个以后的时间吧，比如：提醒 明天 9:00 交材料"
UNKNOWN_REPEAT = (
    "没看懂怎么重复。可以写：每天、每晚、每周一、每周一三五、工作日、周末、"
    "每月1号、每月最后一天、每年3月8日"
)
WEEKDAY_MISSING = "每周几？比如：提醒 每周一 09:00 写周报，或 提醒 每周一三五 7:00 健身"
INVALID_MONTH_DAY = "每月的日子要在 1 到 31 号之间，月底可以写：每月最后一天"
ONE_TIME_PER_REMINDER = "一条提醒写一个时间，两个时间请分两条发，比如：每天 8:00 吃药"
LATER_OUT_OF_RANGE = "「多久以后」要在 1 分钟到 365 天之间，比如：提醒 30分钟后 关火"
RULE_STATE_NAMES: dict[str, str] = {
    RuleStatus.ACTIVE: "开",
    RuleStatus.PAUSED: "已暂停",
    RuleStatus.OFF: "已关闭",
}
NO_RULES = "还没有提醒。可以发：提醒 每天 22:00 吃药"
RULES_FOOTER = "删除 提醒 N / 暂停 提醒 N / 恢复 提醒 N；关闭 提醒 全部关掉"
IMPORTANT_MARK = "（重要）"


def rules_list(lines: list[str]) -> str:
    """The 提醒 list: one line a rule (quiet time and recent failures after them)."""
    return "你的提醒：\n" + "\n".join(lines) + "\n" + RULES_FOOTER


def label_with_next(label: str, next_at: str) -> str:
    """`吃药（明天 08:00）`: two rules of the same words told apart by their next time."""
    return f"{label}（{next_at}）"


def rule_line(number: int, kind: str, label: str, state: str, next_at: str | None) -> str:
    what = RULE_KIND_NAMES.get(kind, kind)
    name = f"{what} {label}" if label else what
    when = f"，下次 {next_at}" if next_at else ""
    return f"{number}. {name}（{state}{when}）"


def reminder_added(number: int, title: str, when: str, next_at: str, important: bool) -> str:
    must = "（重要：免打扰时也发，发送结果不确定时会再发一次）" if important else ""
    return f"好的，提醒 {number}：{when} {title}{must}。\n下次 {next_at}。"


REMINDER_HAS_NO_TIME = "这个提醒以后不会再响了，没有保存。"


def rule_not_found(number: int) -> str:
    return f"没有编号 {number} 的提醒。发「提醒」看看列表。"


def rule_title_not_found(title: str) -> str:
    return f"没有含「{title}」的提醒。发「提醒」看看列表。"


def rule_title_ambiguous(title: str, candidates: list[tuple[int, str]]) -> str:
    listed = "、".join(f"{n} {t}" for n, t in candidates[:5])
    return f"有 {len(candidates)} 个提醒都含「{title}」：{listed}。\n请用编号，比如：暂停 提醒 {candidates[0][0]}"


def rule_changed(number: int, verb: str, next_at: str | None) -> str:
    if verb == "delete":
        return f"提醒 {number} 已删除。"
    if verb == "pause":
        return f"提醒 {number} 已暂停。发「恢复 提醒 {number}」继续。"
    if next_at is None:
        return f"提醒 {number} 已经没有下一次了。"
    return f"提醒 {number} 已恢复，下次 {next_at}。"


RULE_ALREADY = {"pause": "这条提醒已经暂停了。", "resume": "这条提醒本来就开着。"}
SET_ASIDE_WHY = "算不出下次时间"


def _set_aside_fix(number: int, deletable: bool) -> str:
    """What the user can do about a rule set aside: delete it and set it again; a rule
    that cannot be deleted (a digest, water) is the admin's to mend."""
    return f"请发「删除 提醒 {number}」后重新设置" if deletable else "请联系管理员"


def set_aside_rule_line(number: int, kind: str, label: str, *, deletable: bool) -> str:
    """A rule the scheduler set aside, in the 提醒 list."""
    what = RULE_KIND_NAMES.get(kind, kind)
    name = f"{what} {label}" if label else what
    return f"{number}. {name}（⚠ 出错已停用：{SET_ASIDE_WHY}，{_set_aside_fix(number, deletable)}）"


def set_aside_only_delete(number: int, *, deletable: bool) -> str:
    return f"提醒 {number} 出错已停用，不能暂停或恢复，{_set_aside_fix(number, deletable)}。"


def set_aside_notice(rules: list[tuple[int | None, str, str]]) -> str:
    """Told once, on the next message: these rules (number, kind, label) were set aside."""
    names = "、".join(
        ("" if number is None else f"{number}. ")
        + clip_title(label or RULE_KIND_NAMES.get(kind, kind), REPLY_REF_MAX_CHARS)
        for number, kind, label in rules[:MISSED_MAX_LABELS]
    )
    more = "等" if len(rules) > MISSED_MAX_LABELS else ""
    return f"⚠ 有 {len(rules)} 条提醒出错已停用（{SET_ASIDE_WHY}）：{names}{more}。发「提醒」看怎么处理。"


WATER_RULE_DELETE = "喝水提醒不能删除，发「关闭 喝水」关掉。"
DIGEST_RULE_DELETE = "晨报、晚报不能删除，发「关闭 晨报」或「关闭 晚报」关掉。"
REVIEW_RULE_DELETE = "周报不能删除，发「关闭 周报」关掉。"
NOT_DELETABLE: dict[str, str] = {
    RuleKind.WATER: WATER_RULE_DELETE,
    RuleKind.DIGEST_MORNING: DIGEST_RULE_DELETE,
    RuleKind.DIGEST_EVENING: DIGEST_RULE_DELETE,
    RuleKind.WEEKLY_REVIEW: REVIEW_RULE_DELETE,
}
"""What 删除 提醒 N answers for a kind whose row is not `deletable`
(`scheduler.core.rule_kinds`): how to switch it off instead."""


def all_switched(on: bool, count: int) -> str:
    if on:
        return f"已打开 {count} 条提醒。" if count else "没有被关掉的提醒。"
    if not count:
        return "没有开着的提醒。"
    return f"已关闭全部 {count} 条提醒。之后新加的日程和待办还会提醒。\n想打开就发「开启 提醒」。"


def missed_line(summary: str) -> str:
    return f"（{summary}）"
