"""retention: the daily run's record and the delivery counts it keeps (issue 20 item 9)

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-01 15:00:00

`retention_runs`: one row per (day, table) of the scheduler's daily retention run,
unique on that pair (several schedulers make the day's rows once), with what it
pruned; 管理 状态 and `keeper doctor` read the newest. `delivery_day_counts`: the
counts of pruned jobs and attempts by day, channel and outcome, written before the
rows are deleted, so the admin's totals stay what they were. See
`storage.retention_models`.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

UTC_DATETIME = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")


def upgrade() -> None:
    op.create_table(
        "retention_runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run_day", sa.Date(), nullable=False),
        sa.Column("table_name", sa.String(length=32), nullable=False),
        sa.Column("keep_days", sa.Integer(), nullable=False),
        sa.Column("cutoff", UTC_DATETIME, nullable=False),
        sa.Column("started_at", UTC_DATETIME, nullable=False),
        sa.Column("updated_at", UTC_DATETIME, nullable=False),
        sa.Column("finished_at", UTC_DATETIME, nullable=True),
        sa.Column("claimed_by", sa.String(length=64), nullable=False),
        sa.Column("pruned", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_retention_runs")),
        sa.UniqueConstraint("run_day", "table_name", name="uq_retention_runs_day_table"),
        mysql_charset="utf8mb4",
        mysql_collate="utf8mb4_bin",
    )
    op.create_table(
        "delivery_day_counts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("subject", sa.String(length=8), nullable=False),
        sa.Column("channel", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("error_class", sa.String(length=16), nullable=False),
        sa.Column("provider_code", sa.Integer(), nullable=True),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("last_at", UTC_DATETIME, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_delivery_day_counts")),
        mysql_charset="utf8mb4",
        mysql_collate="utf8mb4_bin",
    )
    op.create_index(
        "ix_delivery_day_counts_subject",
        "delivery_day_counts",
        ["subject", "channel", "day"],
        unique=False,
    )


def downgrade() -> None:
    op.drop_table("delivery_day_counts")
    op.drop_table("retention_runs")
