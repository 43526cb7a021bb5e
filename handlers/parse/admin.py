"""`管理 ...`: the admin commands (whether the user may is the handler's call)."""

from __future__ import annotations

import re

from handlers import texts
from handlers.commands import (
    AdminHoldAll,
    AdminSettle,
    AdminStatus,
    Command,
    OpenPages,
    ParseError,
)
from handlers.parse.body import Body

_HOLD = re.compile(
    r"(?P<a>暂停|恢复)\s*(?:一下)?\s*(?:全部|所有)(?:的)?(?:发送)?"
    r"|(?:全部|所有)(?:的)?(?:发送)?\s*(?:都|全|先)*\s*(?P<b>暂停|恢复)(?:发送)?"
)
_STATUS_ASKED = re.compile(r"^(?:现在|目前)?\s*|\s*(?:怎么样|如何|咋样|好吗)[?？]?$")
_LEAD = re.compile(r"^(?:员|后台)?\s*[:,]?\s*(?:先|请|帮我)?\s*(?:把)?\s*")
_SETTLE = re.compile(
    r"(?i)对账\s*(?:#|job[_-]?|任务)?\s*(?P<job>[0-9]{1,12})\s*(?P<word>已收到|未收到|没收到|已经收到了|已经收到|收到了|收到)"
)


def parse_admin(body: Body) -> Command:
    """`管理 状态` / `管理 对账 12 已收到` / `管理 暂停 全部` / `管理 恢复 全部` /
    `管理 网页` (whether the user may is the handler's call)."""
    text = _LEAD.sub("", " ".join(body.text.split()))  # 管理员 查看状态, 管理：先把所有发送都暂停
    text = _STATUS_ASKED.sub("", text)  # 管理：现在系统状态怎么样
    for look in ("看一下", "看看", "看下", "查一下", "查看", "查下"):
        text = text.removesuffix(look).removeprefix(look).strip()  # 管理 状态看一下
    if text.removeprefix("系统") == "状态":
        return AdminStatus()  # 管理 系统状态
    text = text.removeprefix("打开").removeprefix("给我").removeprefix("发我").strip()
    text = text.removeprefix("后台").strip()  # 管理 后台网页
    text = text.removeprefix("系统").strip()  # 管理 看一下系统状态
    if text.startswith(("网页", "页面")):
        return OpenPages(admin=True)  # 管理 网页链接发我一个
    said = text.removesuffix("吧").removesuffix("一下").strip()
    hold = _HOLD.fullmatch(said) or _HOLD.match(said)  # 管理 暂停 全部 先别发了
    if hold is not None:
        return AdminHoldAll(hold=(hold["a"] or hold["b"]) == "暂停")
    if match := _SETTLE.fullmatch(text):
        return AdminSettle(
            job_id=int(match["job"]),
            received=match["word"] in ("已收到", "收到了", "收到", "已经收到了", "已经收到"),
        )
    raise ParseError(texts.ADMIN_HINT)
