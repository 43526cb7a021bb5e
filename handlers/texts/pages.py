"""The pages and export (网页, 导出): one-time links."""

from __future__ import annotations

PAGES_OFF = "网页还没开通：需要管理员设置 KEEPER_PUBLIC_URL。"
LINK_SENT_BEFORE = "链接刚才已经发过了；没收到的话，再发一次就是新链接。"


def page_link(url: str, *, admin: bool) -> str:
    what = "管理页面" if admin else "你的网页（全年日历、体重、喝水、账单）"
    return f"{what}，10 分钟内打开，只能用一次：\n{url}"


def export_link(url: str) -> str:
    return f"你的数据（ZIP，含 CSV 和 JSON），10 分钟内下载，只能用一次：\n{url}"
