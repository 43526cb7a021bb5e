"""The weekly review in words: a short push, and the full review for 「周报」 in chat.

Pure. The push passes through other services and shows on a lock screen, so it names
no amount, no category and no journal text: only which way things went. The full
review is read in chat by its owner and carries the numbers. Neither counts
consecutive days or mentions what was not recorded (issue 14: no streaks, no blame).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from scheduler.core.review import (
    FLAT_KG_PER_WEEK,
    MoveOverdue,
    Review,
    SuggestBudget,
    Suggestion,
    SuggestTask,
    WeightFindings,
    plain,
)
from scheduler.core.texts.messages import clip_title, fit_bytes

PUSH_HEAD = "本周回看好了"
PUSH_TAIL = "回「周报」看详情"
TREND_WORDS = {"up": "上升", "flat": "平稳", "down": "下降"}
TITLE_MAX_CHARS = 20


def push(review: Review) -> str | None:
    """The Sunday notification, or None for a week with nothing recorded."""
    if review.empty:
        return None
    parts = []
    if review.weight is not None and review.weight.change is not None:
        parts.append("体重" + _direction(review.weight.change))
    if any(b.state == "over" for b in review.budgets):
        parts.append("有预算已经超了")
    elif any(b.state == "near" for b in review.budgets):
        parts.append("有预算快用完了")
    rose = review.spending.rose_most if review.spending is not None else None
    if rose is not None and rose.high:
        parts.append("有一类支出比平时多" if rose.usual > 0 else "有一类新的支出")
    if review.tasks.long_overdue:
        parts.append("有任务放了一阵子")
    if not parts:
        return f"{PUSH_HEAD}，{PUSH_TAIL}"
    return f"{PUSH_HEAD}：{'，'.join(parts)}。{PUSH_TAIL}"


def full(review: Review) -> str:
    """The whole review, one line a subject, ending with the suggestion if there is one."""
    lines = body(review)
    if review.suggestion is not None:
        lines.append(question(review.suggestion))
    return fit_bytes("\n".join(lines))


def body(review: Review) -> list[str]:
    """The review's lines without the question (the personal page shows these)."""
    start, end = review.week_start, review.week_end
    lines = [f"本周回看（{start.month}/{start.day}–{end.month}/{end.day}）"]
    if review.empty:
        lines.append("这周还没有记录。")
    if review.weight is not None:
        lines.append(_weight_line(review.weight))
    if review.spending is not None:
        lines.append(f"支出：本周 {plain(review.spending.total)} 元。")
        rose = review.spending.rose_most
        if rose is not None and rose.high:
            usual = f"平时每周约 {plain(rose.usual)} 元" if rose.usual > 0 else "之前几周没有"
            lines.append(
                f"  {rose.category} {plain(rose.this_week)} 元，{usual}，多了 {plain(rose.rise)} 元"
                + (f"（+{rose.percent}%）" if rose.percent is not None else "")
                + "。"
            )
    for budget in review.budgets:
        lines.append(
            f"预算：{budget.category} 本月已用 {plain(budget.spent)} / {plain(budget.budget)} 元"
            f"（{budget.percent}%）" + ("，已超出。" if budget.state == "over" else "。")
        )
    tasks = review.tasks
    if tasks.done or tasks.open:
        overdue = f"，其中 {tasks.overdue} 个已过期" if tasks.overdue else ""
        lines.append(f"任务：本周完成 {tasks.done} 个，还有 {tasks.open} 个没做{overdue}。")
    if review.events_next_week:
        lines.append(f"下周有 {review.events_next_week} 个日程。")
    if review.water_goal_days:
        lines.append(f"喝水：{review.water_goal_days} 天达到目标。")
    return lines


def question(suggestion: Suggestion) -> str:
    """The one suggested action, as a question answered by 「好」."""
    if isinstance(suggestion, SuggestBudget):
        what = f"{suggestion.category}每月定个 {plain(suggestion.amount)} 元的预算"
    elif isinstance(suggestion, SuggestTask):
        title = clip_title(suggestion.title, TITLE_MAX_CHARS * 2)
        what = f"下周一（{suggestion.due.month}/{suggestion.due.day}）加个任务「{title}」"
    elif isinstance(suggestion, MoveOverdue):
        n = len(suggestion.task_ids)
        to = f"{suggestion.to.month}/{suggestion.to.day}"
        what = f"有 {n} 个任务过期超过一周，都挪到下周一（{to}）"
    return f"{what}？回「好」"


def _weight_line(weight: WeightFindings) -> str:
    parts = [f"体重：7 天平均 {_kg(weight.average)} kg"]
    if weight.change is not None:
        change = _kg(weight.change)
        parts.append(
            "和上周持平"
            if change in ("0", "-0")
            else f"比上周 {'+' if weight.change > 0 else ''}{change} kg"
        )
    if weight.trend is not None:
        parts.append(f"近 4 周{TREND_WORDS[weight.trend]}")
    if weight.to_goal is not None:
        if weight.to_goal == 0:
            parts.append("已到目标")
        else:
            parts.append(f"离目标还差 {_kg(abs(weight.to_goal))} kg")
            if weight.projected is not None:
                day = weight.projected
                parts.append(f"照这个速度约 {day.year}/{day.month}/{day.day} 到")
    return "，".join(parts) + "。"


def _direction(change: Decimal) -> str:
    if abs(change) < FLAT_KG_PER_WEEK:
        return "平稳"
    size = "略" if abs(change) < 1 else ""
    return f"{size}{'升' if change > 0 else '降'}" if size else ("上升" if change > 0 else "下降")


def _kg(value: Decimal) -> str:
    """Kilograms to one decimal, signed when negative: 71.8, -0.4, 0."""
    text = plain(value.quantize(Decimal("0.1"), ROUND_HALF_UP))
    return text if value >= 0 or text.lstrip("-") != "0" else "0"


BUDGET_NUDGES = {
    80: "有一项预算本月已用到八成，发「预算」看看。",
    100: "有一项预算本月已经用完，发「预算」看看。",
}
"""One line in a digest; it names no category and no amount (a digest is pushed)."""


def budget_nudge(found: tuple[tuple[str, int], ...]) -> str | None:
    """The digest's budget line for what `review.nudges` found, or None."""
    if not found:
        return None
    return BUDGET_NUDGES[max(level for _, level in found)]
