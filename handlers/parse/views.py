"""Views, undo and help: whole-message words, menu keys, card buttons, and the same
things asked as questions (`今天咋样了`, `这周花了多少`, `刚才记错了`)."""

from __future__ import annotations

import re
from collections.abc import Callable

from handlers import texts
from handlers.commands import (
    AnswerNag,
    CheckInWater,
    Command,
    CompleteTask,
    Dismiss,
    EndQuiet,
    ExportData,
    Help,
    LinkMiniProgram,
    OpenPages,
    ParseError,
    PostponeTask,
    SetGoalWeight,
    ShowBudgets,
    ShowEvents,
    ShowMonth,
    ShowReminders,
    ShowReview,
    ShowTasks,
    ShowToday,
    ShowWeek,
    ShowYear,
    SnoozeWater,
    TaskRef,
    Undo,
    WhoAmI,
)
from handlers.parse.lexicon import UNDO_PHRASES
from scheduler.core import cards
from storage.vocabulary import CardKind

WHOLE_MESSAGES: dict[str, Callable[[], Command]] = {
    "今天": ShowToday, "今日": ShowToday,
    "本周": ShowWeek, "这周": ShowWeek,
    "本月": ShowMonth, "账单": ShowMonth,
    "任务": ShowTasks, "待办": ShowTasks, "任务列表": ShowTasks, "待办列表": ShowTasks,
    "任务清单": ShowTasks, "待办清单": ShowTasks, "待办事项": ShowTasks, "todo": ShowTasks,
    "todo list": ShowTasks, "todolist": ShowTasks,
    "月账单": ShowMonth, "本月账单": ShowMonth,
    "撤销": Undo, "撤回": Undo,
    "帮助": Help, "help": Help, "?": Help, "菜单": Help,
    "提醒": ShowReminders, "提醒列表": ShowReminders,
    "日程": ShowEvents, "日程列表": ShowEvents, "日程表": ShowEvents, "日程清单": ShowEvents,
    "月度账单": ShowMonth,
    "取消免打扰": EndQuiet, "结束免打扰": EndQuiet,
    "稍后": SnoozeWater, "稍后提醒": SnoozeWater, "等会儿": SnoozeWater,
    "我是谁": WhoAmI, "我的账号": WhoAmI, "我的id": WhoAmI, "我的userid": WhoAmI,
    "whoami": WhoAmI, "我的用户名": WhoAmI, "我的企业微信账号": WhoAmI,
    "我的账号是什么": WhoAmI, "我的id是什么": WhoAmI, "我的userid是什么": WhoAmI,
    "不": Dismiss, "不是": Dismiss, "不对": Dismiss, "不用": Dismiss, "不用了": Dismiss,
    "算了": Dismiss, "否": Dismiss, "no": Dismiss, "不要": Dismiss, "不记": Dismiss,
    # Pages and export (issue 13)
    "网页": OpenPages, "网页版": OpenPages, "打开网页": OpenPages, "我的网页": OpenPages,
    "导出": ExportData, "导出数据": ExportData, "导出我的数据": ExportData,
    "今年": ShowYear, "本年": ShowYear, "今年总结": ShowYear, "年度总结": ShowYear,
    # The weekly review (issue 14)
    "周报": ShowReview, "本周回看": ShowReview, "每周回看": ShowReview, "周回顾": ShowReview,
    "预算": ShowBudgets, "我的预算": ShowBudgets, "预算列表": ShowBudgets,
    "取消预算": ShowBudgets,  # which one? the list says how
    "取消目标体重": lambda: SetGoalWeight(kg=None), "删除目标体重": lambda: SetGoalWeight(kg=None),
    # Nag until done (issue 12): the answer to a nag; without one, the old meaning
    "收到": AnswerNag, "收到了": lambda: AnswerNag(word="收到了"),
    "知道了": lambda: AnswerNag(word="知道了"),
    "完成": lambda: AnswerNag(word="完成"), "完成了": lambda: AnswerNag(word="完成了"),
    # the answer words `直到我说做完/搞定/弄完` promises, and a polite 收到
    "做完": lambda: AnswerNag(word="做完"), "做完了": lambda: AnswerNag(word="做完了"),
    "搞定": lambda: AnswerNag(word="搞定"), "搞定了": lambda: AnswerNag(word="搞定了"),
    "弄完": lambda: AnswerNag(word="弄完"), "弄完了": lambda: AnswerNag(word="弄完了"),
    "好的收到": lambda: AnswerNag(word="好的收到"),
    # The water mini-program (issue 12)
    "绑定 小程序": LinkMiniProgram, "绑定小程序": LinkMiniProgram, "小程序绑定": LinkMiniProgram,
}  # fmt: skip
MENU_KEYS: dict[str, Callable[[], Command]] = {
    "today": ShowToday, "week": ShowWeek, "month": ShowMonth, "tasks": ShowTasks,
    "help": Help, "undo": Undo, "water": lambda: CheckInWater(glasses=1),
}  # fmt: skip

