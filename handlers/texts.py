"""Every sentence keeper says, in one module.

Reviewers read this file to know the bot's voice: short, plain Chinese, only what
the next action needs. Functions take plain values and return text; they do no I/O.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from scheduler.core.incidents import CHANNEL_WORDS
from scheduler.core.messages import (
    MISSED_MAX_LABELS,
    REPLY_REF_MAX_CHARS,
    Lost,
    clip_title,
    lost_line,
)
from scheduler.core.times import WEEKDAYS, day_label, hm, md
from storage.vocabulary import (
    IncidentKind,
    JobStatus,
    LedgerDirection,
    PlanState,
    RuleKind,
    RuleStatus,
)

# --- parse errors (owned by handlers/parse/) ---
HELP_TEXT = "\n".join(
    (
        "直接说就行，比如：午饭 35、称了 70.1、喝了两杯水、明天9点提醒我交材料、今天咋样。",
        "按类看用法，发「帮助 记账」这样：",
        "记账 · 体重 · 喝水 · 待办 · 日程 · 提醒 · 设置 · 日记 · 查看",
        "记错了发「撤销」。",
    )
)
HELP_PAGES = {
    "记账": (
        "记账：午饭 35 · 地铁 4块 · 花了120买衣服 · 收到工资 8000",
        "也可以：记账 35 午饭 / 支出 35.5 交通 打车 / 收入 8000 工资",
        "分类会自动认（早餐→餐饮，地铁→交通，房租→居住…），回复里会写明。",
        "预算：预算 餐饮 1500（每月）· 预算（看进度）· 取消预算 餐饮",
        "看账：本月 或 这个月花了多少",
    ),
    "体重": (
        "体重：体重 72.4 · 称了下 70.1 · 空腹 140斤 · 72.4kg",
        "斤会换算成公斤。只发一个数字时会先问你是不是体重。",
        "看变化：本周 / 本月",
    ),
    "喝水": (
        "喝水：喝水 · 喝了三杯水 · 喝水 +2 · 喝水 -1（记多了减掉）",
        "提醒：开启 喝水 / 暂停 喝水 / 关闭 喝水；稍后 = 30 分钟后再提醒",
        "设置：每隔一个半小时提醒我喝水 · 喝水目标 10杯 · 作息 七点到十一点",
    ),
    "待办": (
        "加待办：待办 周五 交材料 · 加个待办 明天下午3点 取快递",
        "完成：完成 3 · 取快递搞定了 · 2 完成了",
        "取消：取消 3 · 不用买菜了；改到明天：明天再说 3",
        "看列表：任务 或 还有什么没做",
    ),
    "日程": (
        "加日程：日程 周四 14:00-15:00 复诊 · 记到日程 明天3点到4点半 开会",
        "提前提醒：日程 明天 9:30 开会 提前15分钟",
        "看日程：日程 或 日程有啥；改日程 2 周五 15:00；取消日程 2",
    ),
    "提醒": (
        "提醒：每天早上七点半提醒我吃维生素 · 四十分钟后提醒我关烤箱",
        "重复：每天 / 工作日 / 每周一三五 / 每月1号 / 每年3月8日；加「重要」必达",
        "管理：提醒（看列表）· 删除 提醒 3 · 暂停 提醒 3 · 关闭 提醒（全部）",
        "催到做完：提醒 明天 9:00 交材料 直到完成（每10分钟再提醒，最多提醒6次含第一次，回复「收到」就停）",
    ),
    "设置": (
        "晨报晚报：打开早报 · 关掉晚报 · 晨报 7:30",
        "作息：作息 七点到十一点；喝水：每隔两小时提醒我喝水 · 喝水目标 8杯",
        "免打扰 2小时 · 免打扰 到 明天 8:00 · 取消免打扰；设置 卡片 开",
        "我是谁：看自己的企业微信账号（管理员配置 KEEPER_ADMINS 用）",
        "通道：设置 渠道 · 绑定 WxPusher UID_… / Server酱 SCT… · 设置 渠道 微信 · 设置 备用 关",
    ),
    "日记": ("写日记：日记 今天复诊以后轻松了一些", "日记按原样保存，不会被当成记账或体重。"),
    "查看": (
        "今天 / 今天咋样：今天的记录和待办",
        "本周 / 这周花了多少 · 本月 / 这个月花了多少",
        "任务 / 还有什么没做 · 日程 / 日程有啥 · 提醒",
        "今年：一年的概况 · 网页：全年日历和图表 · 导出：下载我的数据",
        "周报：本周回看（每周日 20:00 推送提示；设置 周报 周六 9:00 · 关闭 周报）",
    ),
}
"""`帮助 <topic>`: each page a few lines, far under the 2048-byte passive reply."""


def help_page(topic: str) -> str:
    """The page of `topic`, or the menu for an unknown or empty topic."""
    page = HELP_PAGES.get(topic)
    return "\n".join(page) if page else HELP_TEXT


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

WEIGHT_FORMAT = "体重要写成数字，比如：体重 72.4 或 体重 145斤"
WEIGHT_OUT_OF_RANGE = "体重要在 20 到 300 公斤之间，比如：体重 72.4（用斤就写 体重 145斤）"

WATER_FORMAT = "喝水要写成：喝水、喝水 +2 或 喝水 -1（记错了用负数减掉）"
WATER_OUT_OF_RANGE = "喝水一次记 1 到 20 杯，减掉最多 10 杯，比如：喝水 +2 或 喝水 -1"

AMOUNT_NOT_POSITIVE = "金额要大于 0，比如：记账 35 午饭（收入用：收入 8000 工资）"
AMOUNT_TOO_PRECISE = "金额最多两位小数，比如：记账 35.50 午饭"
AMOUNT_TOO_LARGE = "金额太大了，一笔最多 1000 万。"


def ledger_needs_amount(keyword: str, *, income: bool) -> str:
    """`记账` without a number: show the same keyword with an amount."""
    example = "8000 工资" if income else "35 午饭"
    return f"{keyword}要写金额，比如：{keyword} {example}"


TASK_NEEDS_TITLE = "待办要写做什么，比如：任务 周五 提交材料"
TASK_ONE_TIME = (
    "待办只要一个时间，比如：任务 明天 15:00 交材料。有起止时间的请用：日程 明天 14:00-15:00 开会"
)
TASK_NUMBER_INVALID = "待办编号从 1 开始，发「任务」可以看到编号。"


def task_ref_missing(verb: str) -> str:
    """`完成` alone: ask which one."""
    return f"{verb}哪一项？写成：{verb} 3 或 {verb} 提交材料"


def task_one_at_a_time(verb: str) -> str:
    """`完成 3 4`: one task per message."""
    return f"一次{verb}一项，比如：{verb} 3"


EVENT_NEEDS_DAY = "日程要写哪天，比如：日程 周四 14:00-15:00 复诊 或 日程 12月3日 全天 体检"
EVENT_NEEDS_TITLE = "日程要写做什么，比如：日程 明天 9:30 开会"
EVENT_END_BEFORE_START = "结束时间要晚于开始时间，比如：日程 周四 14:00-15:00 复诊"
REMIND_FORMAT = "提前提醒要写成：提前15分钟 或 提前1小时，最多提前 24 小时。"

JOURNAL_NEEDS_TEXT = "日记要写内容，比如：日记 复诊以后感觉轻松了一些"


def invalid_date(said: str) -> str:
    """A date that does not exist (13-45, 2月30日)."""
    return f"没有「{said}」这一天。日期可以写成：明天、周五、12-01、12月1日、1号"


def invalid_time(said: str) -> str:
    """A time that does not exist (24:00, 9:75, 晚上15点)."""
    return f"时间「{said}」不对，要在 0:00 到 23:59 之间，比如：14:30 或 下午3点"


SWITCH_NEEDS_TARGET = "要{keyword}什么？比如：{keyword} 喝水"
SWITCH_UNKNOWN_TARGET = (
    "可以开关的有：喝水、晨报、晚报、周报、提醒（全部）或 提醒 3（一条）。比如：关闭 晚报"
)
SETTING_UNKNOWN = (
    "可以设置：作息、喝水间隔、喝水目标、晨报、晚报、周报、卡片。比如：设置 晨报 07:30"
)
DIGEST_TIME_HINT = "时间写成 HH:MM，比如：设置 晨报 07:30"
CARDS_HINT = "写成：设置 卡片 开 或 设置 卡片 关"
DELETE_HINT = "删除提醒要写编号，比如：删除 提醒 3。发「提醒」看编号。"
RULE_NUMBER_INVALID = "提醒编号从 1 开始，发「提醒」看编号。"
QUIET_HINT = "免打扰写成：免打扰 2小时、免打扰 30分钟 或 免打扰 到 明天 8:00"
QUIET_TOO_LONG = "免打扰最长 7 天。想长期不收提醒，发「关闭 提醒」。"
QUIET_TOO_SHORT = "免打扰至少 1 分钟，比如：免打扰 30分钟"
QUIET_IN_THE_PAST = "这个时间已经过了，免打扰要设到以后，比如：免打扰 到 明天 8:00"
CANCEL_EVENT_HINT = "取消日程要写编号，比如：取消日程 2。发「日程」看编号。"
EDIT_EVENT_HINT = "改日程写编号和新的时间或名称，比如：改日程 2 周五 15:00。发「日程」看编号。"
CARD_UNKNOWN = "这个按钮已经失效了。发「帮助」看看怎么用。"
WINDOW_HINT = "作息写成两个时间，比如：设置 作息 08:00-22:00"
WINDOW_ORDER = "起床时间要早于睡觉时间，比如：设置 作息 08:00-22:00"
INTERVAL_HINT = "喝水间隔写分钟数，30 到 480，比如：设置 喝水间隔 120"
ADMIN_HINT = (
    "管理命令：管理 状态 / 管理 对账 <任务号> 已收到|未收到 / 管理 暂停 全部 / 管理 恢复 全部"
    " / 管理 网页"
)
GOAL_HINT = "喝水目标写每天几杯，1 到 30，比如：设置 喝水目标 8"
# Custom reminders (handlers/parse/schedules.py).
REMINDER_EXAMPLES = "比如：提醒 每天 22:00 吃药、提醒 明天 9:00 交材料、提醒 每周一 09:00 写周报"
NEEDS_WHEN = "什么时候提醒？时间写在前面，" + REMINDER_EXAMPLES
NEEDS_TITLE = "提醒做什么？把事情写在时间后面，比如：提醒 每天 22:00 吃药"
TITLE_TOO_LONG = "提醒的事情最多 100 个字，写短一点吧。"
IN_THE_PAST = "这个时间已经过了，换个以后的时间吧，比如：提醒 明天 9:00 交材料"
UNKNOWN_REPEAT = (
    "没看懂怎么重复。可以写：每天、每晚、每周一、每周一三五、工作日、周末、"
    "每月1号、每月最后一天、每年3月8日"
)
WEEKDAY_MISSING = "每周几？比如：提醒 每周一 09:00 写周报，或 提醒 每周一三五 7:00 健身"
INVALID_MONTH_DAY = "每月的日子要在 1 到 31 号之间，月底可以写：每月最后一天"
ONE_TIME_PER_REMINDER = "一条提醒写一个时间，两个时间请分两条发，比如：每天 8:00 吃药"
LATER_OUT_OF_RANGE = "「多久以后」要在 1 分钟到 365 天之间，比如：提醒 30分钟后 关火"
# --- end parse errors ---

# --- replies ---


def kg(value: Decimal) -> str:
    """72.40 -> "72.4", 70.00 -> "70"."""
    return f"{value.normalize():f}"


def yuan(value: Decimal) -> str:
    return f"{value:.2f} 元"


def signed(value: Decimal, unit: str = "") -> str:
    if value == 0:
        return "持平"
    sign = "+" if value > 0 else "-"
    return f"{sign}{kg(abs(value))}{unit}"


# Records.


def weight_recorded(value: Decimal, previous: Decimal | None) -> str:
    if previous is None:
        return f"记下了：体重 {kg(value)} kg。"
    if value == previous:
        return f"记下了：体重 {kg(value)} kg，和上次一样。"
    return f"记下了：体重 {kg(value)} kg，比上次{signed(value - previous, ' kg')}。"


def water_recorded(glasses: int, today_total: int) -> str:
    if glasses < 0:
        return f"已减去 {-glasses} 杯，今天共 {today_total} 杯水。"
    return f"喝水 +{glasses}，今天第 {today_total} 杯。"


def ledger_recorded(direction: str, amount: Decimal, category: str, note: str) -> str:
    return f"记账：{_ledger_entry(direction, amount, category, note)}。"


def _ledger_entry(direction: str, amount: Decimal, category: str, note: str) -> str:
    """`支出 35.00 元（餐饮 午饭）`: one ledger entry, as recorded and as guessed."""
    what = "支出" if direction == LedgerDirection.EXPENSE else "收入"
    detail = f"{category} {note}".strip()
    return f"{what} {yuan(amount)}（{detail}）"


def journal_saved(length: int) -> str:
    return f"日记已保存，{length} 字。"


def task_added(number: int, title: str, due: str | None, remind_at: str | None = None) -> str:
    when = f"，{due}" if due else ""
    remind = f"{remind_at} 提醒你；" if remind_at else ""
    return f"已添加待办 {number}：{title}{when}。\n{remind}做完回复「完成 {number}」。"


def task_due_label(day: dt.date | None, at: dt.time | None, today: dt.date) -> str | None:
    if day is None:
        return None
    label = day_label(day, today)
    return f"{label} {hm(at)}" if at else label


def task_closed(title: str, done: bool, open_left: int) -> str:
    head = f"完成：{title} ✓" if done else f"已取消：{title}"
    return f"{head}\n还有 {open_left} 项待办。" if open_left else f"{head}\n待办清空了。"


TASK_ALREADY_CLOSED = "这项待办已经完成或取消了。"


def task_not_found(number: int | None, title: str | None) -> str:
    what = f"编号 {number} " if number is not None else f"「{title}」"
    return f"没有找到{what}的待办。发「任务」看看列表。"


def task_ambiguous(title: str, candidates: list[tuple[int | None, str]]) -> str:
    listed = "、".join(f"{n} {t}" for n, t in candidates[:5])
    return f"有 {len(candidates)} 项待办都含「{title}」：{listed}。\n请用编号，比如：完成 {candidates[0][0]}"


def event_added(number: int, day: str, span: str, title: str, remind_at: str | None) -> str:
    reply = f"已加入日程 {number}：{day} {span} {title}。"
    return reply + (f"\n{remind_at} 提醒你。" if remind_at else "")


def event_span(start: dt.time | None, end: dt.time | None) -> str:
    if start is None:
        return "全天"
    return f"{hm(start)}-{hm(end)}" if end else hm(start)


# Undo, errors, greetings.

NOTHING_TO_UNDO = "没有可以撤销的记录。"


def undone(kind: str, content: str) -> str:
    what = content if kind == "text" and content else ""
    return f"已撤销：{what or '上一条记录'}。" if what else "已撤销上一条记录。"


def task_reopened(number: int | None, title: str) -> str:
    return f"已撤销，待办 {number} {title} 重新打开。"


WELCOME = "你好，我是 keeper，帮你记体重、喝水、记账、待办和日程。\n发「帮助」看看怎么用。"
STORAGE_DOWN = "暂时记不下来（存储出了问题），这条没有记上，请过一会儿再发一次。"
INTERNAL_ERROR = "出了点问题，这条没有记上，请稍后再试。"
STORAGE_SLOW = "存储暂时没响应，这条没有记上，请过一会儿再发一次。"
MAYBE_RECORDED = "存储响应太慢，这条可能没记下，发「今天」看看。"
REPLY_CUT = "\n…（太长了，只显示前面部分）"
NOT_TEXT = "目前只看得懂文字消息。发「帮助」看看怎么用。"


# Views.


def today_view(
    *,
    today: dt.date,
    weight: tuple[Decimal, dt.date] | None,
    water: int,
    spent: Decimal,
    tasks: list[tuple[int | None, str, str]],
    open_count: int,
    events: list[tuple[str, str]],
    goal: str | None = None,
) -> str:
    lines = [f"今天 {md(today)} 周{WEEKDAYS[today.weekday()]}"]
    if weight is None:
        lines.append("体重：还没记录")
    else:
        value, day = weight
        lines.append(
            f"体重 {kg(value)} kg" + ("" if day == today else f"（{day_label(day, today)}）")
        )
    if goal is not None:
        lines.append(goal)
    lines.append(f"喝水 {water} 杯")
    lines.append(f"支出 {yuan(spent)}")
    if tasks:
        lines.append("待办：")
        lines.extend(f"  {n} {title}（{due}）" for n, title, due in tasks)
    else:
        lines.append(
            f"待办：今天没有到期的（另有 {open_count} 项，发「任务」查看）"
            if open_count
            else "待办：无"
        )
    lines.append("日程：" + ("无" if not events else ""))
    lines.extend(f"  {span} {title}" for span, title in events)
    return "\n".join(lines)


def overdue_label(day: dt.date, today: dt.date) -> str:
    return "今天" if day == today else f"逾期，{md(day)}"


def tasks_view(tasks: list[tuple[int | None, str, str | None]]) -> str:
    if not tasks:
        return "没有待办。发「任务 明天 交材料」添加一项。"
    lines = [f"待办 {len(tasks)} 项："]
    lines.extend(f"{n} {title}" + (f"（{due}）" if due else "") for n, title, due in tasks)
    lines.append("完成发「完成 编号」，取消发「取消 编号」。")
    return "\n".join(lines)


def weight_line(first: Decimal, last: Decimal, low: Decimal, high: Decimal, count: int) -> str:
    if count == 1:
        return f"体重 {kg(last)} kg（本周记了 1 次）"
    return (
        f"体重 {kg(first)} → {kg(last)} kg（{signed(last - first, ' kg')}），"
        f"最低 {kg(low)}，最高 {kg(high)}"
    )


def spending_lines(
    this: dict[str, Decimal], last: dict[str, Decimal], this_total: Decimal, last_total: Decimal
) -> list[str]:
    lines = [f"支出 {yuan(this_total)}（上周 {yuan(last_total)}）"]
    for category, amount in this.items():
        before = last.get(category)
        lines.append(
            f"  {category} {yuan(amount)}" + (f"（上周 {yuan(before)}）" if before else "")
        )
    return lines


def week_view(
    *,
    start: dt.date,
    end: dt.date,
    weight: str | None,
    spending: list[str],
    done: int,
    water: dict[dt.date, int],
) -> str:
    lines = [f"本周 {md(start)}-{md(end)}", weight or "体重：本周没有记录"]
    lines.extend(spending)
    lines.append(f"完成待办 {done} 项")
    days = " · ".join(f"周{WEEKDAYS[d.weekday()]} {n}" for d, n in water.items())
    lines.append(f"喝水（杯）{days}")
    return "\n".join(lines)


def month_view(
    *, month: dt.date, by_category: dict[str, Decimal], spent: Decimal, income: Decimal
) -> str:
    lines = [f"{month.month}月账单", f"支出 {yuan(spent)}"]
    lines.extend(f"  {category} {yuan(amount)}" for category, amount in by_category.items())
    if income:
        lines.append(f"收入 {yuan(income)}")
    if not by_category and not income:
        lines.append("本月还没有记账。发「记账 35 午饭」试试。")
    return "\n".join(lines)


# Water reminders.

WATER_STATE: dict[str, str] = {
    PlanState.DISABLED: "未开启",
    PlanState.SCHEDULED: "开启",
    PlanState.SENDING: "正在发送",
    PlanState.AWAITING_CHECKIN: "等你回复「喝水」",
    PlanState.PAUSED: "已暂停",
}


def water_enabled(next_at: str) -> str:
    return f"喝水提醒已开启，下次提醒 {next_at}。\n喝完回复「喝水」，我按你的节奏安排下一次。"


def water_resumed(next_at: str) -> str:
    return f"喝水提醒已恢复，下次提醒 {next_at}。"


WATER_PAUSED = "喝水提醒已暂停。想继续就发「恢复 喝水」。"
WATER_CLOSED = "喝水提醒已关闭，之前排好的也都取消了。想再开就发「开启 喝水」。"
WATER_REFUSED = {
    "already_enabled": "喝水提醒本来就开着。发「提醒」看下次时间。",
    "not_paused": "喝水提醒没有暂停，不用恢复。",
    "plan_disabled": "喝水提醒还没开启。发「开启 喝水」开启。",
    "already_disabled": "喝水提醒本来就是关着的。",
    "already_paused": "喝水提醒已经暂停了。想继续就发「恢复 喝水」。",
}
WATER_REFUSED_OTHER = "现在不能这样操作喝水提醒，发「提醒」看看它的状态。"
WATER_NOTICE: dict[str, str] = {
    JobStatus.UNKNOWN: "（上一次喝水提醒没能确认是否送达，为免重复，提醒先暂停了。发「喝水」或「恢复 喝水」继续。）",
    JobStatus.FAILED: "（上一次喝水提醒没发出去，提醒先暂停了。发「喝水」或「恢复 喝水」继续。）",
}


def checkin_next(next_at: str, today_total: int, goal: int) -> str:
    if today_total >= goal:
        return f"今天的 {goal} 杯目标达成 🎉 下次提醒 {next_at}。"
    return f"目标 {goal} 杯，还差 {goal - today_total} 杯。下次提醒 {next_at}。"


def water_habit(wake: dt.time, sleep: dt.time, interval: int, goal: int) -> str:
    """The water settings in one phrase, for the 提醒 list."""
    return f"作息 {hm(wake)}-{hm(sleep)}，每 {interval} 分钟，目标 {goal} 杯"


def window_set(window: str) -> str:
    return f"作息已设为 {window}，提醒只在这段时间里发。"


def interval_set(minutes: int) -> str:
    return f"喝水间隔已设为 {minutes} 分钟，从下一次喝水开始算。"


def goal_set(glasses: int) -> str:
    return f"喝水目标已设为每天 {glasses} 杯，达标后当天不再提醒。"


# Admin.

ADMIN_ONLY = "这是管理员命令，你没有权限。"


def who_am_i(user_id: str, is_admin: bool) -> str:
    role = (
        "你是管理员，可以用「管理 状态」。"
        if is_admin
        else "要当管理员，请把它加到 KEEPER_ADMINS 里。"
    )
    return f"你的企业微信账号（UserID）是：{user_id}\n{role}"


def admin_channel(
    channel: str,
    accepted: int,
    failed: int,
    unknown: int,
    retries: int,
    not_sent: int,
    last_success: str,
    consecutive: int,
    waiting: int,
    oldest_age: str,
    causes: list[tuple[str, int]] | None = None,
) -> str:
    lines = [
        f"{channel}：已发出 {accepted}，失败 {failed}，未知 {unknown}，重试 {retries}，未发 {not_sent}",
        f"  最近成功 {last_success}，连续失败 {consecutive}，排队 {waiting}（最早等了 {oldest_age}）",
    ]
    if causes:
        lines.append("  失败原因：" + "；".join(f"{words} {n} 次" for words, n in causes))
    return "\n".join(lines)


CHANNEL_NAMES = CHANNEL_WORDS

INCIDENT_NAMES: dict[str, str] = {
    IncidentKind.CHANNEL_HOLD: "暂停发送",
    IncidentKind.SCHEDULER_STOPPED: "调度器停了",
    IncidentKind.BACKUP_OVERDUE: "备份超期",
}


def admin_alert_road(channel: str) -> str:
    """Where admin alerts go (KEEPER_ALERT_CHANNEL), or that the WeCom app stands in."""
    if channel:
        return f"告警通道：{CHANNEL_NAMES.get(channel, channel)}"
    return "告警通道：未设置（KEEPER_ALERT_CHANNEL），暂由企业微信应用告诉管理员；应用自身出问题时发不出告警"


def admin_incident(kind: str, subject: str, since: str, alerted: bool) -> str:
    what = INCIDENT_NAMES.get(kind, kind)
    if kind == IncidentKind.CHANNEL_HOLD:
        what = f"{CHANNEL_NAMES.get(subject, subject)}{what}"
    return f"⚠ 未解决：{what}，从 {since} 起（{'已告警' if alerted else '还没告警'}）"


def failed_reminder_line(item: Lost) -> str:
    return f"⚠ 没送到：{lost_line(item)}"


JOB_STATUS_NAMES: dict[str, str] = {
    JobStatus.PENDING: "排队",
    JobStatus.PROCESSING: "发送中",
    JobStatus.ACCEPTED: "已发出",
    JobStatus.RETRY_WAIT: "等重试",
    JobStatus.FAILED: "失败",
    JobStatus.UNKNOWN: "未知",
    JobStatus.SUPPRESSED: "免发",
    JobStatus.CANCELLED: "已取消",
    JobStatus.EXPIRED: "过期",
}
"""管理 状态 speaks Chinese: job statuses as the admin reads them."""


ADMIN_NO_JOBS = "还没有任何发送记录。"


def admin_settled(job_id: int, received: bool) -> str:
    return f"已记录：任务 {job_id} {'已收到' if received else '未收到'}。"


def admin_not_unknown(job_id: int) -> str:
    return f"任务 {job_id} 不是「未知」状态，不需要对账。"


def admin_hold(hold: bool) -> str:
    if hold:
        return "已暂停全部发送：提醒先排队，超过补发时限的会过期。发「管理 恢复 全部」恢复。"
    return "已恢复发送。"


def admin_overview(users: int, rules: str, next_job: str | None, held: bool) -> str:
    lines = [f"用户 {users}；规则 {rules or '无'}"]
    lines.append(f"下一条待发：{next_job}" if next_job else "没有排队的发送。")
    if held:
        lines.append("⏸ 全部发送已暂停（管理 恢复 全部）")
    return "\n".join(lines)


def admin_broken_rules(count: int, latest: list[tuple[int, str, str]]) -> str:
    shown = "；".join(f"#{rule_id} {kind}：{reason}" for rule_id, kind, reason in latest)
    return f"⚠ 出错停用的规则 {count} 条（算不出下次时间）：{shown}"


def admin_jobs(counts: str) -> str:
    return f"按类型：{counts}" if counts else ""


# Reminders (提醒), digests, quiet time, cards.

RULE_KIND_NAMES: dict[str, str] = {
    RuleKind.WATER: "喝水",
    RuleKind.DIGEST_MORNING: "晨报",
    RuleKind.DIGEST_EVENING: "晚报",
    RuleKind.EVENT_REMINDER: "日程",
    RuleKind.TASK_DUE: "待办",
    RuleKind.CUSTOM: "提醒",
    RuleKind.WEEKLY_REVIEW: "周报",
    RuleKind.ADMIN_ALERT: "管理告警",
    RuleKind.NAG: "催办",  # 直到完成: apart from plain 提醒 in 管理 状态
}
RULE_STATE_NAMES: dict[str, str] = {
    RuleStatus.ACTIVE: "开",
    RuleStatus.PAUSED: "已暂停",
    RuleStatus.OFF: "已关闭",
}
NO_RULES = "还没有提醒。可以发：提醒 每天 22:00 吃药"
RULES_FOOTER = "删除 提醒 N / 暂停 提醒 N / 恢复 提醒 N；关闭 提醒 全部关掉"


def rule_line(number: int, kind: str, label: str, state: str, next_at: str | None) -> str:
    what = RULE_KIND_NAMES.get(kind, kind)
    name = f"{what} {label}" if label else what
    when = f"，下次 {next_at}" if next_at else ""
    return f"{number}. {name}（{state}{when}）"


def reminder_added(number: int, title: str, when: str, next_at: str, important: bool) -> str:
    must = "（重要：免打扰时也发，发送结果不确定时会再发一次）" if important else ""
    return f"好的，提醒 {number}：{when} {title}{must}。\n下次 {next_at}。"


REMINDER_HAS_NO_TIME = "这个提醒以后不会再响了，没有保存。"


def rule_not_found(number: int) -> str:
    return f"没有编号 {number} 的提醒。发「提醒」看看列表。"


def rule_title_not_found(title: str) -> str:
    return f"没有含「{title}」的提醒。发「提醒」看看列表。"


def rule_title_ambiguous(title: str, candidates: list[tuple[int, str]]) -> str:
    listed = "、".join(f"{n} {t}" for n, t in candidates[:5])
    return f"有 {len(candidates)} 个提醒都含「{title}」：{listed}。\n请用编号，比如：暂停 提醒 {candidates[0][0]}"


def rule_changed(number: int, verb: str, next_at: str | None) -> str:
    if verb == "delete":
        return f"提醒 {number} 已删除。"
    if verb == "pause":
        return f"提醒 {number} 已暂停。发「恢复 提醒 {number}」继续。"
    if next_at is None:
        return f"提醒 {number} 已经没有下一次了。"
    return f"提醒 {number} 已恢复，下次 {next_at}。"


RULE_ALREADY = {"pause": "这条提醒已经暂停了。", "resume": "这条提醒本来就开着。"}
SET_ASIDE_WHY = "算不出下次时间"


def _set_aside_fix(number: int, deletable: bool) -> str:
    """What the user can do about a rule set aside: delete it and set it again; a rule
    that cannot be deleted (a digest, water) is the admin's to mend."""
    return f"请发「删除 提醒 {number}」后重新设置" if deletable else "请联系管理员"


