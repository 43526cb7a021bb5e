"""What a person reads on a card (`scheduler.core.cards` builds it): its titles, its
buttons (with WeCom's style: 1 the main action, 2 the other) and the greyed-out
label a button shows after the click. Keyed by (card kind, action)."""

from __future__ import annotations

from typing import Final

from storage.vocabulary import CardKind

WATER_TITLE: Final = "💧 喝水提醒"
TASK_TITLE: Final = "📌 任务提醒"
BUTTONS: Final[dict[tuple[CardKind, str], tuple[str, int]]] = {
    (CardKind.WATER, "done"): ("喝了", 1),
    (CardKind.WATER, "later"): ("稍后", 2),
    (CardKind.TASK, "done"): ("完成", 1),
    (CardKind.TASK, "tomorrow"): ("明天再说", 2),
    (CardKind.NAG, "ack"): ("知道了", 1),
}
AFTER_CLICK: Final[dict[tuple[CardKind, str], str]] = {
    (CardKind.WATER, "done"): "已喝 💧",
    (CardKind.WATER, "later"): "稍后提醒",
    (CardKind.TASK, "done"): "已完成",
    (CardKind.TASK, "tomorrow"): "明天再说",
    (CardKind.NAG, "ack"): "已收到",
}
AFTER_CLICK_OTHER: Final = "已处理"
"""A short neutral label for an action the card does not know."""
