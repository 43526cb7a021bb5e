"""The WeCom app channel: `message/send` to one explicit UserID, classified; and
`message/update_template_card` to grey out a clicked card's buttons (`CardUpdater`).

A thin aiohttp shell around the pure parts: the token cache
(`scheduler.channels.wecom_token`), the classifier table
(`scheduler.channels.wecom_errors`) and redaction (`scheduler.core.redact`). It talks
to `api_base` (the real `https://qyapi.weixin.qq.com` comes from the settings;
tests pass the fake's loopback URL) and never raises for a network or provider
failure: every call ends in a `SendResult`.

Transport exceptions, and what they tell us about whether the POST left
(`transport_signal`):

| exception (aiohttp 3.10+) | when | signal |
|---|---|---|
| `ClientConnectorError` (refused, DNS, TLS, proxy) | opening the connection | connect_failed |
| `ConnectionTimeoutError` (`connect`/`sock_connect`) | opening the connection | connect_failed |
| `SocketTimeoutError` (`sock_read`), `TimeoutError` (`total`) | waiting for the answer | timeout_after_send |
| `ServerDisconnectedError`, `ClientOSError`, payload/response errors | after connecting | reset_after_send |

Only the first two prove nothing was written. Everything after the connection
exists counts as "after the request was sent", even when the server closed before
reading it: from this side the two cannot be told apart, and guessing "not sent"
would risk a duplicate. A `total` timeout that fires while still connecting is
also counted as after-send, which errs the same safe way; keep `connect_timeout`
well under `total_timeout` so it is rare. aiohttp never retries a POST by itself,
and its 15 s keep-alive limit closes idle connections before WeCom does, which
keeps resets on stale pooled connections rare.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Protocol

import aiohttp

from scheduler.channels.errors import Verdict
from scheduler.channels.http_client import SessionHolder
from scheduler.channels.wecom_errors import (
    classify,
    classify_gettoken_reply,
    classify_send_reply,
    for_gettoken,
    parse_body,
)
from scheduler.channels.wecom_token import FetchedToken, MemoryTokenStore, TokenCache, TokenStore
from scheduler.core.channel import OutboundMessage, SendResult
from scheduler.core.redact import ERROR_MAX_CHARS, mask_user, redact
from storage.vocabulary import AttemptOutcome, ErrorClass

__all__ = [
    "TokenUnavailable",
    "WeComAppChannel",
    "WeComAppConfig",
    "classify_update_reply",
    "message_payload",
    "transport_signal",
    "update_card_payload",
]

logger = logging.getLogger(__name__)

GETTOKEN_PATH = "/cgi-bin/gettoken"
SEND_PATH = "/cgi-bin/message/send"
UPDATE_CARD_PATH = "/cgi-bin/message/update_template_card"
DUPLICATE_CHECK_MAX_S = 4 * 3600  # documented maximum of duplicate_check_interval
# A WeCom UserID: 1-64 of letters, digits and "_-@.", starting with a letter or digit.
# This also refuses "@all" and "a|b": one explicit recipient per call.
USER_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}")


@dataclass(frozen=True, kw_only=True, slots=True)
class WeComAppConfig:
    """One self-built app. Timeouts in seconds; the secret never shows in a repr."""

    api_base: str
    corp_id: str
    agent_id: int
    secret: str = field(repr=False)
    connect_timeout: float = 5.0
    total_timeout: float = 15.0
    duplicate_check_interval: int = 1800  # seconds, WeCom's default

    def __post_init__(self) -> None:
        if not 0 < self.connect_timeout <= self.total_timeout:
            raise ValueError("need 0 < connect_timeout <= total_timeout")
        if not 0 < self.duplicate_check_interval <= DUPLICATE_CHECK_MAX_S:
            raise ValueError("duplicate_check_interval must be within 1..14400 seconds")


class TokenUnavailable(Exception):
    """gettoken failed; `verdict` says how (transient or config, never uncertain)."""

    def __init__(self, verdict: Verdict) -> None:
        super().__init__(verdict.rule.note)
        self.verdict = verdict


def transport_signal(exc: BaseException) -> str:
    """The classifier signal for an aiohttp/timeout exception (see the module table)."""
    if isinstance(exc, aiohttp.ClientConnectorError | aiohttp.ConnectionTimeoutError):
        return "connect_failed"
    if isinstance(exc, TimeoutError):  # sock_read and total; asyncio.TimeoutError is it too
        return "timeout_after_send"
    return "reset_after_send"


def message_payload(
    recipient: str, message: OutboundMessage, *, agent_id: int, duplicate_check_interval: int
) -> dict[str, Any]:
    """The message/send body: text (or a template card) to exactly `recipient`."""
    body: dict[str, Any] = {"touser": recipient, "agentid": agent_id}
    if message.card is not None:
        body |= {"msgtype": "template_card", "template_card": message.card}
    else:
        body |= {"msgtype": "text", "text": {"content": message.text}}
    if message.dedup:
        body |= {"enable_duplicate_check": 1, "duplicate_check_interval": duplicate_check_interval}
    return body


def update_card_payload(
    recipient: str, response_code: str, replace_name: str, *, agent_id: int
) -> dict[str, Any]:
    """The update_template_card body that greys out `recipient`'s buttons.

    Documented shape: `userids` (a list), `agentid`, `response_code` and
    `button.replace_name`; only the listed user's card changes (no `atall`).
    """
    return {
        "userids": [recipient],
        "agentid": agent_id,
        "response_code": response_code,
        "button": {"replace_name": replace_name},
    }


def classify_update_reply(
    status: int, body: bytes, recipient: str, *, retry_after: str | None = None
) -> Verdict:
    """Classify update_template_card's reply like message/send's.

    Its `invaliduser` is a JSON array ("返回的列表都统一转为小写") where message/send
    has a `|`-separated string; it is joined first so one table decides both.
    """
    data = parse_body(body) if 200 <= status < 300 else None
    invalid = data.get("invaliduser") if data is not None else None
    if data is not None and isinstance(invalid, list):
        joined = "|".join(str(user) for user in invalid)
        body = json.dumps({**data, "invaliduser": joined}, ensure_ascii=False).encode()
    verdict = classify_send_reply(status, body, recipient, retry_after=retry_after)
    return replace(verdict, message_id=None)  # an update creates no message


class _Classifier(Protocol):
    def __call__(
        self, status: int, body: bytes, recipient: str, *, retry_after: str | None = None
    ) -> Verdict: ...


@dataclass(frozen=True, slots=True)
class _Operation:
    """One message API endpoint: its name in logs, its path, its reply classifier."""

    name: str
    path: str
    classify: _Classifier


SEND = _Operation("send", SEND_PATH, classify_send_reply)
UPDATE_CARD = _Operation("update_card", UPDATE_CARD_PATH, classify_update_reply)


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _utc_now() -> datetime:
    return datetime.now(UTC)


class WeComAppChannel(SessionHolder):
    """`Channel` over WeCom's app message API.

    Use as `async with WeComAppChannel(config) as channel:` (it owns a session), or
    pass `session=` (then the caller closes it). `store` shares tokens between
    processes (default: in memory); `now` and `monotonic` are the clocks.
    """

    name = "wecom_app"

    def __init__(
        self,
        config: WeComAppConfig,
        *,
        session: aiohttp.ClientSession | None = None,
        store: TokenStore | None = None,
        now: Callable[[], datetime] = _utc_now,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(session)
        self.config = config
        self._monotonic = monotonic
        self._timeout = aiohttp.ClientTimeout(
            total=config.total_timeout,
            connect=config.connect_timeout,
            sock_connect=config.connect_timeout,
        )
        self.tokens = TokenCache(
            config.corp_id,
            config.agent_id,
            store=store if store is not None else MemoryTokenStore(),
            fetch=self.fetch_token,
            now=now,
        )

    async def send(self, recipient: str, message: OutboundMessage) -> SendResult:
        """Send `message` to the one UserID `recipient`; never raises for a failure.

        A token rejected with 40014/42001/41001 is invalidated, refreshed and the
        message resent at once, once; the result is the second answer's. The
        duration covers all of it. `@all`, lists and malformed ids are refused
        without a call (permanent). An error of the token store itself (the
        database) propagates: nothing was sent, and the caller's finaliser records it.
        """
        payload = message_payload(
            recipient,
            message,
            agent_id=self.config.agent_id,
            duplicate_check_interval=self.config.duplicate_check_interval,
        )
        return await self._post(SEND, recipient, payload)

    async def update_card(
        self, recipient: str, response_code: str, replace_name: str
    ) -> SendResult:
        """Grey out the buttons of a card `recipient` clicked (`update_template_card`).

        WeCom: `response_code` comes from message/send's answer or from the click's
        callback; each is good for one call within 72 hours. The answer lists
        `invaliduser` as a JSON array (message/send: a `|` string); errcode 0 with the
        recipient in it is a permanent failure, like send. A reused, unknown or
        expired code is refused with an errcode (42022 "code已经被使用过" in WeCom's
        global table; the update page names none), which the classifier files as
        permanent: nothing a retry could fix. Token refresh, transport
        classification, redaction and logging are exactly those of `send`.
        """
        payload = update_card_payload(
            recipient, response_code, replace_name, agent_id=self.config.agent_id
        )
        return await self._post(UPDATE_CARD, recipient, payload)

    async def fetch_token(self) -> FetchedToken:
        """Call gettoken once; raises `TokenUnavailable` on any failure (the
        `TokenCache` calls this, single-flight)."""
        params = {"corpid": self.config.corp_id, "corpsecret": self.config.secret}
        try:
            status, body, retry_after = await self._call("GET", GETTOKEN_PATH, params)
        except (aiohttp.ClientError, TimeoutError) as exc:
            verdict = classify(transport_signal(exc), detail=_describe(exc))
            raise TokenUnavailable(for_gettoken(verdict)) from None
        verdict = classify_gettoken_reply(status, body, retry_after=retry_after)
        data = parse_body(body)
        if verdict.rule.outcome != AttemptOutcome.ACCEPTED or data is None:
            raise TokenUnavailable(verdict)
        logger.info("wecom token fetched", extra={"channel": self.name, **self._app()})
        return FetchedToken(value=str(data["access_token"]), expires_in=float(data["expires_in"]))

    async def _post(self, op: _Operation, recipient: str, payload: dict[str, Any]) -> SendResult:
        """One classified API call with the refresh-once rule (see `send`)."""
        started, used_tokens = self._monotonic(), []
        if not USER_ID.fullmatch(recipient):
            verdict = classify("recipient_refused", detail="touser must be one UserID")
        else:
            body = json.dumps(payload, ensure_ascii=False).encode()
            verdict, token = await self._post_once(op, recipient, body)
            if verdict.rule.refresh_token and token is not None:
                used_tokens.append(token)
                logger.info("wecom token rejected; refreshing", extra=self._context(recipient))
                self.tokens.invalidate(token)
                verdict, token = await self._post_once(op, recipient, body)
            used_tokens += [token] if token is not None else []
        result = self._result(verdict, started, used_tokens, recipient)
        self._log(op.name, recipient, result)
        return result

    async def _post_once(
        self, op: _Operation, recipient: str, body: bytes
    ) -> tuple[Verdict, str | None]:
        try:
            token = await self.tokens.get()
        except TokenUnavailable as exc:
            return exc.verdict, None
        except Exception as exc:  # the token store (a database) failed: nothing was sent
            logger.warning("token store unavailable", extra={"channel": self.name, **self._app()})
            return classify("connect_failed", detail=f"token store: {type(exc).__name__}"), None
        try:
            status, reply, retry_after = await self._call(
                "POST", op.path, {"access_token": token}, body
            )
        except (aiohttp.ClientError, TimeoutError) as exc:
            return classify(transport_signal(exc), detail=_describe(exc)), token
        return op.classify(status, reply, recipient, retry_after=retry_after), token

    async def _call(
        self, method: str, path: str, params: dict[str, str], body: bytes | None = None
    ) -> tuple[int, bytes, str | None]:
        session = self.require_session()
        url = self.config.api_base.rstrip("/") + path
        headers = {"Content-Type": "application/json; charset=utf-8"} if body is not None else None
        async with session.request(
            method, url, params=params, data=body, headers=headers, timeout=self._timeout
        ) as response:
            return response.status, await response.read(), response.headers.get("Retry-After")

    def _result(
        self, verdict: Verdict, started: float, tokens: list[str], recipient: str
    ) -> SendResult:
        rule = verdict.rule
        error = "" if rule.outcome == AttemptOutcome.ACCEPTED else f"{rule.note}; {verdict.detail}"
        secrets = [self.config.secret, *tokens]  # errmsg may name the recipient (invaliduser)
        return SendResult(
            outcome=rule.outcome,
            error_class=rule.error_class,
            provider_code=verdict.provider_code,
            provider_message_id=verdict.message_id,
            error=redact(error, secrets, users=(recipient,), max_length=ERROR_MAX_CHARS),
            retry_after=verdict.retry_after if rule.outcome == AttemptOutcome.RETRY else None,
            duration_ms=round((self._monotonic() - started) * 1000),
        )

    def _log(self, operation: str, recipient: str, result: SendResult) -> None:
        # An accepted call is DEBUG: its attempt row is the record, and the tick's INFO
        # line counts them; at thousands a second the line cost more CPU than the call.
        level = logging.DEBUG if result.outcome == AttemptOutcome.ACCEPTED else logging.WARNING
        if result.error_class == ErrorClass.CONFIG:
            level = logging.ERROR  # the channel is held until an admin acts
        if not logger.isEnabledFor(level):
            return
        extra = self._context(recipient) | {
            "outcome": result.outcome,
            "error_class": result.error_class,
            "provider_code": result.provider_code,
            "provider_message_id": result.provider_message_id,
            "duration_ms": result.duration_ms,
        }
        outcome, error = result.outcome, result.error or "ok"
        logger.log(level, "wecom %s %s: %s", operation, outcome, error, extra=extra)

    def _context(self, recipient: str) -> dict[str, Any]:
        return {"channel": self.name, "recipient": mask_user(recipient), **self._app()}

    def _app(self) -> dict[str, Any]:
        return {"corp_id": self.config.corp_id, "agent_id": self.config.agent_id}