def set_aside_rule_line(number: int, kind: str, label: str, *, deletable: bool) -> str:
    """A rule the scheduler set aside, in the 提醒 list."""
    what = RULE_KIND_NAMES.get(kind, kind)
    name = f"{what} {label}" if label else what
    return f"{number}. {name}（⚠ 出错已停用：{SET_ASIDE_WHY}，{_set_aside_fix(number, deletable)}）"


def set_aside_only_delete(number: int, *, deletable: bool) -> str:
    return f"提醒 {number} 出错已停用，不能暂停或恢复，{_set_aside_fix(number, deletable)}。"


def set_aside_notice(rules: list[tuple[int | None, str, str]]) -> str:
    """Told once, on the next message: these rules (number, kind, label) were set aside."""
    names = "、".join(
        ("" if number is None else f"{number}. ")
        + clip_title(label or RULE_KIND_NAMES.get(kind, kind), REPLY_REF_MAX_CHARS)
        for number, kind, label in rules[:MISSED_MAX_LABELS]
    )
    more = "等" if len(rules) > MISSED_MAX_LABELS else ""
    return f"⚠ 有 {len(rules)} 条提醒出错已停用（{SET_ASIDE_WHY}）：{names}{more}。发「提醒」看怎么处理。"


WATER_RULE_DELETE = "喝水提醒不能删除，发「关闭 喝水」关掉。"
DIGEST_RULE_DELETE = "晨报、晚报不能删除，发「关闭 晨报」或「关闭 晚报」关掉。"


