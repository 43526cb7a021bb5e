"""The delivery channels by the names people read (管理 状态, alerts, channel replies)."""

from __future__ import annotations

from typing import Final

SERVERCHAN: Final = "Server酱"
"""The provider's own name; its error table's notes name it too."""

CHANNEL_WORDS: Final[dict[str, str]] = {
    "wecom_app": "企业微信应用",
    "wecom_robot": "群机器人",
    "wxpusher": "WxPusher",
    "serverchan": SERVERCHAN,
    "wecomchan": "wecomchan",
    "mp_subscribe": "小程序订阅消息",
}
"""Channels by the names admins read (管理 状态 uses these too)."""

MP_EMPTY_THING: Final = "提醒"
"""A mini-program subscribe message's `thing` when the text has no line to show."""
