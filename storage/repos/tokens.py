"""The WeCom access-token cache row per (CorpID, AgentID)."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ColumnElement, and_, select, update

from storage.database import Session
from storage.delivery_models import TOKENS
from storage.dialect import insert_unless_exists
from storage.records import TokenRow


def _app(corp_id: str, agent_id: int) -> ColumnElement[bool]:
    return and_(TOKENS.c.corp_id == corp_id, TOKENS.c.agent_id == agent_id)


async def lock_row(session: Session, corp_id: str, agent_id: int) -> None:
    """Create the app's row if needed and hold its lock until the transaction ends.

    This is what makes a token refresh single-flight across processes: a second
    process waits here, then finds the token the first one saved.
    """
    values = {
        "corp_id": corp_id,
        "agent_id": agent_id,
        "access_token": "",
        "expires_at": None,
        "refreshed_at": None,
    }
    await insert_unless_exists(session, TOKENS, values)
    await session.execute(select(TOKENS.c.id).where(_app(corp_id, agent_id)).with_for_update())


async def load(session: Session, corp_id: str, agent_id: int) -> TokenRow | None:
    stmt = select(TOKENS).where(_app(corp_id, agent_id))
    row = (await session.execute(stmt)).first()
    if row is None or not row.access_token or row.expires_at is None:
        return None
    return TokenRow(
        access_token=row.access_token, expires_at=row.expires_at, refreshed_at=row.refreshed_at
    )


async def save(
    session: Session,
    corp_id: str,
    agent_id: int,
    *,
    token: str,
    expires_at: dt.datetime,
    refreshed_at: dt.datetime,
) -> None:
    await session.execute(
        update(TOKENS)
        .where(_app(corp_id, agent_id))
        .values(access_token=token, expires_at=expires_at, refreshed_at=refreshed_at)
    )
