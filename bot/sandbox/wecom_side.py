"""The WeCom side of the callback: sends encrypted callbacks the way WeCom does.

Tests and `keeper chat` use `WeComSide` to play WeCom's servers against our
callback endpoint: it builds the plaintext message XML WeCom builds, encrypts
and signs it, POSTs it to `{base_url}/wecom/callback` with msg_signature,
timestamp and nonce in the query, and opens the passive reply the way WeCom
would (verify its signature, decrypt it, read `Content`).

The XML builders and `open_reply` are pure; only `WeComSide` does I/O. To send
something WeCom would never send (a bad signature, a stale timestamp), build a
`CallbackRequest` with `WeComSide.build`, alter it, and `post` it.
"""

from __future__ import annotations

import dataclasses
import itertools
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from xml.etree.ElementTree import ParseError

import aiohttp
import defusedxml.ElementTree as SafeET

from bot.crypto import MalformedEnvelope, WeComCrypto
from scheduler.channels.http_client import SessionHolder

__all__ = [
    "FIRST_MSG_ID",
    "PASSIVE_REPLY_MAX_BYTES",
    "CallbackRequest",
    "Reply",
    "WeComSide",
    "cdata",
    "envelope_xml",
    "event_xml",
    "open_reply",
    "text_message_xml",
]

Clock = Callable[[], datetime]
Field = tuple[str, str | int]

CALLBACK_PATH = "/wecom/callback"
CALLBACK_WINDOW_S = 5.0  # WeCom drops the connection after 5 s and retries
PASSIVE_REPLY_MAX_BYTES = 2048  # WeCom cuts a passive reply's text beyond this
FIRST_MSG_ID = 7_310_000_000_000_000_001  # 64-bit sized, like WeCom's MsgIds


def _utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, kw_only=True, slots=True)
class Reply:
    """What came back from our endpoint, as WeCom would see it.

    `text` is the passive reply's Content (None for an empty 200 or a non-200);
    for a URL check it is the response body.
    """

    status: int
    text: str | None
    body: bytes
    msg_type: str | None = None

    @property
    def exceeds_wecom_limit(self) -> bool:
        """True when WeCom would cut this text (over 2048 UTF-8 bytes)."""
        return self.text is not None and len(self.text.encode("utf-8")) > PASSIVE_REPLY_MAX_BYTES


@dataclass(frozen=True, kw_only=True, slots=True)
class CallbackRequest:
    """One signed callback POST: its query string and body."""

    query: dict[str, str]
    body: bytes

    def replace_query(self, **changes: str) -> CallbackRequest:
        """A copy with some query values changed (e.g. a tampered signature)."""
        return dataclasses.replace(self, query={**self.query, **changes})


# -- pure helpers ---------------------------------------------------------------


def cdata(text: str) -> str:
    """Wrap text in CDATA; a `]]>` inside is split across two sections."""
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def _xml(fields: Iterable[Field]) -> str:
    """`<xml>` with one child per field: strings in CDATA, numbers bare (as WeCom)."""
    parts = [
        f"<{tag}>{value}</{tag}>" if isinstance(value, int) else f"<{tag}>{cdata(value)}</{tag}>"
        for tag, value in fields
    ]
    return "<xml>" + "".join(parts) + "</xml>"


def text_message_xml(
    *, corp_id: str, user: str, text: str, create_time: int, msg_id: int, agent_id: int
) -> str:
    """The plaintext XML of a text message from `user`, as WeCom builds it."""
    return _xml(
        [
            ("ToUserName", corp_id),
            ("FromUserName", user),
            ("CreateTime", create_time),
            ("MsgType", "text"),
            ("Content", text),
            ("MsgId", msg_id),
            ("AgentID", agent_id),
        ]
    )