def all_switched(on: bool, count: int) -> str:
    if on:
        return f"已打开 {count} 条提醒。" if count else "没有被关掉的提醒。"
    if not count:
        return "没有开着的提醒。"
    return f"已关闭全部 {count} 条提醒。之后新加的日程和待办还会提醒。\n想打开就发「开启 提醒」。"


def digest_set(kind: str, at: str | None) -> str:
    name = RULE_KIND_NAMES[kind]
    if at is None:
        return f"{name}已关闭。想再收就发「开启 {name}」。"
    return f"{name}时间：每天 {at}。没有内容的日子不发。"


def quiet_set(until: str) -> str:
    return (
        f"好的，免打扰到 {until}。这期间喝水和普通提醒等到结束再发，晨报晚报不发；"
        "日程、待办和「重要」提醒照常。"
    )


QUIET_ENDED = "免打扰已取消。"
QUIET_NOT_SET = "现在没有免打扰。"


def cards_set(on: bool) -> str:
    if on:
        return "好的，提醒会带按钮（喝了/稍后、完成/明天再说）。微信插件里看不到按钮，可发「设置 卡片 关」。"
    return "好的，提醒改回文字。"


def snoozed(at: str) -> str:
    return f"好的，{at} 再提醒你喝水。"


SNOOZE_OFF = "喝水提醒没开着。发「开启 喝水」打开。"


