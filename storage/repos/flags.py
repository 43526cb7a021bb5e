"""Installation-wide switches (one row each), e.g. 管理 暂停 全部."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select, update

from storage.database import Session
from storage.delivery_models import FLAGS
from storage.dialect import insert_unless_exists

SENDS_PAUSED = "sends_paused"


async def get(session: Session, name: str) -> str | None:
    """The flag's value, or None when it was never set."""
    value: str | None = (
        await session.execute(select(FLAGS.c.value).where(FLAGS.c.name == name))
    ).scalar_one_or_none()
    return value


async def put(session: Session, name: str, value: str, *, now: dt.datetime) -> None:
    """Set the flag (update, or insert the first time)."""
    changed = await session.execute(
        update(FLAGS).where(FLAGS.c.name == name).values(value=value, updated_at=now)
    )
    if not changed.rowcount:
        await insert_unless_exists(
            session, FLAGS, {"name": name, "value": value, "updated_at": now}
        )
