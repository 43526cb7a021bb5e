"""The words the readers match with, and the patterns written in those words.

The readers of this package hold no Chinese of their own (issue 21): a word list
a reader needs lives in `lexicon.py` (the shared tables) or here (the words of one
reader, in a section named after it), and a regular expression whose Chinese is
structure (alternatives, optional particles, character classes) is kept here as
its source, compiled once, at import, by its reader. Each name is defined once
(`tests/unit/test_lexicon_names.py`).
"""

from __future__ import annotations

import re

from handlers.channel_commands import BindableChannel, Target
from handlers.commands import RuleVerb, WaterAction
from handlers.parse.lexicon import (
    DONE_ENDINGS,
    DONE_PAST_VERBS,
    EVENT_OFF_WORDS,
    EVENT_PLACES,
    IMPORTANT_DEGREES,
    IMPORTANT_PHRASES,
    IMPORTANT_SUBJECTS,
    MOVE_ENDS,
    MOVE_LEADS,
    NAG_ANSWER_WORDS,
    NAG_REPEAT_WORDS,
    NAG_REPLY_WORDS,
    NAG_UNDONE_VERBS,
    NAG_VERBS,
    NAG_WHEN_WORDS,
    PERIOD_TIMES,
    PRICE_UNITS,
    RECUR_TAILS,
    TASK_PLACES,
    UNDO_LAST,
    UNDO_PIECES,
    WATER_ADVERBS,
    WATER_TIMES,
    WEIGHT_UNITS,
    WORK_VERBS,
)

# --- calendar_feed.py ---
FEED_CALENDAR_WORDS = r"(?:日历|日程|行程)"
"""The places a calendar is named by (`日历`, `日程`, `行程`)."""
FEED_ASKED_PATTERN = (
    rf"{FEED_CALENDAR_WORDS}(?:的)?(?:订阅|链接|地址|网址|源)"
    rf"|订阅(?:一下)?(?:我的|一个)?{FEED_CALENDAR_WORDS}"
    rf"|手机(?:上的|的|自带的|系统)?(?:日历|日程)"
    rf"|(?:苹果|iphone|ios|安卓|谷歌|google|outlook)(?:的)?日历"
    r"|ics|icalendar|ical|webcal"
)
"""A calendar subscription, a calendar link or the phone's calendar asked for."""
FEED_RESET_PATTERN = r"重置|重新生成|重新弄|换(?:一?个)?新?的?|作废|失效|泄露|泄漏|撤销"
"""A reset word: the old calendar addresses should stop working."""
FEED_OLD_GONE_PATTERN = r"(?:原来|以前|之前)?(?:旧|老)的?(?:那个)?(?:链接|地址)?(?:就)?(?:不要|不用|删掉|删了|作废|停掉)了?"
"""`旧的不要了`: the old address should stop working (a reset, not a refusal)."""
FEED_NOT_THIS_PATTERN = (
    r"[0-9]|取消|关闭|删除|不要|[今明后昨]天|周[一二三四五六日天末]|星期|[早晚上下中]午|晚上|点"
)
"""A number, a day or a time: a reminder or an event is being said, not this."""
FEED_OTHER_LEAD_PATTERN = r"(?:提醒|任务|待办|日记|记|帮我记|完成)"
"""A message led by another command's keyword is that command's (`提醒 看手机日历`)."""

DATE_WEEKDAY_NOTE_PATTERN = r"(?<=[日号])\s*[(（](?:周|星期|礼拜)[一二三四五六日天][)）]"
"""`12月20日（周日）`: the weekday a date falls on, said beside it, dropped."""
GLASSES_ONLY_PATTERN = r"(?P<n>[0-9]{1,2}|[一二两三四五六七八九十])\s*(?:大|小)?杯"
"""`一杯` after `记`: glasses of water, the only thing counted in glasses."""
LIST_ITEM_PATTERN = r"^\s*(?:[0-9]{1,2}|[一二三四五六七八九十])\s*[.、．)）]\s*(?=[^\s0-9])"
"""`1. 请添加待办：…`, `14、请问…`: a list number typed before one request, dropped."""

# --- body.py ---
PERFECTIVE = "了"
"""The particle normalising drops and a title keeps (`提醒我把衣服晾了`)."""

# --- key_mask.py ---
BIND_WORD = "绑定"
"""A message with this word is about binding a channel: a key in it may be spaced out."""


# --- review.py ---
REVIEW_NAMES = ("周报", "每周回看", "周回顾")
"""The names of the weekly review (`设置 周报 ...`, `周报`)."""
CATEGORY_MAX_CHARS = 16
"""The longest category word a budget takes."""
BUDGET_CATEGORY_WORD = rf"[^\s0-9.]{{1,{CATEGORY_MAX_CHARS}}}"
"""One category word of a budget: no space, digit or dot."""
BUDGET_PATTERN = (
    rf"(?P<cat>{BUDGET_CATEGORY_WORD})\s*(?P<amount>[0-9]{{1,7}}(?:\.[0-9]{{1,2}})?)\s*(?:元|块)?"
)
"""A budget's category and monthly amount (`餐饮 1500元`)."""
REVIEW_AT_PATTERN = (
    r"(?:每)?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天1-7])\s*(?P<h>[0-9]{1,2})[:：](?P<m>[0-9]{2})"
)
"""When the weekly review comes (`周日 20:00`)."""

# --- numbers.py ---
NUMBER = r"[0-9]+(?:\.[0-9]+)?"
"""A decimal number as typed: ASCII digits only (`\\d` would also accept e.g. Arabic-Indic)."""
CN_INT = "[零〇一二两三四五六七八九十百千万]+"
"""A Chinese integer (`一百四十五`, `两千五`, `二零二六`)."""
CN_NUMBER = rf"{CN_INT}(?:点[零〇一二三四五六七八九]+)?"
"""A Chinese number, its decimals after 点 (`七十二点四`)."""
ANY_NUMBER = rf"(?:{NUMBER}|{CN_NUMBER})"
"""A number in digits or in Chinese."""
SPOKEN_DECIMAL = r"[0-9]+点[0-9]+"
"""`70点5`: digits with 点 for the point (weights only: elsewhere 3点30 is a time)."""
WEIGHT_PATTERN = r"(?P<number>{number})\s*(?P<unit>kgs|kg|公斤|千克|斤)?"
"""A weight and its unit; `{number}` is the number's pattern."""
LIST_N = r"(?:[0-9]{1,4}|[一二两三四五六七八九十]{1,3})"
"""A number in a list (`提醒3`, `三号任务`, `第二个日程`): digits or a small Chinese numeral."""
AMOUNT_NUMBER = (
    r"(?P<sign>[+-]?)\s*(?:¥|rmb)?\s*"
    r"(?:(?P<whole>[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?P<fraction>\.[0-9]+)?(?![0-9.])"
    r"(?P<mult>[kw百千万](?![A-Za-z]))?(?:(?<=[千万])(?P<next>[1-9])(?![0-9.]))?"
    rf"|(?P<cn>{CN_NUMBER}))"
)
"""An amount's sign and number, in digits (with a multiplier, and the next digit said
after it: `3万2` is 32000, `2千5` 2500) or in Chinese."""
AMOUNT_CURRENCY = r"\s*(?P<cur>块钱|元钱|元|块|rmb|cny|r(?![A-Za-z]))?"
"""The currency word after an amount."""
AMOUNT_JIAO = r"(?:(?<=[块元])零?(?P<jiao>[1-9一二三四五六七八九])(?:毛|角)?(?![0-9]|"
"""The 角 after 块/元 (`十八块五`), closed by the units a 一 may count instead."""
CN_ZEROS = "零〇"
"""The zeros of a Chinese numeral (`一百零五`: the next digit is units)."""
CN_POINT = "点"
"""The decimal point said in words (`七十二点四`, `70点5`)."""
JIN = "斤"
"""The half-kilogram unit of weight."""
MONTH_CHAR = "月"
"""`十二月`: a Chinese numeral up to 12 before it names a month, never an amount."""
LIKELY_JIN_FROM = 100
"""A weight of this or more with no unit is more likely 斤 than kg: asked, guessed as 斤."""
CN_MULTIPLIERS = {"百": 100, "千": 1000, "万": 10_000}
"""A multiplier written after digits (`2千`, `1.5万`)."""
AMOUNT_OF = "的"
"""`六百的红包`: an amount, then 的 and its item."""

# --- admin.py ---
ADMIN_HOLD_PATTERN = (
    r"(?P<a>暂停|恢复)\s*(?:一下)?\s*(?:全部|所有)(?:的)?(?:发送)?"
    r"|(?:全部|所有)(?:的)?(?:发送)?\s*(?:都|全|先)*\s*(?P<b>暂停|恢复)(?:发送)?"
)
"""`暂停 全部` / `所有发送都暂停`: every send held, or resumed."""
ADMIN_HOLD_WORD = "暂停"
"""The word of `ADMIN_HOLD_PATTERN` that holds (the other resumes)."""
ADMIN_STATUS_ASKED_PATTERN = r"^(?:现在|目前)?\s*|\s*(?:怎么样|如何|咋样|好吗)[?？]?$"
"""The words around `状态` asked as a question (`现在系统状态怎么样`)."""
ADMIN_LEAD_PATTERN = r"^(?:员|后台)?\s*[:,]?\s*(?:先|请|帮我)?\s*(?:把)?\s*"
"""What may follow `管理` before the command (`管理员 查看状态`, `管理：先把...`)."""
ADMIN_SETTLE_PATTERN = (
    r"(?i)对账\s*(?:#|job[_-]?|任务)?\s*(?P<job>[0-9]{1,12})\s*"
    r"(?P<word>已收到|未收到|没收到|已经收到了|已经收到|收到了|收到)"
)
"""`对账 12 已收到`: a job settled by hand, paid or not."""
ADMIN_RECEIVED_WORDS = ("已收到", "收到了", "收到", "已经收到了", "已经收到")
"""The words of `ADMIN_SETTLE_PATTERN` that say the money arrived."""
ADMIN_LOOK_WORDS = ("看一下", "看看", "看下", "查一下", "查看", "查下")
"""A look word around an admin command (`管理 状态看一下`), dropped."""
ADMIN_SYSTEM = "系统"
"""`系统状态`, `系统网页`: the system, named or not."""
ADMIN_STATUS = "状态"
"""`管理 状态`: the system's status."""
ADMIN_OPEN_WORDS = ("打开", "给我", "发我")
"""Leads of `管理 打开网页` and the like, dropped (in this order)."""
ADMIN_BACKEND = "后台"
"""`管理 后台网页`: the admin pages, named as the back end."""
ADMIN_PAGE_WORDS = ("网页", "页面")
"""`管理 网页`: the admin pages."""
ADMIN_TAILS = ("吧", "一下")
"""Soft tails after an admin command (`管理 暂停全部吧`), dropped (in this order)."""

# --- records.py ---
EXPENSE_KEYWORDS = ("记账", "支出", "花了")
"""The keywords of an expense entry (`记账 35 午饭`)."""
INCOME_KEYWORDS = ("收入",)
"""The keyword of an income entry (`收入 8000 工资`)."""
WATER_COUNT_PATTERN = (
    r"(?P<sign>[+-]?|[x×*])\s*(?P<count>[0-9]+|[零〇一二两俩仨三四五六七八九十]{1,3})\s*(?:杯水?)?"
)
"""`+2`, `两杯`, `x3`: the glasses after `喝水`."""
RECORD_WORD_PATTERN = r"^(?:记一下|记下|记录|记个|记)\s*[:：]?\s*(?=[0-9一二两三四五六七八九十])"
"""`体重记 57.9`: a record verb before the number, dropped."""
WEIGHT_LEAD_MARKS = "。.…~ "
"""Marks before a weight (`体重。。。71.3`), dropped."""
WEIGHT_UNIT_STARTS = ("斤", "kg", "公斤", "千克", "磅", "lb")
"""A unit after a weight: read with it, or (磅, lb) a weight we do not keep."""
OTHER_CATEGORY = "其他"
"""The ledger category of money no word names."""
JOURNAL_LEAD_MARKS = " \t\r\n:：,，。.、～~\u3000"
"""Marks and spaces before a journal's text, dropped."""
JOURNAL_PARTICLES = "吧呀啊哈哦"
"""A particle ending the journal keyword's phrase (`写个日记吧：…`)."""
JOURNAL_PARTICLE_ENDS = ":：,，。 "
"""What follows such a particle when it belongs to the keyword."""

# --- channels.py ---
CHANNEL_WORDS: dict[str, BindableChannel] = {
    "wxpusher": "wxpusher",
    "wx pusher": "wxpusher",
    "server酱": "serverchan_user",
    "serverchan": "serverchan_user",
    "server chan": "serverchan_user",
    "方糖": "serverchan_user",
    "sct": "serverchan_user",
}
"""The names of the channels a user binds a receiver of, folded."""
TARGET_WORDS: dict[str, Target] = {
    **CHANNEL_WORDS,
    "微信": "wechat",
    "个人微信": "wechat",
    "企业微信": "wecom_app",
    "企微": "wecom_app",
    "应用": "wecom_app",
    "企业微信应用": "wecom_app",
}
"""The names of every channel keeper sends through, folded."""
CHANNEL_OFF_WORDS = frozenset({"关", "关闭", "无", "没有", "不要", "取消", "off", "none"})
"""`设置 备用 关`: no fallback channel."""
CHANNEL_SHOW = frozenset(
    {"设置 渠道", "设置渠道", "渠道", "通道", "设置 通道", "我的渠道", "查看渠道", "渠道设置"}
)
"""The whole messages that show the channels."""
CHANNEL_PRIMARY_PATTERN = r"设置\s*(?:主)?(?:渠道|通道)\s*(.+)"
"""`设置 渠道 企业微信`: the primary channel."""
CHANNEL_FALLBACK_PATTERN = r"设置\s*备用(?:渠道|通道)?\s*(.*)"
"""`设置 备用 wxpusher`: the fallback channel."""
CHANNEL_BIND_PATTERN = r"(绑定|解绑|unbind|bind)\s*(.*)"
_TRY = r"(?:测试|测一下|测下|测一测|测测|试试|试一下|试下|检查|检查一下)"
CHANNEL_TEST_PATTERN = (
    # `测试 渠道 WxPusher`, `测一下渠道`, `试试推送能不能收到`, `测试一下WxPusher`
    rf"{_TRY}\s*(?:一下)?\s*(?:我的|各个|所有|全部)?\s*(?:(?:渠道|通道|推送|提醒)\s*)?(?P<name>.*?)"
    r"\s*(?:看看?)?(?:我的?)?(?:手机)?(?:能不能收到|能否收到|能收到吗|收不收得到|能不能到|能否到达?|能到吗|到不到|通不通|好不好使)?"
    # `发条测试消息`, `给我发一条测试消息`, `给WxPusher发个测试消息`
    r"|(?:给我)?发(?:一)?[条个]测试(?:消息|推送)?(?:给我)?\s*(?:看看?|试试|试一下)?"
    r"(?:我的?)?(?:手机)?(?:能不能收到|能否收到|能收到吗|收不收得到)?(?P<none>)"
    r"|发(?:一)?[条个]测试(?:消息|推送)?(?:到|给)\s*(?P<onto>\S+)"
    # `wxpusher那个通道测一下`, `推一条测试消息过来看看`
    r"|(?P<first>[A-Za-z酱]+)\s*(?:那个|的)?\s*(?:渠道|通道)?\s*(?:测一下|测试一下|测测|试一下|测下)"
    r"|推(?:一)?[条个]测试(?:消息|推送)?(?:过来)?(?:看看)?(?P<pushed>)"
    r"|发(?:一)?[条个]测试(?:消息|推送)?\s*(?:看看?|试试)?\s*(?P<asked>[A-Za-z酱]+?)\s*"
    r"(?:能不能收到|能否收到|能收到吗|收不收得到|能不能到|到不到|通不通|好不好使)"
    r"|给\s*(?P<to>[^\s发]+?)\s*发(?:一)?[条个]?测试(?:消息|推送)?(?:看看)?"
)
"""`测试 渠道 [name]` and the ways to ask for a test send (issue 22)."""
CHANNEL_CONFIRM_PATTERN = r"(?:收到了|已收到|收到)\s*(?P<name>[^\s].*)"
"""`收到 WxPusher`: a device check confirmed for the channel named."""
CHANNEL_TEST_NOUNS = ("渠道", "通道", "推送", "提醒")
"""After a bare test verb, one of these must be said for it to be a channel test."""
"""`绑定 ...` / `解绑 ...`: a receiver bound or unbound."""
MY_OWN = "我的"
"""`绑定我的Server酱`: whose channel, said before its name."""
UNBIND_WORD = "解绑"
"""The word of `CHANNEL_BIND_PATTERN` that unbinds (`unbind` too: `UNBIND_WORDS`)."""
CHANNEL_TEST_CUES = (
    "测试", "测一下", "测下", "测测", "试试", "试一下", "试下", "通不通", "能不能收到",
    "收不收得到", "好不好使", "能不能用",
)  # fmt: skip
"""A test said anywhere beside one channel's name (`测试下wxpusher通不通`)."""
CHANNEL_TEST_MESSAGES = ("测试消息", "测试推送", "测试通知")
"""`发个测试消息看看通不通`: a test message asked for, on every channel when none is named."""
CHANNEL_NOT_TEST_WORDS = ("绑定", "解绑", "设置", "备用", "主渠道", "改成", "换成", "切换")
"""Words of another channel command: no test."""
MAX_CHANNEL_TEST = 24
"""A channel test said in a sentence is short."""
MINI_PROGRAM = "小程序"
"""`绑定 小程序`: the mini-program's own binding, not a channel's."""
BIND_VALUE_MARKS = " :："
"""Marks between a channel word and its key (`绑定 wxpusher：UID_…`), dropped."""
KEY_WORDS_PATTERN = r"sendkey|key|uid|密钥|是|为|的|我|[\s,，。.:：!！]"
"""The words around a key said in a sentence (`key是SCT…。`)."""


