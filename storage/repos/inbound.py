"""Inbound messages: the deduplication ledger and the undo log."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select, update

from storage.database import Session
from storage.dialect import insert_into
from storage.models import INBOUND
from storage.records import Effect, NewInbound, StoredReply, UndoableMessage

CONTENT_LIMIT = 4000  # characters kept of a message's text; WeCom's own cap is 2048 bytes


async def record_message(
    session: Session,
    msg: NewInbound,
    *,
    reply_text: str | None,
    effect: Effect | None,
    handled_ms: int | None,
) -> None:
    """Record `msg` with its outcome: the reply (for retries), the record made (for
    undo) and how long the handling took (the admin page's callback chart).

    The message's last write and its claim in one: whether the key was seen before is
    read with the user's row lock first (`users.lock_for_message`), so the usual path
    writes the row once, at the end, instead of an INSERT up front and an UPDATE at the
    end. The unique key on `dedup_key` still guards against a second row: a clash
    raises `IntegrityError` and its whole transaction rolls back (`bot.conversation`).
    """
    values = {
        "dedup_key": msg.dedup_key,
        "wecom_user_id": msg.wecom_user_id,
        "user_id": msg.user_id,
        "kind": msg.kind,
        "content": msg.content[:CONTENT_LIMIT],
        "sent_at": msg.sent_at,
        "received_at": msg.received_at,
        "reply_text": reply_text,
        "effect_kind": effect.kind if effect else None,
        "effect_id": effect.record_id if effect else None,
        "handled_ms": handled_ms,
    }
    await session.execute(insert_into(INBOUND), values)


async def stored_reply(session: Session, dedup_key: str) -> StoredReply | None:
    """The reply given to the first delivery of this key, or None if never seen."""
    stmt = select(INBOUND.c.reply_text).where(INBOUND.c.dedup_key == dedup_key)
    row = (await session.execute(stmt)).first()
    return None if row is None else StoredReply(reply_text=row[0])


async def last_undoable(session: Session, user_id: int) -> UndoableMessage | None:
    """The user's most recent message whose effect has not been undone yet."""
    stmt = (
        select(
            INBOUND.c.id,
            INBOUND.c.kind,
            INBOUND.c.content,
            INBOUND.c.effect_kind,
            INBOUND.c.effect_id,
        )
        .where(
            INBOUND.c.user_id == user_id,
            INBOUND.c.effect_kind.is_not(None),
            INBOUND.c.undone_at.is_(None),
        )
        .order_by(INBOUND.c.id.desc())
        .limit(1)
    )
    row = (await session.execute(stmt)).first()
    if row is None or row.effect_kind is None or row.effect_id is None:
        return None
    return UndoableMessage(
        message_id=row.id,
        kind=row.kind,
        content=row.content,
        effect=Effect(kind=row.effect_kind, record_id=row.effect_id),
    )


async def mark_undone(session: Session, message_id: int, *, now: dt.datetime) -> None:
    await session.execute(update(INBOUND).where(INBOUND.c.id == message_id).values(undone_at=now))


async def seen_event_since(session: Session, user_id: int, kind: str, since: dt.datetime) -> bool:
    """Whether the user sent a message of `kind` at or after `since` (a message is
    recorded at the end of its handling: the one being handled is not among them)."""
    stmt = (
        select(INBOUND.c.id)
        .where(
            INBOUND.c.user_id == user_id,
            INBOUND.c.kind == kind,
            INBOUND.c.received_at >= since,
        )
        .limit(1)
    )
    return (await session.execute(stmt)).first() is not None
