"""`keeper doctor`'s checks of WeCom: the token, the app, the public callback URL and
one test message. Each names the console page that fixes what it found.

WeCom's errcodes met on this path (https://developer.work.weixin.qq.com/document/path/90313):
40013 invalid corpid, 40001 invalid secret, 60020 "not allow to access from your ip"
(the errmsg names the address WeCom saw: it goes into 企业可信 IP), 40056/301002 an
AgentId that is not this Secret's app. Tokens and the Secret are never shown.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable

import aiohttp

from bot.crypto import WeComCrypto
from bot.doctor_checks import Check
from bot.settings import Settings
from bot.wecom_admin import Json, WeComAdmin, WeComUnreachable
from handlers import texts
from scheduler.core.incidents import outbound_ip
from storage.vocabulary import AttemptOutcome


def wecom_error(name: str, answer: Json) -> Check:
    """A failed WeCom answer as a check, with the console fix for the codes we know."""
    code, errmsg = answer.get("errcode"), str(answer.get("errmsg", ""))
    detail = f"errcode {code}: {errmsg.split(',')[0]}"
    if code == 60020:
        ip = outbound_ip(errmsg) or "(the address in WeCom's errmsg)"
        detail = f"errcode 60020: WeCom refuses calls from {ip}, not in {texts.CONSOLE_TRUSTED_IP}"
        fix = f"add {ip} to {texts.CONSOLE_TRUSTED_IP}: {texts.CONSOLE_TRUSTED_IP_PAGE}"
    elif code == 40013:
        fix = f"WECOM_CORP_ID is wrong: {texts.CONSOLE_CORP_ID_PAGE}"
    elif code == 40001:
        fix = f"WECOM_SECRET is wrong or was reset: {texts.CONSOLE_SECRET_PAGE}"
    elif code == 81013:
        fix = (
            f"KEEPER_ADMINS must be UserIDs of members ({texts.CONSOLE_MEMBER_ACCOUNT}) "
            f"inside {texts.CONSOLE_VISIBLE}"
        )
    elif code in (40056, 301002):
        fix = f"WECOM_AGENT_ID is not this Secret's app: {texts.CONSOLE_APP} -> AgentId"
    else:
        fix = f"look the code up: https://open.work.weixin.qq.com/devtool/query?e={code}"
    return Check(ok=False, name=name, detail=detail, fix=fix)


def unreachable(name: str, exc: WeComUnreachable) -> Check:
    fix = "check WECOM_API_BASE, DNS and outbound HTTPS from this server"
    return Check(ok=False, name=name, detail=f"no answer from WeCom: {exc}", fix=fix)


async def check_token(admin: WeComAdmin) -> tuple[Check, str | None]:
    """gettoken with our CorpID and Secret: the access token, or why not."""
    try:
        answer = await admin.gettoken()
    except WeComUnreachable as exc:
        return unreachable("WeCom token", exc), None
    if answer.get("errcode") != 0 or not answer.get("access_token"):
        return wecom_error("WeCom token", answer), None
    return Check(ok=True, name="WeCom token", detail="gettoken ok"), str(answer["access_token"])


async def check_app(admin: WeComAdmin, token: str, admins: Iterable[str]) -> list[Check]:
    """agent/get: the app enabled, the admins inside 可见范围, enter events reported."""
    try:
        answer = await admin.agent_get(token)
    except WeComUnreachable as exc:
        return [unreachable("app", exc)]
    if answer.get("errcode") != 0:
        return [wecom_error("app", answer)]
    return [_enabled(answer), _visible(answer, admins), _enter_events(answer)]


def _enabled(agent: Json) -> Check:
    name = f"app {agent.get('name', '')} ({agent.get('agentid')})"
    if agent.get("close") == 1:
        fix = f"enable it: {texts.CONSOLE_ENABLE_PAGE}"
        detail = f"{name} is disabled ({texts.CONSOLE_DISABLED})"
        return Check(ok=False, name="app enabled", detail=detail, fix=fix)
    return Check(ok=True, name="app enabled", detail=name)


def _visible(agent: Json, admins: Iterable[str]) -> Check:
    listed = {
        str(u.get("userid", "")).lower()
        for u in (agent.get("allow_userinfos") or {}).get("user", [])
        if isinstance(u, dict)
    }
    groups = bool((agent.get("allow_partys") or {}).get("partyid")) or bool(
        (agent.get("allow_tags") or {}).get("tagid")
    )
    outside = sorted(a for a in admins if a.lower() not in listed)
    if not outside:
        return Check(ok=True, name=texts.CONSOLE_VISIBLE, detail="every admin is listed by name")
    if groups:
        detail = (
            f"{', '.join(outside)} not listed by name; visible if in an allowed department or tag"
        )
        return Check(ok=True, name=texts.CONSOLE_VISIBLE, detail=detail)
    return Check(
        ok=False,
        name=texts.CONSOLE_VISIBLE,
        detail=f"{', '.join(outside)} outside the app's visible range: they get nothing",
        fix=f"add them: {texts.CONSOLE_VISIBLE_ADD}",
    )


def _enter_events(agent: Json) -> Check:
    if agent.get("isreportenter") == 1:
        detail = f"reported (opening the app shows {texts.APP_OPENS_ON})"
        return Check(ok=True, name=texts.CONSOLE_ENTER_EVENTS, detail=detail)
    return Check(
        ok=False,
        name=texts.CONSOLE_ENTER_EVENTS,
        detail="not reported: opening the app does nothing",
        fix=f"{texts.CONSOLE_ENTER_EVENTS_PAGE} (on)",
    )


async def check_public_url(
    settings: Settings, url: str, session: aiohttp.ClientSession, now_s: int
) -> Check:
    """A signed URL-verification GET, as WeCom sends on 保存: proves DNS, TLS and nginx."""
    crypto = WeComCrypto(settings.wecom.token, settings.wecom.aes_key, settings.wecom.corp_id)
    plain, timestamp, nonce = secrets.token_hex(8), str(now_s), secrets.token_hex(8)
    echostr = crypto.encrypt(plain)
    query = {
        "msg_signature": crypto.signature(timestamp, nonce, echostr),
        "timestamp": timestamp,
        "nonce": nonce,
        "echostr": echostr,
    }
    try:
        async with session.get(url, params=query, timeout=aiohttp.ClientTimeout(total=10)) as r:
            status, body = r.status, await r.text()
    except (aiohttp.ClientError, TimeoutError) as exc:
        fix = "check DNS, the certificate, nginx (deploy/nginx.conf) and that keeper serve runs"
        return Check(ok=False, name="public URL", detail=f"{url}: {type(exc).__name__}", fix=fix)
    if status == 200 and body == plain:
        return Check(ok=True, name="public URL", detail=f"{url} answers WeCom's URL check")
    fix = "the URL must reach keeper serve's /wecom/callback with this Token and EncodingAESKey"
    return Check(ok=False, name="public URL", detail=f"{url}: HTTP {status}, wrong answer", fix=fix)


async def check_send(admin: WeComAdmin, token: str, admins: list[str]) -> Check:
    """One short text to the admins only: accepted, failed or unknown."""
    try:
        answer = await admin.send_text(token, admins, texts.DOCTOR_TEST_MESSAGE)
    except WeComUnreachable as exc:
        outcome = "unknown (it may have arrived)" if exc.maybe_sent else AttemptOutcome.FAILED
        return Check(ok=False, name="test message", detail=f"{outcome}: {exc}", fix="run again")
    if answer.get("errcode") != 0:
        check = wecom_error("test message", answer)
        return Check(ok=False, name=check.name, detail="failed: " + check.detail, fix=check.fix)
    refused = [
        u for f in ("invaliduser", "unlicenseduser") for u in str(answer.get(f, "")).split("|") if u
    ]
    if refused:
        detail = f"failed for {', '.join(refused)} (not members, or no licence)"
        fix = f"check KEEPER_ADMINS against {texts.CONSOLE_CONTACTS} (UserIDs) and the members' licences"
        return Check(ok=False, name="test message", detail=detail, fix=fix)
    detail = f"accepted by WeCom for {', '.join(admins)} (msgid {answer.get('msgid', '?')})"
    return Check(ok=True, name="test message", detail=detail)
