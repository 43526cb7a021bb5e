"""Every sentence of the channel commands (`设置 渠道`, `绑定`, `解绑`, `设置 备用`).

The help page lines are in `handlers.texts.help`. No sentence ever carries a whole
receiver: only its masked hint (`UID_ab…9f`, `SCT12…xy`). Channels are named as
everywhere else (`scheduler.core.texts.channels`).
"""

from __future__ import annotations

from scheduler.core.texts.channels import CHANNEL_WORDS, SERVERCHAN
from storage.vocabulary import ChannelRole

NAMES = {
    "wecom_app": CHANNEL_WORDS["wecom_app"],
    "wxpusher": CHANNEL_WORDS["wxpusher"],
    "serverchan_user": SERVERCHAN,
}

# --- parse errors ---
BIND_HOW = (
    "绑定自己的微信通道：\n"
    "绑定 WxPusher UID_xxxx（UID 在 WxPusher 公众号「我的」→「我的UID」）\n"
    "绑定 Server酱 SCTxxxx（SendKey 在 sct.ftqq.com 的 Key&API 页）"
)
UNBIND_HOW = "写成：解绑 WxPusher 或 解绑 Server酱"
BAD_UID = "这不像 WxPusher 的 UID：应以 UID_ 开头，后面是字母和数字。比如：绑定 WxPusher UID_xxxx"
BAD_SENDKEY = (
    "这不像 Server酱 Turbo 的 SendKey：应以 SCT 开头，后面是字母和数字。"
    "在 sct.ftqq.com 的 Key&API 页复制。"
)
SC3_KEY = "Server酱³ 的 SendKey（sctp 开头）暂不支持，请用 Server酱 Turbo（SCT 开头）的 SendKey。"
PRIMARY_HOW = "写成：设置 渠道 微信（个人微信）或 设置 渠道 企业微信"
FALLBACK_HOW = "写成：设置 备用 微信 · 设置 备用 企业微信 · 设置 备用 关"

# --- replies ---
WXPUSHER_OFF = "这里还没开通 WxPusher（需要管理员配置 KEEPER_WXPUSHER_APP_TOKEN），暂时不能绑定。"
NO_DATA_KEY = "这里还不能保存 Server酱 SendKey（需要管理员配置 KEEPER_DATA_KEY），暂时不能绑定。"
NOTHING_TO_UNBIND = "还没绑定 {name}，不用解绑。"
NEED_WECHAT = "先绑定个人微信的通道：\n" + BIND_HOW.split("\n", 1)[1]
ALREADY_PRIMARY = "{name} 已经是主通道了。"
SAME_AS_PRIMARY = "备用通道不能和主通道相同（现在主通道是 {name}）。"
NOT_USABLE = "{name} 现在用不了：{why}"


def bound(name: str, hint: str, *, primary: str, became_fallback: bool, replaced: bool) -> str:
    first = f"已{'换绑' if replaced else '绑定'} {name}（{hint}）。"
    if became_fallback:
        return first + f"\n{primary} 发不出去时，重要提醒会改走 {name}。"
    return first + "\n发「设置 渠道」查看通道；「设置 渠道 微信」改为主通道。"


def unbound(name: str, role: str) -> str:
    if role == ChannelRole.PRIMARY:
        return f"已解绑 {name}。提醒改回企业微信应用发送。"
    if role == ChannelRole.FALLBACK:
        return f"已解绑 {name}，现在没有备用通道。"
    return f"已解绑 {name}。"


def primary_set(name: str, fallback: str | None) -> str:
    line = f"好的，提醒以后走 {name}。"
    return line + (f"\n备用通道：{fallback}。" if fallback else "\n没有备用通道。")


def fallback_set(name: str | None) -> str:
    if name is None:
        return "好的，不用备用通道了：主通道发不出去时不再改走别处。"
    return f"好的，重要提醒在主通道发不出去时，改走 {name} 补发一次。"


# --- 设置 渠道 ---
SHOW_HEAD = "你的提醒通道："
ROLE_WORDS: dict[str, str] = {
    ChannelRole.PRIMARY: "主通道",
    ChannelRole.FALLBACK: "备用",
    ChannelRole.NONE: "未启用",
}
HEALTH_WORDS = {
    "ok": "正常（最近一次已送出）",
    "idle": "最近 7 天没发过",
    "failed": "最近一次发送失败",
    "unknown": "最近一次结果不确定",
    "retry": "最近一次没发出去，会再试",
    "held": "暂停使用：配置出错",
    "held_told": "暂停使用：配置出错，已发出管理员告警",
    "off": "这里没开通（需要管理员配置），不会用它发送",
    "unreadable": "SendKey 读不出来了（服务端密钥换过），请重新绑定",
}
SHOW_FOOT = "改主通道：设置 渠道 微信 / 企业微信；备用：设置 备用 微信 / 企业微信 / 关"
NO_FALLBACK = "备用：无（主通道发不出去时不补发）"


def evidence_under(words: str) -> str:
    """A line under a channel's line in 设置 渠道: its device check, its answers."""
    return f"  {words}"


def show_line(name: str, hint: str, role: str, health: str) -> str:
    who = f"{name}（{hint}）" if hint else name
    return f"· {who}：{ROLE_WORDS[role]}，{HEALTH_WORDS[health]}"
