"""Quiet time (免打扰): how to write it, and the replies."""

from __future__ import annotations

QUIET_HINT = "免打扰写成：免打扰 2小时、免打扰 30分钟 或 免打扰 到 明天 8:00"
QUIET_TOO_LONG = "免打扰最长 7 天。想长期不收提醒，发「关闭 提醒」。"
QUIET_TOO_SHORT = "免打扰至少 1 分钟，比如：免打扰 30分钟"
QUIET_IN_THE_PAST = "这个时间已经过了，免打扰要设到以后，比如：免打扰 到 明天 8:00"


def quiet_set(until: str) -> str:
    return (
        f"好的，免打扰到 {until}。这期间喝水和普通提醒等到结束再发，晨报晚报不发；"
        "日程、待办和「重要」提醒照常。"
    )


QUIET_ENDED = "免打扰已取消。"
QUIET_NOT_SET = "现在没有免打扰。"


def quiet_line(until: str) -> str:
    """Quiet time, as a line of the 提醒 list."""
    return f"免打扰到 {until}（取消免打扰）"