# --- normalise.py ---
SEPARATOR_CHARS = frozenset(",;:、")
"""The light punctuation people put between words (`,` `;` `:` `、`)."""
DECIMAL_DOT_PATTERN = r"(?<=[0-9])[。·](?=[0-9])"
"""A `。` or `·` typed between digits: a decimal point (`72。4`)."""
LEAD_LABEL_PATTERN = r"^\s*[【\[]\s*([^】\]]{0,12}?)\s*[】\]]\s*"
"""A label in brackets before a message (`【提醒】`), its word kept."""
TRAIL_PUNCT = "。.!?~,;:、…'\"“”‘’ \t\r\n"
"""Punctuation and spaces that may end a message."""
TRAIL_PARTICLES = "吧呢啊哈呀哦嘛啦噢"
"""The particles that may end a message (`吧`, `呢`, `啊` ...)."""
WORD_SPLIT_PATTERN = r"[\s,;、]+"
"""What separates the words of a message."""
BEFORE_TIME = r"(?=\s*[0-9一二两三四五六七八九十])"
"""Followed by an hour (`夜晚十点`)."""
MOSQUITO_YUAN_PATTERN = r"(?<=[0-9一二两三四五六七八九十百千])蚊"
"""三十五蚊: Cantonese 蚊 for 块, only after a number (蚊子 stays a mosquito)."""
FEATURE_QUESTION_MARK_PATTERN = r"[?？]|吗(?=[\s,])"
"""Where a question about a feature ends (`有晚报这个功能吗？`)."""
END_MARKS_PATTERN = r"[。.!\s]+$"
"""The marks and spaces ending a message."""
IF_SO_WORDS = ("有的话", "可以的话", "能的话", "如果有", "那就")
"""`有的话`, `那就`: the lead of a request after a question about a feature."""
TITLE_END_MARKS = "。.!?~,;:、…-—"
"""Marks a title may not end with."""

# --- normalise.py, inside its readers ---
YUAN = "块"
"""`块`: the yuan said the common way."""
RECORD_ASK_WHO = r"(?:请|麻烦)?你?(?:帮我|给我|帮忙)?"
RECORD_ASK_ENDS = r"(?:好吗|吧|哈|啊|呀|哦|嘛)?"
RECORD_ASK_PATTERN = (
    rf"{RECORD_ASK_WHO}记(?:一下|下来|下|上|录一下|录|个账|账|一笔){RECORD_ASK_ENDS}"
)
"""`…，你给我记一下`, `…，请帮我记账`, `…请记录`: asking that what was said be recorded,
composed of who asks, the verb and its end; said at the end, no part of the record."""
RECORD_ASK_TAIL_PATTERN = (
    rf"(?:(?<=[\s,.!])记(?:一下|下来|下|上|录一下|录|一笔){RECORD_ASK_ENDS}"
    rf"|(?=请|麻烦|你|帮我|给我|帮忙){RECORD_ASK_PATTERN})$"
)
"""Said last, after a pause or starting with who asks (`巡检记录`, `收车记账`, `怎么记账`
and `帮助 记账` end in the same words and keep them)."""
SLANG_TAIL_WORDS = ("冲冲冲", "冲鸭", "冲", "yyds", "绝绝子", "绝了", "破防了", "摆烂了")
"""Slang said last after a pause (`…加个待办 冲`, `…yyds`): no part of the request (not
加油: `30 加油` is fuel)."""
SLANG_TAIL_PATTERN = rf"(?<=[\s,.!])(?:{'|'.join(SLANG_TAIL_WORDS)})[!~]*$"
RECORD_ASK_HINT = r"记(?:一下|下来|下|上|录|个账|账|一笔)"
"""The verb every request to record ends in: a cheap first look (the who-words before it
are optional, and a pattern that may start anywhere is slow to search)."""
FRAME_HINT_MARKS = rf"|请|[?？]|吗|{RECORD_ASK_HINT}|{'|'.join(SLANG_TAIL_WORDS)}"
"""A polite `请` or a question mark or `吗`: a frame may be around the request."""
MOSQUITO = "蚊"
"""`蚊`: Cantonese for 块 after a number."""
PLEASE = "请"
"""The polite `请` before a request."""
PLEASE_ASK = "请问"
"""`请问`: a question follows, the 请 is kept."""
JOURNAL_WORD = "日记"
"""`日记`: a journal keeps every word it was given."""
JOURNAL_LEADS = ("日记", "记日记", "写日记")
"""How a journal entry starts: its words are never corrected."""
CORRECTED_IS = "是"
"""`是` after a correction word (`不对 是三十九`), dropped."""
LE = "了"
"""`了`: dropped at the end when asked (`drop_le`)."""
BU_LE = "不了"
"""`不了`: its 了 is part of the word (`去不了`)."""
LE_WORDS = ("了", "啦")
"""A word ending in these before a trailing `ok` (`交了 ok`)."""

# --- nag.py ---
NAG_N = rf"(?:[0-9]{{1,4}}|{CN_INT})"
"""A count in a nag's terms: digits or a Chinese integer."""


def _alternatives(words: tuple[str, ...]) -> str:
    """`(?:a|b)`: the words as one group, the longest tried first."""
    return "(?:" + "|".join(sorted(words, key=len, reverse=True)) + ")"


NAG_REPEAT, NAG_NAG, NAG_REPLY = (
    _alternatives(NAG_REPEAT_WORDS),
    _alternatives(NAG_VERBS),
    _alternatives(NAG_REPLY_WORDS),
)
"""The nag's repeat, nag and reply words as alternatives of its patterns."""
NAG_ANSWER, NAG_UNDONE = _alternatives(NAG_ANSWER_WORDS), _alternatives(NAG_UNDONE_VERBS)
"""The nag's answer and not-done words as alternatives of its patterns."""
NAG_WHEN = "(?:(?:" + "|".join(NAG_WHEN_WORDS) + ")就?)?"
"""`到点了一直催我…`: when the time comes, said before the nag or its interval."""
NAG_IF, NAG_NOT = rf"{NAG_WHEN}(?:如果|要是|如)?(?:我)?", r"(?:还)?(?:没有|没|不|未)"
"""`到点如果我` / `还没有`: the start of `到点没弄完就每半小时催一次`."""
NAG_UNTIL_DONE_PATTERN = (
    # `直到完成`, `一直提醒我直到我回复收到为止`, `直到我回复`
    rf"{NAG_WHEN}(?:{NAG_REPEAT}?{NAG_NAG}?(?:我)?)?直到\s*(?:我)?\s*(?:{NAG_REPLY}\s*{NAG_ANSWER}?|{NAG_ANSWER})了?(?:为止)?"
    # `一直提醒到我回复`, `提醒到我说完成为止`, `一直催到我回收到`
    rf"|{NAG_REPEAT}?{NAG_NAG}(?:我)?到\s*(?:我)?{NAG_REPLY}\s*{NAG_ANSWER}?了?(?:为止)?"
    # `没回复收到就一直提醒`, `不回就一直催我`, `我没说收到就继续提醒`
    rf"|{NAG_IF}{NAG_NOT}{NAG_UNDONE}{NAG_ANSWER}?(?:的话)?\s*(?:就|请)?{NAG_REPEAT}{NAG_NAG}(?:我)?"
    # `要是没回复就每隔半小时再提醒`: the interval that follows says how often
    rf"|{NAG_IF}{NAG_NOT}{NAG_UNDONE}我?{NAG_ANSWER}?(?:的话)?[\s,]*(?:请|就)?(?=\s*每)"
    # `没寄就一直提醒我`: not done (any verb), then the nag
    rf"|{NAG_IF}{NAG_NOT}\S{{1,3}}?就{NAG_REPEAT}{NAG_NAG}(?:我)?"
    # `到点一直催我`: when the time comes, keep on at me
    rf"|(?:{'|'.join(NAG_WHEN_WORDS)})就?{NAG_REPEAT}{NAG_NAG}(?:我)?"
    # `到时候没交就每十分钟提醒一次`: not done (any verb), then the interval
    rf"|{NAG_IF}{NAG_NOT}\S{{1,3}}?(?:的话)?就(?=\s*每隔?\s*\S{{1,6}}?(?:分钟|分|小时|钟头|刻钟))"
    # `做完之前每二十分钟催一次`, `做完之前一直提醒我`: until it is done, then how
    rf"|(?:没)?(?:做完|完成|弄完|办完|搞定|交完)(?:之前|以前|前)(?:就)?(?:{NAG_REPEAT}{NAG_NAG}(?:我)?|(?=\s*每))"
)
"""`直到完成`, `提醒到我说完成为止`, `没寄就一直提醒我`: the marker of a nag."""
NAG_EVERY_PATTERN = (
    rf"{NAG_WHEN}每隔?\s*(?:(?P<n>{NAG_N})\s*个?\s*(?P<half>半)?\s*(?P<unit>分钟|分|小时|钟头)"
    r"|(?P<named>半个?小时|半个?钟头|一?刻钟|个?小时|个?钟头))\s*"
    r"(?:再?(?:提醒|催|叫|喊)(?:我)?(?:一次|一遍)?|一次)?"
)
"""`每10分钟`, `每隔半小时再提醒一次`, `每隔十五分钟再叫一次`: the interval of a nag."""
NAG_EVERY_NAGS_PATTERN = rf"每隔?\s*\S{{1,6}}?(?:分钟|分|小时|钟头|刻钟)\s*(?:再)?{NAG_NAG}"
"""An interval followed by a nag verb (`每15分钟催一次`)."""
URGE_VERB = "催"
"""`每20分钟催一次`: to urge; an interval said with it nags (提醒 with an interval recurs)."""
NAG_CAP_PATTERN = rf"最多\s*(?:提醒|催)?\s*(?P<n>{NAG_N})\s*(?:次|遍)"
"""`最多5次`: the cap of a nag."""
NAG_NAMED_MINUTES = {
    **dict.fromkeys(("半小时", "半个小时", "半钟头", "半个钟头"), 30),
    **dict.fromkeys(("一刻钟", "刻钟"), 15),
    **dict.fromkeys(("小时", "个小时", "钟头", "个钟头"), 60),
}
"""An interval said by name (`半小时`, `一刻钟`), in minutes."""
NAG_NUMBERISH = r"[0-9零〇一二两三四五六七八九十百千万半个点.．\s]{1,12}"
"""Anything that looks like a number in a leftover interval or cap."""
NAG_EVERY_LEFT_PATTERN = rf"每隔?\s*{NAG_NUMBERISH}(?:分钟|分|小时|钟头|刻钟)"
"""An interval the terms did not take (a second one, a number too long, words we
do not read): refused rather than left in the title while the nag runs every 10."""
NAG_CAP_LEFT_PATTERN = rf"最多\s*(?:提醒|催)?\s*{NAG_NUMBERISH}(?:次|遍)"
"""A cap the terms did not take (a second one, or words we do not read)."""
NAG_DIGITS_LEFT_PATTERN = r"(?:每隔?|最多\s*(?:提醒|催)?)\s*[0-9]+\s*(?:分钟|分|小时|钟头|次|遍)"
"""A leftover that is a plain number (`每99999分钟`): out of range, not unreadable."""
NAG_HOUR_UNITS = ("小时", "钟头", "h")
"""The units of `NAG_EVERY_PATTERN` that count hours."""


