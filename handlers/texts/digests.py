"""The morning and evening digests' settings (设置 晨报, 关闭 晚报). What the digests
themselves say is the scheduler's: `scheduler/core/texts/digests.py`."""

from __future__ import annotations

from scheduler.core.texts.rules import RULE_KIND_NAMES

DIGEST_TIME_HINT = "时间写成 HH:MM，比如：设置 晨报 07:30"


def digest_set(kind: str, at: str | None) -> str:
    name = RULE_KIND_NAMES[kind]
    if at is None:
        return f"{name}已关闭。想再收就发「开启 {name}」。"
    return f"{name}时间：每天 {at}。没有内容的日子不发。"
