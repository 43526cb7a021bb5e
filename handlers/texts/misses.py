"""A message keeper did not understand: the closest thing it can do, in at most 3 lines,
and the dates, times and buttons that do not exist."""

from __future__ import annotations

MISS_HINTS = (
    (("提醒", "叫我", "闹钟"), "想设提醒？比如：明天9点提醒我交材料"),
    (("喝",), "记喝水可以说：喝了两杯水"),
    (("斤", "kg", "公斤", "称", "体重"), "记体重可以说：称了 70.1 或 体重 72.4"),
    (("花", "钱", "块", "元", "买", "付", "收入", "工资"), "记账可以说：午饭 35 或 收到工资 8000"),
    (("待办", "任务", "要做"), "加待办可以说：待办 周五 交材料"),
    (("日程", "开会", "会议"), "加日程可以说：日程 明天 15:00 开会"),
)
MISS_TAIL = "发「帮助」看看还能做什么。"


def miss(text: str) -> str:
    """A message nothing fits: at most 3 lines, the closest thing keeper can do."""
    for words, hint in MISS_HINTS:
        if any(word in text for word in words):
            return f"没看懂这句。{hint}\n{MISS_TAIL}"
    return f"没看懂这句。{MISS_TAIL}"


EMPTY_MESSAGE = "想记点什么？比如：午饭 35、称了 70.1、喝了两杯水。发「帮助」看更多。"
BARE_NUMBER = "光一个数字不知道是什么。记体重写：体重 72.4，记账写：记账 35 午饭"
TOO_LONG = "这条太长了，一条最多 2000 字，请分开发。"


def invalid_date(said: str) -> str:
    """A date that does not exist (13-45, 2月30日)."""
    return f"没有「{said}」这一天。日期可以写成：明天、周五、12-01、12月1日、1号"


def no_such_day(month: int, day: int) -> str:
    """A month and day that make no date (2月30日), said as the user would."""
    return invalid_date(f"{month}月{day}日")


def invalid_time(said: str) -> str:
    """A time that does not exist (24:00, 9:75, 晚上15点)."""
    return f"时间「{said}」不对，要在 0:00 到 23:59 之间，比如：14:30 或 下午3点"


CARD_UNKNOWN = "这个按钮已经失效了。发「帮助」看看怎么用。"
NOT_TEXT = "目前只看得懂文字消息。发「帮助」看看怎么用。"
