"""send started: a claimed job records the moment its channel call begins

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 11:30:00

A worker that dies leaves `processing` jobs behind. Only those whose send had begun
may have reached the provider; the rest were never tried and go back to the queue
(see `scheduler.tick.recover_leases`). `send_started_at` tells the two apart.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

UTC_DATETIME = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")


def upgrade() -> None:
    with op.batch_alter_table("notification_jobs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("send_started_at", UTC_DATETIME, nullable=True))
    # A job an older worker was sending when this ran may have gone out: never release
    # it as unsent (its lease expiry settles it by its policy, as before).
    op.execute(
        "UPDATE notification_jobs SET send_started_at = updated_at WHERE status = 'processing'"
    )


def downgrade() -> None:
    with op.batch_alter_table("notification_jobs", schema=None) as batch_op:
        batch_op.drop_column("send_started_at")
