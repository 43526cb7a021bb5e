"""What a person reads on a card (`scheduler.core.cards` builds it): its titles, its
buttons (with WeCom's style: 1 the main action, 2 the other) and the greyed-out
label a button shows after the click. Keyed by (card kind, action)."""

from __future__ import annotations

from typing import Final

WATER_TITLE: Final = "💧 喝水提醒"
TASK_TITLE: Final = "📌 任务提醒"
BUTTONS: Final[dict[tuple[str, str], tuple[str, int]]] = {
    ("water", "done"): ("喝了", 1),
    ("water", "later"): ("稍后", 2),
    ("task", "done"): ("完成", 1),
    ("task", "tomorrow"): ("明天再说", 2),
    ("nag", "ack"): ("知道了", 1),
}
AFTER_CLICK: Final[dict[tuple[str, str], str]] = {
    ("water", "done"): "已喝 💧",
    ("water", "later"): "稍后提醒",
    ("task", "done"): "已完成",
    ("task", "tomorrow"): "明天再说",
    ("nag", "ack"): "已收到",
}
AFTER_CLICK_OTHER: Final = "已处理"
"""A short neutral label for an action the card does not know."""
