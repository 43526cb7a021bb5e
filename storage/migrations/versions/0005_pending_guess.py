"""pending guess: a question keeper asked about a reading it was not sure of

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30 11:20:00

`35` or `称了一下 140` is asked, not recorded ("记一笔支出 35.00 元？回「是」记下").
The guessed command waits on the user's row (JSON, see `handlers.confirm`) with the
moment it was asked, so a restart between the question and the `是` loses nothing.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

UTC_DATETIME = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("pending_guess", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("pending_guess_at", UTC_DATETIME, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("pending_guess_at")
        batch_op.drop_column("pending_guess")
