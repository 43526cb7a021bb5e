"""撤销: what was undone (`handlers/undo.py`)."""

from __future__ import annotations

UNDO_COMMAND = "撤销"
"""The command's word, as an operator's line names it."""
NOTHING_TO_UNDO = "没有可以撤销的记录。"


def undone(kind: str, content: str) -> str:
    what = content if kind == "text" and content else ""
    return f"已撤销：{what or '上一条记录'}。" if what else "已撤销上一条记录。"


def task_reopened(number: int | None, title: str) -> str:
    return f"已撤销，待办 {number} {title} 重新打开。"
