"""`keeper doctor`'s alerts line: which road tells the admins that another broke.

Without KEEPER_ALERT_CHANNEL the admins hear of incidents through the WeCom app
itself, which cannot report its own hold (60020, a rotated secret): the line is a ✓
that says so. With it, `--send-test` sends one short text through that channel, so
the operator learns today, not during the next outage, that the robot key or the
WxPusher UID is wrong.
"""

from __future__ import annotations

import aiohttp

from bot.doctor_checks import Check
from bot.scheduling import alert_route
from bot.settings import Settings
from handlers import texts
from scheduler.channels.factory import from_settings
from scheduler.core.channel import OutboundMessage
from storage.vocabulary import AttemptOutcome

NO_ROUTE_NOTE = (
    "through the WeCom app only: if WeCom refuses keeper (60020, a rotated secret) nobody "
    "is told; KEEPER_ALERT_CHANNEL (robot, wxpusher, serverchan, wecomchan) adds a road around it"
)


async def check_alerts(
    settings: Settings, session: aiohttp.ClientSession, *, send_test: bool
) -> Check | None:
    """The alerts line; None without admins (the admins line already says why)."""
    route = alert_route(settings)
    if route is None:
        return None
    if route.fallback:
        return Check(ok=True, name="alerts", detail=NO_ROUTE_NOTE)
    road = f"through {route.channel}"
    if not send_test:
        return Check(ok=True, name="alerts", detail=f"{road} (--send-test tries it)")
    channels = from_settings(settings.channels, session, robot_api_base=settings.wecom.api_base)
    channel = channels[route.channel]
    result = await channel.send(route.recipients[0], OutboundMessage(text=texts.DOCTOR_TEST_ALERT))
    code = "" if result.provider_code is None else f" (code {result.provider_code})"
    if result.outcome == AttemptOutcome.ACCEPTED:
        return Check(ok=True, name="alerts", detail=f"test alert accepted {road}{code}")
    what = (
        "unknown (it may have arrived)"
        if result.outcome == AttemptOutcome.UNKNOWN
        else result.outcome
    )
    return Check(
        ok=False,
        name="alerts",
        detail=f"test alert {what} {road}{code}: {result.error}",
        fix="check that channel's credential and KEEPER_ALERT_TO, then run again",
    )
