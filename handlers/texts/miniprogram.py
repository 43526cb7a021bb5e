"""The water mini-program: binding it from the chat (绑定 小程序)."""

from __future__ import annotations

MP_OFF = "小程序还没开通：需要管理员设置 KEEPER_MP_APPID 等。"
MP_CODE_SENT_BEFORE = "绑定码刚才已经发过了；没收到的话，再发一次「绑定 小程序」就是新的。"


def mp_link_code(code: str) -> str:
    return f"小程序绑定码：{code}\n10 分钟内在小程序里输入，只能用一次。绑定后两边喝水一起算。"
