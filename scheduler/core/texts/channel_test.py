"""The words of a channel test (`测试 渠道`), sent by the tick on that channel."""

from __future__ import annotations

from scheduler.core.texts.channels import CHANNEL_WORDS

ANSWER = "收到"
"""The answer word a test asks for (`收到`, or `收到 <渠道>` when several wait)."""

CHANNEL_NAMES = {**CHANNEL_WORDS, "serverchan_user": CHANNEL_WORDS["serverchan"]}
"""Channels by the names a test names them with; the parser reads them back."""


def answer_word(channel: str | None) -> str:
    """What to answer: a bare 收到, or 收到 and the channel's name."""
    return ANSWER if channel is None else f"{ANSWER} {CHANNEL_NAMES.get(channel, channel)}"


def channel_test_text(channel: str, named: bool) -> str:
    """The test itself: short, and it says what to answer and by when."""
    word = answer_word(channel if named else None)
    name = CHANNEL_NAMES.get(channel, channel)
    return f"keeper 渠道测试（{name}）：手机上看到这条，30 分钟内回复「{word}」。"
