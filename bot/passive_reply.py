"""The passive reply: the plaintext XML WeCom shows to the user, within 2048 bytes.

WeCom cuts a passive reply's text at 2048 bytes of UTF-8, possibly mid-character,
so we shorten it ourselves: at a line break when one is near, never inside a
character, with a visible note that it was cut.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

MAX_REPLY_BYTES = 2048


def fit_reply(text: str, *, limit: int = MAX_REPLY_BYTES, note: str = "") -> str:
    """`text` if it fits in `limit` UTF-8 bytes, else a prefix plus `note` that does."""
    if len(text.encode()) <= limit:
        return text
    budget = limit - len(note.encode())
    if budget <= 0:
        return _prefix(note, limit)
    head = _prefix(text, budget)
    cut = head.rfind("\n")
    if cut >= len(head) // 2:  # prefer a whole line unless that throws away too much
        head = head[:cut]
    return head + note


def _prefix(text: str, limit: int) -> str:
    """The longest prefix of whole characters whose UTF-8 form fits in `limit` bytes."""
    return text.encode()[: max(0, limit)].decode("utf-8", errors="ignore")


def reply_xml(*, to_user: str, from_corp: str, create_time: int, text: str) -> str:
    """A text reply message, escaped (no CDATA, so no `]]>` pitfalls)."""
    return (
        "<xml>"
        f"<ToUserName>{escape(to_user)}</ToUserName>"
        f"<FromUserName>{escape(from_corp)}</FromUserName>"
        f"<CreateTime>{create_time}</CreateTime>"
        "<MsgType>text</MsgType>"
        f"<Content>{escape(text)}</Content>"
        "</xml>"
    )
