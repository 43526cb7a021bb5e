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
from handlers.parse.patterns import (
    ABOUT_PATTERN,
    CARD_NAG_ANSWER,
    HELP_ALIASES,
    HELP_LEADS,
    HELP_PHRASES_PATTERN,
    HELP_TAILS,
    HELP_TOPICS,
    HOW_PATTERN,
    QUESTION_EVENTS_PATTERN,
    QUESTION_MONTH_PATTERN,
    QUESTION_REMINDERS_PATTERN,
    QUESTION_TAIL_PATTERN,
    QUESTION_TASKS_PATTERN,
    QUESTION_TODAY_PATTERN,
    QUESTION_WEEK_PATTERN,
    UNDO_NOISE_PATTERN,
    UNDO_PATTERN,
    WHOLE_MESSAGE_WORDS,
)
from scheduler.core import cards
from storage.vocabulary import CardKind

_WHOLE_MESSAGE_COMMANDS: dict[str, Callable[[], Command]] = {
    "today": ShowToday, "week": ShowWeek, "month": ShowMonth, "year": ShowYear,
    "tasks": ShowTasks, "undo": Undo, "help": Help, "reminders": ShowReminders,
    "events": ShowEvents, "end_quiet": EndQuiet, "snooze_water": SnoozeWater,
    "who_am_i": WhoAmI, "dismiss": Dismiss, "pages": OpenPages, "export": ExportData,
    "review": ShowReview, "budgets": ShowBudgets, "answer_nag": AnswerNag,
    "link_mini_program": LinkMiniProgram,
    "goal_off": lambda: SetGoalWeight(kg=None),
}  # fmt: skip
"""What each key of `patterns.WHOLE_MESSAGE_WORDS` makes."""


def _whole_message(word: str, key: str) -> Callable[[], Command]:
    """The command of a whole message; `answer_nag_word` answers a nag with the word said."""
    if key == "answer_nag_word":
        return lambda: AnswerNag(word=word)
    return _WHOLE_MESSAGE_COMMANDS[key]


WHOLE_MESSAGES: dict[str, Callable[[], Command]] = {
    word: _whole_message(word, key) for word, key in WHOLE_MESSAGE_WORDS.items()
}
MENU_KEYS: dict[str, Callable[[], Command]] = {
    "today": ShowToday, "week": ShowWeek, "month": ShowMonth, "tasks": ShowTasks,
    "help": Help, "undo": Undo, "water": lambda: CheckInWater(glasses=1),
}  # fmt: skip

_QUESTIONS: tuple[tuple[re.Pattern[str], Callable[[], Command]], ...] = (
    (re.compile(QUESTION_TODAY_PATTERN), ShowToday),
    (re.compile(QUESTION_WEEK_PATTERN), ShowWeek),
    (re.compile(QUESTION_MONTH_PATTERN),
     ShowMonth),
    (re.compile(QUESTION_TASKS_PATTERN),
     ShowTasks),
    (re.compile(QUESTION_EVENTS_PATTERN),
     ShowEvents),
    (re.compile(QUESTION_REMINDERS_PATTERN),
     ShowReminders),
)  # fmt: skip
_UNDO = re.compile(UNDO_PATTERN)
_UNDO_NOISE = re.compile(UNDO_NOISE_PATTERN)
_QUESTION_TAIL = re.compile(QUESTION_TAIL_PATTERN)


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


_HELP_PHRASES = re.compile(HELP_PHRASES_PATTERN)
_ABOUT = re.compile(ABOUT_PATTERN)
_HOW = re.compile(HOW_PATTERN)


def read_help(text: str) -> Help | None:
    """`帮助 记账` / `帮助提醒` / `记账怎么用` / `你会什么`: the menu or one topic's page."""
    if _ABOUT.fullmatch(text):
        return Help(about=True)
    if _HELP_PHRASES.fullmatch(text):
        return Help()
    if match := _HOW.fullmatch(text):
        topic = HELP_ALIASES.get(match["topic"], match["topic"])
        word = match[0][2:3]
        for candidate in (topic, word + topic):
            candidate = HELP_ALIASES.get(candidate, candidate)
            if candidate in HELP_TOPICS:
                return Help(topic=candidate)
    for lead in HELP_LEADS:
        if text.casefold().startswith(lead):
            topic = text[len(lead) :].strip()
            topic = HELP_ALIASES.get(topic, topic)
            return Help(topic=topic if topic in HELP_TOPICS else "")
    for tail in HELP_TAILS:
        if text.endswith(tail):
            topic = text.removesuffix(tail).strip()
            topic = HELP_ALIASES.get(topic, topic)
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
        return AnswerNag(word=CARD_NAG_ANSWER, rule_id=action.rule_id)
    ref = TaskRef(task_id=action.task_id)
    return CompleteTask(ref=ref) if action.action == "done" else PostponeTask(ref=ref)