# --- natural.py ---
WEIGHT_UNIT_LEAD = r"(?P<unit0>kgs|kg|公斤|千克|斤)(?:数)?\s*(?:是|为|有|[:：])?\s*"
"""`kg是57.6`, `斤数是115`, `空腹 kg 66.8`: a weight's unit said before its value."""
NATURAL_WEIGHT_PATTERN = (
    r"(?:今天|今早|早上|早晨|刚才|刚刚|刚|晨起|起床后?|起来|今天早上)*\s*(?P<fast>空腹)?\s*"
    r"(?P<verb>记体重|记一下体重|称了一下|称了下|称了|称一下|称重|上秤|体重是|体重为|体重|称)?"
    rf"\s*[,:]?\s*(?:是|为|有)?\s*(?:{WEIGHT_UNIT_LEAD})?"
    rf"(?P<n>{SPOKEN_DECIMAL}|{ANY_NUMBER})\s*(?P<unit>kgs|kg|公斤|千克|斤)?"
    r"(?:\s*[,]?\s*(?:又|终于)?(?:瘦|胖|重|轻|涨|掉)了?)?"
)
"""A weight said in a sentence (`早上空腹称了下 70.1`, `体重是72.4 又瘦了`, `空腹 kg 66.8`)."""
TASK_DONE_WORDS = r"(?:搞定|做完|弄完|办完|办好|做好|弄好|搞好|完成|完事|干完|done|ok)"
"""The words that say a task is done (`搞定`, `做完`, `done`)."""
TASK_DONE_PATTERN = rf"(?P<what>.{{1,30}}?)\s*(?:已经|都|也)?{TASK_DONE_WORDS}"
"""`取快递搞定了`: a task, then its done word."""
TASK_DONE_FIRST_PATTERN = rf"{TASK_DONE_WORDS}(?:了)?\s+(?P<what>.{{1,30}})"
"""`搞定 2`: the done word, then the task."""
TASK_TOMORROW_PATTERN = (
    r"(?P<what>.{1,30}?)\s*(?:(?:改到)?明天(?:再说|再做|再弄|再整|再搞|再办|再打|再去|做"
    rf"|再(?P<verb>{'|'.join(w for w in WORK_VERBS if len(w) == 1)}))|(?:推|挪|改|放|拖)到?明天"
    r"|今天\S{0,3}(?:不了|不完|没空|来不及)了?[\s,]*明天吧?"
    r"|(?:往后推|往后挪|推迟|延后|顺延)一天吧?)"
)
"""`买菜明天再说`, `挪到明天`: a task put off to tomorrow."""
TASK_NOT_NEEDED_PATTERN = r"(?:不用|不必|不需要)(?:再)?(?P<what>.{1,30}?)"
"""`不用买菜了`: a task no longer needed."""
TASK_NOT_NEEDED_AFTER_PATTERN = (
    r"(?P<what>.{1,30}?)\s*(?:不用做|不做|不弄|不搞|不干|不整|不办|不去|不用|不要|取消|算)"
)
"""`买菜不用了`, `银行办卡不去了`: a task, then the word that drops it."""
EVENT_BY_NUMBER_PATTERN = rf"(?:第\s*)?(?P<n>{LIST_N})\s*(?:号|个)\s*日程|日程\s*(?P<m>{LIST_N})"
"""`3号日程`, `日程 3`: an event by its list number."""
TASK_DONE_AFTER_COMMA_PATTERN = r"(?P<what>[^,]{2,20}?)\s*,\s*(?:已经|都)?\S{0,2}过了?"
"""`给张阿姨回电话，已经打过了`: a task, then that it happened."""
TASK_CANCEL_TAIL_PATTERN = r"\s*,\s*(?:取消掉|取消吧|取消|删了吧|删掉吧)$"
"""`，取消掉`: a cancel word after a comma, dropped."""
EVENT_LASTS_PATTERN = (
    r"[\s,]*(?:大概|大约|约|差不多|估计|要)?\s*(?:(?P<n>[0-9]{1,2}|[一二两三四五六七八九十]{1,3})\s*个?\s*(?P<half>半)?\s*(?P<unit>小时|钟头|分钟)"
    r"|(?P<only_half>半)\s*个?\s*(?:小时|钟头))[\s,]*$"
)
"""`张总私教课 一个小时`: how long an event lasts, said after its title (its end)."""
TODAY_CANNOT_SAID = (
    r"\s*今天\S{0,4}(?:不完|不了|不成|没空|来不及|不过来)了?[\s,]*(?:麻烦|请|帮我|帮忙|那就|就)?\s*"
)
"""`今天去不了了，麻烦`: why a thing cannot be today, and a polite word before what follows."""
TODAY_CANNOT_PATTERN = (
    rf"{TODAY_CANNOT_SAID}$"
    r"|^\s*(?:今天)?\S{0,3}(?:不完|没空|来不及|忙不过来|太忙|太累)了?[\s,]+"
)
"""`今天搞不完了`, `今天忙不过来 …`, `今天去不了了，麻烦…`: why a task is put off (and a
polite word before the new day), dropped from its title."""
TASK_PRONOUNS = frozenset(
    ["我", "你", "他", "她", "它", "这", "那", "这个", "那个", "我们", "今天", "都"]
)
"""Words that stand for a task without naming it: no title."""

# --- natural.py, inside its readers ---
DONE_KEYWORD = "完成"
"""`完成`: the keyword a done task is read as."""
POSTPONE_KEYWORD = "明天再说"
"""`明天再说`: the keyword a task put off is read as."""
TASK_CANCEL_REASON_PATTERN = r"[,\s]+(?=已经|因为|他|她|反正|自动)"
"""Where the reason after a dropped task starts (`…，已经有人做了`)."""
TASK_CANCEL_TITLE_END_PATTERN = r"了?[,\s]"
"""Where a dropped task's title ends (`…了 名额满了`)."""
CANCEL_KEYWORD = "取消"
"""`取消`: the keyword a dropped task is read as."""
NOT_A_TITLE_CHARS = "?吗么啥什都"
"""A question's characters: a message with one is asked, no title."""


# --- slots.py ---
WEIGHT_UNIT_ALTERNATIVES = "|".join(sorted(WEIGHT_UNITS, key=len, reverse=True))
"""The weight units, longest first, as alternatives of a pattern."""
SLOT_WEIGHT_PATTERN = rf"(?<![0-9.])(?P<n>{SPOKEN_DECIMAL}|{ANY_NUMBER})\s*(?P<unit>{WEIGHT_UNIT_ALTERNATIVES})?(?P<half>(?<=斤)半)?(?![0-9.])"
"""A number that may be a weight, its unit if said (`131斤半`)."""
UNIT_FIRST_PATTERN = r"^(?P<unit>kg|公斤)\s*(?P<n>[0-9]{2,3}(?:\.[0-9])?)(?![0-9])"
"""`kg 68.6`: the unit before the weight."""
CUP_COUNT_PATTERN = r"(?P<n>[0-9]{1,2}|[一二两三四五六七八九十]{1,3})\s*(?:大|小)?杯"
"""`两杯`, `3大杯`: a count of cups."""
WATER_TIMES_ALTERNATIVES = "|".join(map(re.escape, WATER_TIMES))
"""The signs of `水 x3`, as alternatives of a pattern."""
WATER_ADVERB_ALTERNATIVES = "|".join(map(re.escape, WATER_ADVERBS))
"""The adverbs before a water check-in, as alternatives of a pattern."""
WATER_TIMES_PATTERN = (
    rf"(?:{WATER_ADVERB_ALTERNATIVES})*\s*水\s*(?P<k>[0-9]{{1,2}}|[一二两俩仨三四五六七八九十]{{1,3}})\s*杯"
    rf"|(?:{WATER_ADVERB_ALTERNATIVES})*\s*(?:喝了?水|\S{{0,3}}水|water)\s*(?:{WATER_TIMES_ALTERNATIVES})\s*(?P<n>[0-9]{{1,2}}|[一二两俩仨三四五六七八九十]{{1,3}})"
    rf"(?:\s*杯)?|(?:{WATER_ADVERB_ALTERNATIVES})+\s*(?:喝了?|补了?)\s*(?P<m>[0-9]{{1,2}}|[一二两俩仨三四五六七八九十]{{1,3}})"
    r"\s*(?:大|小)?杯(?:温|热|凉|白|冰)?(?:开)?水"
)
"""`水 3杯`, `喝水x3`, `又喝了两杯温水`: glasses of water said in a sentence."""
LIST_NUMBER_PATTERN = (
    rf"(?:提醒|日程|待办|任务)\s*#?(?P<a>{LIST_N})(?![0-9:点一下次遍])"
    rf"|第\s*(?P<b>{LIST_N})\s*(?:个|条|项|号)"
    rf"|(?<![0-9])(?P<c>{LIST_N})\s*号(?:提醒|日程)"
)
"""`提醒3`, `第二个`, `3号日程`: an item by its list number."""
VOLUME_PATTERN = rf"(?P<n>{ANY_NUMBER})\s*(?P<unit>ml|毫升|l|升)(?![a-z])"
"""`500ml`, `1.5升`: a volume."""
AFTER_MY_WEIGHT = "了啦呢吧啊哦哈呀左右多的整上下重胖瘦轻"
"""What may follow my weight's unit (`72公斤了`, `140斤左右`); a noun there is goods."""
DAY_WORDS_PATTERN = (
    r"今天|明天|后天|大后天|今晚|明晚|明早|今早|(?:下|这|本)?(?:周|星期|礼拜)[一二三四五六日天]"
)
"""A day said in words (`明天`, `下周三`)."""
TIME_WORDS_PATTERN = r"[0-9一二三四五六七八九十两]\s*(?:点|:[0-9])|分钟后|小时后"
"""A time said (`3点`, `8:30`, `10分钟后`)."""

# --- slots.py, inside its readers ---
LITRE_UNITS = ("l", "升")
"""The units of `VOLUME_PATTERN` that count litres."""
AMOUNT_NOT_BEFORE = ("杯", "点", "号", "分", "个", "次", "天", "岁", ":")
"""A unit after a number that makes it no amount (`3杯`, `3点`, `3号`), with the weight units."""
AMOUNT_NOT_AFTER = (
    "提醒",
    "日程",
    "待办",
    "任务",
    "第",
    "#",
    "x",
    "×",
    "+",
    "*",
    "周",
    "星期",
    "礼拜",
)
"""A word before a number that makes it no amount (`提醒3`, `第3`, `x3`, `周3`)."""
CJK_FIRST, CJK_LAST = "\u4e00", "\u9fff"
"""The range of the common Chinese characters."""


# --- when.py ---
SHORT_DAY_PERIODS = {"今早": (0, "早上"), "今晚": (0, "晚上"), "明早": (1, "早上")}
"""A day and its period in one word (`明早`): days from today, and the period."""
SHORT_DAY_PERIODS |= {"明晚": (1, "晚上"), "今天早上": (0, "早上"), "今天晚上": (0, "晚上")}
"""A day and its period in one word (`明早`): days from today, and the period."""
SHORT_DAY_PERIODS |= {"明天早上": (1, "早上"), "明天晚上": (1, "晚上")}
"""A day and its period in one word (`明早`): days from today, and the period."""
FULL_DATE_PATTERN = (
    r"(?P<y>[0-9]{4})(?:(?P<sep>[-/])(?P<m>[0-9]{1,2})(?P=sep)(?P<d>[0-9]{1,2})(?![0-9])"
    r"|年(?P<cm>[0-9]{1,2})月(?P<cd>[0-9]{1,2})[日号]?(?![0-9]))"
)
"""`2026-12-15`, `2026/12/15`, `2026年12月15日`."""
MONTH_DAY_PATTERN = r"(?P<m>[0-9]{1,2})(?:[-/]|月)(?P<d>[0-9]{1,2})(?:[日号]|(?![0-9]))"
"""`12-15`, `12/15`, `12月15日`."""
CN_MONTH_DAY_PATTERN = (
    r"(?P<m>十[一二]?|[一二三四五六七八九])月(?P<d>[0-9]{1,2}|[一二三四五六七八九十]{1,3})[日号]"
)
"""`十二月十五号`, `三月八日`: a month and day in Chinese numerals (with 日 or 号)."""
DOT_DATE_PATTERN = r"(?P<m>1[0-2]|0?[1-9])\.(?P<d>[0-9]{1,2})(?![0-9.A-Za-z万千元块])"
"""`12.5`: month and day (only where a day is expected)."""
THIS_MONTH = r"(?:这个?月|本月|这一个?月)的?"
"""`本月`, `这个月的`: this month, before one of its days."""
DAY_OF_MONTH_PATTERN = (
    rf"(?:{THIS_MONTH})?(?P<d>[0-9]{{1,2}}|[一二三四五六七八九十]{{1,3}})[日号](?![0-9])"
)
"""`15号`, `十五日`, `本月20号`: a day of this or next month."""
NEXT_MONTH_DAY_PATTERN = r"下(?:个)?月的?(?P<d>[0-9]{1,2}|[一二三四五六七八九十]{1,3})[日号]"
"""`下个月5号`: a day of next month."""
MONTH_END_PATTERN = rf"(?:{THIS_MONTH})?(?:月底|月末)|(?:这个?月|本月)(?:底|末)"
"""`月底`, `这个月月末`: the month's last day."""
WEEKEND_PATTERN = r"(?P<rel>下个?|这个?|本)?周末"
"""`周末`, `下周末`: the coming Saturday."""
RELATIVE_DAY_PATTERN = "大后天|后天|明天|明日|今天|今日"
"""`今天`, `明天`, `大后天`: a day counted from today."""
WEEKDAY_PATTERN = r"(?P<rel>下个?|这个?|本)?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天1-7])"
"""`周三`, `下个星期五`, `礼拜天`: a weekday."""
CN_CLOCK = "[零〇一二两三四五六七八九十]{1,3}"
"""An hour or minute in Chinese numerals (`三`, `十五`)."""
TIME_PATTERN = (
    r"(?P<period>凌晨|清晨|夜里|半夜|早上|早晨|上午|中午|下午|傍晚|晚上|睡觉前|睡前|今晚|明晚|今早|明早"
    r"|早(?=[0-9二两三四五六七八九十])|晚(?=[0-9二两三四五六七八九十]))?\s*"
    r"(?:(?P<h>[0-9]{1,2}):(?P<m>[0-9]{2})"
    r"|(?P<h4>[01][0-9]|2[0-3])(?P<m4>[0-5][0-9])(?![0-9]|\s*(?:元|块|rmb|¥))"
    rf"|(?P<hh>[0-9]{{1,2}}|{CN_CLOCK})(?:点钟?|时)"
    rf"(?:(?P<half>半|一刻|三刻)|(?P<mm>[0-9]{{1,2}}|{CN_CLOCK}(?![起些下样直共定般切]))分?)?)(?![0-9])"
)
"""`14:30`, `下午3点`, `九点半`, `十点一刻`, `0730` (four digits, as a shift roster writes
it; never before 元/块): a time, its period if said."""
BEFORE_PATTERN = r"\s*(?:之前|以前|前)(?![0-9一二三四五六七八九十])"
"""`前`, `之前`: due by the day or time before it."""
PERIOD_ALONE_PATTERN = r"(早上|早晨|上午|中午|下午|傍晚|晚上)(?![0-9零〇一二两三四五六七八九十])"
"""`下午`, `晚上`: a period said without an hour."""
RANGE_JOIN_PATTERN = r"\s*(?:-|~|到|至)\s*"
"""`-`, `到`, `至`: between the ends of a time range."""

# --- when.py, inside its readers ---
NEXT_WORD = "下"
"""`下周三`, `下个周末`: the next week's."""
PM = "下午"
"""The afternoon: 12 点 in it is noon."""
NOON = "中午"
"""Noon: adds 12 to 1-2 点, keeps 11-12."""
ONE = "一"
"""`一点` alone is mostly "a little" (一点小事), not 1 o'clock."""
ALL_DAY = "全天"
ALL_DAY_TAILS = ("一整天", "整天", "全天")
"""`日程 下周五 茶博会 一整天`: all day, said after the title (dropped from it)."""
"""`全天`: an event that lasts the day, no time."""

# --- reader.py ---
CANCEL_EVENT_KEYWORDS = ("取消日程",)
"""`取消日程 2`: an event cancelled."""
CANCEL_BUDGET_KEYWORDS = ("取消预算",)
"""`取消预算 餐饮`: a budget dropped."""
GOAL_WEIGHT_KEYWORDS = ("目标体重",)
"""`目标体重 68`: the goal weight."""
BUDGET_KEYWORDS = ("预算",)
"""`预算 餐饮 1500`: a monthly budget."""
EDIT_EVENT_KEYWORDS = (
    "改日程",
    "修改日程",
)
"""`改日程 2 ...`: an event changed."""
POSTPONE_KEYWORDS = ("明天再说",)
"""`明天再说 2`: a task put off to tomorrow."""
QUIET_KEYWORDS = ("免打扰",)
"""`免打扰 到 8:00`: quiet hours."""
DELETE_KEYWORDS = ("删除",)
"""`删除 提醒 2`: something deleted."""
REMINDER_KEYWORDS = ("提醒",)
"""`提醒 明天 9:00 交材料`: a reminder."""
WEIGHT_KEYWORDS = ("体重",)
"""`体重 72.4`: a weight."""
WATER_KEYWORDS = ("喝水",)
"""`喝水 +2`: glasses of water."""
TASK_KEYWORDS = (
    "任务",
    "待办",
)
"""`待办 买菜`: a task."""
COMPLETE_KEYWORDS = ("完成",)
"""`完成 2`: a task done."""
CANCEL_KEYWORDS = ("取消",)
"""`取消 2`: a task dropped."""
EVENT_KEYWORDS = ("日程",)
"""`日程 周五 14:00 开会`: an event."""
JOURNAL_KEYWORDS = (
    "日记",
    "记日记",
    "写日记",
    "写个日记",
    "帮我写个日记",
    "今天的日记",
    "帮我写进日记里",
    "帮我写进日记",
    "写进日记里",
    "写进日记",
    "记到日记里",
    "记一篇日记",
    "写一篇日记",
    "帮我记一篇日记",
    "帮我记日记",
    "帮我写日记",
    "记个日记",
    "写篇日记",
)
"""`日记 ……`, `帮我写进日记`: a journal entry, kept as typed."""
SETTING_KEYWORDS = ("设置",)
"""`设置 晨报 7:30`: a setting."""
ADMIN_KEYWORDS = ("管理",)
"""`管理 状态`: an admin command."""
REMARK_TAIL_PATTERN = (
    r"(?:[\s,，。;；!！~]|(?<=了)吧)+(?P<tail>[^\s,，。;；0-9]{2,8})[\s,，。!！~]*$"
)
"""A short remark after a message's last separator (`免打扰到中午12点 在考试`), or
after 了吧 (`…提醒删了吧孙子放寒假了`)."""
TAIL_MARKS = " ,，。"
"""Separators around a remark, dropped before it is read alone."""
END_OF_MESSAGE_MARKS = "。!"
"""Marks ending a whole-message command (`今天。`), dropped."""
WATER_WORD = "水"
"""`又一杯水 ✅`: a check mark after water is the check-in, not a task done."""
DONE_SUFFIX = " 完成"
"""`2 ✅`: the check mark read as the word 完成 after the task."""
TIMED_RECORD_PATTERN = r"(?:早上|上午|中午|下午|晚上)?\s*[0-9]{1,2}:[0-9]{2}\s+(?=体重|喝水)"
"""A clock time before a weight or water record: when it was measured, not a day."""
LOOK_LEAD_TAIL = r")\s*(?:一下|下)?\s*(?:我的|的)?\s*"
"""What may follow a look word (`显示一下我的`), closing the group of look words."""