def task_postponed(number: int | None, title: str, due: str) -> str:
    return f"待办 {number} {title} 改到 {due}。"


# Events list / cancel / edit.

NO_EVENTS = "接下来没有日程。加一个：日程 周四 14:00 复诊"


def events_list(lines: list[str]) -> str:
    return "接下来的日程：\n" + "\n".join(lines) + "\n取消日程 N / 改日程 N 周五 15:00"


def event_line(number: int | None, day: str, span: str, title: str) -> str:
    return f"{number}. {day} {span} {title}"


def event_not_found(number: int) -> str:
    return f"没有编号 {number} 的日程。发「日程」看看列表。"


def event_title_not_found(title: str) -> str:
    return f"接下来没有叫「{title}」的日程。发「日程」看看列表。"


def event_title_ambiguous(title: str, candidates: list[tuple[int | None, str]]) -> str:
    listed = "、".join(f"{n} {t}" for n, t in candidates[:5])
    first = candidates[0][0]
    return f"有 {len(candidates)} 个日程都含「{title}」：{listed}。\n请用编号，比如：改日程 {first} 周五 15:00"


def event_cancelled(title: str) -> str:
    return f"已取消日程：{title}，它的提醒也取消了。"


def event_changed(day: str, span: str, title: str, remind_at: str | None) -> str:
    tail = f"\n{remind_at} 提醒你。" if remind_at else ""
    return f"日程已改为：{day} {span} {title}。{tail}"