_Q = (
    r"(?:咋样|怎么样|如何|啥情况|什么情况|情况|记了什么|记了啥|总结|汇总|概况|花了多少钱?"
    r"|花了啥|花了哪些|账单|开销|支出|收入|体重|有什么安排|有啥安排|有什么事|有啥事|过得怎么样"
    r"|回顾)"
)
_LOOK = r"(?:看看?|看一下|查看?|查一下|给我看看?)"
_QUESTIONS: tuple[tuple[re.Pattern[str], Callable[[], Command]], ...] = (
    (re.compile(rf"(?:今天|今日)的?{_Q}.{{0,4}}|{_LOOK}(?:今天|今日)"), ShowToday),
    (re.compile(rf"(?:这周|本周|这星期|这个星期|这礼拜|这一周)的?{_Q}.{{0,4}}"
                rf"|{_LOOK}(?:这周|本周)"), ShowWeek),
    (re.compile(rf"(?:这个?月|本月|这一个?月)的?{_Q}.{{0,4}}|{_LOOK}(?:本月|这个?月|账单|月账单)"),
     ShowMonth),
    (re.compile(r"(?:还有|有)(?:什么|啥|哪些)(?:事|事情|任务|待办)?(?:没做|没完成|没干|要做|要干|待办)"
                r"|还有(?:什么|啥|哪些)(?:任务|待办|事)"
                r"|(?:待办|任务)(?:有哪些|有啥|有什么|清单)|我的(?:待办|任务)|看看?(?:待办|任务)"),
     ShowTasks),
    (re.compile(r"(?:日程|安排)(?:有啥|有什么|有哪些)|(?:有什么|有啥|有哪些)(?:日程|安排)"
                r"|我的日程|看看?日程|(?:最近|接下来|之后|这几天)(?:有什么|有啥|有哪些)(?:安排|日程)"),
     ShowEvents),
    (re.compile(r"(?:提醒)(?:有哪些|有啥|有什么)|(?:有哪些|有什么|有啥)提醒|我的提醒|看看?提醒"),
     ShowReminders),
)  # fmt: skip
_LAST = r"(?:刚才|刚刚|上一条|上一笔|上一步|上条|最后一条)(?:那个|那条|那笔|的)?(?:记录)?"
_UNDO = re.compile(
    rf"(?:不对|错了)?(?:帮我)?(?:撤回|撤销|撤了|撤)(?:一下)?(?:{_LAST})?"
    rf"|(?:删掉|删除|删了|不要)(?:{_LAST})"
    rf"|{_LAST}(?:记错|不要|删掉|删了|删|不算|撤回|撤销|错|不对)"
)
_UNDO_NOISE = re.compile(r"[\s,，。.!！]+")
_QUESTION_TAIL = re.compile(r"[?？吗呀]+$")
HELP_TOPICS = ("记账", "体重", "喝水", "待办", "日程", "提醒", "设置", "日记", "查看")
_HELP_ALIASES = {"任务": "待办", "记录": "记账", "花钱": "记账", "收入": "记账", "水": "喝水"}
_HELP_ALIASES |= {"账": "记账", "记体重": "体重", "加待办": "待办", "设置提醒": "提醒"}
_HELP_ALIASES |= {"看": "查看", "视图": "查看", "免打扰": "设置", "晨报": "设置", "早报": "设置"}
_HELP_ALIASES |= {"喝水提醒": "喝水", "提醒喝水": "喝水", "日程表": "日程", "预算": "记账"}


