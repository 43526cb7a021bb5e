"""Template cards in the fake WeCom API: response_codes and update_template_card.

One role: the bookkeeping behind interactive cards, as WeCom documents it
("更新模版卡片消息", https://developer.work.weixin.qq.com/document/path/94888).
message/send answers an interactive card with a response_code, a button click
brings a fresh one, and each code buys exactly one update of that card, for 72
hours, for the users who received it. Where the documentation is silent, the
docstring of the branch says what we assumed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.sandbox.fake_protocol import Clock, Json, agent_error, error_body, json_object

__all__ = [
    "INTERACTIVE_CARDS",
    "RESPONSE_CODE_TTL",
    "CardBook",
    "CardUpdate",
    "replacement",
    "update_error",
]

INTERACTIVE_CARDS = frozenset({"button_interaction", "vote_interaction", "multiple_interaction"})
RESPONSE_CODE_TTL = timedelta(hours=72)  # documented: a response_code lives 72 hours


@dataclass(frozen=True, kw_only=True, slots=True)
class CardUpdate:
    """One accepted update_template_card, for one recipient's copy of the card."""

    recipient: str
    response_code: str
    replace_name: str  # button.replace_name; "" when a whole new card was sent
    card: Json | None  # the replacement template_card, if one was sent
    task_id: str  # the updated card's task_id
    msgid: str  # the updated card's message
    received_at: datetime


@dataclass(kw_only=True, slots=True)
class _IssuedCode:
    """A response_code the fake handed out: whose card it updates, until when."""

    recipients: frozenset[str]  # lower-cased
    task_id: str
    msgid: str
    expires_at: datetime
    used: bool = False


class CardBook:
    """The response_codes the fake issued and the card updates it accepted.

    Args:
        clock: returns an aware "now"; code expiry and update receipts use it.
    """

    def __init__(self, *, clock: Clock) -> None:
        self.clock = clock
        self.updates: list[CardUpdate] = []
        self._codes: dict[str, _IssuedCode] = {}
        self._send_codes: dict[str, str] = {}  # msgid -> the code message/send answered

    def issue_for_send(self, payload: Json, recipients: list[str], msgid: str) -> str | None:
        """message/send's response_code: for an interactive card only, one per message."""
        card = payload.get("template_card")
        if not isinstance(card, dict) or card.get("card_type") not in INTERACTIVE_CARDS:
            return None
        users = frozenset(u.lower() for u in recipients)
        code = self._issue(users, str(card.get("task_id", "")), msgid)
        self._send_codes[msgid] = code
        return code

    def send_code(self, msgid: str) -> str | None:
        """The response_code message/send answers for `msgid` (interactive cards only)."""
        return self._send_codes.get(msgid)

    def issue_click(self, response_code: str, recipient: str) -> str:
        """A click's fresh code for the card `response_code` was issued with.

        Raises:
            KeyError: this book never issued `response_code`.
        """
        issued = self._codes[response_code]
        return self._issue(frozenset({recipient.lower()}), issued.task_id, issued.msgid)

    def _issue(self, recipients: frozenset[str], task_id: str, msgid: str) -> str:
        code = f"fake-response-code-{len(self._codes) + 1:06d}"
        expires_at = self.clock() + RESPONSE_CODE_TTL
        self._codes[code] = _IssuedCode(
            recipients=recipients, task_id=task_id, msgid=msgid, expires_at=expires_at
        )
        return code

    def update(self, raw_body: bytes, agent_id: int) -> Json:
        """Documented update_template_card (past the token check): spend a code on its card.

        Accepted: a code this book issued (message/send's answer or a click, see
        `issue_click`), unused, under 72 hours old, for `userids` that received
        that card; the others are listed lower-cased in `invaliduser`, a JSON array
        here (message/send has a `|` string). Where the docs are silent we assume:
        a reused code -> 42022 (global table: "code已经被使用过。只能使用一次"); an
        unknown or expired code, or no response_code/button -> 40058 ("不合法的参数");
        no userids -> 82001; no listed user received the card -> errcode 0 with all
        of them in `invaliduser`, and the code is not spent.
        """
        payload = json_object(raw_body)
        code = update_error(payload, agent_id)
        if code or payload is None:
            return error_body(code)
        response_code = str(payload["response_code"])
        issued = self._codes.get(response_code)
        if issued is None:
            return error_body(40058)
        if issued.used:
            return error_body(42022)
        if self.clock() >= issued.expires_at:
            return error_body(40058)
        return self._apply(payload, response_code, issued)

    def _apply(self, payload: Json, response_code: str, issued: _IssuedCode) -> Json:
        users = [str(u) for u in payload["userids"]]
        valid = [u for u in users if u.lower() in issued.recipients]
        invalid = [u.lower() for u in users if u.lower() not in issued.recipients]
        if valid:
            issued.used = True
            replace_name, card = replacement(payload) or ("", None)
            now = self.clock()
            self.updates.extend(
                CardUpdate(
                    recipient=user,
                    response_code=response_code,
                    replace_name=replace_name,
                    card=card,
                    task_id=issued.task_id,
                    msgid=issued.msgid,
                    received_at=now,
                )
                for user in valid
            )
        return {"errcode": 0, "errmsg": "ok", "invaliduser": invalid}


def update_error(payload: Json | None, agent_id: int) -> int:
    """0, or the errcode for an update_template_card body we cannot act on."""
    if payload is None:
        return 47001
    if code := agent_error(payload, agent_id):
        return code
    userids = payload.get("userids", [])
    if not isinstance(userids, list) or not all(isinstance(u, str) for u in userids):
        return 40058
    if not userids:
        return 82001
    response_code = payload.get("response_code")
    if not isinstance(response_code, str) or not response_code:
        return 40058
    return 40058 if replacement(payload) is None else 0


def replacement(payload: Json) -> tuple[str, Json | None] | None:
    """(button.replace_name, None) or ("", template_card); None when neither is usable."""
    button, card = payload.get("button"), payload.get("template_card")
    name = button.get("replace_name") if isinstance(button, dict) else None
    if isinstance(name, str) and name:
        return name, None
    if isinstance(card, dict) and card:
        return "", card
    return None