def missed_line(summary: str) -> str:
    return f"（{summary}）"


# --- end replies ---


# --- questions about a guess (handlers/confirm.py) ---
CONFIRM_TAIL = "？回「是」记下"
DISMISSED = "好的，没有记。"
THANKED = "不客气。"


def confirm_question(what: str) -> str:
    """One short question: the guess in canonical form, and how to say yes."""
    return f"{what}{CONFIRM_TAIL}"


def guess_ledger(direction: str, amount: Decimal, category: str, note: str) -> str:
    return f"记一笔{_ledger_entry(direction, amount, category, note)}"


def guess_weight(value: Decimal) -> str:
    return f"记体重 {kg(value)} kg"


def guess_water(glasses: int) -> str:
    return f"记喝水 {glasses} 杯"


def guess_task(title: str, due: str | None) -> str:
    return f"加待办：{title}" + (f"，{due}" if due else "")


def guess_event(day: str, span: str, title: str) -> str:
    return f"加日程：{day} {span} {title}"


def guess_move(event: str, when: str) -> str:
    return f"把日程「{event}」改到 {when}"


GUESS_OTHER = "照这样做"


# --- pages and export (issue 13) ---
PAGES_OFF = "网页还没开通：需要管理员设置 KEEPER_PUBLIC_URL。"
LINK_SENT_BEFORE = "链接刚才已经发过了；没收到的话，再发一次就是新链接。"


