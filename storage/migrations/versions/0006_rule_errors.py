"""rule errors: why the tick set a rule aside (status `error`)

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30 13:00:00

A rule whose occurrences cannot be computed no longer stalls every user's reminders:
the tick sets it aside and keeps the reason here for 管理 状态.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("reminder_rules", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("error_note", sa.String(length=200), server_default="", nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("reminder_rules", schema=None) as batch_op:
        batch_op.drop_column("error_note")
