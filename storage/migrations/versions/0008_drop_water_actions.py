"""drop water_actions: a log of plan actions that nothing ever wrote or read

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-30 15:00:00

The water plan's changes are recorded where they matter: the plan row, its grants
(each keyed by the check-in that made it) and the jobs. `water_actions` was created
in 0002 for a per-action log whose writer never came; the table was always empty.
Downgrade recreates it exactly as 0002 made it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

UTC_DATETIME = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")


def upgrade() -> None:
    op.drop_table("water_actions")


def downgrade() -> None:
    op.create_table(
        "water_actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("plan_id", sa.Integer(), nullable=False),
        sa.Column("action_key", sa.String(length=191), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("from_state", sa.String(length=24), nullable=False),
        sa.Column("to_state", sa.String(length=24), nullable=False),
        sa.Column("created_at", UTC_DATETIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["plan_id"],
            ["water_plans.id"],
            name=op.f("fk_water_actions_plan_id_water_plans"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_water_actions")),
        sa.UniqueConstraint("action_key", name=op.f("uq_water_actions_action_key")),
        mysql_charset="utf8mb4",
        mysql_collate="utf8mb4_bin",
    )