def page_link(url: str, *, admin: bool) -> str:
    what = "管理页面" if admin else "你的网页（全年日历、体重、喝水、账单）"
    return f"{what}，10 分钟内打开，只能用一次：\n{url}"


def export_link(url: str) -> str:
    return f"你的数据（ZIP，含 CSV 和 JSON），10 分钟内下载，只能用一次：\n{url}"


def year_view(
    *,
    year: int,
    through: dt.date,
    days: int,
    weight: tuple[Decimal, Decimal, Decimal, int] | None,
    water_days: int,
    goal_days: int,
    spent: Decimal,
    income: Decimal,
    top: tuple[str, Decimal] | None,
    done: int,
    events: int,
    journal_days: int,
) -> str:
    """`今年`: a few lines; `weight` is (first, last, lowest, count)."""
    if days == 0:
        return f"{year}年还没有记录。记下第一条吧，比如：体重 72.4"
    lines = [f"{year}年（到{md(through)}），有记录的 {days} 天"]
    if weight:
        first, last, low, count = weight
        lines.append(f"体重 {kg(first)} → {kg(last)} kg，最低 {kg(low)}（称了 {count} 次）")
    if water_days:
        lines.append(f"喝水 {water_days} 天，达标 {goal_days} 天")
    if spent or income:
        most = f"，最多：{top[0]} {yuan(top[1])}" if top else ""
        lines.append(f"支出 {yuan(spent)}，收入 {yuan(income)}{most}")
    lines.append(f"完成待办 {done} 项 · 日程 {events} 个 · 日记 {journal_days} 天")
    lines.append("全年日历和图表：发「网页」")
    return "\n".join(lines)


