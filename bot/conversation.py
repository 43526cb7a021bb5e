"""One inbound message, handled exactly once, in one transaction.

Order inside the transaction: find-or-create and lock the user, reading in the same
statement whether the message's dedup key was recorded before (a duplicate, even a
concurrent one, gets the reply stored the first time and changes nothing), parse,
dispatch, then record the message with its reply and effect: the claim and the last
write are one INSERT (`storage.repos.users.lock_for_message` says why the read is
safe). Either all of it commits or none of it does.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

from sqlalchemy.exc import IntegrityError

import services.card_updates
import services.rules
from bot.incoming import Incoming, loggable_key
from handlers import answers, confirm, texts, water
from handlers.commands import Command, ParseError, ShowToday, Welcome
from handlers.context import Context, Outcome
from handlers.deployment import Deployment
from handlers.parse import parse, parse_card_key, parse_event_key
from handlers.parse.key_mask import redact_sendkeys
from handlers.router import Dispatcher
from scheduler.core import cards, rule_kinds
from scheduler.core.reminder_rules import DEFAULTS_VERSION
from scheduler.core.texts import messages, times
from scheduler.core.texts.failure_words import failure_words
from storage.database import CommitWatch, Database, Session
from storage.records import NewInbound, UserRecord
from storage.repos import inbound, rules, sent_or_missed, users
from storage.retry import retrying

log = logging.getLogger(__name__)


@dataclass(frozen=True, kw_only=True, slots=True)
class Conversation:
    """The conversation's dependencies, built once by the composition root."""

    database: Database
    dispatcher: Dispatcher
    deployment: Deployment
    """What every `Context` carries; the default zone and the admins come from it."""
    max_age: dt.timedelta
    """How far back a message's CreateTime is believed (KEEPER_CALLBACK_WINDOW_SECONDS)."""
    timer: Callable[[], float] = field(default=time.perf_counter)
    """Seconds on a monotonic clock: how long a message took is stored with it
    (`inbound_messages.handled_ms`, the admin page's p95). Injected, as the clock is."""

    async def handle(
        self, msg: Incoming, *, now: dt.datetime, watch: CommitWatch | None = None
    ) -> str:
        """Handle `msg` once and return the reply text ("" for no reply). `watch`
        tells a caller that stops waiting whether the COMMIT had been sent."""
        started = self.timer()  # before the retries: a retried message took them all
        try:
            return await retrying(lambda: self._handle_once(msg, now, watch, started))
        except IntegrityError:
            # A unique key refused a write, and the transaction rolled back. If another
            # delivery of this message committed first (the user's row lock makes that
            # a safeguard, not a path), the second run finds it and answers as it did.
            return await retrying(lambda: self._handle_once(msg, now, watch, started))

    async def _handle_once(
        self, msg: Incoming, now: dt.datetime, watch: CommitWatch | None, started: float
    ) -> str:
        zone = self.deployment.operations.timezone  # a new member's, until they set theirs
        async with self.database.transaction(watch) as session:
            user, seen = await users.lock_for_message(
                session, msg.from_user, msg.dedup_key, timezone=zone.key, now=now
            )
            if seen:
                stored = await inbound.stored_reply(session, msg.dedup_key)
                log.info("duplicate message", extra={"dedup_key": loggable_key(msg)})
                return (stored.reply_text if stored else None) or ""
            sent_at = dt.datetime.fromtimestamp(msg.create_time, dt.UTC)
            ctx = Context(
                user=user,
                tz=_zone(user.timezone, zone),
                now=now,
                occurred_at=min(now, max(sent_at, now - self.max_age)),
                source_key=msg.dedup_key,
                deployment=self.deployment,
                is_admin=msg.from_user in self.deployment.operations.admins,
            )
            if user.defaults_version < DEFAULTS_VERSION:
                await services.rules.ensure_defaults(session, user.id, ctx.tz, now)
            outcome = await self._outcome(session, ctx, msg)
            if msg.event in CARD_EVENTS and msg.response_code:
                await _grey_out_card(session, ctx, msg)
            for notice in (
                # read with the user: the plan is only read again when it owes one
                await water.notice_owed(session, user.id, now) if user.water_notice_owed else None,
                await _missed_notice(session, ctx),
            ):
                if notice:
                    outcome = dataclasses.replace(
                        outcome, reply=f"{outcome.reply}\n{notice}".strip()
                    )
            kept = outcome.reply if outcome.retry_reply is None else outcome.retry_reply
            # Up to the reply stored; the COMMIT after it is not counted (it cannot be
            # written in the row it commits).
            took = round((self.timer() - started) * 1000)
            await inbound.record_message(
                session,
                _new_inbound(msg, user, sent_at, now),
                reply_text=kept,
                effect=outcome.effect,
                handled_ms=took,
            )
            return outcome.reply

    async def _outcome(self, session: Session, ctx: Context, msg: Incoming) -> Outcome:
        try:
            command = await self._command(session, ctx, msg)
        except ParseError as exc:
            return Outcome(reply=exc.message)
        if command is None:
            return Outcome(reply="")
        outcome = await self.dispatcher.dispatch(session, ctx, command)
        await answers.note(session, ctx, command)  # an answer: its reminder was received
        return outcome

    async def _command(self, session: Session, ctx: Context, msg: Incoming) -> Command | None:
        """The command a message means; None when it asks for no answer."""
        text = msg.content if msg.msg_type == "text" else None
        if (guess := await confirm.take_pending(session, ctx, text)) is not None:
            return guess  # `是` to the question just asked: do what was guessed
        if msg.msg_type == "text":
            local = ctx.now.astimezone(ctx.tz).replace(tzinfo=None)
            return parse(msg.content, today=ctx.today, now_local=local)
        if msg.msg_type != "event":
            raise ParseError(texts.NOT_TEXT)
        if msg.event == "subscribe":
            return Welcome()
        if msg.event == "click":
            return parse_event_key(msg.content, today=ctx.today)
        if msg.event in CARD_EVENTS:
            return parse_card_key(msg.content)
        if msg.event == "enter_agent":
            # Opening the app shows today's page once a day; later visits stay quiet.
            since = ctx.local_midnight(ctx.today)
            seen = await inbound.seen_event_since(session, ctx.user.id, "event:enter_agent", since)
            return None if seen else ShowToday()
        return None  # other events (location, view, unsubscribe, ...) need no answer