# --- settings.py ---
SWITCHES: dict[str, WaterAction] = {
    "开启": "enable",
    "暂停": "pause",
    "恢复": "resume",
    "关闭": "close",
}
"""The switch keywords (`开启 喝水`, `暂停 提醒 3`) and what each does to water reminders."""
WATER_TARGETS = ("喝水", "喝水提醒", "喝水 提醒")
"""What a switch names to mean the water reminders."""
DAY_WINDOW_PATTERN = r"(?P<wh>[0-9]{1,2})[:：](?P<wm>[0-9]{2})\s*(?:-|~|到|至)\s*(?P<sh>[0-9]{1,2})[:：](?P<sm>[0-9]{2})"
"""`08:00-22:00`: the waking hours."""
SETTING_NUMBER_PATTERN = r"(?P<n>[0-9]{1,4})\s*(?:分钟|分|杯|min)?"
"""`120`, `120分钟`, `8杯`: a setting's number."""
RULE_PATTERN = r"提醒\s*#?(?P<n>[0-9]+)?"
"""`提醒 3`: a reminder by number, or all of them."""
RULE_VERBS: dict[str, RuleVerb] = {"暂停": "pause", "关闭": "pause", "恢复": "resume"}
"""What a switch keyword does to one reminder."""
RULE_VERBS |= {"开启": "resume", "删除": "delete"}
"""What a switch keyword does to one reminder."""
SETTING_TIME_PATTERN = r"(?P<h>[0-9]{1,2})[:：](?P<m>[0-9]{2})"
"""`07:30`: a setting's clock time."""
QUIET_FOR_PATTERN = (
    r"(?P<n>[0-9]+(?:\.[0-9]+)?|[一二两三四五六七八九十]{1,3}|半|俩)?\s*(?P<half>个半)?\s*"
    r"(?P<unit>分钟|分|个小时|小时|个钟头|钟头|h|min|天)"
)
"""`2小时`, `半小时`, `1个半小时`, `3天`: how long to keep quiet."""
QUIET_UNIT_MINUTES = {"天": 1440, "小时": 60, "个小时": 60, "钟头": 60, "个钟头": 60, "h": 60}
"""The minutes in one unit of `QUIET_FOR_PATTERN` (minutes themselves: 1)."""
QUIET_UNTIL_PATTERN = r"(?:到|至|直到)\s*"
"""`到`, `直到`: quiet until a time."""
QUIET_COUNTS: dict[str | None, float] = {
    None: 1.0, "半": 0.5, "一": 1.0, "两": 2.0, "俩": 2.0, "二": 2.0, "三": 3.0,
}  # fmt: skip
"""The counts of `QUIET_FOR_PATTERN` said in words (none said: one)."""
CARDS_ON_OFF = {"开": True, "开启": True, "打开": True, "on": True}
"""`设置 卡片 开/关`: template cards on or off."""
CARDS_ON_OFF |= {"关": False, "关闭": False, "off": False}
"""`设置 卡片 开/关`: template cards on or off."""

# --- settings.py, inside its readers ---
MORNING_DIGEST_NAMES = ("晨报", "早报")
"""The names of the morning digest."""
EVENING_DIGEST_NAMES = ("晚报", "晚间回顾")
"""The names of the evening digest."""
SWITCH_ON_WORDS = ("开启", "恢复")
"""The switch keywords that turn something on."""
CARDS_SETTING = "卡片"
"""`设置 卡片 开`: template cards."""
DAY_WINDOW_SETTING = "作息"
"""`设置 作息 08:00-22:00`: the waking hours."""
WATER_INTERVAL_SETTING = "喝水间隔"
"""`设置 喝水间隔 120`: minutes between water reminders."""
WATER_GOAL_SETTING = "喝水目标"
"""`设置 喝水目标 8`: glasses a day."""


# --- tasks.py ---
TASK_NUMBER_PATTERN = (
    r"(?:任务|待办)?\s*(?:#|第|no\.?)?\s*(?P<number>[0-9]+|[一二两三四五六七八九十]{1,3})\s*"
    r"(?:项|个|号|条)?\s*(?:任务|待办)?"
)
"""`3`, `#3`, `第三个任务`: a task by its list number."""
TASK_FILLER_PATTERN = r"^(?:要|得|需要|记得|前)\s*"
"""`要`, `记得`: words before a task's title, dropped."""
INTERJECTION_PATTERN = r"^(?:算了|嗯+|那个|哎呀|哦|把)[\s,]*"
"""`算了`, `嗯`, `那个`: sounds before what is meant, dropped."""
NAMING_PATTERN = r"(?:那个|这个|那件事|这件事|的事|那条)?(?:任务|待办)?$"
"""`那个任务`, `这件事`: words after a title that only point at it."""
SEVERAL_NUMBERS_PATTERN = r"#?[0-9]+(?:[\s,;、]+#?[0-9]+)+"
"""`3, 5`: several list numbers at once."""
REMIND_BEFORE_PATTERN = (
    r"提前\s*(?:(?:提醒|通知)(?:时间)?\s*(?:改成|改为|改到|设为|设成|调成|调到|换成)\s*)?(?P<count>[0-9]+(?:\.[0-9]+)?|半|[一二两三四五六七八九十]{1,3})\s*"
    r"(?P<unit>分钟|分|个?半?小时|个?钟头|个?钟|刻钟|刻|天|min|h)?"
    r"(?:提醒(?:我|一下)?|通知(?:我)?|叫我)?"
)
"""`提前15分钟提醒我`, `提前半小时`: an event's advance notice."""
REMIND_UNIT_MINUTES = {"天": 1440, "小时": 60, "个小时": 60, "钟头": 60, "个钟头": 60, "h": 60}
"""The minutes in one unit of `REMIND_BEFORE_PATTERN` (minutes themselves: 1)."""
REMIND_UNIT_MINUTES |= {"钟": 60, "个钟": 60}  # 提前一个钟: an hour
"""The minutes in one unit of `REMIND_BEFORE_PATTERN` (minutes themselves: 1)."""
REMIND_UNIT_MINUTES |= {"刻钟": 15, "刻": 15}  # 提前一刻钟: a quarter of an hour
"""The minutes in one unit of `REMIND_BEFORE_PATTERN` (minutes themselves: 1)."""
EVENT_NUMBER_PATTERN = r"#?(?P<n>[0-9]{1,5})(?:号|项)?(?![0-9:：点])"
"""`2`, `#2`, `2号`: an event by its list number."""
ORDINAL_EVENT_PATTERN = r"第\s*(?P<n>[0-9]{1,4}|[一二两三四五六七八九十]{1,3})\s*(?:个|条)?\s*日程"
"""`第二个日程`: an event by its place in the list."""
SAID_PERIOD_PATTERN = (
    r"凌晨|清晨|早上|早晨|上午|中午|下午|傍晚|晚上|睡前|今晚|明晚|今早|明早|夜里|半夜|深夜|午夜|夜间"
    r"|[0-9]:[0-9]"
)
"""A period of the day or a clock time said in a line."""

# --- tasks.py, inside its readers ---
QUIET_WORDS_SAID = ("免打扰", "勿扰")
"""`取消 免打扰`: quiet hours end, whatever task title holds the word."""
LAST_RECORD_WORDS = ("刚才", "刚刚", "上一", "刚记")
"""`取消刚才记的那笔`: the last record undone, not a task."""
EVENT_WORD = "日程"
"""`取消 日程 2`, `取消和老同学吃饭的日程`: an event, not a task."""
OF = "的"
"""The 的 between a title and what it is (`吃饭的日程`)."""
THAT = "那个"
"""`那个`: a pointing word before or after a title, dropped."""
THIS = "这个"
"""`这个`: a pointing word before a title, dropped."""
CANCEL_EVENT_KEYWORD = "取消日程"
"""`取消 日程 2` is read as `取消日程 2`."""
BIND_TAIL = "绑定"
"""`取消方糖的绑定`: a channel's binding, for the channel readers."""
DEFAULT_REMIND_UNIT = "分钟"
"""`提前15`: minutes when no unit is said."""
HALF = "半"
"""`提前半小时`, `一个半小时`: a half."""
DAY_INSIDE_PATTERN = rf"{DAY_WORDS_PATTERN}|[0-9]{{1,2}}月[0-9]{{1,2}}[日号]"
"""A day said inside a line (`客户明天下午三点半上门`), after some of its title."""
EVENT_END_WORDS = ("结束", "结束吧", "散会")
"""`日程2改成下午四点结束`: the time said is the event's new end."""


# --- schedules.py ---
SHORT_PERIODS = {"早": "早上", "晚": "晚上"}
"""`每早`, `今晚`: the one-character period, as the word said in full."""
SCHEDULE_NUM = r"(?:[0-9]{1,2}|[一二三四五六七八九十]{1,3})(?![0-9])"
"""A day or month number: digits or a Chinese numeral."""
SCHEDULE_JOIN = r"(?:[、,/]|和|及|与)"
"""What joins several days (`周一、三`, `1号和15号`)."""
IMPORTANT_MARK_PATTERN = r"[(\[【]\s*重要\s*[)\]】]|(?<![^\s,;:、])重要的?(?:!+|(?![^\s,;:、]))"
"""`【重要】`, `重要!`: a reminder marked important."""
IMPORTANT_SAID_PATTERN = (
    rf"(?:{_alternatives(IMPORTANT_SUBJECTS)})?{_alternatives(IMPORTANT_DEGREES)}重要(?!的)"
    rf"|{_alternatives(IMPORTANT_SUBJECTS)}重要(?!的)|{_alternatives(IMPORTANT_PHRASES)}"
)
"""`这个很重要`, `非常重要`, `这个重要`, `一定要提醒`: the reminder is important."""
TITLE_LEAD_PATTERN = r"(?:提醒我们|叫我们|提醒我|叫我|俺(?!们)|咱(?!们))"
"""`提醒我`, `叫我`: words before a reminder's title, dropped."""
DAILY_PATTERN = r"(?:每天|每日|天天)的?|每个?(?P<p>[早晚])上?"
"""`每天`, `天天`, `每晚`: every day (a period with it)."""
WORKDAY_RULE_PATTERN = r"(?:每个?)?工作日的?"
"""`工作日`, `每个工作日`: Monday to Friday."""
WEEKEND_RULE_PATTERN = r"(?:每逢|每个?)周末的?"
"""`每个周末`: Saturday and Sunday (`周末都…`, `周末每天` are rewritten so); a bare `周末`
is the coming Saturday once (five fresh writers out of five meant it so)."""
WEEKLY_PATTERN = (
    r"(?P<every>每个?)?(?:周|星期|礼拜)"
    rf"(?P<days>[一二三四五六日天](?:(?:{SCHEDULE_JOIN}|到|至|-|~)?(?:周|星期|礼拜)?[一二三四五六日天])*"
    r"|[1-7](?:(?:[、,/和]|到|至|-|~)(?:周|星期|礼拜)?[1-7])*(?![0-9]))"
)
"""`每周一、三`, `周一到周五`, `每星期2`: weekdays."""
WEEKDAY_TOKEN_PATTERN = (
    r"(?P<to>到|至|-|~)?(?:[^一二三四五六日天1-7])*?(?P<day>[一二三四五六日天1-7])"
)
"""One weekday of a `WEEKLY_PATTERN` list, and a range word before it."""
BARE_WEEKLY_PATTERN = r"每个?(?:周|星期|礼拜)"
"""`每周` with no day said."""
MONTHLY_PATTERN = (
    r"每个?月的?(?:(?P<last>最后一天|月底|底|末)|(?P<first>月初|初)"
    rf"|(?P<days>(?:{SCHEDULE_NUM}(?:[号日]{SCHEDULE_JOIN}?|{SCHEDULE_JOIN}))*{SCHEDULE_NUM}[号日]))"
)
"""`每月15号`, `每个月1号和15号`, `每月底`, `每月初`: days of the month."""
YEARLY_PATTERN = rf"每年的?(?P<m>{SCHEDULE_NUM})(?:月(?P<d>{SCHEDULE_NUM})[日号]?|[-/](?P<dd>[0-9]{{1,2}})(?![0-9]))"
"""`每年3月8日`, `每年12-25`: a day of the year."""
TODAY_PERIOD_PATTERN = r"(?P<day>[今明])(?P<p>[早晚])上?"
"""`今早`, `明晚上`: a day and its period."""
QUARTER_HOURS = {"一刻钟": "15分钟", "两刻钟": "30分钟", "三刻钟": "45分钟"}
"""`过一刻钟提醒我…`: quarters of an hour, said as minutes."""
LATER_PATTERN = (
    r"(?:(?P<n>[0-9]{1,4}|[一二两三四五六七八九十]{1,3})\s*个?(?P<half>半)?|(?P<only_half>半)个?)"
    r"\s*(?P<unit>分钟|分|小时|钟头|天|min|h)\s*(?:以后|之后|后)"
)
"""`30分钟后`, `一个半小时以后`, `3天后`: a while from now."""
PERIOD_WORD_PATTERN = "凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|睡觉前|睡前"
"""The periods of the day a reminder may name."""
SECOND_TIME_PATTERN = r",\s*(?:凌晨|早上|上午|中午|下午|傍晚|晚上|[0-9一二三四五六七八九十]{1,3}\s*点).{0,8}(?:再|还)(?:提醒|叫)"
"""A second time said after the title (`…，晚上十点再提醒一次`): one rule per time."""
AFTER_A_WHILE_PATTERN = r"^(?:再)?过\s*(?P<span>[0-9一二两三四五六七八九十半]+\s*个?半?\s*(?:分钟|分|小时|钟头))(?!后|以后|之后)"
"""`过四十分钟`: read as `四十分钟后`."""
RECUR_TAIL_PATTERN = (
    rf"[\s,;]*(?P<tail>(?:{'|'.join(RECUR_TAILS)}|每个?(?:周|星期|礼拜)[一二三四五六日天1-7]+)(?:都|也)?)"
    r"(?:要)?(?:提醒我?)?(?P<important>[\s,]*(?:很|非常|特别)?重要)?$"
)
"""`…,每天`, `…,每周三都`: a recurrence said last."""
SAID_DAILY_PATTERN = r"^(?:每天|天天|每日)"
"""`每天`, `天天`: a daily rule said first."""
DAY_SAID_PATTERN = r"今天|明天|后天|大后天|周|星期|礼拜|号|日|月"
"""A day word of any kind in a reminder."""