# The weekly review, budgets and the weight goal (issue 14). Neutral and brief: no
# praise, no blame, nothing about days without records.
WEEKDAY_NAMES = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")
BUDGET_HINT = "预算写成：预算 餐饮 1500（每月）。发「预算」看全部。"
BUDGET_CATEGORY_UNKNOWN = (
    "预算按支出分类算：餐饮、交通、购物、居住、通讯、医疗、娱乐、教育、人情、日用、其他。"
    "比如：预算 餐饮 1500"
)
BUDGET_OUT_OF_RANGE = "预算金额要大于 0、小于 100 万。"
CANCEL_BUDGET_HINT = "写成：取消预算 餐饮"
GOAL_WEIGHT_HINT = "写成：目标体重 68（公斤，也可以写 136斤）"
REVIEW_TIME_HINT = "写成：设置 周报 周日 20:00"
NO_BUDGETS = "还没有预算。比如发「预算 餐饮 1500」，每月按类别算。"
GOAL_CLEARED = "目标体重已取消。"
GOAL_NOT_SET = "还没有设目标体重。"
REVIEW_RULE_DELETE = "周报不能删除，发「关闭 周报」关掉。"
SUGGESTION_GONE = "要挪的任务都已经不在了，没有改动。"


def review_when(weekday: int, at: dt.time) -> str:
    return f"每{WEEKDAY_NAMES[weekday]} {at.strftime('%H:%M')}"


def review_set(when: str | None) -> str:
    if when is None:
        return "周报已关闭。想再收就发「开启 周报」。"
    return f"周报时间：{when}。这周没有记录就不发。"


def budget_set(category: str, amount: str, spent: str, new: bool) -> str:
    head = "预算已设好" if new else "预算已改好"
    return f"{head}：{category} 每月 {amount} 元，本月已用 {spent} 元。发「取消预算 {category}」可以取消。"


def budget_line(category: str, spent: str, amount: str, percent: int) -> str:
    over = "，已超出" if percent >= 100 else ""
    return f"  {category} 已用 {spent} / {amount} 元（{percent}%）{over}"


def budgets_view(lines: list[str]) -> str:
    return "\n".join(["本月预算：", *lines, "改：预算 类别 金额 · 取消：取消预算 类别"])


