"""incidents: what broke, since when, and whether the admins were told (issue 12)

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-30 15:40:00

One row per incident (a channel on hold, the scheduler stopped, a backup overdue).
`open_key` is "kind:subject" while the incident is open and NULL once resolved: its
unique constraint makes several workers opening the same incident get one row.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

UTC_DATETIME = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")


def upgrade() -> None:
    op.create_table(
        "incidents",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("subject", sa.String(length=64), nullable=False),
        sa.Column("open_key", sa.String(length=100), nullable=True),
        sa.Column("opened_at", UTC_DATETIME, nullable=False),
        sa.Column("last_seen_at", UTC_DATETIME, nullable=False),
        sa.Column("resolved_at", UTC_DATETIME, nullable=True),
        sa.Column("detail", sa.String(length=500), nullable=False),
        sa.Column("alerted_at", UTC_DATETIME, nullable=True),
        sa.Column("recovery_alerted_at", UTC_DATETIME, nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_incidents")),
        sa.UniqueConstraint("open_key", name=op.f("uq_incidents_open_key")),
        mysql_charset="utf8mb4",
        mysql_collate="utf8mb4_bin",
    )
    op.create_index("ix_incidents_kind_opened", "incidents", ["kind", "opened_at"], unique=False)


def downgrade() -> None:
    op.drop_table("incidents")
