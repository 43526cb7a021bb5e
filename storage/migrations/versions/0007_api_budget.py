"""WeCom API budget: calls per enterprise counted in the database, shared by workers

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-30 14:10:00

WeCom limits each API to 10,000 calls a minute and 150,000 an hour per enterprise, and
an app to (members x 200) sends a day. Every worker adds its batch's calls to the
current bucket of each window here before sending (`storage.repos.api_budget`).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

UTC_DATETIME = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")


def upgrade() -> None:
    op.create_table(
        "wecom_api_budget",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("api", sa.String(length=64), nullable=False),
        sa.Column("span", sa.String(length=8), nullable=False),
        sa.Column("bucket_start", UTC_DATETIME, nullable=False),
        sa.Column("used", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_wecom_api_budget")),
        sa.UniqueConstraint("api", "span", "bucket_start", name="uq_wecom_api_budget_bucket"),
        mysql_charset="utf8mb4",
        mysql_collate="utf8mb4_bin",
    )


def downgrade() -> None:
    op.drop_table("wecom_api_budget")