# --- schedules.py, inside its readers ---
CLOCK_IN_WHEN_PATTERN = r"[0-9]\s*[:：点]|[一二两三四五六七八九十]\s*点|分钟后|小时后"
"""A clock time (or a time from now) said in a reminder's when."""
DAYS_SAID_TWICE_PATTERN = (
    rf"(?:(?P<weekend>(?:每逢|每个?)?周末的?)|(?P<said>{WORKDAY_RULE_PATTERN}|{WEEKLY_PATTERN}))"
    r"\s*(?:(?:每天|每日|天天|两天)都?|都要?)(?=\s|$|(?:[0-9一二两三四五六七八九十]|凌晨|早|上午|中午|下午|傍晚|晚|睡|提醒|叫|喊))"
)
"""`工作日每天`, `周一到周五每天傍晚6点`, `每周一三五都`, `周末两天`: the days said, then
every day or 都 again: meant once (the days kept; a weekend said so is every weekend)."""
EVERY_WEEKEND = "每周末"
"""`周末每天`, `周末都` rewritten: every weekend."""
EVERY_OCCASION = "每逢"
"""`每逢周一`: every Monday."""
EVERY = "每"
"""`每`: every (a recurrence)."""
AT_LEAD_PATTERN = r"^在\s*(?=[0-9一二两三四五六七八九十半明今后下每])"
"""`在一个半小时后`: a `在` before the time, dropped."""
AFTER_A_WHILE_AS_LATER = r"\g<span>后"
"""`过四十分钟` rewritten as `四十分钟后`."""
EVERY_WEEK_TAIL_PATTERN = r"[\s,;]+每周$"
"""`周日 晚上九点 倒垃圾 每周`: every week, said last."""
WEEKDAY_NOT_EVERY_PATTERN = r"(?<!每)(?:周|星期|礼拜)(?=[一二三四五六日天])"
"""A weekday said without `每` (the one `每周` said last makes recur)."""
REMINDER_SELF_WORDS = ("我们", "咱们", "俺们", "我", "俺", "咱")
"""`提醒我…`, `提醒我们…`: the one to remind, before the time, dropped (longest first)."""
RECUR_TAIL_PARTICLES = ("都", "也")
"""`每天都`: particles after a recurrence said last, dropped (in this order)."""
WORKDAYS_WORD = "工作日"
"""`工作日`: Monday to Friday."""
TITLE_JOINS = ("和", "及", "与")
"""A title starting with one of these after a time: a second time was said."""
DAY_UNIT = "天"
"""`3天后`: whole days."""
TOMORROW_SHORT = "明"
"""`明早`, `明晚`: tomorrow's."""

ME = "我"
"""`提醒我早上八点…,每天`: the 我 before the time, dropped."""


# --- changes.py ---
FORMAL_BA, BA = "将", "把"
"""`将作息时间设置为…`: the formal 将 for 把, said first."""
FORMAL_AT_PATTERN = (
    r"(?:(?<=^)|(?<=[请将需\s,]))于(?=本|今|明|后|下|上|周|星期|[0-9一二三四五六七八九十])"
)
"""`请于本周五下午四点…`: a formal 于 before a day or time (not 等于, 关于, 终于)."""
ENGLISH_SWITCH_PATTERN = r"(?<![A-Za-z])\s*(?P<word>off|on)\s*$"
"""`晚报 off`: the English switch word at a message's end (not the end of a word)."""
SWITCH_ON_PATTERN = r"打开|开启|开|恢复|启用"
"""The verbs that turn something on (`打开`, `恢复`)."""
SWITCH_OFF_PATTERN = r"关掉|关闭|关|停掉|停用"
"""The verbs that turn something off (`关掉`, `停用`)."""
RULE_CHANGE_WORDS: dict[str, RuleVerb] = {"删掉": "delete", "删除": "delete", "删了": "delete"}
"""What a verb said about one reminder does to it (`删掉提醒3`, `把提醒2暂停`)."""
RULE_CHANGE_WORDS |= dict.fromkeys(("暂停", "关掉", "关闭", "停掉"), "pause")
"""What a verb said about one reminder does to it (`删掉提醒3`, `把提醒2暂停`)."""
RULE_CHANGE_WORDS |= dict.fromkeys(("恢复", "打开", "开启"), "resume")
"""What a verb said about one reminder does to it (`删掉提醒3`, `把提醒2暂停`)."""
RULE_CHANGE_VERBS = "|".join(RULE_CHANGE_WORDS)
"""The verbs of `RULE_CHANGE_WORDS`, as alternatives of a pattern."""
RULE_CHANGE_PATTERN = (
    rf"(?:把)?(?:第)?(?P<a>{LIST_N})(?:个|条)提醒\s*(?P<v1>{RULE_CHANGE_VERBS})"
    rf"|(?:把)?提醒\s*#?(?P<b>{LIST_N})\s*(?P<v2>{RULE_CHANGE_VERBS})"
    rf"|(?P<v3>{RULE_CHANGE_VERBS})\s*(?:第\s*(?P<c>{LIST_N})\s*(?:个|条)\s*提醒|提醒\s*#?(?P<d>{LIST_N}))"
)
"""`删掉提醒3`, `删除第3个提醒`, `提醒3 删掉`: one reminder changed."""
CARDS_PATTERN = (
    rf"(?:(?P<v1>{SWITCH_ON_PATTERN}|{SWITCH_OFF_PATTERN})\s*(?:提醒)?卡片|卡片\s*(?P<v2>{SWITCH_ON_PATTERN}|{SWITCH_OFF_PATTERN}))(?:模式)?"
    rf"|(?:把)?(?:提醒|消息|通知)?(?:都)?(?P<v3>用|改用|换成|改成|要|想要)卡片(?:发|的形式|形式|那种)?.*"
    rf"|(?:我)?(?:想要|要)(?P<v4>卡片)(?:那种|形式)?(?:的)?提醒"
)
"""`开启卡片`, `提醒用卡片发吧`: template cards on or off."""
ALL_REMINDERS_PATTERN = rf"(?P<v1>{SWITCH_ON_PATTERN}|{SWITCH_OFF_PATTERN})\s*(?:所有|全部)的?提醒|(?:(?:所有|全部)(?:的)?提醒\s*(?:都|全)?|提醒\s*(?:都|全|全部))\s*(?P<v2>{SWITCH_ON_PATTERN}|{SWITCH_OFF_PATTERN})"
"""`关闭所有提醒`, `全部提醒都打开`: every reminder at once."""
MOVE_VERB_ALTERNATIVES = (
    f"(?:{'|'.join(sorted(MOVE_LEADS, key=len, reverse=True))})(?:{'|'.join(MOVE_ENDS)})"
)
CANNOT_THEN_MOVE_PATTERN = rf"{TODAY_CANNOT_SAID}(?=(?:{MOVE_VERB_ALTERNATIVES}))"
"""`复诊今天去不了了 改到周五`: why an event moves, before the verb that moves it."""
EDIT_LEAD_PATTERN = rf"^(?:的?时间\s*)?(?:请|麻烦)?\s*(?:{MOVE_VERB_ALTERNATIVES})\s*"
"""`日程2 时间换成下午三点`: the words before an event's new time, no new title."""
"""The verbs that move an event, as alternatives of a pattern."""
EVENT_EDIT_PATTERN = rf"(?:把|改一下|修改一下|修改|更改)?\s*(?:日程\s*(?P<n>{LIST_N})|第\s*(?P<o>{LIST_N})\s*个\s*日程|(?P<p>{LIST_N})\s*号日程)\s*(?:的?时间|的)?\s*(?:请|麻烦)?\s*(?:{MOVE_VERB_ALTERNATIVES}|改)\s*(?P<rest>.+)"
"""`把日程2改到周五下午三点`: an event by number, changed."""
EVENT_MOVE_PATTERN = (
    rf"(?:把)?(?P<title>[^\s0-9]{{1,12}}?)\s*(?:{MOVE_VERB_ALTERNATIVES})\s*(?P<rest>.+)"
)
"""`把复诊改到周五下午3点`: an event by title, moved."""
EVENT_CANCEL_PATTERN = (
    rf"(?:把)?(?:取消|删除|删掉)\s*日程\s*(?P<a>{LIST_N})"
    rf"|(?:(?:把)?日程\s*(?P<b>{LIST_N})|(?P<c>{LIST_N})号日程)\s*{_alternatives(EVENT_OFF_WORDS)}"
    r"(?:[,\s]*(?:取消|删掉|删了|删除)?\s*吧?)?(?:[,\s].{0,12})?"
)
"""`日程2取消`, `删除日程 2`, `3号日程不去了`: an event by number, cancelled."""
EVENT_STARTS_PATTERN = r"(?:开始|开|举行|进行|见面)$"
"""`改成10:30开始`: the start word after a new time, dropped."""
EVENT_NAMING_PATTERN = r"(?:那个|这个|的)?(?:日程|会议|安排)?$|那个$"
"""`那个日程`, `的会议`: words after an event's title that only point at it."""
DIGEST_DAILY_PATTERN = (
    r"(?:每天)?(?P<t>.+?)\s*(?:再)?(?:发|推送|给我发|发我|发一下|来)(?:个|一下)?(?P<d>晨报|早报|晚报)"
    r"(?:给我|吧)?"
)
"""`每天早上7点半发晨报`: a digest's time."""
WAKE_SLEEP_PATTERN = r"(?:我|俺|咱)?(?:一般|平时|每天|通常)?(?P<a>.+?)起(?:床|来)?了?[\s,]*(?P<b>.+?)(?:就)?睡(?:觉)?了?"
"""`我一般7点起床11点睡`: the day window."""
ROUTINE_CHANGE_PATTERN = r"^作息(?:时间)?\s*(?:改一下|改成|改为|调整一下|调整为|调整成|调一下|调成|调为|换成|设置为|设为)?\s*[:：,]?\s*"
"""`作息时间改一下 早上6:30起 晚上11点睡`: the words that only say a change follows."""
ROUTINE_PATTERN = r"(?:我的?|俺的?)?(?:日常)?作息(?:时间)?\s*(?:一般|大概|改成|改为|调成|换成|设为|改一下|调整为)?(?:是|为)?\s*[:,]?\s*(?P<a>[^\s,到至]+?)(?:\s*(?:到|至|-|~)\s*|[\s,]+)(?P<b>.+)"
"""`我的作息是早上六点到晚上十点`: the day window as a span."""
WAKE_SLEEP_NAMED_PATTERN = (
    r"起床(?:时间)?(?:是|在)?\s*(?P<a>[^\s,]+?)[\s,]*睡觉(?:时间)?(?:是|在)?\s*(?P<b>.+)"
)
"""`起床时间7点 睡觉时间23点`: the day window, each end named."""
FOR_THIS_PATTERN = r"(?=你?(?:就)?(?:按|照)这个)"
"""`…晚上十点就睡了你按这个时间提醒我喝水`: where what it is for begins."""
CLOCK_SAID_PATTERN = r"[0-9]|[一二两三四五六七八九十]\s*点"
"""A digit or a Chinese hour: a time is said."""
WATER_WORDS_PATTERN = (
    r"(?:今天|这两天|以后|今后|再也|先)*(?:就)?(?:开始)?(?P<neg>不要|别|不用)?(?P<again>继续|恢复|重新)?"
    r"(?:再)?(?:提醒我?|叫我)喝水(?:了)?"
)
"""`提醒我喝水`, `不要再提醒我喝水了`: the water plan on or off."""

# --- changes.py, inside its readers ---
EDIT_EVENT_KEYWORD = "改日程"
"""`把日程2改到…` is read as `改日程 2 …`."""
TASK_WORDS = ("待办", "任务")
"""`续交房租那个待办推到明天`: a task, not an event."""
SOFT_TAIL = " 吧了"
"""`改到明天吧`: the soft tail of a move, dropped."""
TOMORROW = "明天"
"""`修空调改到明天`: put off to tomorrow."""
SAME_TIME_WORDS = ("同一时间", "原来的时间", "时间不变", "同一个时间", "老时间")
"""`挪到周四同一时间`: the day moves, the time stays (these words dropped)."""
WAKE_WORD = "起"
"""`7点起`: getting up."""
SLEEP_WORD = "睡"
"""`11点睡`: going to bed."""
PAUSE_WORD = "暂停"
"""`暂停提醒我喝水`: the water plan paused, not closed."""
PAUSE_LEADS = ("先", "今天", "这两天")
"""`先别提醒我喝水了`: for now: the water plan paused, not closed."""


# --- phrasing.py ---
SETTING_N = rf"(?:[0-9]{{1,3}}|{CN_INT})"
"""A count in a setting said in words: up to three digits or a Chinese integer."""
POLITE_LEAD_PATTERN = r"^(?:请|麻烦|帮我|帮忙|给我)\s*"
"""`请`, `麻烦`, `帮我`: a polite lead, dropped."""
_WATER_KIND = "(?:温|热|凉|冰|白开|开)?"
WATER_SAID_PATTERN = (
    r"(?P<total>今天|今天一共|今天总共|一共|总共)?(?:又|刚|刚刚|刚才|已经)?(?:喝|补)(?:了|掉|完了|完)?\s*(?:水)?\s*"
    rf"(?:(?P<n>{SETTING_N})\s*(?:大|小)?(?P<unit>杯|瓶)(?P<water>{_WATER_KIND}水)?|(?P<one>杯水|水))?"
    rf"|(?P<n2>{SETTING_N})\s*(?:大|小)?杯{_WATER_KIND}水"
)
"""`喝了两杯水`, `又喝了一瓶`, `三杯水`, `一大杯温水`: water drunk, said in words."""
SET_TO = r"(?:改成|改为|改到|设为|设成|设置为|设置成|调整为|调整成|调整到|调成|调到|定在|定成|定为|定个|设个|定|设|为|是|:)?\s*"
"""The words between a setting and its new value (`改成`, `设为`, `:`)."""
DIGEST_TIME_PATTERN = rf"(?:把|设置)?\s*(?P<d>晨报|早报|晚报)\s*(?:时间)?\s*{SET_TO}(?P<t>.+?)(?:发给我|发我|推送|发)?"
"""`把晨报改成7点半`: a digest's time."""
DIGEST_SWITCH_PATTERN = (
    r"把?(?P<v1>打开|开启|关掉|关闭|停掉|取消|不要)?\s*(?P<d>晨报|早报|晚报)\s*"
    r"(?P<v2>打开|开启|开|关掉|关闭|关|停掉|不要)?"
)
"""`关掉晚报`, `晨报打开`: a digest on or off."""
WATER_INTERVAL_PATTERN = (
    rf"(?:设置|把)?\s*(?:喝水)?(?:提醒)?(?:的)?(?:间隔|频率)?\s*(?:设成|{SET_TO})(?:每隔|每|隔)?\s*"
    rf"(?:(?P<n>{SETTING_N})\s*个?(?P<half>半)?|(?P<only_half>半)个?)?\s*(?P<unit>分钟|分|mins|min|小时|钟头)"
    r"\s*(?:(?:提醒|喊|叫)我?喝(?:一次|次)?水|喝一次水?|提醒一次喝水|提醒一次|一次)?"
    r"(?:就行|就好|就可以|就够了)?"
)
"""`喝水提醒间隔改成一个半小时`: minutes between water reminders."""
WATER_GOAL_PATTERN = (
    rf"(?:设置)?\s*(?:一天|每天|每日)?\s*(?:喝水)?\s*的?\s*目标\s*{SET_TO}(?:喝)?(?P<n>{SETTING_N})\s*杯水?"
    rf"|(?:目标)?(?:每天|一天|每日)(?:要)?喝\s*(?P<m>{SETTING_N})\s*杯水?"
)
"""`喝水目标改成8杯`, `每天要喝六杯`: the daily goal."""
WATER_GOAL_SAID_PATTERN = (
    rf"(?:喝水)?目标\s*{SET_TO}(?:喝)?(?P<n>{SETTING_N})\s*杯水?(?:就够了|就够|就行|就好)?$(?P<m>)?"
)
"""`一天喝六杯就够了，喝水目标改成六杯`: the goal said at the end of a sentence."""
WATER_GOAL_DAILY_PATTERN = rf"(?:一天|每天|每日)(?:要)?(?:喝)?够?\s*(?P<n>{SETTING_N})\s*杯(?P<m>)?"
"""`一天喝够八杯`: the daily goal, said as a count."""
ROUTINE_SET_PATTERN = (
    rf"(?:设置|把)?\s*作息\s*(?:时间)?\s*{SET_TO}(?P<a>.+?)\s*(?:到|至|-|~)\s*(?P<b>.+)"
)
"""`作息改成 7:00-23:00`: the day window."""

