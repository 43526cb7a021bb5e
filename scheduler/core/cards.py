"""Interactive WeCom template cards: button keys, card payloads, after-click labels.

Pure: plain values in, plain values out. The reminder sender builds a card with
`water_card` / `task_card`, the callback reads the clicked button's key back with
`parse_key`, and the card's button is then greyed out with `replace_name(action)`
(through `CardUpdater.update_card`).

WeCom's documented rules these builders follow (发送应用消息 > 模板卡片消息 >
按钮交互型, https://developer.work.weixin.qq.com/document/path/90236, and 更新模版卡片消息,
https://developer.work.weixin.qq.com/document/path/94888):

- `task_id`: unique per app ("同一个应用任务id不能重复"), only digits, letters and
  "_-@", at most 128 bytes; a repeated or malformed one is refused with errcode 42014
  ("taskid has existed or empty or exceed max len"). So a card that is sent again
  (an at-least-once resend) needs a fresh task id: `card_task_id` takes the attempt.
- `button_list`: at most 6 buttons; `text` best at most 10 characters; `style` 1-4
  (default 1); `key` comes back as the callback's `EventKey`, at most 1024 bytes,
  unique within the card.
- `main_title.title` is required for button_interaction (best at most 36
  characters); `sub_title_text` best at most 160 characters.
- `replace_text` is deliberately not set: it would show the buttons greyed out
  from the start.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final, Literal

from scheduler.core.texts import cards as words
from storage.vocabulary import CardKind

__all__ = [
    "CARD_TASK_ID",
    "CardAction",
    "card_task_id",
    "nag_card",
    "nag_key",
    "parse_key",
    "replace_name",
    "task_card",
    "task_key",
    "water_card",
    "water_key",
]

WaterAction = Literal["done", "later"]
TaskAction = Literal["done", "tomorrow"]
NagAction = Literal["ack"]

PREFIX: Final = "keeper"
CARD_TASK_ID: Final = re.compile(r"[A-Za-z0-9_@-]{1,128}")
"""WeCom's rule for a template card's task_id (ASCII only, so characters are bytes)."""
SUB_TITLE_MAX_CHARS: Final = 160

WATER_ACTIONS: Final[tuple[WaterAction, ...]] = ("done", "later")
TASK_ACTIONS: Final[tuple[TaskAction, ...]] = ("done", "tomorrow")
NAG_ACTIONS: Final[tuple[NagAction, ...]] = ("ack",)
_TASK_ROW_ID = re.compile(r"[1-9][0-9]{0,17}", re.ASCII)  # canonical, fits a BIGINT

SOURCE: Final = {"desc": "keeper"}


@dataclass(frozen=True, kw_only=True, slots=True)
class CardAction:
    """A clicked button, read back from its key: what to do, and to which task (or,
    for a nag's 知道了, which rule)."""

    kind: CardKind
    action: str
    task_id: int | None = None
    rule_id: int | None = None


def water_key(action: WaterAction) -> str:
    """The button key of a water card: `keeper:water:done` or `keeper:water:later`."""
    if action not in WATER_ACTIONS:
        raise ValueError(f"unknown water action {action!r}")
    return f"{PREFIX}:water:{action}"


def task_key(action: TaskAction, task_id: int) -> str:
    """The button key of a task card, e.g. `keeper:task:done:42` (task_id > 0)."""
    if action not in TASK_ACTIONS:
        raise ValueError(f"unknown task action {action!r}")
    if isinstance(task_id, bool) or not _TASK_ROW_ID.fullmatch(str(task_id)):
        raise ValueError(f"task id must be a positive integer, got {task_id!r}")
    return f"{PREFIX}:task:{action}:{task_id}"


def parse_key(key: str) -> CardAction | None:
    """The action behind a button key, or None for anything we did not build.

    Total: never raises, whatever the text. Only canonical keys parse, so
    `water_key`/`task_key` of the result gives `key` back.
    """
    if not isinstance(key, str):
        return None
    parts = key.split(":")
    if parts[:2] == [PREFIX, CardKind.WATER] and len(parts) == 3 and parts[2] in WATER_ACTIONS:
        return CardAction(kind=CardKind.WATER, action=parts[2])
    if parts[:2] == [PREFIX, CardKind.NAG] and len(parts) == 4 and parts[2] in NAG_ACTIONS:
        if not _TASK_ROW_ID.fullmatch(parts[3]):
            return None
        return CardAction(kind=CardKind.NAG, action=parts[2], rule_id=int(parts[3]))
    if parts[:2] != [PREFIX, CardKind.TASK] or len(parts) != 4 or parts[2] not in TASK_ACTIONS:
        return None
    if not _TASK_ROW_ID.fullmatch(parts[3]):
        return None
    return CardAction(kind=CardKind.TASK, action=parts[2], task_id=int(parts[3]))


def nag_key(action: NagAction, rule_id: int) -> str:
    """The button key of a nag card, e.g. `keeper:nag:ack:7` (the nag's rule id > 0)."""
    if action not in NAG_ACTIONS:
        raise ValueError(f"unknown nag action {action!r}")
    if isinstance(rule_id, bool) or not _TASK_ROW_ID.fullmatch(str(rule_id)):
        raise ValueError(f"rule id must be a positive integer, got {rule_id!r}")
    return f"{PREFIX}:nag:{action}:{rule_id}"


def replace_name(action: CardAction) -> str:
    """The greyed-out button label after a click (update_template_card's
    `button.replace_name`); a short neutral label for an action we do not know."""
    return words.AFTER_CLICK.get((action.kind, action.action), words.AFTER_CLICK_OTHER)


def card_task_id(kind: str, job_id: int, attempt: int = 1) -> str:
    """A WeCom card task id for one send of one notification job, e.g. `keeper-water-17-1`.

    WeCom refuses a task id it has seen before (42014), so every attempt gets its own.
    """
    task_id = f"{PREFIX}-{kind}-{job_id}-{attempt}"
    _check_task_id(task_id)
    return task_id


def water_card(text: str, task_id: str) -> dict[str, Any]:
    """A button_interaction card asking "did you drink?": 喝了 / 稍后.

    Raises:
        ValueError: `task_id` breaks WeCom's rule (see the module docstring).
    """
    buttons = [_button(CardKind.WATER, a, water_key(a)) for a in WATER_ACTIONS]
    return _card(words.WATER_TITLE, text, task_id, buttons)


def task_card(text: str, task_id: str, db_task_id: int) -> dict[str, Any]:
    """A button_interaction card for one task: 完成 / 明天再说.

    `task_id` is WeCom's card id; `db_task_id` is our task row, carried in the keys.

    Raises:
        ValueError: `task_id` breaks WeCom's rule, or `db_task_id` is not positive.
    """
    buttons = [_button(CardKind.TASK, a, task_key(a, db_task_id)) for a in TASK_ACTIONS]
    return _card(words.TASK_TITLE, text, task_id, buttons)


def nag_card(title: str, text: str, task_id: str, rule_id: int) -> dict[str, Any]:
    """A button_interaction card for one repeat of a nag: 知道了 ends the nag.

    Raises:
        ValueError: `task_id` breaks WeCom's rule, or `rule_id` is not positive.
    """
    buttons = [_button(CardKind.NAG, a, nag_key(a, rule_id)) for a in NAG_ACTIONS]
    return _card(title, text, task_id, buttons)


def _button(kind: CardKind, action: str, key: str) -> dict[str, Any]:
    text, style = words.BUTTONS[(kind, action)]
    return {"text": text, "style": style, "key": key}


def _card(title: str, text: str, task_id: str, buttons: list[dict[str, Any]]) -> dict[str, Any]:
    _check_task_id(task_id)
    return {
        "card_type": "button_interaction",
        "source": dict(SOURCE),
        "main_title": {"title": title},
        "sub_title_text": _shorten(text, SUB_TITLE_MAX_CHARS),
        "task_id": task_id,
        "button_list": buttons,
    }


def _check_task_id(task_id: str) -> None:
    if not isinstance(task_id, str) or not CARD_TASK_ID.fullmatch(task_id):
        raise ValueError("card task_id: 1-128 of letters, digits and _-@ only")


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
