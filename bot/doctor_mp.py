"""`keeper doctor`'s mini-program line: can keeper get a WeChat access token?

Only when KEEPER_MP_APPID and KEEPER_MP_SECRET are set. It calls `stable_token` once
(without force_refresh, so the token the workers use stays valid) through the
subscribe channel's own code, so the doctor and the channel agree on what an answer
means. Nothing is sent to anyone.
"""

from __future__ import annotations

import aiohttp

from bot.doctor_checks import Check
from bot.settings import Settings
from handlers import texts
from scheduler.channels.mp_subscribe import MpSubscribeChannel, MpSubscribeConfig
from scheduler.channels.wecom_app import TokenUnavailable


async def check_miniprogram(settings: Settings) -> list[Check]:
    """One line when the mini-program is configured, none otherwise."""
    if not settings.mp.configured:
        return []
    config = MpSubscribeConfig(
        api_base=settings.mp.api_base,
        appid=settings.mp.appid,
        secret=settings.mp.secret,
        template_id=settings.mp.template_id,
    )
    async with aiohttp.ClientSession() as session:
        channel = MpSubscribeChannel(config, session=session)
        try:
            await channel.fetch_token()
        except TokenUnavailable as exc:
            verdict = exc.verdict
            code = verdict.provider_code
            detail = f"stable_token: {verdict.rule.note}" + (f" ({code})" if code else "")
            return [
                Check(
                    ok=False,
                    name=texts.DOCTOR_MP_NAME,
                    detail=detail,
                    fix=texts.DOCTOR_MP_FIXES.get(code or 0, texts.DOCTOR_MP_OTHER_FIX),
                )
            ]
    detail = f"AppID {settings.mp.appid}: access token ok, template {settings.mp.template_id}"
    return [Check(ok=True, name=texts.DOCTOR_MP_NAME, detail=detail)]