def budget_cancelled(category: str) -> str:
    return f"已取消 {category} 的预算。"


def budget_not_found(category: str) -> str:
    return f"没有 {category} 的预算。发「预算」看全部。"


def goal_weight_set(kg: str, distance: str | None) -> str:
    tail = "" if distance is None else f"，离目标还差 {distance} kg"
    if distance == "0":
        tail = "，已到目标"
    return f"目标体重：{kg} kg{tail}。周报里会显示距离和趋势。"


def goal_line(distance: str) -> str:
    return f"离目标体重：{distance} kg" if distance != "0" else "已到目标体重"


def tasks_moved(count: int, to: str, day: dt.date) -> str:
    return f"好的，{count} 个任务挪到了{to}（{day.month}/{day.day}）。"


# Scheduled backups (管理 状态, the admin page).

BACKUP_OFF = "备份：未开启（设置 KEEPER_BACKUP_DIR 后每天自动备份）"
BACKUP_NONE_YET = "备份：已开启，还没有完成的备份"


def backup_verified(at: str, rows: int) -> str:
    return f"备份：最近一次已验证 {at}（{rows:,} 行）"


def backup_failed(at: str, problem: str) -> str:
    return f"备份：最近一次失败（{at}）：{problem}"


def backup_running(since: str) -> str:
    return f"备份：进行中（{since} 开始）"


def backup_interrupted(since: str) -> str:
    return f"备份：最近一次没有完成（{since} 开始，进程中途停止了）"


def backup_last_good(at: str | None) -> str:
    return f"上一次已验证：{at}" if at else "还没有已验证的备份"


BACKUP_OVERDUE = "⚠ 超过 26 小时没有已验证的备份"


# Retention (管理 状态): what the daily run keeps and prunes, per table.

RETENTION_HEAD = "数据保留（每天清理一次）："
RETENTION_TABLE_NAMES = {
    "inbound_messages": "收到的消息",
    "notification_jobs": "发送任务",
    "delivery_attempts": "发送记录",
    "web_links": "网页链接",
    "mp_link_codes": "小程序绑定码",
}


def retention_table(
    name: str, *, keep_days: int | None, kept: int, oldest_days: int | None, last_run: str | None
) -> str:
    keep = f"（保留 {keep_days} 天）" if keep_days is not None else ""
    oldest = ""
    if oldest_days is not None:
        oldest = f"，最早 {oldest_days} 天前" if oldest_days >= 1 else "，最早不到 1 天"
    return f"· {name}{keep}：{kept:,} 条{oldest}；{last_run or '还没清理过'}"


def retention_done(at: str, pruned: int) -> str:
    return f"{at} 清理删了 {pruned:,} 条"


def retention_running(since: str, pruned: int) -> str:
    return f"清理中（{since} 起，已删 {pruned:,} 条）"


def retention_interrupted(since: str, pruned: int) -> str:
    return f"{since} 起的清理没有做完（删了 {pruned:,} 条），下一次接着清"


# --- nag until done (直到完成, issue 12) ---
NAG_EVERY_RANGE = "重复间隔要在 5 到 120 分钟之间，比如：直到完成 每10分钟。没有保存。"
NAG_CAP_RANGE = "最多提醒次数要在 2 到 20 次之间，比如：直到完成 最多6次。没有保存。"
NAG_ONCE_ONLY = "「直到完成」只用于一次性的提醒，比如：提醒 明天 9:00 交材料 直到完成。没有保存。"
NAG_ALREADY_OVER = "这个提醒已经停了。"
NAG_EVERY_TWICE = "只能写一个间隔，比如：直到完成 每10分钟。没有保存。"
NAG_CAP_TWICE = "只能写一个最多次数，比如：直到完成 最多6次。没有保存。"
NAG_EVERY_UNREAD = "没看懂间隔，比如：直到完成 每10分钟、每半小时。没有保存。"
NAG_CAP_UNREAD = "没看懂最多几次，比如：直到完成 最多6次。没有保存。"
NAG_NEEDS_TIME = "「直到完成」要写几点开始提醒，比如：任务 明天 9:00 交材料 直到完成。没有保存。"
NAG_STOPPED_TOO = "不再提醒。"
TASK_NAG_IN_THE_PAST = "这个时间已经过了，换个以后的时间吧，比如：任务 明天 9:00 交材料 直到完成"


def nag_added(number: int, title: str, first_at: str, every: int, cap: int) -> str:
    return (
        f"好的，提醒 {number}：{first_at} {title}，没回复就每 {every} 分钟再提醒，"
        f"最多提醒 {cap} 次（含第一次）。\n回复「收到」就停。"
    )


def task_nag_added(number: int, title: str, first_at: str, every: int, cap: int) -> str:
    return (
        f"已添加待办 {number}：{title}。\n{first_at} 开始提醒，没完成就每 {every} 分钟再提醒，"
        f"最多提醒 {cap} 次（含第一次）。做完回复「完成 {number}」，只想停下提醒回复「收到」。"
    )


def nag_answered(title: str) -> str:
    return f"好的，不再提醒：{title}"


def nag_rule_label(title: str, every: int) -> str:
    return f"{title}（直到完成，每{every}分钟）"


# -- the water mini-program (issue 12) --------------------------------------------------

MP_OFF = "小程序还没开通：需要管理员设置 KEEPER_MP_APPID 等。"
MP_CODE_SENT_BEFORE = "绑定码刚才已经发过了；没收到的话，再发一次「绑定 小程序」就是新的。"


def mp_link_code(code: str) -> str:
    return f"小程序绑定码：{code}\n10 分钟内在小程序里输入，只能用一次。绑定后两边喝水一起算。"
