"""delivery evidence and device checks (issue 22 item 1)

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-01 21:00:00

`notification_jobs.evidence` / `evidence_at`: the strongest evidence that a sent
message reached the person (`accepted` < `received` < `read`), only ever raised.
Jobs already accepted are given `accepted`: what the provider said is all that is
known of them. `device_checks`: one row per `测试 渠道` test per channel, and when the
person confirmed seeing it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None

UTC_DATETIME = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")


def upgrade() -> None:
    with op.batch_alter_table("notification_jobs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("evidence", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("evidence_at", UTC_DATETIME, nullable=True))
    op.execute(
        "UPDATE notification_jobs SET evidence = 'accepted', evidence_at = finished_at"
        " WHERE status = 'accepted'"
    )
    op.create_table(
        "device_checks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(length=32), nullable=False),
        sa.Column("job_id", sa.Integer(), nullable=True),
        sa.Column("sent_at", UTC_DATETIME, nullable=False),
        sa.Column("confirmed_at", UTC_DATETIME, nullable=True),
        sa.ForeignKeyConstraint(
            ["job_id"],
            ["notification_jobs.id"],
            name=op.f("fk_device_checks_job_id_notification_jobs"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_device_checks_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_device_checks")),
        mysql_charset="utf8mb4",
        mysql_collate="utf8mb4_bin",
    )
    with op.batch_alter_table("device_checks", schema=None) as batch_op:
        batch_op.create_index(
            "ix_device_checks_user_channel", ["user_id", "channel", "sent_at"], unique=False
        )


def downgrade() -> None:
    op.drop_table("device_checks")
    with op.batch_alter_table("notification_jobs", schema=None) as batch_op:
        batch_op.drop_column("evidence_at")
        batch_op.drop_column("evidence")
