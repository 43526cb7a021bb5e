"""`keeper menu install`: put keeper's menu on the app with WeCom's menu/create.

The menu itself, every button a `click` whose key the parser maps to a command, is
`handlers/texts/menu.py` (`texts.MENU`). WeCom's rules
(https://developer.work.weixin.qq.com/document/path/90231): at most 3 buttons, at
most 5 under each, names of at most 16 bytes (top) or 40 (sub menu).
"""

from __future__ import annotations

import aiohttp

from bot.doctor_wecom import check_token, wecom_error
from bot.settings import Settings
from bot.wecom_admin import WeComAdmin, WeComUnreachable
from handlers import texts


async def install(settings: Settings) -> tuple[int, str]:
    """Install `texts.MENU` on the configured app: (exit status, one line for the operator)."""
    async with aiohttp.ClientSession() as session:
        admin = WeComAdmin.for_settings(settings, session)
        got, token = await check_token(admin)  # the doctor's check: every answer handled
        if token is None:
            return 1, f"keeper: menu not installed: {got.detail}; fix: {got.fix}"
        try:
            answer = await admin.menu_create(token, texts.MENU)
        except WeComUnreachable as exc:
            return 1, f"keeper: menu not installed: no answer from WeCom ({exc})"
    if answer.get("errcode") != 0:
        check = wecom_error("menu", answer)
        return 1, f"keeper: menu not installed: {check.detail}; fix: {check.fix}"
    return 0, f"keeper: menu installed on app {settings.wecom.agent_id}: {texts.MENU_TOP}"