def read_question(text: str) -> Command | None:
    """A view asked as a question, undo in words, or `帮助 <topic>`; None otherwise.

    `text` is tidied (particles and 了 dropped).
    """
    plain = _QUESTION_TAIL.sub("", text).strip()
    if plain in UNDO_PHRASES or _UNDO.fullmatch(_UNDO_NOISE.sub("", plain)):
        return Undo()
    for pattern, make in _QUESTIONS:
        if pattern.fullmatch(plain):
            return make()
    return read_help(plain)


_HELP_PHRASES = re.compile(
    r"(?:你)?(?:会|能|可以)(?:做|干)?(?:什么|啥|哪些)|(?:有)?(?:什么|啥|哪些)功能|使用说明|说明书?"
    r"|不会用|怎么用|咋用|教程|指令|命令|命令列表|功能列表"
)
_ABOUT = re.compile(r"你(?:是)?(?:谁|什么|哪位|干(?:什么|啥|嘛)的|做(?:什么|啥)的)")
_HOW = re.compile(r"怎么(?:记|设置|设|加|看|用|写)?(?P<topic>.{1,4})")


def read_help(text: str) -> Help | None:
    """`帮助 记账` / `帮助提醒` / `记账怎么用` / `你会什么`: the menu or one topic's page."""
    if _ABOUT.fullmatch(text):
        return Help(about=True)
    if _HELP_PHRASES.fullmatch(text):
        return Help()
    if match := _HOW.fullmatch(text):
        topic = _HELP_ALIASES.get(match["topic"], match["topic"])
        word = match[0][2:3]
        for candidate in (topic, word + topic):
            candidate = _HELP_ALIASES.get(candidate, candidate)
            if candidate in HELP_TOPICS:
                return Help(topic=candidate)
    for lead in ("帮助", "help", "怎么用", "用法"):
        if text.casefold().startswith(lead):
            topic = text[len(lead) :].strip()
            topic = _HELP_ALIASES.get(topic, topic)
            return Help(topic=topic if topic in HELP_TOPICS else "")
    for tail in ("怎么用", "怎么记", "怎么写", "怎么设置"):
        if text.endswith(tail):
            topic = text.removesuffix(tail).strip()
            topic = _HELP_ALIASES.get(topic, topic)
            if topic in HELP_TOPICS:
                return Help(topic=topic)
    return None


def parse_card_key(key: str) -> Command:
    """A template card button (`scheduler.core.cards` keys) -> the command its words mean:
    喝了 = 喝水, 稍后 = 稍后, 完成 = 完成 <task>, 明天再说 = 明天再说 <task>,
    a nag's 知道了 = 收到 for that nag."""
    action = cards.parse_key(key)
    if action is None:
        raise ParseError(texts.CARD_UNKNOWN)
    if action.kind == CardKind.WATER:
        return CheckInWater(glasses=1) if action.action == "done" else SnoozeWater()
    if action.kind == CardKind.NAG:
        return AnswerNag(word="知道了", rule_id=action.rule_id)
    ref = TaskRef(task_id=action.task_id)
    return CompleteTask(ref=ref) if action.action == "done" else PostponeTask(ref=ref)
