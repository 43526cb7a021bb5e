"""`keeper doctor`'s words: the test messages it sends (Chinese: the admins read them
in WeCom), the mini-program check's fixes, and the WeCom admin console's pages and
fields as the console labels them, which the doctor's English lines quote so an
operator finds them on screen (`bot/doctor*.py`, settings' hints)."""

from __future__ import annotations

DOCTOR_TEST_MESSAGE = (
    "keeper doctor：这是一条测试消息，只发给管理员。手机上看到了，30 分钟内回复「收到」。"
)
DOCTOR_TEST_ALERT = "keeper doctor：告警通道测试。收到这条，说明出问题时你会在这里收到通知。"

# The WeCom admin console.
CONSOLE_APP = "应用管理 -> 自建 -> your app"
CONSOLE_TRUSTED_IP = "企业可信 IP"
CONSOLE_TRUSTED_IP_PAGE = f"{CONSOLE_APP} -> 开发者接口 -> 企业可信IP -> 配置"
CONSOLE_CORP_ID = "企业ID"
CONSOLE_CORP_ID_PAGE = f"我的企业 -> 企业信息 -> {CONSOLE_CORP_ID}"
CONSOLE_SECRET_PAGE = f"{CONSOLE_APP} -> Secret -> 查看"
CONSOLE_CONTACTS = "通讯录"
CONSOLE_MEMBER_ACCOUNT = f"{CONSOLE_CONTACTS} -> member -> 账号"
CONSOLE_OWN_ACCOUNT = f"{CONSOLE_CONTACTS} -> your entry -> 账号"
CONSOLE_VISIBLE = "可见范围"
CONSOLE_VISIBLE_ADD = f"{CONSOLE_APP} -> {CONSOLE_VISIBLE} -> 添加"
CONSOLE_ENABLE_PAGE = f"{CONSOLE_APP} -> 启用"
CONSOLE_DISABLED = "停用"
CONSOLE_ENTER_EVENTS = "进入应用事件"
CONSOLE_ENTER_EVENTS_PAGE = f"{CONSOLE_APP} -> 接收消息 -> 设置API接收 -> 上报进入应用事件"
APP_OPENS_ON = "今天"
"""What a member sees on opening the app, when the enter event is reported."""

# The mini-program (WeChat's console, 小程序后台).
DOCTOR_MP_NAME = "小程序"
DOCTOR_MP_FIXES = {
    40001: "KEEPER_MP_SECRET 不对：小程序后台 → 开发管理 → 开发设置 → AppSecret，重置后更新。",
    40125: "KEEPER_MP_SECRET 不对：小程序后台 → 开发管理 → 开发设置 → AppSecret，重置后更新。",
    40013: "KEEPER_MP_APPID 不对：小程序后台 → 开发管理 → 开发设置 → AppID。",
    40164: "把服务器的出口 IP 加到 小程序后台 → 开发管理 → 开发设置 → IP 白名单。",
}
DOCTOR_MP_OTHER_FIX = "检查 KEEPER_WECHAT_API_BASE 和服务器到 api.weixin.qq.com 的网络，稍后再试。"