# --- phrasing.py, inside its readers ---
TURN_ON_VERBS = ("打开", "开启", "开")
"""The verbs of `DIGEST_SWITCH_PATTERN` that turn a digest on."""
DAILY_LEADS = ("每天", "每日")
"""`每天7点`: every day, before a digest's time (dropped, in this order)."""
LATER_WORD = "后"
"""`两小时后`: a while from now, not an interval."""
DRINK_WORD = "喝"
"""`喝`: drinking."""
WATER_NOUN = "水"
"""`水`: water."""
INTERVAL_WORD = "间隔"
"""`间隔`: the interval between water reminders."""
HOUR_UNITS = ("小时", "钟头")
"""The units of `WATER_INTERVAL_PATTERN` that count hours."""
GOAL_SAID_WORDS = ("目标", "就行", "就够了", "就够")
"""`一天喝够十杯就行`: a count of glasses said as the goal."""
MORNING_PERIODS = ("上午", "早上", "凌晨", "中午")
"""A period said with a time that keeps it before noon."""
TAKE_WORD = "把"
"""`把喝水提醒关掉`: the 把 before what is switched, dropped."""
REMIND_WORD = "提醒"
"""`提醒`: a reminder."""
AGAIN_WORD = "再"
"""`…再提醒我`: the 再 before a reminder word, dropped."""
REMEMBER_WORD = "记得"
"""`…记得提醒我`: the 记得 before a reminder word, dropped."""
THEN_WORD = "到时候"
"""`…到时候提醒我`: the 到时候 before a reminder word, dropped."""
REPEATS_PATTERN = r"每|工作日|周末|天天"
"""A recurrence word: the words before a reminder word are one schedule."""
NAMED_DAY_PATTERN = r"今天|明天|后天|大后天|今晚|明早|明晚|[0-9]{1,2}(?:月|号|日)"
"""A day named: a time said last, after a remark."""
REPEAT_LEADS = ("每", "工作日")
"""A reminder starting with these says its time first."""
DRANK_WORDS = ("喝", "喝了")
"""`喝了`: the card's button, typed: one glass."""
TOP_UP_WORD = "补水"
"""`补水一杯`: water drunk."""
CUP = "杯"
"""`杯`: a glass (a 瓶 is asked)."""
VAGUE_WHEN_TAIL = (
    r")\s*(?:之前|以前|前)?\s*(?:要|得|需要|记得|必须|该)\s*(?P<title>[^\s,0-9]{2,20})"
)
"""`下周要交年终总结`: after a vague period, what has to be done (closing its group)."""
QUESTION_MARKS = "?？吗"
"""A message with one of these is asked, not said."""
BOOKED_LEADS = ("约了", "约好了", "我约了")
"""`约了周五晚上八点跟老同学吃饭`: an appointment the user made."""
PERIOD_THEN_HOUR_PATTERN = (
    r"^(?P<when>.*?(?:凌晨|早上|早晨|上午|中午|下午|傍晚|晚上))(?P<title>[^\s,0-9]{2,}?)[\s,]+"
    r"(?P<hour>(?:[0-9]{1,2}|[一二两三四五六七八九十]{1,3})点(?:半|[0-9]{1,2}分?)?)(?:开始|开)?"
    r"(?P<after>(?:[\s,].*)?)$"
)
"""`周四下午去医院看眼睛 两点`: the period said first, its hour said last: one time."""
BOOKED_PATTERN = r"^(?:我)?约(?:好)?了"
"""The words of `BOOKED_LEADS`, dropped."""


# --- money.py ---
MONEY_QUESTION_PATTERN = (
    r"[?？吗么啥]|多少|(?<![跟和与同请好这那前近])几(?![本个件斤瓶盒袋包双支杯份张只]|十|百|千)"
    r"|怎么|为什么|是不是|要不要|能不能|贵不贵"
)
"""A question mark or word: a message about money that asks, records nothing (`几本`,
`几十`: a few, no question)."""
MONEY_PAST_PATTERN = r"昨天|前天|前几天|这几天|这两天|上周|上个?月|去年|那天|上次|上回"
"""A past day (`昨天`, `上次`): money told as a story, asked."""
STRONG_SPEND = (
    "花了",
    "花掉",
    "付了",
    "花费",
    "消费",
    "支付",
    "买了",
    "交了",
    "充了",
    "用了",
    "扣了",
    "掏了",
)
"""The verbs that say money was spent, whatever the item."""
NOTE_TAIL_PATTERN = r"\s+(?:又|已)?(?:交|付|花|给|收|充|点|买|到|到账|转过去|转了过去|转过去)$"
"""`房租 四千二 交了`, `退款59块到了` (了 already dropped): a verb left at the end is no
part of the note."""
NOT_BEFORE_MONEY = frozenset("第周期拜每#./")
"""A character before a number that makes it no amount (`第3`, `周3`, `#3`)."""
NOTE_SPLIT_PATTERN = r"[\s,;:、，。！!?？~…]+"
"""What separates the words of a ledger note."""
PRICE_UNIT_ALTERNATIVES = "|".join(PRICE_UNITS)
"""The price units, as alternatives of a pattern."""
PER_UNIT_AFTER_PATTERN = rf"(?:一|\s*每\s*|\s*/\s*)(?:{PRICE_UNIT_ALTERNATIVES})(?!人)"
"""`五块八一斤`, `30元/个`: a price per unit after the amount."""
PER_COUNT_AFTER_PATTERN = rf"(?:[两三四五六七八九十]|[2-9])(?:{PRICE_UNIT_ALTERNATIVES})(?!人)"
"""`苹果9块9三斤`: a price for so many, glued after the amount (asked, like a price)."""
PER_UNIT_BEFORE_PATTERN = rf"(?:一|每)(?:{PRICE_UNIT_ALTERNATIVES})\s*(?:要|卖|才|就)?\s*$"
"""`一斤12块`: a price per unit before the amount."""
PRICE_SAID_PATTERN = r"(?:要|售价|标价|报价)\s*$"
"""`一桌婚宴酒席要两千八`: what a thing costs (said right before the amount, with no
verb of paying anywhere): a price, asked, never recorded as spent."""
SOMEONE_SPENT = (
    "花",
    "买",
    "付",
    "交",
    "充",
    "请",
    "用",
    "又",
    "也",
    "刚",
    "的",
    "中",
    "说",
    "家",
)
"""What follows a person who spent the money themselves (`同事花了500`)."""
SOMEONE_EARNED = ("赚", "挣", "领", "拿", "收", "发工资", "工资", "奖金", "年终奖", "中奖", "卖")
"""What follows a person whose money came in (`我哥赚了1万`, `老公年终奖拿了2万`): theirs,
not the user's."""
SOMEONE_GAP_PATTERN = (
    r"(?:今天|昨天|前天|刚才|刚刚|早上|上午|中午|下午|晚上|这周|上周|这个?月|上个?月|今年|去年"
    r"|一口气|一下子|自己|偷偷|居然|竟然|总共|一共|又|也|还|都|就|才|在[^\d\s,，。]{1,6}?)*"
)
"""What may stand between a person and their money verb (`我妈今天花了200`,
`老婆刚刚在淘宝花了500`): when and where, not whose."""
WITH_WORDS = "和跟陪带"
"""`我和老婆花了300`: a person after these spent it with the user (theirs together)."""

# --- money.py, inside its readers ---
GIFT_CATEGORY = "人情"
"""The expense category of money given to someone."""
RED_PACKET_CATEGORY = "红包"
"""The income category of a gift received (份子钱, 礼金)."""
MEAL_CATEGORY = "餐饮"
"""The expense category of meals."""
SHOPPING_CATEGORY = "购物"
"""The expense category of things bought with no other word for them."""
REFUND_CATEGORY = "退款"
"""`拼多多退款59块到了`: money coming back; the shop it came from names no expense."""
WEIGHT_WORD = "体重"
"""`我妈体重55`: a number by a weight word is never money."""
JUST_NOW = "刚才"
"""`刚才` only says when (the 才 of `才50` hedges)."""
GIVING_VERBS = "给送帮替请"
"""`给同事…`: a person after these is given to, not the one who spent."""
ERRAND_WORD = "去"
"""`打车去医院打疫苗`: what was paid is said before 去, the errand after."""
EARNED_WORDS = ("卖了", "卖掉", "赚了", "挣了")
INCOME_MARKS = ("收入", "进账", "入账")
"""`闲鱼卖旧婴儿车 收入300`: said as its own word beside the amount, money came in
whatever the item words say (an explicit marker beats the default)."""
EARNED_BY_WORK = ("赚了", "挣了")
"""`帮邻居家孩子补课 赚了两百`: earned by doing something, no income word: 兼职."""
SOLD_WORD = "卖"
"""`卖了旧手机 赚了200`: sold, not work: no 兼职."""
PART_TIME_WORD = "兼职"
"""Money earned: it came in."""
BUY_WORD = "买"
"""`买`: bought."""
TRANSFER_WORD = "转"
"""`转`: money transferred."""
PAYEE_TRANSFER_PATTERN = r"^(?:给|向)\S{1,6}?(?:转了|转账了?|转过去了?|转|打了|付了|交了)$"
"""`给房东转了`: who was paid, beside the item (`房租`): the note keeps the item."""
SENT_RED_PACKET_PATTERN = r"^(?:在\S{1,4}?)?(?:发|包)了?(?:一)?个?[^\s的]{0,2}?红包"
"""`发了个群红包`, `在群里发了个红包`: a red packet the user sent (no one sent it to them)."""
CONSUMED_VERBS = ("吃了", "喝了")
"""`吃了个烧鹅饭 28`: the verb that leads a meal's note, no part of it."""
COUNTER_GE = "个"
"""`买了个电暖器`: 个 starts no item."""
NOT_GIVEN_WORDS = ("赚了", "挣了", "卖了", "收了", "领了", "收到", "到账")
"""Money that came in: nothing was given."""
LEDGER_KEYWORD = "记账"
"""`记账`: the ledger's keyword, a lead of a note."""
LARGE_CN_UNITS = "百千万"
"""`三百六`: a Chinese numeral with one of these is a number even glued to a word."""
COUNTED_PATTERN = r"(?:[0-9]+|[一二两三四五六七八九十]+)(?:{units})$"
"""`两张`, `三斤`, `2杯`: a count and its measure word (`{units}`), said just before a price."""
LENT_WORDS = ("转了", "借了")
"""`转了`, `借了` before a number: money moved."""
SHARE_SIGNS = ("%", "％", "‰")
"""`还剩20%`: a share, not money."""
ARRIVED_WORDS = ("到账", "入账", "进账", "到了", "已到账", "已经到账", "已到")
"""`退款129到账`: money arrived."""
ARRIVED_LAST = "到"
"""`工资8000到了` with its 了 dropped: money arrived, said last."""
ADDED_WORD = "加了"
"""`加了`: money added (a top-up)."""


# --- intents.py ---
REVIEW_HINT_PATTERN = "周报|回顾|回看|周总结|review"
"""A word the weekly review's family needs (one search before its cues)."""
DIGEST_HINT_PATTERN = "晨报|早报|晚报|总结|计划|安排"
"""A word the digests' family needs."""
MARKER_HINT_PATTERN = "|".join(
    map(re.escape, (*EVENT_PLACES, *TASK_PLACES, "ddl", "记个事", "记件事"))
)
"""A word an explicit event or task marker needs."""
WEIGHT_HINT_PATTERN = "体重|称|秤|kg|公斤|千克|斤"
"""A word a weight said in a sentence needs."""
WATER_HINT_PATTERN = "水|杯|water"
"""A word water said in a sentence needs."""
CHANNEL_HINT_PATTERN = "绑|渠道|通道|备用|备选|后备|小程序|微信|企微|wxpusher|server|方糖|sct|uid_|spt|发到|推送|提醒发|消息发"
"""A word a channel said in a sentence needs."""
NOT_NEEDED_HINT_PATTERN = r"不用|不要|不必|用不着|不\S{1,2}了?$"
"""`不用`, `不要`: something no longer needed."""
DISMISS_HINT_PATTERN = "算了|不记|不用了|不要了|别记|不用记|不要记"
"""`算了`, `不记`: a record not wanted."""
BOOKED_LEAD_PATTERN = r"^(?:我)?(?:约了|约好了|定了|订了|安排了)\s*"
"""`约了`, `定了`: an appointment made, before its day."""
WHEN_START_PATTERN = (
    f"{DAY_WORDS_PATTERN}|{'|'.join(PERIOD_TIMES)}|凌晨|[0-9一二三四五六七八九十两]+\\s*点"
)
"""A day, a period or an hour: where a time is said."""
UNBIND_APART_PATTERN = r"(?:解除|取消).{1,16}的?绑定"
"""`取消方糖的绑定`: an unbinding said around the channel."""
DRANK_PATTERN = (
    r"(?:补水|喝水|喝了水)\s*(?P<j>[0-9]{1,2}|[一二两俩仨三四五六七八九十]{1,3})\s*杯|"
    r"水(?:我)?(?:又|刚|也)?(?:喝|整|灌)了?\s*(?P<m>[0-9]{1,2}|[一二两俩仨三四五六七八九十]{1,3})\s*杯"
    r"|(?:又)?(?P<k>[0-9]{1,2}|[一二两俩仨三四五六七八九十]{1,3})\s*(?:大|小)?杯(?:温|热|凉|白)?水下肚"
    r"|(?:刚刚|刚才|刚|又|已经|再|一口气|才)*\s*(?:喝|灌|补|干|整)(?:了|完)?\s*(?:第)?"
    r"(?P<n>[0-9]{1,2}|[一二两俩仨三四五六七八九十]{1,3})?\s*(?:大|小)?杯(?:温|热|凉|白|冰)?(?:开)?水"
)
"""`喝水两杯`, `水又喝了三杯`: glasses of water, the count after the word."""
WATER_PLUS_LAST_PATTERN = (
    r"水了?\s*[+x×*]\s*(?P<n>[0-9]{1,2})$|(?<![0-9])\+\s*(?P<m>[0-9]{1,2})\s*杯(?:水)?$"
)
"""`水 +2`, `刚喝完 +1杯水`: glasses of water."""
CUPS_LAST_PATTERN = (
    r"(?:喝|灌|干|整)(?:了|完)?\s*(?P<n>[0-9]{1,2}|[一二两俩仨三四五六七八九十]{1,3})\s*(?:大|小)?杯"
    r"(?=$|[\s,，。!！~])"
)
"""`喝了两杯`: glasses said last (of water, asked)."""
RENAME_PATTERN = r"(?:的)?(?:改个名字|改名字|改名|标题改|名字改|名称改|改个名)[,\s]*(?:成|为|叫)?\s*(?P<title>.+)"
"""`…改名为…`: an event renamed."""
EVENT_SAID_NUMBER_PATTERN = rf"(?:把)?(?:日程\s*#?(?P<n>{LIST_N})(?![0-9:点])|第\s*(?P<o>{LIST_N})\s*(?:个|条)\s*日程)\s*(?:的)?"
"""`日程2`, `第二个日程`: an event by its list number, said first."""
EVENT_VERBS_PATTERN = (
    r"^(?:时间|的时间|提醒|的提醒|提醒时间)?\s*(?:" + MOVE_VERB_ALTERNATIVES + "|改|是|为)?"
    r"|提醒我?$|提醒一下$"
)
"""What may follow an event's number before the change (`时间改到`, `提醒`)."""
ADVANCE_NOTICE_PATTERN = (
    r"提前\s*(?:[0-9]+|半|[一二两三四五六七八九十]{1,3})\s*个?\s*(?:分钟|分|小时|钟头|天)"
)
"""`提前一小时`: how long before an event to be told of it."""
NAMED_NOTICE_PATTERN = (
    r"(?:把)?(?!第)(?P<title>[A-Za-z][A-Za-z ]{0,30}[A-Za-z](?=\s*(?:那个|的))|(?:(?!日程|提醒)[^\s,0-9]){1,12}?)\s*"
    r"(?:(?:那个|的)(?:日程|会)?[\s,]*(?:改成|改为|设成|换成|改)?"
    r"|(?:日程)?\s*(?:改成|改为|设成|换成))[\s,]*(?P<notice>提前.+)"
)
"""`复诊那个日程提前一小时提醒`, `答辩那个改成提前1小时提醒`, `书法课改成提前两个小时提醒`:
an event named by its title, its notice changed."""
NAMED_RENAME_PATTERN = rf"(?:把)?(?!第)(?P<ref>(?:(?!日程|提醒)[^\s,0-9]){{1,12}}?)(?:那个|的)?(?:日程|安排|行程)?\s*{RENAME_PATTERN}"
"""`组会那个日程名字改成 开题汇报`: an event named by its title, renamed."""
WAIT_PATTERN = (
    r"(?P<n>[0-9]{1,3}|[一二两三四五六七八九十]{1,3}|半)\s*个?\s*(?P<unit>分钟|分|小时|钟头)"
)
"""A wait (`四十分钟`, `半小时`): its `n` and `unit` are what `_snooze_minutes` reads."""
LATER_BY_PATTERN = rf"{WAIT_PATTERN}(?:后|以后)"
"""`30分钟后`: a wait, then."""
QUIET_ASKED_PATTERN = (
    r"(?:这段时间|这期间|期间|这会儿)?(?:都)?(?:请|帮我|给我)?(?:开启|打开|开|设置|设|进入)?(?:一下)?"
    r"(?:免打扰|勿扰)(?:模式)?(?:吧)?$"
)
"""`这段时间帮我开启免打扰`: quiet hours asked for."""
AFTER_WAIT_PATTERN = rf"(?:过|等|稍后|推迟|延后)\s*{WAIT_PATTERN}"
"""`过半小时`, `等十分钟`, `稍后一小时` (snooze): after a wait."""
WATER_LATER_PATTERN = (
    rf"(?:再)?(?:过|等)?\s*{WAIT_PATTERN}(?:后|以后)?(?:再)?(?:叫|提醒|喊|催)我?喝水"
)
"""`过半小时再提醒我喝水`: the next water reminder put off."""

