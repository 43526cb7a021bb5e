"""`keeper menu install`: put keeper's menu on the app with WeCom's menu/create.

Every button is a `click` whose key is one of the English aliases the parser maps to
a command (`handlers.parse.parse_event_key`): a click runs exactly what the words do.
WeCom's rules (https://developer.work.weixin.qq.com/document/path/90231): at most 3
buttons, at most 5 under each, names of at most 16 bytes (top) or 40 (sub menu).
"""

from __future__ import annotations

import aiohttp

from bot.doctor_wecom import check_token, wecom_error
from bot.settings import Settings
from bot.wecom_admin import Json, WeComAdmin, WeComUnreachable


def _click(name: str, key: str) -> Json:
    return {"type": "click", "name": name, "key": key}


MENU: Json = {
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


async def install(settings: Settings) -> tuple[int, str]:
    """Install `MENU` on the configured app: (exit status, one line for the operator)."""
    async with aiohttp.ClientSession() as session:
        admin = WeComAdmin.for_settings(settings, session)
        got, token = await check_token(admin)  # the doctor's check: every answer handled
        if token is None:
            return 1, f"keeper: menu not installed: {got.detail}; fix: {got.fix}"
        try:
            answer = await admin.menu_create(token, MENU)
        except WeComUnreachable as exc:
            return 1, f"keeper: menu not installed: no answer from WeCom ({exc})"
    if answer.get("errcode") != 0:
        check = wecom_error("menu", answer)
        return 1, f"keeper: menu not installed: {check.detail}; fix: {check.fix}"
    return 0, f"keeper: menu installed on app {settings.wecom.agent_id}: 喝水 · 看看 · 更多"
