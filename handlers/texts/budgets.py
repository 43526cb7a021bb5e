"""Budgets (预算): how to write one, the list, the replies (`handlers/review.py`)."""

from __future__ import annotations

BUDGET_HINT = "预算写成：预算 餐饮 1500（每月）。发「预算」看全部。"
BUDGET_CATEGORY_UNKNOWN = (
    "预算按支出分类算：餐饮、交通、购物、居住、通讯、医疗、娱乐、教育、人情、日用、其他。"
    "比如：预算 餐饮 1500"
)
BUDGET_OUT_OF_RANGE = "预算金额要大于 0、小于 100 万。"
CANCEL_BUDGET_HINT = "写成：取消预算 餐饮"
NO_BUDGETS = "还没有预算。比如发「预算 餐饮 1500」，每月按类别算。"


def budget_set(category: str, amount: str, spent: str, new: bool) -> str:
    head = "预算已设好" if new else "预算已改好"
    return f"{head}：{category} 每月 {amount} 元，本月已用 {spent} 元。发「取消预算 {category}」可以取消。"


def budget_line(category: str, spent: str, amount: str, percent: int) -> str:
    over = "，已超出" if percent >= 100 else ""
    return f"  {category} 已用 {spent} / {amount} 元（{percent}%）{over}"


def budgets_view(lines: list[str]) -> str:
    return "\n".join(["本月预算：", *lines, "改：预算 类别 金额 · 取消：取消预算 类别"])


def budget_cancelled(category: str) -> str:
    return f"已取消 {category} 的预算。"


def budget_not_found(category: str) -> str:
    return f"没有 {category} 的预算。发「预算」看全部。"