def event_xml(
    *,
    corp_id: str,
    user: str,
    event: str,
    create_time: int,
    agent_id: int,
    event_key: str | None = None,
    extra: Iterable[tuple[str, str]] = (),
) -> str:
    """The plaintext XML of an event (`subscribe`, `enter_agent`, `click`, ...).

    `event_key` becomes `EventKey` (click, enter_agent, template_card_event);
    `extra` appends further string fields, e.g. a template card's `TaskId`.
    """
    fields: list[Field] = [
        ("ToUserName", corp_id),
        ("FromUserName", user),
        ("CreateTime", create_time),
        ("MsgType", "event"),
        ("Event", event),
    ]
    if event_key is not None:
        fields.append(("EventKey", event_key))
    fields.extend(extra)
    fields.append(("AgentID", agent_id))
    return _xml(fields)


def envelope_xml(*, corp_id: str, agent_id: int, encrypt: str) -> str:
    """The outer POST body WeCom sends around the ciphertext."""
    return _xml([("ToUserName", corp_id), ("AgentID", str(agent_id)), ("Encrypt", encrypt)])


def open_reply(crypto: WeComCrypto, body: bytes) -> tuple[str | None, str]:
    """Verify and decrypt a passive reply envelope; return (Content, MsgType).

    Raises:
        MalformedEnvelope: the envelope or the decrypted XML is not usable.
        BadSignature, BadCiphertext, ForeignReceiveId: as `WeComCrypto` does.
    """
    outer = _leaf_texts(body.decode("utf-8", "replace"))
    try:
        encrypt, signature = outer["Encrypt"], outer["MsgSignature"]
        timestamp, nonce = outer["TimeStamp"], outer["Nonce"]
    except KeyError:
        raise MalformedEnvelope("reply envelope lacks a field") from None
    crypto.verify(signature, timestamp, nonce, encrypt)
    inner = _leaf_texts(crypto.decrypt(encrypt))
    return inner.get("Content"), inner.get("MsgType", "")


def _leaf_texts(xml_text: str) -> dict[str, str]:
    try:
        root = SafeET.fromstring(xml_text, forbid_dtd=True, forbid_entities=True)
    except (ParseError, ValueError):
        raise MalformedEnvelope("reply is not acceptable XML") from None
    return {child.tag: child.text or "" for child in root}


# -- the client -----------------------------------------------------------------