CARD_EVENTS = frozenset({"template_card_event", "template_card_menu_event"})
"""A button (or a card's menu item) was clicked: its key is one of `scheduler.core.cards`."""


async def _grey_out_card(session: Session, ctx: Context, msg: Incoming) -> None:
    """The clicked card's buttons become one greyed-out label (sent by the tick)."""
    action = cards.parse_key(msg.content)
    if action is None:
        return
    await services.card_updates.queue_card_update(
        session,
        ctx.user.id,
        recipient=msg.from_user,
        response_code=msg.response_code,
        button_text=cards.replace_name(action),
        now=ctx.now,
    )


async def _missed_notice(session: Session, ctx: Context) -> str | None:
    """Once, on the next message: which reminders did not reach the user since the
    last time (expired after an outage, failed, or of unknown fate; none is resent),
    and which of their rules the tick set aside since (`rules.set_aside_since`)."""
    since = ctx.user.missed_since
    if since is None:
        return None
    await users.update_user(session, ctx.user.id, missed_since=None)
    set_aside = await rules.set_aside_since(session, ctx.user.id, since)
    notices = [
        await _lost_notice(session, ctx, since),
        texts.set_aside_notice([(r.number, r.kind, r.label) for r in set_aside])
        if set_aside
        else None,
    ]
    return "\n".join(notice for notice in notices if notice) or None


async def _lost_notice(session: Session, ctx: Context, since: dt.datetime) -> str | None:
    missed = await sent_or_missed.missed_since(session, ctx.user.id, since)
    if not missed:
        return None
    lost = [
        messages.Lost(
            label=f"{times.hm(m.slot.astimezone(ctx.tz))} {m.label}"
            if rule_kinds.row(m.kind).missed_at_time
            else m.label,
            how=m.status,
            why=failure_words(m.note),
        )
        for m in missed
    ]
    return texts.missed_line(messages.lost_summary(lost))


def _new_inbound(
    msg: Incoming, user: UserRecord, sent_at: dt.datetime, now: dt.datetime
) -> NewInbound:
    return NewInbound(
        dedup_key=msg.dedup_key,
        wecom_user_id=msg.from_user,
        user_id=user.id,
        kind=f"event:{msg.event}" if msg.msg_type == "event" else msg.msg_type,
        content=redact_sendkeys(msg.content),  # a bound SendKey lives sealed, only
        sent_at=sent_at,
        received_at=now,
    )


def _zone(name: str, default: ZoneInfo) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ValueError, KeyError):
        return default
