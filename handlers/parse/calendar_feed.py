"""`日历订阅` and the ways people ask for it: a calendar address for the phone.

Read before the command keywords, so `日程`/`提醒` in `我想在手机日历里看日程` are not
taken for a new event: a short message that names a calendar subscription, a
calendar link or the phone's calendar, with no number in it (a number means a time or
an amount: something else is being said). A reset word (重置, 换, 作废 ...) asks for
the old addresses to stop working.
"""

from __future__ import annotations

import re

from handlers.commands import SubscribeCalendar

_CALENDAR = r"(?:日历|日程|行程)"
_ASKED = re.compile(
    rf"{_CALENDAR}(?:的)?(?:订阅|链接|地址|网址|源)"
    rf"|订阅(?:一下)?(?:我的|一个)?{_CALENDAR}"
    rf"|手机(?:上的|的|自带的|系统)?(?:日历|日程)"
    rf"|(?:苹果|iphone|ios|安卓|谷歌|google|outlook)(?:的)?日历"
    r"|ics|icalendar|ical|webcal"
)
_RESET = re.compile(r"重置|重新生成|重新弄|换(?:一?个)?新?的?|作废|失效|泄露|泄漏|撤销")
_NOT_THIS = re.compile(
    r"[0-9]|取消|关闭|删除|不要|[今明后昨]天|周[一二三四五六日天末]|星期|[早晚上下中]午|晚上|点"
)
"""A number, a day or a time: a reminder or an event is being said, not this."""
_OTHER_LEAD = re.compile(r"(?:提醒|任务|待办|日记|记|帮我记|完成)")
"""A message led by another command's keyword is that command's (`提醒 看手机日历`)."""
MAX_CHARS = 30


def read_calendar_feed(text: str) -> SubscribeCalendar | None:
    """`日历订阅`, `订阅日历`, `给我日历链接`, `日历订阅 重置`; None for anything else."""
    said = text.casefold()
    if len(said) > MAX_CHARS or _NOT_THIS.search(said) or _OTHER_LEAD.match(said):
        return None
    if not _ASKED.search(said):
        return None
    return SubscribeCalendar(reset=_RESET.search(said) is not None)
