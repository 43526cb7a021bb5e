"""The few WeCom API calls an operator's commands make: gettoken, agent/get,
menu/create and one test message (`keeper doctor`, `keeper menu install`).

Not the delivery channel (that is `scheduler.channels.wecom_app`, with its token cache,
budget and error table): these are one-off calls whose answers are shown to a person,
so each returns WeCom's JSON as it came, or raises `WeComUnreachable` with a reason that
carries neither the secret nor the access token.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.settings import Settings

Json = dict[str, Any]

TIMEOUT_S = 10.0


class WeComUnreachable(Exception):
    """No JSON answer from WeCom (connection, TLS, timeout, not JSON). No secrets inside.

    `maybe_sent` is False only when the connection was never made: after that, a
    request may have reached WeCom although no answer came back (an unknown outcome).
    """

    def __init__(self, reason: str, *, maybe_sent: bool) -> None:
        super().__init__(reason)
        self.maybe_sent = maybe_sent


@dataclass(frozen=True, kw_only=True, slots=True)
class WeComAdmin:
    """One app's credentials and the API base (`WECOM_API_BASE`)."""

    api_base: str
    corp_id: str
    secret: str
    agent_id: int
    session: aiohttp.ClientSession

    @classmethod
    def for_settings(cls, settings: Settings, session: aiohttp.ClientSession) -> WeComAdmin:
        """The configured app (WECOM_* settings), calling through `session`."""
        return cls(
            api_base=settings.wecom.api_base,
            corp_id=settings.wecom.corp_id,
            secret=settings.wecom.secret,
            agent_id=settings.wecom.agent_id,
            session=session,
        )

    async def gettoken(self) -> Json:
        """获取access_token: `access_token` on errcode 0."""
        query = {"corpid": self.corp_id, "corpsecret": self.secret}
        return await self._call("GET", "/cgi-bin/gettoken", query)

    async def agent_get(self, token: str) -> Json:
        """获取指定的应用详情: close, allow_userinfos, allow_partys, isreportenter..."""
        query = {"access_token": token, "agentid": str(self.agent_id)}
        return await self._call("GET", "/cgi-bin/agent/get", query)

    async def menu_create(self, token: str, menu: Json) -> Json:
        """创建菜单 for our app."""
        query = {"access_token": token, "agentid": str(self.agent_id)}
        return await self._call("POST", "/cgi-bin/menu/create", query, menu)

    async def send_text(self, token: str, users: Iterable[str], text: str) -> Json:
        """发送应用消息: one text to the listed members (never @all)."""
        body = {
            "touser": "|".join(users),
            "msgtype": "text",
            "agentid": self.agent_id,
            "text": {"content": text},
        }
        return await self._call("POST", "/cgi-bin/message/send", {"access_token": token}, body)

    async def _call(
        self, method: str, path: str, query: dict[str, str], body: Json | None = None
    ) -> Json:
        url = self.api_base + path
        timeout = aiohttp.ClientTimeout(total=TIMEOUT_S)
        try:
            async with self.session.request(
                method, url, params=query, json=body, timeout=timeout
            ) as response:
                answer = await response.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            # str(exc) of a ClientResponseError holds the URL with its query: never show it.
            reason = f"{self.api_base}{path}: {type(exc).__name__}"
            connected = not isinstance(exc, aiohttp.ClientConnectorError)
            raise WeComUnreachable(reason, maybe_sent=connected) from None
        if not isinstance(answer, dict):
            raise WeComUnreachable(f"{self.api_base}{path}: not a JSON object", maybe_sent=True)
        return answer
