"""The receivers users bind for their own reminders (issue 12 item 2).

Same conventions as `storage.models`. One row per (user, channel): the WxPusher UID
in plain text (an address, not a credential), a Server酱 SendKey only as AES-GCM
ciphertext (`storage.secret_box`), and in both cases a masked `hint` for display.
The WeCom app needs no row; one appears only when the user makes the WeCom app their
fallback (`receiver` empty: the address is the user's WeCom UserID).
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import String, UniqueConstraint
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


USER_CHANNELS = _table(UserChannel)
