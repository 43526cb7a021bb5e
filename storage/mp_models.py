"""Tables of the water mini-program (issue 12 item 5): identities, subscribe answers,
the action log and the chat's link codes.

Same conventions as `storage.models`. Why these tables and not more columns on old
ones:

- `mp_identities`: one row per WeChat openid, naming the keeper user it acts as. A
  mini-program-only person is a keeper user whose `users.wecom_user_id` is
  `mp:<openid>` (a WeCom UserID cannot hold ":"), so no WeCom code path ever mistakes
  them for a member; linking (`绑定 小程序`) points the identity at a WeCom user.
- `mp_grant_answers`: every `wx.requestSubscribeMessage` answer, unique on
  (openid, request_id), so a retried POST records nothing twice. Not `water_grants`
  alone: a reject, ban or filter is an answer but no grant, and an accept while the
  plan already holds its one available grant (DESIGN §6) makes no second grant. An
  accept that the plan takes becomes a `water_grants` row keyed
  `mp:<openid>:<request_id>`, whose state machine is the plan's, unchanged.
- `mp_actions`: one row per client `action_id`, holding the answer given, so a replay
  gets the same answer, and the digest of the first request, so a replay with another
  body is told so (409). The glass it records is a `water_checkins` row keyed
  `mp:<action_id>`, written in the same transaction.
- `mp_link_codes`: a 6-digit code shown in chat, stored only as its HMAC (a copy of
  the database shows no code), good once and for ten minutes.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from storage.models import TABLE_OPTIONS, Base, UTCDateTime, _table, _user_fk


class MpIdentity(Base):
    """A mini-program user (WeChat openid) and the keeper user it acts as.

    `own_user_id` is the mini-program-only user made at first login; `user_id` is the
    user it acts as now (the same one, or the WeCom member it was linked to).
    `link_failures` / `link_failed_at`: wrong link codes tried, for the rate limit.
    """

    __tablename__ = "mp_identities"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    openid: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = _user_fk()
    own_user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    linked_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    link_failures: Mapped[int] = mapped_column(Integer, server_default="0")
    link_failed_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_mp_identities_user", "user_id"), TABLE_OPTIONS)


class MpGrantAnswer(Base):
    """One answer to one subscribe request: accept | reject | ban | filter."""

    __tablename__ = "mp_grant_answers"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    openid: Mapped[str] = mapped_column(String(64))
    request_id: Mapped[str] = mapped_column(String(64))
    result: Mapped[str] = mapped_column(String(8))
    user_id: Mapped[int] = _user_fk()
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())

    __table_args__ = (
        UniqueConstraint("openid", "request_id", name="uq_mp_grant_answers_request"),
        TABLE_OPTIONS,
    )


class MpAction(Base):
    """One glass from the mini-program, by its client `action_id`, and our answer.
    Unique per openid, not globally: one client's id (a collision, or a reused id)
    must never refuse another user's glass. `request_digest`: SHA-256 of the first
    request's canonical form (`bot.mp.validate.digest`); NULL on rows from before
    migration 0019."""

    __tablename__ = "mp_actions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    action_id: Mapped[str] = mapped_column(String(64))
    openid: Mapped[str] = mapped_column(String(64))
    user_id: Mapped[int] = _user_fk()
    answer: Mapped[str] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    request_digest: Mapped[str | None] = mapped_column(String(64))

    __table_args__ = (
        UniqueConstraint("openid", "action_id", name="uq_mp_actions_action"),
        TABLE_OPTIONS,
    )


class MpLinkCode(Base):
    """A link code shown to a WeCom member; only its HMAC is kept."""

    __tablename__ = "mp_link_codes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = _user_fk()
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    expires_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    used_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_mp_link_codes_user", "user_id"), TABLE_OPTIONS)


MP_IDENTITIES = _table(MpIdentity)
MP_GRANT_ANSWERS = _table(MpGrantAnswer)
MP_ACTIONS = _table(MpAction)
MP_LINK_CODES = _table(MpLinkCode)