# --- intents.py, inside its readers ---
TASK_KEYWORD = "待办"
"""`待办`: the task keyword."""
MARKER_EDGE_MARKS = " ,的"
"""Marks and 的 between a title and a task word said last (`今天的todo`)."""
HELP_KEYWORD = "帮助"
"""`帮助`: the help keyword."""
PLAN_WORD = "安排"
"""`安排`: plans (a view word that overlaps a scope)."""
MY_WORD = "我的"
"""`我的`: mine, around a view word."""
ADMIN_WORD = "管理"
"""`管理`: the admin's pages."""
NAMED_REMIND_PATTERN = r"(?:的|那个)提醒"
"""`叫我起床的提醒`: a reminder named by its title."""
PAUSE_SPAN_PATTERN = r"(?:[0-9]{1,2}|[一二两三四五六七八九十半]{1,3})\s*个?(?:天|周|星期|礼拜|月)"
"""`两周`, `一个月`: how long a pause lasts, said after its verb."""
PAUSE_FOR_PATTERN = rf"(?:暂停|停)(?:个|上)?\s*{PAUSE_SPAN_PATTERN}"
"""`暂停两周`: how long a pause lasts (no amount; the pause lasts until 恢复)."""
ORDINAL_WORD = "第"
"""`第`: an ordinal (`第二个日程`)."""
EVENT_NAMES = ("日程", "安排", "行程")
"""The nouns of an event (`日程`, `安排`, `行程`): alone, they name no event."""
BUDGET_WORD = "预算"
"""`预算`: the budgets."""
WATER_EMOJI_PATTERN = r"^[^水]*?(?:(?<=杯)\s*💧|💧(?=\s*[+xX×*]))"
"""`又喝了一杯💧`, `💧+1`: the drop said for 水 (elsewhere it only decorates)."""
WATER_EMOJI_AS = "水"
TOTAL_WORDS = ("今天", "一共", "总共")
"""`今天一共喝了三杯`: a total, not more glasses."""
WEIGHT_NOW_PATTERN = r"^(?P<remark>[^0-9]{1,12}?)[\s,]*(?:现在|目前|今天|今早|这会儿|早上|now)\s*(?:是|有|为)?\s*(?P<value>\S+)$"
"""`体重又涨了 现在52`: a remark first, then the weight now (the value said last)."""
WEIGHT_UNIT_FIRST_PATTERN = (
    rf"^(?:(?:记一下|记下|记录|记个|记|一下)\s*)?{WEIGHT_UNIT_LEAD}(?P<value>[^\s斤kg公千]+)$"
)
"""`体重记一下 kg是57.6`, `斤数是115`: the unit named before the value."""
WATER_MINUS_PATTERN = r"(?:喝水|水|water)\s*-\s*(?P<n>[0-9]{1,2})(?![0-9])"
"""`记错了 喝水-1`: glasses taken off, said as the keyword says it, inside a sentence."""
WATER_COUNTED_AS_PATTERN = r"算(?:作|成|是)?\s*(?P<n>[0-9]{1,2}|[一二两三四五六七八九十])\s*杯"
"""`又干了一瓶水 算两杯吧`: the glasses the user counts it as."""
THING_POINTED_PATTERN = (
    r"[这那](?:一)?(?:个|袋|箱|包|只|条|块|瓶|桶|盒|件|颗|根|头|份)(?!月|星期|礼拜|周|时候)"
    r"|[这那](?![个些天两几周月年次里样么会礼星阵段回下边儿就是也都还])[\u4e00-\u9fff]"
)
"""`这袋米 25kg`, `那个西瓜 5kg`: a thing pointed at; the weight is its, not mine."""
NOT_TOTAL_PATTERN = r"(?:今天)?(?:早上|早晨|上午|中午|下午|傍晚|晚上)|[又再补]"
"""`今天下午补了2杯水`, `下午一共喝了4杯水`: a part of the day, or more: glasses added."""
TAKEN_OFF_WORDS = ("减掉", "减去")
"""`减掉`, `减去`: glasses taken off a count."""
SENTENCE_END_MARKS = " .。!~"
"""Marks and spaces that may end a sentence."""
UNTIL_WORD = "到"
"""`到`: until."""
UNTIL_FORMAL_PATTERN = (
    r"(?<![甚以直])至(?=\s*(?:今|明|后|早|上|中|下|晚|凌|[0-9一二三四五六七八九十]))"
)
"""`免打扰至今天17:00`: the formal 至 for 到 before a time (not 甚至, 以至)."""
BEFORE_WORD = "前"
"""`前`: before."""
EVENING_PERIODS = ("下午", "晚上", "傍晚")
"""The periods that make a bare hour after them an evening one."""
UNTIL_BEFORE_PATTERN = r"(?:之|以)?前|为止"
"""`之前`, `以前`, `前`, `为止`: until a time."""
DAY_PERIODS = ("上午", "下午", "晚上", "早上", "明早", "傍晚")
"""A period said with a time."""
QUIET_KEYWORD = "免打扰"
"""`免打扰`: the quiet-hours keyword."""
TODAY_SHORT = "今"
"""`今`: today's (`今晚`)."""
LINK_WORDS = ("绑", "连上", "关联", "连起来")
"""`绑`, `关联`: something linked."""
CHANNEL_NOUN = "渠道"
"""`渠道`: a channel."""
CHANNEL_NOUN_ALT = "通道"
"""`通道`: a channel."""
FALLBACK_WORDS = ("备用", "备选")
"""`备用`, `备选`: the fallback channel."""
PERSONAL_WECHAT = ("微信", "企业微信", "企微", "个人微信")
"""The WeChat channels: never unbound by words."""
ADVANCE_WORD = "提前"
"""`提前`: in advance."""

AFTER_MARKER_WORDS = ("里", "中")
"""`记到待办里`: what may follow a marker, dropped (in this order)."""
UNTIL_LEAD = "到 "
"""`到 8:00`: the quiet-hours reader's word for until."""
BIND_COMMAND = "绑定 {said}"
"""A key said in a sentence, read as the bind command."""
UNBIND_COMMAND = "解绑 {target}"
"""A channel unbound in a sentence, read as the unbind command."""
SET_FALLBACK_COMMAND = "设置 备用 {target}"
"""A fallback channel said in a sentence, read as its setting."""
FALLBACK_OFF_WORD = "关"
"""`设置 备用 关`: no fallback channel."""
SET_PRIMARY_COMMAND = "设置 渠道 {target}"
"""A primary channel said in a sentence, read as its setting."""
HELP_COMMAND = "帮助 {topic}"
"""A question about a topic, read as its help page."""


# --- cues.py ---
VERB_ENDS = frozenset("了掉吧一下啦啊呀哈的上起")
"""What may follow a one-character turn word for it to be a verb (`关了`, `停掉`)."""
DONE_VERB_ALTERNATIVES = "|".join(sorted(map(re.escape, DONE_PAST_VERBS), key=len, reverse=True))
"""The verbs of a thing done, longest first, as alternatives of a pattern."""
DONE_PAST_PATTERN = rf"(?P<thing>[^\s,0-9我你他她它这那都也不第没]{{1,8}}?)\s*(?:已经|也|都)?(?<!待)(?P<verb>{DONE_VERB_ALTERNATIVES})(?:好|完|掉)?了?了?"
"""`快递取了`: a thing, then the verb that did it."""
DONE_ANY_VERB_PATTERN = (
    r"(?P<thing>[^\s,0-9我你他她它这那都也不第没]{2,8}?)\s*(?:已经|也|都)?"
    rf"(?P<verb>{'|'.join(sorted(WORK_VERBS, key=len, reverse=True))})(?:{'|'.join(DONE_ENDINGS)})了?"
)
"""`报价单发过去了`, `材料提交上去了`: a thing, a work verb and its ending."""
VERB_BASE = {
    "取回来": "取",
    "拿回来": "拿",
    "取回": "取",
    "拿回": "拿",
    "交上去": "交",
    "交上": "交",
}
"""A done verb with its direction or result, as the verb a title starts with."""
VERB_BASE |= {"拿到": "拿", "取到": "取", "收到": "收", "去过": "去", "做过": "做", "办过": "办"}
"""A done verb with its direction or result, as the verb a title starts with."""
FINISHED_PATTERN = r"[\u4e00-\u9fff]完[\u4e00-\u9fff]?$"
"""`…做完`, `…完了`: a 完 inside the last words."""
LAST_ONE_PATTERN = f"(?:{'|'.join(UNDO_LAST)})(?:那)?(?:一)?(?:{'|'.join(UNDO_PIECES)})"
"""`刚才那笔`, `上一条`: the last record."""
TASK_SAID_NUMBER_PATTERN = (
    rf"(?:待办|任务|todo)\s*#?(?P<a>{LIST_N})(?![0-9:点号])"
    rf"|(?P<b>{LIST_N})\s*号(?:的)?(?:任务|待办|todo|事情|事儿|事)"
    r"|第\s*(?P<c>[0-9]{1,3}|[一二两三四五六七八九十]{1,3})\s*(?:个|条|项)\s*(?:任务|待办|todo)?"
)
"""`待办3`, `3号任务`, `第三个`: a task by its list number."""
MONTH_SAID_PATTERN = r"(?P<m>1[0-2]|[1-9]|十[一二]?|[一二三四五六七八九])月份?(?:的)?"
"""`11月`, `十一月份的`: a month."""
YEAR_SAID_PATTERN = r"(?P<y>20[0-9]{2})年(?:度)?(?:的)?"
"""`2026年`, `2026年度的`: a year."""
TITLE_NOISE_PATTERN = r"^(?:把|将|那个|这个|的)|(?:那个|这个|的|那条|这条|先|都)$"
"""`把`, `那个`, `的`: pointing words at a title's edges."""
NAMED_PATTERN = r"那个|这个|那条|这条|的"
"""`那个`, `这条`, `的`: pointing words."""
TITLE_FILLER = ("这周", "这几天", "暂时", "今天", "以后", "一下", "先", "都", "了", "吧", ",")
"""Words around a title that are no part of it (`这周`, `暂时`, `先`)."""
SCHEDULE_WORDS_PATTERN = (
    r"每天|每晚|每早|每周[一二三四五六日天]?|工作日|每月|早上|晚上|中午|提醒我|叫我|喊我|提醒"
)
"""A word of a recurring schedule or a reminder."""
REVIEW_TAIL_PATTERN = (
    r"^\s*(?:给我)?(?:再)?(?:发送|发|推送|推|收到)?(?:周报)?(?:给我|发我)?[\s吧了]*$"
)
"""`发给我`, `推送吧`: words after the weekly review's time."""
WEEKDAY_TIME_PATTERN = r"(?:每)?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天1-7])\s*(?P<rest>.+)"
"""`周日 20:00`: a weekday and the rest."""
DONE_REST_PATTERN = r"\S{0,2}(?:完|好|掉)了?|(?:已经)?\S?过了"
"""`做完了`, `办过了`: a task said done."""
CANCEL_REST_PATTERN = r"不\S{1,2}了|算了"
"""`不去了`, `算了`: a task said dropped."""
LEAD_SIGH_PATTERN = r"^(?:算了|嗯+|哎呀|哦)[\s,]*"
"""`算了`, `嗯`, `哎呀`: a sigh before what is meant, dropped."""
ANY_VERB_ALTERNATIVES = "|".join(sorted({*WORK_VERBS, *DONE_PAST_VERBS}, key=len, reverse=True))
"""Every work or done verb, longest first, as alternatives of a pattern."""
NOT_DOING_ALTERNATIVES = "|".join(
    sorted({*WORK_VERBS, *DONE_PAST_VERBS} - {"开", "约", "打", "回"}, key=len, reverse=True)
)
"""The verbs of `排骨不买了` (a task dropped); not 开 (`周会不开了` is an event's, `网站打不
开` a remark) nor 约, 打, 回."""
NOT_NEEDED_PATTERN = (
    rf"(?P<thing>[^\s,0-9我你他她它这那]{{1,10}}?)\s*(?:也|就|都)?(?:不用|不要|不必|用不着)"
    rf"(?:再)?(?P<verb>{ANY_VERB_ALTERNATIVES}|去)了?"
    rf"|(?P<thing_>[^\s,0-9我你他她它这那]{{1,10}}?)\s*(?:也|就|都)?不(?P<verb_>{NOT_DOING_ALTERNATIVES})了?"
)
"""`奶粉不用买了`, `排骨不买了`: a task no longer needed."""

