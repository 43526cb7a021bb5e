"""web links: one-time sign-in and download links for the pages (issue 13)

Revision ID: 0010
Revises: 0008
Create Date: 2026-11-30 14:10:00

`网页`, `管理 网页` and `导出` answer a link that works once, for ten minutes, for the
member who asked. Only the token's SHA-256 is kept; `used_at` is set by a conditional
UPDATE, so a replayed link (or two racing clicks) is honoured once.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

revision = "0010"
down_revision = "0008"
branch_labels = None
depends_on = None

UTC_DATETIME = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")


def upgrade() -> None:
    op.create_table(
        "web_links",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("purpose", sa.String(length=16), nullable=False),
        sa.Column("created_at", UTC_DATETIME, nullable=False),
        sa.Column("expires_at", UTC_DATETIME, nullable=False),
        sa.Column("used_at", UTC_DATETIME, nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_web_links_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_web_links")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_web_links_token_hash")),
        mysql_charset="utf8mb4",
        mysql_collate="utf8mb4_bin",
    )
    op.create_index("ix_web_links_user", "web_links", ["user_id", "created_at"], unique=False)


def downgrade() -> None:
    # Dropping the table drops its index too; dropping the index first fails on MariaDB,
    # which needs it for the user_id foreign key (error 1553).
    op.drop_table("web_links")
