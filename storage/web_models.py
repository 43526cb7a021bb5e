"""Tables of the pages (issue 13): one-time links, and calendar feeds (issue 22).

Same conventions as `storage.models`. A link's token is never stored: only its
SHA-256, so a copy of the database (or a backup) opens nothing. The same holds for a
calendar feed's token.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import Index, String
from sqlalchemy.orm import Mapped, mapped_column

from storage.models import TABLE_OPTIONS, Base, UTCDateTime, _table, _user_fk


class WebLink(Base):
    """A one-time link sent in chat (`网页`, `管理 网页`, `导出`).

    `purpose` is page, admin or export. A link is good once (`used_at` is set by a
    conditional UPDATE) and until `expires_at`.
    """

    __tablename__ = "web_links"
    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = _user_fk()
    purpose: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    expires_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    used_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_web_links_user", "user_id", "created_at"), TABLE_OPTIONS)


WEB_LINKS = _table(WebLink)


class CalendarFeed(Base):
    """A private calendar address (`日历订阅`): its token's SHA-256 and whose it is.

    Good until `revoked_at` is set (`日历订阅 重置` revokes every address of the member
    and makes a new one). A phone polls it for as long as it lives, so it has no
    expiry of its own.
    """

    __tablename__ = "calendar_feeds"
    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = _user_fk()
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    revoked_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_calendar_feeds_user", "user_id", "created_at"), TABLE_OPTIONS)


CALENDAR_FEEDS = _table(CalendarFeed)
