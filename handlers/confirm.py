"""Questions about a guess: ask, keep the guess with the user, and carry it out on `是`.

A `Confirm` from the parser is never done: its handler stores the guessed command on
the user's row (JSON, below) with the time it was asked and replies with one short
question. The user's next message goes through `take_pending` first: `是 / 对 / 嗯 /
ok / 好` within `PENDING_FOR` returns the guess, which the conversation dispatches
like any command (so the record carries the `是` message's dedup key: a retried
callback of the `是` is answered from the stored reply and records nothing twice).
Any other message drops the guess and is read as usual.

The weekly review's one suggestion (「周报」, issue 14) waits in the same slot, as the
command it would run (a budget, a task, or moving overdue tasks), marked as a
suggestion: it keeps for `SUGGESTION_FOR` instead of ten minutes. `好` carries it out
once: the pending slot is cleared in the same transaction, and a retried callback of
the `好` gets the stored reply.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from handlers import texts
from handlers.commands import (
    AddEvent,
    AddTask,
    CheckInWater,
    Command,
    Confirm,
    Dismiss,
    EditEvent,
    MoveTasks,
    RecordLedger,
    RecordWeight,
    SetBudget,
)
from handlers.context import Context, Outcome
from handlers.parse.normalise import normalise, tidy
from handlers.router import Router
from scheduler.core import times
from storage.database import Session
from storage.repos import users

router = Router("confirm")

PENDING_FOR = dt.timedelta(minutes=10)
SUGGESTION_FOR = dt.timedelta(hours=24)
YES_WORDS = frozenset(
    [
        "是",
        "是的",
        "对",
        "对的",
        "嗯",
        "嗯嗯",
        "好",
        "好的",
        "ok",
        "okay",
        "行",
        "可以",
        "确认",
        "记吧",
        "记下",
        "记上",
        "yes",
        "y",
        "没错",
    ]
)
_GUESSABLE: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        RecordLedger,
        RecordWeight,
        CheckInWater,
        AddTask,
        AddEvent,
        EditEvent,
        SetBudget,
        MoveTasks,
    )
}


@router.handles(Confirm)
async def ask(session: Session, ctx: Context, cmd: Confirm) -> Outcome:
    """Keep the guess with the user and ask about it; nothing is recorded yet."""
    encoded = encode(cmd.guess)
    if encoded is None:  # a guess we cannot keep is not asked about (a parser bug)
        return Outcome(reply=texts.miss(""))
    await users.update_user(session, ctx.user.id, pending_guess=encoded, pending_guess_at=ctx.now)
    return Outcome(reply=texts.confirm_question(describe(cmd.guess, ctx.today)))


@router.handles(Dismiss)
async def dismiss(session: Session, ctx: Context, cmd: Dismiss) -> Outcome:
    """A no: whatever was asked is already dropped (`take_pending`); say so."""
    return Outcome(reply=texts.THANKED if cmd.thanked else texts.DISMISSED)


async def take_pending(session: Session, ctx: Context, text: str | None) -> Command | None:
    """The guess a `是` (`text`) confirms, or None; any message clears the guess."""
    user = ctx.user
    if user.pending_guess is None:
        return None
    await users.update_user(session, user.id, pending_guess=None, pending_guess_at=None)
    keeps = SUGGESTION_FOR if is_suggestion(user.pending_guess) else PENDING_FOR
    fresh = user.pending_guess_at is not None and ctx.now - user.pending_guess_at <= keeps
    if text is None or not fresh or not is_yes(text):
        return None
    return decode(user.pending_guess)


async def suggest(session: Session, ctx: Context, command: Command) -> None:
    """Keep the review's suggested `command` for a `好` within `SUGGESTION_FOR`."""
    encoded = encode(command, suggestion=True)
    if encoded is not None:
        await users.update_user(
            session, ctx.user.id, pending_guess=encoded, pending_guess_at=ctx.now
        )


def is_suggestion(stored: str) -> bool:
    """Whether the pending slot holds a review suggestion (not a guess)."""
    try:
        data = json.loads(stored)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("suggestion") is True


def is_yes(text: str) -> bool:
    """`是` / `对` / `嗯` / `ok` / `好的！`: a yes to the question just asked."""
    return tidy(normalise(text)).strip().casefold() in YES_WORDS


def describe(guess: Command, today: dt.date) -> str:
    """The guess in canonical form, for the question (amount, category, day, time)."""
    describer = _DESCRIBERS.get(type(guess))
    return describer(guess, today) if describer else texts.GUESS_OTHER


def _ledger(g: RecordLedger, today: dt.date) -> str:
    return texts.guess_ledger(g.direction, g.amount, g.category, g.note)


def _task(g: AddTask, today: dt.date) -> str:
    return texts.guess_task(g.title, texts.task_due_label(g.due_date, g.due_time, today))


def _event(g: AddEvent, today: dt.date) -> str:
    span = texts.event_span(g.start, g.end)
    return texts.guess_event(times.day_label(g.day, today), span, g.title)


def _move(g: EditEvent, today: dt.date) -> str:
    day = times.day_label(g.day, today) if g.day else ""
    span = texts.event_span(g.start, g.end) if g.start else ""
    return texts.guess_move(g.title_ref or str(g.number), f"{day} {span}".strip())


_DESCRIBERS: dict[type, Callable[[Any, dt.date], str]] = {
    RecordLedger: _ledger,
    RecordWeight: lambda g, _today: texts.guess_weight(g.kg),
    CheckInWater: lambda g, _today: texts.guess_water(g.glasses),
    AddTask: _task,
    AddEvent: _event,
    EditEvent: _move,
}


def encode(command: Command, *, suggestion: bool = False) -> str | None:
    """A guessable command as JSON (None for any other type); `suggestion` marks a
    review suggestion (it keeps longer)."""
    if type(command).__name__ not in _GUESSABLE:
        return None
    fields = {f.name: _plain(getattr(command, f.name)) for f in dataclasses.fields(command)}
    data: dict[str, object] = {"type": type(command).__name__, "fields": fields}
    if suggestion:
        data["suggestion"] = True
    return json.dumps(data, ensure_ascii=False)


def decode(stored: str) -> Command | None:
    """The command `encode` wrote; None for anything unreadable (never raises)."""
    try:
        data = json.loads(stored)
        cls = _GUESSABLE[data["type"]]
        hints = {f.name: f.type for f in dataclasses.fields(cls)}
        values = {name: _typed(hints[name], value) for name, value in data["fields"].items()}
        command: Command = cls(**values)
    except (ValueError, KeyError, TypeError, ArithmeticError):
        return None
    return command


def _plain(value: object) -> object:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    return value


def _typed(hint: object, value: object) -> object:
    """Back from JSON by the field's annotation (a string: `from __future__`)."""
    if isinstance(value, list) and "tuple[int" in str(hint):
        return tuple(int(v) for v in value)
    if value is None or not isinstance(value, str):
        return value
    text = str(hint)
    if "Decimal" in text:
        return Decimal(value)
    if "dt.date" in text:
        return dt.date.fromisoformat(value)
    if "dt.time" in text:
        return dt.time.fromisoformat(value)
    return value
