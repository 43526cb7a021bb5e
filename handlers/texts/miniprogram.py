"""The water mini-program: binding it from the chat (绑定 小程序), and every sentence
its API says (`bot/mp/`). Plan validation there reuses the chat's own hints, so both
doors say the same words."""

from __future__ import annotations

MP_OFF = "小程序还没开通：需要管理员设置 KEEPER_MP_APPID 等。"
MP_CODE_SENT_BEFORE = "绑定码刚才已经发过了；没收到的话，再发一次「绑定 小程序」就是新的。"


def mp_link_code(code: str) -> str:
    return f"小程序绑定码：{code}\n10 分钟内在小程序里输入，只能用一次。绑定后两边喝水一起算。"


MP_MESSAGES: dict[str, str] = {
    "bad_request": "请求不完整，请重试。",
    "invalid_code": "登录已失效，请重新打开小程序。",
    "rate_limited": "操作太频繁了，请稍后再试。",
    "code_blocked": "微信暂时不允许这个账号登录。",
    "wechat_unavailable": "微信服务暂时不可用，请稍后再试。",
    "not_configured": "小程序服务还没有开通，请联系管理员。",
    "unauthorized": "请重新登录。",
    "occurred_at_out_of_range": "这杯水的时间不对，请检查手机时间。",
    "link_code_invalid": "绑定码不对或已过期，请在企业微信里发「绑定 小程序」重新获取。",
    "already_linked": "这个小程序已经绑定过企业微信了。",
    "conflict": "这条记录之前已经提交过，内容不一样，已按第一次的为准。",
    "not_found": "没有这个接口。",
    "unsupported_media_type": "请求格式不对，请更新小程序后重试。",
    "server_error": "服务出了点问题，请稍后再试。",
}
"""The API's `message` by error code (the client shows it as is; `error` is for its
logic). Short Chinese."""