class WeComSide(SessionHolder):
    """Plays WeCom's servers against our callback endpoint.

    Args:
        base_url: where our app listens, e.g. `http://127.0.0.1:8080`.
        token, encoding_aes_key, corp_id, agent_id: the app's callback settings.
        clock: aware "now" for CreateTime and the timestamp query parameter.
        session: a caller-owned aiohttp session; without one, use `async with`
            and the client owns (and closes) its own.
        timeout_s: how long WeCom waits for an answer; a slower answer raises
            `TimeoutError` like WeCom's dropped connection.
    """

    def __init__(
        self,
        base_url: str,
        token: str,
        encoding_aes_key: str,
        corp_id: str,
        agent_id: int,
        clock: Clock = _utc_now,
        *,
        session: aiohttp.ClientSession | None = None,
        timeout_s: float = CALLBACK_WINDOW_S,
    ) -> None:
        super().__init__(session)
        self.url = base_url.rstrip("/") + CALLBACK_PATH
        self.crypto = WeComCrypto(token, encoding_aes_key, corp_id)
        self.corp_id, self.agent_id, self.clock = corp_id, agent_id, clock
        self._timeout = aiohttp.ClientTimeout(total=timeout_s)
        self._msg_ids = itertools.count(FIRST_MSG_ID)

    def now(self) -> int:
        """The clock as WeCom's integer seconds (CreateTime, timestamp)."""
        return int(self.clock().timestamp())

    # -- messages ---------------------------------------------------------------

    async def send_text(
        self, user: str, text: str, *, msg_id: int | None = None, create_time: int | None = None
    ) -> Reply:
        """Send a text message from `user`; pass the same msg_id to retry one."""
        xml = text_message_xml(
            corp_id=self.corp_id,
            user=user,
            text=text,
            create_time=self.now() if create_time is None else create_time,
            msg_id=next(self._msg_ids) if msg_id is None else msg_id,
            agent_id=self.agent_id,
        )
        return await self.post(self.build(xml))

    async def send_event(
        self,
        user: str,
        event: str,
        *,
        event_key: str | None = None,
        extra: Iterable[tuple[str, str]] = (),
        create_time: int | None = None,
    ) -> Reply:
        """Send an event from `user`; pass the same create_time to retry one."""
        xml = event_xml(
            corp_id=self.corp_id,
            user=user,
            event=event,
            create_time=self.now() if create_time is None else create_time,
            agent_id=self.agent_id,
            event_key=event_key,
            extra=extra,
        )
        return await self.post(self.build(xml))

    async def subscribe(self, user: str) -> Reply:
        """`subscribe`: the user followed the app."""
        return await self.send_event(user, "subscribe")

    async def enter_agent(self, user: str) -> Reply:
        """`enter_agent`: the user opened the app (EventKey empty, as WeCom sends)."""
        return await self.send_event(user, "enter_agent", event_key="")

    async def click(self, user: str, key: str) -> Reply:
        """`click`: the user tapped a menu item whose key is `key`."""
        return await self.send_event(user, "click", event_key=key)

    async def template_card_event(
        self,
        user: str,
        *,
        event_key: str,
        task_id: str,
        response_code: str = "fake-code",
        card_type: str = "button_interaction",
        create_time: int | None = None,
    ) -> Reply:
        """`template_card_event`: the user pressed the button `event_key` on the card
        `task_id`; pass the same create_time (and fields) to retry one.

        Fields in the documented order (EventKey, TaskId, CardType, ResponseCode,
        AgentID). `response_code` is what WeCom hands over for one
        update_template_card call: with the fake API, `FakeWeCom.issue_click_code`.
        """
        extra = [("TaskId", task_id), ("CardType", card_type), ("ResponseCode", response_code)]
        return await self.send_event(
            user, "template_card_event", event_key=event_key, extra=extra, create_time=create_time
        )

    # -- the wire ---------------------------------------------------------------

    def build(
        self, plaintext_xml: str, *, timestamp: str | None = None, nonce: str | None = None
    ) -> CallbackRequest:
        """Encrypt and sign plaintext XML into the POST WeCom would make."""
        timestamp = str(self.now()) if timestamp is None else timestamp
        nonce = str(secrets.randbelow(10**10)) if nonce is None else nonce
        encrypt = self.crypto.encrypt(plaintext_xml)
        body = envelope_xml(corp_id=self.corp_id, agent_id=self.agent_id, encrypt=encrypt)
        signature = self.crypto.signature(timestamp, nonce, encrypt)
        query = {"msg_signature": signature, "timestamp": timestamp, "nonce": nonce}
        return CallbackRequest(query=query, body=body.encode("utf-8"))

    async def post(self, request: CallbackRequest) -> Reply:
        """POST a callback and open the passive reply as WeCom would.

        Raises:
            CryptoError: a 200 reply that is not a valid, signed envelope for us.
            TimeoutError: no answer inside the window.
        """
        session = self.require_session()
        async with session.post(
            self.url, params=request.query, data=request.body, timeout=self._timeout
        ) as response:
            body = await response.read()
        if response.status != 200 or not body.strip():
            return Reply(status=response.status, text=None, body=body)
        text, msg_type = open_reply(self.crypto, body)
        return Reply(status=response.status, text=text, body=body, msg_type=msg_type)

    async def verify_url(self, echostr_plain: str) -> Reply:
        """Do WeCom's GET URL check; it passes when status is 200 and text == echostr."""
        timestamp, nonce = str(self.now()), str(secrets.randbelow(10**10))
        echostr = self.crypto.encrypt(echostr_plain)
        query = {
            "msg_signature": self.crypto.signature(timestamp, nonce, echostr),
            "timestamp": timestamp,
            "nonce": nonce,
            "echostr": echostr,
        }
        session = self.require_session()
        async with session.get(self.url, params=query, timeout=self._timeout) as response:
            body = await response.read()
        return Reply(status=response.status, text=body.decode("utf-8", "replace"), body=body)
