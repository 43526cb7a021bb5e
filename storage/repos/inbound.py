"""Inbound messages: the deduplication ledger and the undo log."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import bindparam, select, update
from sqlalchemy.exc import IntegrityError

from storage.database import Session
from storage.dialect import (
    MYSQL_DUPLICATE_KEY,
    insert_into,
    insert_returning_id,
    insert_unless_exists,
    mysql_errno,
)
from storage.models import INBOUND
from storage.records import Effect, NewInbound, StoredReply, UndoableMessage

CONTENT_LIMIT = 4000  # characters kept of a message's text; WeCom's own cap is 2048 bytes


async def claim_message(session: Session, msg: NewInbound) -> int | None:
    """Record `msg` once. Returns its row id, or None when the key was seen before.

    A concurrent delivery of the same key waits for the first transaction (the unique
    key is locked) and then gets None, so exactly one delivery does the work.

    SQLite: `INSERT ... ON CONFLICT DO NOTHING RETURNING id`, one statement.
    MySQL/MariaDB: a plain INSERT, without the savepoint `insert_unless_exists` wraps
    around it (two round trips less per message): InnoDB answers a duplicate key by
    rolling back that statement only, not the transaction, and a duplicate only goes
    on to read the stored reply. A deadlock does roll the transaction back; it is
    re-run whole by `storage.retry`.
    """
    values = {
        "dedup_key": msg.dedup_key,
        "wecom_user_id": msg.wecom_user_id,
        "user_id": msg.user_id,
        "kind": msg.kind,
        "content": msg.content[:CONTENT_LIMIT],
        "sent_at": msg.sent_at,
        "received_at": msg.received_at,
    }
    if session.dialect.name == "sqlite":
        return await insert_unless_exists(session, INBOUND, values)
    try:
        return await insert_returning_id(session, insert_into(INBOUND), values)
    except IntegrityError as exc:
        if mysql_errno(exc) == MYSQL_DUPLICATE_KEY:
            return None
        raise


async def stored_reply(session: Session, dedup_key: str) -> StoredReply | None:
    """The reply given to the first delivery of this key, or None if never seen."""
    stmt = select(INBOUND.c.reply_text).where(INBOUND.c.dedup_key == dedup_key)
    row = (await session.execute(stmt)).first()
    return None if row is None else StoredReply(reply_text=row[0])


async def save_outcome(
    session: Session,
    message_id: int,
    *,
    reply_text: str | None,
    effect: Effect | None,
    handled_ms: int | None = None,
) -> None:
    """Store the reply (for retries), the record made (for undo) and how long the
    handling took (the admin page's callback chart), in the one UPDATE."""
    params = {
        "message_id": message_id,
        "reply_text": reply_text,
        "effect_kind": effect.kind if effect else None,
        "effect_id": effect.record_id if effect else None,
        "handled_ms": handled_ms,
    }
    await session.execute(_SAVE_OUTCOME, params)


# The SET clause comes from the execution parameters (reply_text, effect_kind, ...).
_SAVE_OUTCOME = update(INBOUND).where(INBOUND.c.id == bindparam("message_id"))


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


async def seen_event_since(
    session: Session, user_id: int, kind: str, since: dt.datetime, exclude_id: int
) -> bool:
    """Whether the user sent a message of `kind` at or after `since` (other than one)."""
    stmt = (
        select(INBOUND.c.id)
        .where(
            INBOUND.c.user_id == user_id,
            INBOUND.c.kind == kind,
            INBOUND.c.received_at >= since,
            INBOUND.c.id != exclude_id,
        )
        .limit(1)
    )
    return (await session.execute(stmt)).first() is not None