# --- cues.py, inside its readers ---
WEIGHT_CHAR = "体"
"""`体`: the 体 of 体重 (a thing's 重量 is not a weight of mine)."""
GENERIC_VERBS = ("办", "做", "弄", "搞")
"""`办`, `做`, `弄`, `搞`: verbs that say nothing of the task (the thing is the task)."""
SAID_WORD = "说"
"""`说`: a person who says something is not the one whose number follows."""
CN_COUNT_CHARS = "一二两三四五六七八九十百"
"""The characters of a Chinese count."""
COMPARE_WORDS = "比跟和"
"""`比`, `跟`, `和`: a comparison (`比昨天轻了点`), not a fact of another time."""
UNDO_VERB_WORDS = ("撤销", "撤回")
"""`撤销`, `撤回`: undo, said first."""
NEGATED_SEND = ("别发", "别", "不要", "不发", "不用")
"""Words before a channel name that refuse it (`别发微信`)."""
TASK_NAMES = ("待办", "任务", "todo")
"""The names of the task list."""
OTHER_LIST_NAMES = ("提醒", "日程", "预算")
"""The names of the other numbered lists."""
TITLE_EMPTY_EDGES_PATTERN = (
    r"^(?:嗯+|呃|额|就是|那个|有一个|有个|\+1\s*|[的到]?时候(?:再|就)?|(?:请)?将(?=\S{2})|(?:要|得|需要)(?=\S{3})|(?:ddl|todo|截止|截至)(?:\s*[:：]\s*|\s+))+\s*"
    r"|(?:\s+(?:ddl|截止)|\s*那个|\s*(?:千万)?别忘(?:记)?了?|(?:约|定|安排)在了?|\s*摆烂了?)\s*$"
    r"|[\s,]+(?:不然|要不然|否则|免得|省得|以免)\S*$|\s+[吧呢啊呀哈]$|(?<=\S\S)的$"
)
"""Words at a title's edge that say nothing of the thing: a spoken filler (`就是 开会`),
`有一个年终审计沟通会`, `ddl 交开题报告`, `甲方来验收那个`, `买药别忘了`, what is
left of a when (`月底的时候 核对账目`), a 的 left of a name (`跟老李的那个日程`)."""
PROGRESSIVE_PATTERN = r"(?:炖|煮|烧|熬|蒸|烤|泡|晒|洗|充|睡|忙)着|正在"
"""`炖着汤`, `正在开会`: something going on; said last after a space, it leaves a title
(`带着电脑` is part of what to do, and stays)."""
BA_DONE_TITLE_PATTERN = r"^把(?P<thing>.{2,}?)(?:弄|办|搞|处理)(?:了|掉|好|完)?$"
"""`把驾驶证年审弄了` as a task's title: the thing to get done (驾驶证年审)."""
BA_VERB_TITLE_PATTERN = r"^把(?P<thing>.{2,}?)(?P<verb>[交买取还寄发送拿带修换缴付签填退])了$"
"""`把房租交了` as a task's title: said verb first (交房租), as tasks are named."""
TITLE_EDGE_MARKS = " ,把将"
"""Marks and 把/将 before a title after a verb."""
DAY_LEADS = ("今天", "明天", "后天", "大后天", "今晚", "明晚", "明早", "下周", "这周", "周")
"""Day words that may lead an event's title."""
WEEK_WORD = "周"
"""`周`: a week (a weekday follows)."""
WEEKDAY_CHARS = "一二三四五六日天"
"""The weekday characters after 周."""
WEEK_LEADS = ("下周", "这周", "周")
"""`下周`, `这周`, `周`: a weekday follows."""
EVENT_TITLE_TAILS = ("的日程", "那个日程", "日程", "的安排", "的预约", "那个", "的会议")
"""Words after an event's title that only point at it, dropped."""
NOT_NEEDED_LEADS = ("不用", "不要", "不必", "别")
"""`不用`, `别`: a thing no longer needed, said first."""
NOT_NEEDED_TAILS = ("不需要了", "不用了", "不要了", "不去了", "不做了", "不需要", "不用", "不要")
"""`买菜不用了 那个待办删了`: the thing, then that it is no longer needed (dropped)."""
ALREADY_WORD = "已经"
"""`已经`: already."""

MY_WORDS = ("我的", "我都")
"""`我的`, `我都`: the user's own."""
REF_WHEN_TAIL_PATTERN = (
    r"(?<=\S\S)(?:这周|本周|这礼拜|这星期|下周|今天|明天|后天|这个月|本月|这次|那[节场次个]课?)$"
    r"|^(?:今天|明天|后天|这周[一二三四五六日天]?|下周[一二三四五六日天]?|周[一二三四五六日天])的?(?=\S\S)"
)
"""`孙女钢琴课这周不上了`: when it was called off, said after the thing's name."""
THING_TAILS = ("的事", "这件事", "这个事", "那个事")
THING_FINISHED_TAIL_PATTERN = (
    rf"(?<=\S\S)(?:{'|'.join(sorted(WORK_VERBS, key=len, reverse=True))})(?:完|好)$"
)
"""`实训报告写完交了`: a first verb finished inside the thing (写完), not part of its name."""
"""`续签合同的事`: words after a thing that say it is the task, dropped (in this order)."""
DOER_TAILS = ("已经", "终于", "总算", "都", "也", "我")
"""`回电话这件事我已经办好了`: who and how soon, before the done verb, no part of the thing
(dropped from its end, as often as they stand there)."""
SERVERCHAN_NAME = "Server酱"
"""The name a SendKey is bound under."""
SEE_LIST_EXTRA = (
    "清单",
    "列表",
    "list",
    "我的",
    "都",
    "吧",
    "还有",
    "有",
    "个",
    "给我",
    "发我",
    "看下",
)
"""Words besides look and question words that only ask to see a list."""
PAGE_FILLER = ("个人", "我的", "的", "个", "一下")
"""Words besides the pages' names that only ask for the pages."""

# --- views.py ---
WHOLE_MESSAGE_WORDS: dict[str, str] = {
    "今天": "today", "今日": "today",
    "本周": "week", "这周": "week",
    "本月": "month", "账单": "month",
    "任务": "tasks", "待办": "tasks", "任务列表": "tasks", "待办列表": "tasks",
    "任务清单": "tasks", "待办清单": "tasks", "待办事项": "tasks", "todo": "tasks",
    "todo list": "tasks", "todolist": "tasks",
    "月账单": "month", "本月账单": "month",
    "撤销": "undo", "撤回": "undo",
    "帮助": "help", "help": "help", "?": "help", "菜单": "help",
    "提醒": "reminders", "提醒列表": "reminders",
    "日程": "events", "日程列表": "events", "日程表": "events", "日程清单": "events",
    "月度账单": "month",
    "取消免打扰": "end_quiet", "结束免打扰": "end_quiet",
    "稍后": "snooze_water", "稍后提醒": "snooze_water", "等会儿": "snooze_water",
    "我是谁": "who_am_i", "我的账号": "who_am_i", "我的id": "who_am_i", "我的userid": "who_am_i",
    "whoami": "who_am_i", "我的用户名": "who_am_i", "我的企业微信账号": "who_am_i",
    "我的账号是什么": "who_am_i", "我的id是什么": "who_am_i", "我的userid是什么": "who_am_i",
    "不": "dismiss", "不是": "dismiss", "不对": "dismiss", "不用": "dismiss", "不用了": "dismiss",
    "算了": "dismiss", "否": "dismiss", "no": "dismiss", "不要": "dismiss", "不记": "dismiss",
    # Pages and export (issue 13)
    "网页": "pages", "网页版": "pages", "打开网页": "pages", "我的网页": "pages",
    "导出": "export", "导出数据": "export", "导出我的数据": "export",
    "今年": "year", "本年": "year", "今年总结": "year", "年度总结": "year",
    # The weekly review (issue 14)
    "周报": "review", "本周回看": "review", "每周回看": "review", "周回顾": "review",
    "预算": "budgets", "我的预算": "budgets", "预算列表": "budgets",
    "取消预算": "budgets",  # which one? the list says how
    "取消目标体重": "goal_off", "删除目标体重": "goal_off",
    # Nag until done (issue 12): the answer to a nag; without one, the old meaning
    "收到": "answer_nag", "收到了": "answer_nag_word",
    "知道了": "answer_nag_word",
    "完成": "answer_nag_word", "完成了": "answer_nag_word",
    # the answer words `直到我说做完/搞定/弄完` promises, and a polite 收到
    "做完": "answer_nag_word", "做完了": "answer_nag_word",
    "搞定": "answer_nag_word", "搞定了": "answer_nag_word",
    "弄完": "answer_nag_word", "弄完了": "answer_nag_word",
    "好的收到": "answer_nag",
    # The water mini-program (issue 12)
    "绑定 小程序": "link_mini_program", "绑定小程序": "link_mini_program", "小程序绑定": "link_mini_program",
}  # fmt: skip
"""The whole messages that are a command, and which (`views.WHOLE_MESSAGES` makes it)."""


# --- views.py, questions, undo and help ---
VIEW_ASKED = (
    r"(?:咋样|怎么样|如何|啥情况|什么情况|情况|记了什么|记了啥|总结|汇总|概况|花了多少钱?"
    r"|花了啥|花了哪些|账单|开销|支出|收入|体重|有什么安排|有啥安排|有什么事|有啥事|过得怎么样"
    r"|回顾)"
)
"""What a view is asked with (`咋样`, `花了多少`, `有什么安排`)."""
VIEW_LOOK = r"(?:看看?|看一下|查看?|查一下|给我看看?)"
"""A look word before a view (`看看`, `查一下`)."""
UNDO_LAST_RECORD = (
    r"(?:刚才|刚刚|上一条|上一笔|上一步|上条|最后一条)(?:那个|那条|那笔|的)?(?:记录)?"
)
"""`刚才那条`, `上一笔的记录`: the last record."""
UNDO_PATTERN = (
    rf"(?:不对|错了)?(?:帮我)?(?:撤回|撤销|撤了|撤)(?:一下)?(?:{UNDO_LAST_RECORD})?"
    rf"|(?:删掉|删除|删了|不要)(?:{UNDO_LAST_RECORD})"
    rf"|{UNDO_LAST_RECORD}(?:记错|不要|删掉|删了|删|不算|撤回|撤销|错|不对)"
)
"""`撤回`, `删掉上一条`, `刚才那笔记错了`: undo in words."""
UNDO_NOISE_PATTERN = r"[\s,，。.!！]+"
"""Spaces and marks inside an undo, dropped."""
QUESTION_TAIL_PATTERN = r"[?？吗呀]+$"
"""`?`, `吗`, `呀` at the end of a question, dropped."""
HELP_TOPICS = ("记账", "体重", "喝水", "待办", "日程", "提醒", "设置", "日记", "查看")
"""The help pages by topic (`帮助 记账`)."""
HELP_ALIASES = {"任务": "待办", "记录": "记账", "花钱": "记账", "收入": "记账", "水": "喝水"}
"""Other words for a help topic (`帮助 任务` is 待办's page)."""
HELP_ALIASES |= {"账": "记账", "记体重": "体重", "加待办": "待办", "设置提醒": "提醒"}
"""Other words for a help topic (`帮助 任务` is 待办's page)."""
HELP_ALIASES |= {"看": "查看", "视图": "查看", "免打扰": "设置", "晨报": "设置", "早报": "设置"}
"""Other words for a help topic (`帮助 任务` is 待办's page)."""
HELP_ALIASES |= {"喝水提醒": "喝水", "提醒喝水": "喝水", "日程表": "日程", "预算": "记账"}
"""Other words for a help topic (`帮助 任务` is 待办's page)."""
HELP_ALIASES |= {"支出": "记账", "开销": "记账", "花销": "记账", "开支": "记账", "账目": "记账"}
"""Other words for a help topic (`怎样记录支出` is 记账's page)."""
HELP_ALIASES |= {"行程": "日程", "日历": "日程", "待办事项": "待办", "日志": "日记"}
"""Other words for a help topic (`帮助 任务` is 待办's page)."""
HELP_PHRASES_PATTERN = (
    r"(?:你)?(?:会|能|可以)(?:帮我)?(?:做|干)?(?:什么|啥|哪些)|(?:有)?(?:什么|啥|哪些)功能|功能有(?:哪些|什么|啥)"
    r"|(?:这玩意儿?|这东西|这个东西|这个)(?:该|要|应该)?(?:咋|怎么|怎样)用"
    r"|使用说明|说明书?"
    r"|不会用|怎么用|咋用|教程|指令|命令|命令列表|功能列表"
)
"""`你会什么`, `怎么用`, `功能列表`: the help menu asked."""
ABOUT_PATTERN = r"你(?:是)?(?:谁|什么|哪位|干(?:什么|啥|嘛)的|做(?:什么|啥)的)"
"""`你是谁`, `你是干什么的`: the bot asked about itself."""
HOW_PATTERN = r"怎么(?:记|设置|设|加|看|用|写)?(?P<topic>.{1,4})"
"""`怎么记账`, `怎么设置提醒`: a topic's help asked."""
QUESTION_TODAY_PATTERN = rf"(?:今天|今日)的?{VIEW_ASKED}.{{0,4}}|{VIEW_LOOK}(?:今天|今日)"
"""Today's view asked (`今天咋样了`, `看看今天`)."""
QUESTION_WEEK_PATTERN = (
    rf"(?:这周|本周|这星期|这个星期|这礼拜|这一周)的?{VIEW_ASKED}.{{0,4}}"
    rf"|{VIEW_LOOK}(?:这周|本周)"
)
"""This week's view asked (`这周花了多少`)."""
QUESTION_MONTH_PATTERN = (
    rf"(?:这个?月|本月|这一个?月)的?{VIEW_ASKED}.{{0,4}}|{VIEW_LOOK}(?:本月|这个?月|账单|月账单)"
)
"""This month's view asked (`这个月的账单`)."""
QUESTION_TASKS_PATTERN = (
    r"(?:还有|有)(?:什么|啥|哪些)(?:事项|事|事情|任务|待办)?(?:没做|没完成|尚未完成|未完成|没干|要做|要干|待办)"
    r"|还有(?:什么|啥|哪些)(?:任务|待办|事)"
    r"|(?:待办|任务)(?:有哪些|有啥|有什么|清单)|我的(?:待办|任务)|看看?(?:待办|任务)"
)
"""The task list asked (`还有什么没做`, `我的待办`)."""
QUESTION_EVENTS_PATTERN = (
    r"(?:日程|安排)(?:有啥|有什么|有哪些)|(?:有什么|有啥|有哪些)(?:日程|安排)"
    r"|我的日程|看看?日程|(?:最近|接下来|之后|这几天)(?:有什么|有啥|有哪些)(?:安排|日程)"
)
"""The events asked (`最近有什么安排`)."""
QUESTION_REMINDERS_PATTERN = (
    r"(?:提醒)(?:有哪些|有啥|有什么)|(?:有哪些|有什么|有啥)提醒|我的提醒|看看?提醒"
)
"""The reminders asked (`我的提醒`)."""

# --- views.py, inside its readers ---
HELP_LEADS = ("帮助", "help", "怎么用", "用法")
"""`帮助 记账`, `用法 提醒`: a topic's help asked, the word first."""
HELP_TAILS = ("怎么用", "怎么记", "怎么写", "怎么设置")
"""`记账怎么用`: a topic's help asked, the word last."""
CARD_NAG_ANSWER = "知道了"
"""`知道了`: the nag card's button, an answer to its nag."""
CLAUSE_END_PATTERN = r"了?(?:$|[\s,，。!！~])"
"""The end of a clause, maybe after 了: a paying verb after an amount must reach it
(`一千八交了`, not `2028交房`)."""
