"""code2Session against WeChat (or its fake): a js_code in, an openid or an error code out.

The AppSecret travels only in this one request's query string to WeChat; it is never
logged (errors carry the errcode, not the URL), and `session_key` is dropped at once:
keeper needs only the openid. Every failure maps onto the contract's codes (the table
below), and none raises.
"""

from __future__ import annotations

import json
import logging

import aiohttp

log = logging.getLogger(__name__)

SESSION_PATH = "/sns/jscode2session"
TIMEOUT = aiohttp.ClientTimeout(total=8, connect=3)
ERRORS: dict[int, str] = {
    40029: "invalid_code",  # the code is wrong, used or expired (single use)
    45011: "rate_limited",  # WeChat's own rate limit (per user, per minute)
    40226: "code_blocked",  # a high-risk user: WeChat blocks the login
    40163: "invalid_code",  # "code been used" (seen in practice)
}
"""WeChat errcode -> the contract's error; any other errcode (-1 included) is
`wechat_unavailable`: nothing the user can fix."""


async def code2session(
    http: aiohttp.ClientSession, *, api_base: str, appid: str, secret: str, js_code: str
) -> tuple[str | None, str | None]:
    """(openid, None) or (None, error code)."""
    params = {
        "appid": appid,
        "secret": secret,
        "js_code": js_code,
        "grant_type": "authorization_code",
    }
    try:
        async with http.get(api_base + SESSION_PATH, params=params, timeout=TIMEOUT) as response:
            status, body = response.status, await response.read()
    except (aiohttp.ClientError, TimeoutError) as exc:
        log.warning("code2Session unreachable: %s", type(exc).__name__)
        return None, "wechat_unavailable"
    return _read(status, body)


def _read(status: int, body: bytes) -> tuple[str | None, str | None]:
    try:
        data = json.loads(body) if status == 200 else None
    except ValueError:
        data = None
    if not isinstance(data, dict):
        log.warning("code2Session answered HTTP %s without its JSON", status)
        return None, "wechat_unavailable"
    code = data.get("errcode", 0)
    openid = data.get("openid")
    if code == 0 and isinstance(openid, str) and openid:
        return openid, None
    log.warning("code2Session refused: errcode %s", code)
    return None, ERRORS.get(code, "wechat_unavailable") if isinstance(code, int) else (
        "wechat_unavailable"
    )
