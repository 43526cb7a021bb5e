"""reminders: digests, event/task/custom rules, quiet time, cards, global pause

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29 21:45:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

# UTC instants, microseconds kept on MySQL/MariaDB as on SQLite.
UTC_DATETIME = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")


def upgrade() -> None:
    op.create_table(
        "system_flags",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("value", sa.String(length=64), nullable=False),
        sa.Column("updated_at", UTC_DATETIME, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_system_flags")),
        sa.UniqueConstraint("name", name=op.f("uq_system_flags_name")),
        mysql_charset="utf8mb4",
        mysql_collate="utf8mb4_bin",
    )
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("quiet_until", UTC_DATETIME, nullable=True))
        batch_op.add_column(sa.Column("cards", sa.Integer(), server_default="0", nullable=False))
        batch_op.add_column(
            sa.Column("defaults_version", sa.Integer(), server_default="0", nullable=False)
        )
        batch_op.add_column(sa.Column("missed_since", UTC_DATETIME, nullable=True))
    with op.batch_alter_table("calendar_events", schema=None) as batch_op:
        batch_op.add_column(sa.Column("number", sa.Integer(), nullable=True))
    with op.batch_alter_table("notification_jobs", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("payload", sa.String(length=2048), server_default="", nullable=False)
        )
    with op.batch_alter_table("reminder_rules", schema=None) as batch_op:
        batch_op.add_column(sa.Column("number", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("ref_id", sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column("label", sa.String(length=200), server_default="", nullable=False)
        )
        batch_op.create_index("ix_reminder_rules_ref", ["kind", "ref_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("reminder_rules", schema=None) as batch_op:
        batch_op.drop_index("ix_reminder_rules_ref")
        batch_op.drop_column("label")
        batch_op.drop_column("ref_id")
        batch_op.drop_column("number")
    with op.batch_alter_table("notification_jobs", schema=None) as batch_op:
        batch_op.drop_column("payload")
    with op.batch_alter_table("calendar_events", schema=None) as batch_op:
        batch_op.drop_column("number")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("missed_since")
        batch_op.drop_column("defaults_version")
        batch_op.drop_column("cards")
        batch_op.drop_column("quiet_until")
    op.drop_table("system_flags")
