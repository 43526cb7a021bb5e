"""backup runs: the scheduled daily backup's claim and outcome (issue 13 item 5)

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-30 15:40:00

One row per day: the unique `run_day` is the claim, so of several schedulers exactly
one makes that day's backup. 管理 状态, the admin page, `keeper doctor` and /metrics
read the newest verified row.

"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

UTC_DATETIME = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")


def upgrade() -> None:
    op.create_table(
        "backup_runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run_day", sa.Date(), nullable=False),
        sa.Column("started_at", UTC_DATETIME, nullable=False),
        sa.Column("finished_at", UTC_DATETIME, nullable=True),
        sa.Column("path", sa.String(length=64), nullable=True),
        sa.Column("verified", sa.Boolean(), nullable=False),
        sa.Column("revision", sa.String(length=32), nullable=False),
        sa.Column("rows", sa.BigInteger(), nullable=False),
        sa.Column("size_bytes", sa.BigInteger(), nullable=False),
        sa.Column("problem", sa.String(length=500), nullable=False),
        sa.Column("claimed_by", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_backup_runs")),
        sa.UniqueConstraint("run_day", name=op.f("uq_backup_runs_run_day")),
        mysql_charset="utf8mb4",
        mysql_collate="utf8mb4_bin",
    )
    op.create_index(
        "ix_backup_runs_verified", "backup_runs", ["verified", "finished_at"], unique=False
    )


def downgrade() -> None:
    op.drop_table("backup_runs")
