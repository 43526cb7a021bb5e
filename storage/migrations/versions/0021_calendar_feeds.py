"""calendar feeds: a private ICS address per member (issue 22, 日历订阅)

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-01 20:40:00

`日历订阅` answers an address a phone's calendar subscribes to; the token in it is
256 random bits and only its SHA-256 is kept. `日历订阅 重置` sets `revoked_at` on
the member's addresses (then answered 404) and makes a new one.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None

UTC_DATETIME = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")


def upgrade() -> None:
    op.create_table(
        "calendar_feeds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", UTC_DATETIME, nullable=False),
        sa.Column("revoked_at", UTC_DATETIME, nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_calendar_feeds_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_calendar_feeds")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_calendar_feeds_token_hash")),
        mysql_charset="utf8mb4",
        mysql_collate="utf8mb4_bin",
    )
    op.create_index(
        "ix_calendar_feeds_user", "calendar_feeds", ["user_id", "created_at"], unique=False
    )


def downgrade() -> None:
    # The table takes its index with it (MariaDB needs the index for the foreign key).
    op.drop_table("calendar_feeds")
