"""The app menu keeper installs (`keeper menu install`, `bot/menu.py`): its buttons'
names, each a `click` whose key is one of the English aliases the parser maps to a
command (`handlers.parse.parse_event_key`), so a click runs exactly what the words
do. WeCom's rules: at most 3 buttons, at most 5 under each, names of at most 16
bytes (top) or 40 (sub menu)."""

from __future__ import annotations

from typing import Any


def _click(name: str, key: str) -> dict[str, Any]:
    return {"type": "click", "name": name, "key": key}


MENU: dict[str, Any] = {
    "button": [
        _click("喝水", "water"),
        {
            "name": "看看",
            "sub_button": [
                _click("今天", "today"),
                _click("本周", "week"),
                _click("本月", "month"),
                _click("待办", "tasks"),
            ],
        },
        {"name": "更多", "sub_button": [_click("撤销", "undo"), _click("帮助", "help")]},
    ]
}
"""The menu keeper installs."""
MENU_TOP = " · ".join(button["name"] for button in MENU["button"])
"""The top row, as the operator is told it was installed: `喝水 · 看看 · 更多`."""
