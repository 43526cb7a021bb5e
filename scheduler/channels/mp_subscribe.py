"""The mini-program subscribe-message channel: one message per accepted subscription.

`POST {api_base}/cgi-bin/message/subscribe/send?access_token=` to one openid, with
the water template (PROVIDERS §5). The access token comes from `stable_token` and is
cached exactly like WeCom's (`wecom_token.TokenCache`, shared across processes by the
database store under the key `("mp:<appid>", 0)`), refreshed once and the message
resent at once on 40001/42001. Accepted means WeChat took the message (msgid kept);
no receipt exists. What each errcode means is `mp_subscribe_errors.TABLE`.

The template: `thing1` is the reminder's first line, newlines and control characters
out, cut to 20 characters; `time2` is the send time as `YYYY-MM-DD HH:MM` in the
configured zone. A deployment's template must have these two keys (README). Budget:
WeChat's quota is millions a day, so the channel only keeps a modest per-minute pace
in this process (`per_minute`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import aiohttp

from scheduler.channels.errors import Verdict, describe, lookup
from scheduler.channels.mp_subscribe_errors import TABLE, TOKEN_TABLE, classify_send, classify_token
from scheduler.channels.webhook import Reply, Request, Timeouts, WebhookChannel
from scheduler.channels.wecom_app import TokenUnavailable, transport_signal
from scheduler.channels.wecom_token import FetchedToken, MemoryTokenStore, TokenCache, TokenStore
from scheduler.core.channel import OutboundMessage

__all__ = ["THING_MAX_CHARS", "MpSubscribeChannel", "MpSubscribeConfig", "subscribe_payload"]

SEND_PATH = "/cgi-bin/message/subscribe/send"
TOKEN_PATH = "/cgi-bin/stable_token"
THING_MAX_CHARS = 20
PAGE = "pages/water/water"
OPENID = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass(frozen=True, kw_only=True, slots=True)
class MpSubscribeConfig:
    """One mini-program. The secret never shows in a repr."""

    api_base: str
    appid: str
    secret: str = field(repr=False)
    template_id: str
    timezone: str = "Asia/Shanghai"
    page: str = PAGE
    timeouts: Timeouts = field(default_factory=Timeouts)
    per_minute: int = 600


def thing(text: str) -> str:
    """A `thing` value: the first non-empty line, no control characters, <= 20 chars."""
    line = next((part.strip() for part in text.splitlines() if part.strip()), "") or "提醒"
    clean = "".join(ch for ch in line if unicodedata.category(ch)[0] != "C")
    return clean[:THING_MAX_CHARS]


def subscribe_payload(
    config: MpSubscribeConfig, openid: str, text: str, when: str
) -> dict[str, Any]:
    """The subscribe/send body for the water template."""
    return {
        "touser": openid,
        "template_id": config.template_id,
        "page": config.page,
        "lang": "zh_CN",
        "data": {"thing1": {"value": thing(text)}, "time2": {"value": when}},
    }


class MpSubscribeChannel(WebhookChannel):
    """`Channel` over subscribe messages (see the module docstring)."""

    name = "mp_subscribe"
    table = TABLE

    def __init__(
        self, config: MpSubscribeConfig, *, store: TokenStore | None = None, **kw: Any
    ) -> None:
        window = ((timedelta(minutes=1), config.per_minute),)
        super().__init__(timeouts=config.timeouts, windows=window, **kw)
        self.config = config
        self.tokens = TokenCache(
            f"mp:{config.appid}",
            0,
            store=store or MemoryTokenStore(),
            fetch=self.fetch_token,
            now=self._now,
        )
        self._issued: set[str] = set()

    def refuse(self, recipient: str, message: OutboundMessage) -> Verdict | None:
        if not OPENID.fullmatch(recipient):
            return lookup(TABLE, "recipient_refused", detail="recipient must be one openid")
        return None

    def request(self, recipient: str, message: OutboundMessage) -> Request:
        """The request without its token (`_exchange` sends it with one)."""
        return self._request("", recipient, message)

    def _request(self, token: str, recipient: str, message: OutboundMessage) -> Request:
        when = self._now().astimezone(ZoneInfo(self.config.timezone)).strftime("%Y-%m-%d %H:%M")
        return Request(
            method="POST",
            url=self.config.api_base.rstrip("/") + SEND_PATH,
            params={"access_token": token},
            json=subscribe_payload(self.config, recipient, message.text, when),
        )

    def classify(self, reply: Reply, recipient: str) -> Verdict:
        return classify_send(reply.status, reply.body, retry_after=reply.retry_after)

    def secrets(self) -> tuple[str, ...]:
        return (self.config.secret, *self._issued)

    async def _exchange(self, recipient: str, message: OutboundMessage) -> Verdict:
        """Send with the cached token; on 40001/42001 refresh it once and resend."""
        verdict: Verdict | None = None
        for _ in range(2):
            try:
                token = await self.tokens.get()
            except TokenUnavailable as exc:
                return exc.verdict
            try:
                reply = await self._call(self._request(token, recipient, message))
            except (aiohttp.ClientError, TimeoutError) as exc:
                return lookup(TABLE, transport_signal(exc), detail=describe(exc))
            verdict = self.classify(self._scrubbed(reply), recipient)
            if not verdict.rule.refresh_token:
                return verdict
            self.tokens.invalidate(token)
        assert verdict is not None
        again = lookup(TABLE, "token_rejected_again", detail=verdict.detail)
        return replace(again, provider_code=verdict.provider_code)

    async def fetch_token(self) -> FetchedToken:
        """Call stable_token once; raises `TokenUnavailable` on any failure."""
        body = {
            "grant_type": "client_credential",
            "appid": self.config.appid,
            "secret": self.config.secret,
            "force_refresh": False,
        }
        request = Request(
            method="POST", url=self.config.api_base.rstrip("/") + TOKEN_PATH, json=body
        )
        try:
            reply = await self._call(request)
        except (aiohttp.ClientError, TimeoutError) as exc:
            failure = lookup(TOKEN_TABLE, transport_signal(exc), detail=describe(exc))
            raise TokenUnavailable(failure) from None
        answer = classify_token(reply.status, self._scrubbed(reply).body)
        if isinstance(answer, Verdict):
            raise TokenUnavailable(answer)
        self._issued.add(answer[0])
        return FetchedToken(value=answer[0], expires_in=answer[1])
