"""The fake WeCom API's state and its gettoken and message/send logic.

One role: `FakeWeCom`, what the fake knows (its one app, its users, the tokens
it issued, the messages it accepted) and how gettoken and message/send answer,
the way the WeCom documentation describes them. Card codes and
update_template_card are in `fake_cards`, the fault switches in `fake_faults`,
the aiohttp shell in `fake_wecom_app`.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from bot.sandbox.fake_agent import AppConsole, menu_error
from bot.sandbox.fake_cards import CardBook, CardUpdate
from bot.sandbox.fake_faults import FaultSwitches
from bot.sandbox.fake_messages import (
    DUPLICATE_WINDOW_DEFAULT_S,
    DUPLICATE_WINDOW_MAX_S,
    ReceivedMessage,
    content_of,
    duplicate_key,
    payload_error,
)
from bot.sandbox.fake_protocol import Clock, Json, error_body, json_object

__all__ = ["ISSUED_TOKENS", "TOKEN_TTL", "FakeWeCom"]

TOKEN_TTL = timedelta(seconds=7200)  # gettoken's documented expires_in
ISSUED_TOKENS: list[str] = []
"""Every access token any fake issued in this process: the tests scan logs for them."""


def _utc_now() -> datetime:
    return datetime.now(UTC)


class FakeWeCom(FaultSwitches):
    """State and protocol logic of the fake; the aiohttp app is a thin shell.

    Args:
        corp_id, secret, agent_id: the one app the fake knows.
        users: known UserIDs (case-insensitive); None accepts everyone.
        unlicensed_users: known users without an API licence (`unlicenseduser`).
        clock: returns an aware "now"; token expiry and receipts use it.

    `latency` (seconds, default 0) delays every message/send answer, as a distant
    API would: a benchmark's senders then wait on the network, not on the fake.
    `console` is the app as its admin configured it (enabled, 可见范围, menu): see
    `fake_agent`. `untrusted_ip`, when set, is the caller's address as WeCom sees it
    and not in 企业可信 IP: every endpoint then answers 60020 naming it, as WeCom
    does for an app whose trusted IPs do not include the server's outbound address
    (we assume gettoken is refused too; the documentation does not say).
    The fault switches (`fail_next`, `hang_next`, ...) come from `FaultSwitches`.
    """

    def __init__(
        self,
        *,
        corp_id: str = "wwsandboxcorp0001",
        secret: str = "sandbox-secret",
        agent_id: int = 1000002,
        users: Iterable[str] | None = None,
        unlicensed_users: Iterable[str] = (),
        clock: Clock = _utc_now,
    ) -> None:
        super().__init__()
        self.corp_id, self.secret, self.agent_id = corp_id, secret, agent_id
        self.users = None if users is None else {u.lower() for u in users}
        self.unlicensed_users = {u.lower() for u in unlicensed_users}
        self.clock = clock
        self.messages: list[ReceivedMessage] = []
        self.gettoken_calls = 0
        self.send_calls = 0
        self.update_calls = 0
        self.duplicates_dropped = 0
        self.latency = 0.0  # seconds before each message/send answer
        self.console = AppConsole()
        self.untrusted_ip: str | None = None
        self._tokens: dict[str, datetime] = {}
        self._recent: dict[str, tuple[datetime, str]] = {}
        self._seq = 0
        # The book asks for the time through us, so it always sees `self.clock`.
        self._cards = CardBook(clock=lambda: self.clock())

    @property
    def card_updates(self) -> list[CardUpdate]:
        """Every card update accepted, oldest first."""
        return self._cards.updates

    def expire_tokens(self) -> None:
        """Expire every issued token: they now get 42001 and gettoken issues a new one."""
        now = self.clock()
        self._tokens = {token: min(exp, now) for token, exp in self._tokens.items()}

    def messages_to(self, user: str) -> list[ReceivedMessage]:
        """Messages accepted for one recipient, oldest first."""
        return [m for m in self.messages if m.recipient.lower() == user.lower()]

    def card_updates_to(self, user: str) -> list[CardUpdate]:
        """Card updates accepted for one recipient's cards, oldest first."""
        return [u for u in self.card_updates if u.recipient.lower() == user.lower()]

    def issue_click_code(self, message: ReceivedMessage) -> str:
        """The ResponseCode WeCom puts in the callback when `message`'s recipient
        clicks a button: a fresh code, good for one update of that card, 72 hours.

        Raises:
            ValueError: `message` is not an interactive card.
        """
        if message.response_code is None:
            raise ValueError("only interactive template cards can be clicked")
        return self._cards.issue_click(message.response_code, message.recipient)

    # -- gettoken -----------------------------------------------------------------

    def gettoken(self, corpid: str, corpsecret: str) -> Json:
        """Documented gettoken: 40013 for a wrong corpid, 40001 for a wrong secret.

        Within its validity the same token is returned again ("有效期内重复获取
        返回相同结果"), with the seconds it has left.
        """
        if corpid != self.corp_id:
            return error_body(40013)
        if corpsecret != self.secret:
            return error_body(40001)
        now = self.clock()
        token = next((t for t, exp in self._tokens.items() if exp > now), None)
        if token is None:
            token = secrets.token_urlsafe(48)
            ISSUED_TOKENS.append(token)
            self._tokens[token] = now + TOKEN_TTL
        expires_in = int((self._tokens[token] - now).total_seconds())
        return {"errcode": 0, "errmsg": "ok", "access_token": token, "expires_in": expires_in}

    def token_error(self, token: str) -> int:
        """0 for a valid token; 41001 missing, 40014 unknown, 42001 expired."""
        if not token:
            return 41001
        expires_at = self._tokens.get(token)
        if expires_at is None:
            return 40014
        return 42001 if self.clock() >= expires_at else 0

    def ip_denial(self) -> Json | None:
        """60020 naming the caller's address, when it is not a trusted IP."""
        return None if self.untrusted_ip is None else error_body(60020, from_ip=self.untrusted_ip)

    # -- agent/get and menu/create ------------------------------------------------

    def agent_get(self, token: str, agentid: str) -> Json:
        """Documented agent/get for our one app (see `fake_agent`)."""
        code = self.token_error(token) or self._agentid_error(agentid)
        return error_body(code) if code else self.console.agent_info(self.agent_id)

    def menu_create(self, token: str, agentid: str, raw_body: bytes) -> Json:
        """Documented menu/create: a valid menu replaces the app's menu."""
        code = self.token_error(token) or self._agentid_error(agentid)
        menu: Json | None = None
        if not code:
            code, menu = menu_error(raw_body)
        if code or menu is None:
            return error_body(code)
        self.console.menu = menu
        return {"errcode": 0, "errmsg": "ok"}

    def _agentid_error(self, agentid: str) -> int:
        if not agentid.isdigit():
            return 40056
        return 301002 if int(agentid) != self.agent_id else 0

    # -- message/send -------------------------------------------------------------

    def send(self, token: str, raw_body: bytes) -> Json:
        """Documented message/send: validate, deliver to the valid recipients.

        Invalid recipients are listed (lower-cased) in `invaliduser` with
        errcode 0; when no recipient is deliverable the answer is 81013.
        """
        payload = json_object(raw_body)
        code = self.token_error(token) or payload_error(payload, self.agent_id)
        if code or payload is None:
            return error_body(code)
        return self._deliver(payload, content_of(payload) or "")  # validated: not None

    def _deliver(self, payload: Json, content: str) -> Json:
        valid, invalid, unlicensed = self._split_recipients(str(payload.get("touser", "")))
        lists = {"invaliduser": "|".join(invalid), "invalidparty": "", "invalidtag": ""}
        lists["unlicenseduser"] = "|".join(unlicensed)
        if not valid:
            return {**error_body(81013), **lists}
        msgid = self._duplicate_of(payload, valid)
        if msgid is None:
            msgid = self._record(payload, content, valid)
            self._remember(payload, valid, msgid)
        body: Json = {"errcode": 0, "errmsg": "ok", **lists, "msgid": msgid}
        response_code = self._cards.send_code(msgid)
        if response_code is not None:  # documented: interactive cards only
            body["response_code"] = response_code
        return body

    def _split_recipients(self, touser: str) -> tuple[list[str], list[str], list[str]]:
        valid, invalid, unlicensed = [], [], []
        for user in filter(None, touser.split("|")):
            if self.users is not None and user.lower() not in self.users:
                invalid.append(user.lower())  # documented: "统一转为小写"
            elif user.lower() in self.unlicensed_users:
                unlicensed.append(user.lower())
            else:
                valid.append(user)
        return valid, invalid, unlicensed

    def _duplicate_of(self, payload: Json, recipients: list[str]) -> str | None:
        """enable_duplicate_check: an identical message inside the window is dropped.

        The documentation does not say what the API answers then; we assume
        errcode 0 with the first message's msgid, and nothing is delivered.
        """
        seen = self._recent.get(duplicate_key(payload, recipients))
        if payload.get("enable_duplicate_check") != 1 or seen is None:
            return None
        window = payload.get("duplicate_check_interval", DUPLICATE_WINDOW_DEFAULT_S)
        window_s = min(window, DUPLICATE_WINDOW_MAX_S) if isinstance(window, int) else 0
        if self.clock() - seen[0] >= timedelta(seconds=window_s):
            return None
        self.duplicates_dropped += 1
        return seen[1]

    def _remember(self, payload: Json, recipients: list[str], msgid: str) -> None:
        if payload.get("enable_duplicate_check") == 1:
            self._recent[duplicate_key(payload, recipients)] = (self.clock(), msgid)

    def _record(self, payload: Json, content: str, recipients: list[str]) -> str:
        self._seq += 1
        msgid = f"fakemsgid{self._seq:06d}"
        msgtype, now = str(payload["msgtype"]), self.clock()
        code = self._cards.issue_for_send(payload, recipients, msgid)
        for user in recipients:
            self.messages.append(
                ReceivedMessage(
                    recipient=user,
                    msgtype=msgtype,
                    content=content,
                    msgid=msgid,
                    received_at=now,
                    payload=payload,
                    response_code=code,
                )
            )
        return msgid

    # -- message/update_template_card ---------------------------------------------

    def update_card(self, token: str, raw_body: bytes) -> Json:
        """Documented update_template_card: spend a response_code on its card.

        A missing, unknown or expired token is refused first, as on every
        endpoint; the documented rules for the body are `CardBook.update`'s.
        """
        if code := self.token_error(token):
            return error_body(code)
        return self._cards.update(raw_body, self.agent_id)
