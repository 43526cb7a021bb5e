"""The calendar feed (日历订阅): the address, its reset, and the words inside the feed."""

from __future__ import annotations

CALENDAR_OFF = (
    "日历订阅还没开通：需要管理员在 keeper 的设置里填 KEEPER_PUBLIC_URL"
    "（手机能打开的 keeper 地址，如 https://keeper.example.com），重启后再发「日历订阅」。"
)
CALENDAR_NAME = "keeper 日程"
CALENDAR_TASK = "待办："
CALENDAR_REMINDER = "提醒："


def calendar_link(url: str, *, reset: bool) -> str:
    """The private address; said once (a retried message gets `LINK_SENT_BEFORE`)."""
    head = "旧的日历订阅地址都已失效，新的地址：" if reset else "你的日历订阅地址："
    return (
        f"{head}\n{url}\n"
        "在手机日历里「添加订阅日历」填入它，能看到 90 天内的日程、定了时间的待办和一次性提醒。"
        "地址就是钥匙，别发给别人；泄露了发「日历订阅 重置」。"
    )
