"""The titles of the tasks the weekly review suggests (`scheduler.core.review.suggest`
chooses one). A task's title is shown in the pushed digests, so none names an amount."""

from __future__ import annotations

EXERCISE = "安排 3 次运动"


def look_at_budget(category: str) -> str:
    return f"看看{category}支出和本月预算"
