"""Short numbers the user types (任务 3, 日程 2, 提醒 4): the smallest free one."""

from __future__ import annotations

from collections.abc import Iterable


def smallest_free(taken: Iterable[int | None]) -> int:
    """The smallest positive integer not in `taken`, so numbers stay short."""
    used = set(taken)
    number = 1
    while number in used:
        number += 1
    return number
