"""The receivers users bind for their own reminders (issue 12 item 2).

Same conventions as `storage.models`. One row per (user, channel): the WxPusher UID
in plain text (an address, not a credential), a Server酱 SendKey only as AES-GCM
ciphertext (`storage.secret_box`), and in both cases a masked `hint` for display.
The WeCom app needs no row; one appears only when the user makes the WeCom app their
fallback (`receiver` empty: the address is the user's WeCom UserID).
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from storage.models import TABLE_OPTIONS, Base, UTCDateTime, _table, _user_fk


class UserChannel(Base):
    """One receiver of one user, and its role: `primary`, `fallback` or `none`."""

    __tablename__ = "user_channels"
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = _user_fk()
    channel: Mapped[str] = mapped_column(String(32))
    receiver: Mapped[str] = mapped_column(String(255))
    hint: Mapped[str] = mapped_column(String(32))
    role: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())

    __table_args__ = (UniqueConstraint("user_id", "channel"), TABLE_OPTIONS)


class DeviceCheck(Base):
    """One end-to-end test of a channel (`测试 渠道`): a short text sent to the user on
    that channel, confirmed when they answer `收到` within 30 minutes
    (`scheduler.core.evidence.CHECK_WINDOW`). `confirmed_at` NULL: not (yet) seen."""

    __tablename__ = "device_checks"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = _user_fk()
    channel: Mapped[str] = mapped_column(String(32))
    job_id: Mapped[int | None] = mapped_column(
        ForeignKey("notification_jobs.id", ondelete="SET NULL")
    )
    sent_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    confirmed_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())

    __table_args__ = (
        Index("ix_device_checks_user_channel", "user_id", "channel", "sent_at"),
        TABLE_OPTIONS,
    )


USER_CHANNELS = _table(UserChannel)
DEVICE_CHECKS = _table(DeviceCheck)
