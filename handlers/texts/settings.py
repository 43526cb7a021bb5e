"""设置: what can be set, and the card setting (设置 卡片)."""

from __future__ import annotations

SETTING_UNKNOWN = (
    "可以设置：作息、喝水间隔、喝水目标、晨报、晚报、周报、卡片。比如：设置 晨报 07:30"
)
CARDS_HINT = "写成：设置 卡片 开 或 设置 卡片 关"


def cards_set(on: bool) -> str:
    if on:
        return "好的，提醒会带按钮（喝了/稍后、完成/明天再说）。微信插件里看不到按钮，可发「设置 卡片 关」。"
    return "好的，提醒改回文字。"
