"""callback handled ms: how long each inbound message took to handle, for the admin page

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-01 20:40:00

`inbound_messages.handled_ms`: milliseconds from the conversation taking the message
up to its reply being stored (`bot.conversation`), so the admin page can draw each
day's p95 (issue 22). Rows from before hold NULL and are left out of the p95; they
still count as handled.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("inbound_messages", schema=None) as batch_op:
        batch_op.add_column(sa.Column("handled_ms", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("inbound_messages", schema=None) as batch_op:
        batch_op.drop_column("handled_ms")
