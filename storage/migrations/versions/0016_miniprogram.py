"""miniprogram: identities, subscribe answers, the action log, link codes (issue 12)

Revision ID: 0016
Revises: 0014
Create Date: 2026-11-30 17:00:00

See `storage.mp_models` for why each table exists and what its unique keys prevent.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

revision = "0016"
down_revision = "0014"
branch_labels = None
depends_on = None

UTC_DATETIME = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")


def _user(column: str, table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], ["users.id"], name=op.f(f"fk_{table}_{column}_users"), ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "mp_identities",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("openid", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("own_user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", UTC_DATETIME, nullable=False),
        sa.Column("linked_at", UTC_DATETIME, nullable=True),
        sa.Column("link_failures", sa.Integer(), server_default="0", nullable=False),
        sa.Column("link_failed_at", UTC_DATETIME, nullable=True),
        _user("user_id", "mp_identities"),
        _user("own_user_id", "mp_identities"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mp_identities")),
        sa.UniqueConstraint("openid", name=op.f("uq_mp_identities_openid")),
        mysql_charset="utf8mb4",
        mysql_collate="utf8mb4_bin",
    )
    op.create_index("ix_mp_identities_user", "mp_identities", ["user_id"], unique=False)
    op.create_table(
        "mp_grant_answers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("openid", sa.String(length=64), nullable=False),
        sa.Column("request_id", sa.String(length=64), nullable=False),
        sa.Column("result", sa.String(length=8), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", UTC_DATETIME, nullable=False),
        _user("user_id", "mp_grant_answers"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mp_grant_answers")),
        sa.UniqueConstraint("openid", "request_id", name="uq_mp_grant_answers_request"),
        mysql_charset="utf8mb4",
        mysql_collate="utf8mb4_bin",
    )
    op.create_table(
        "mp_actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("action_id", sa.String(length=64), nullable=False),
        sa.Column("openid", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("answer", sa.Text(), nullable=False),
        sa.Column("created_at", UTC_DATETIME, nullable=False),
        _user("user_id", "mp_actions"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mp_actions")),
        sa.UniqueConstraint("openid", "action_id", name="uq_mp_actions_action"),
        mysql_charset="utf8mb4",
        mysql_collate="utf8mb4_bin",
    )
    op.create_table(
        "mp_link_codes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", UTC_DATETIME, nullable=False),
        sa.Column("expires_at", UTC_DATETIME, nullable=False),
        sa.Column("used_at", UTC_DATETIME, nullable=True),
        _user("user_id", "mp_link_codes"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mp_link_codes")),
        sa.UniqueConstraint("code_hash", name=op.f("uq_mp_link_codes_code_hash")),
        mysql_charset="utf8mb4",
        mysql_collate="utf8mb4_bin",
    )
    op.create_index("ix_mp_link_codes_user", "mp_link_codes", ["user_id"], unique=False)


def downgrade() -> None:
    op.drop_table("mp_link_codes")
    op.drop_table("mp_actions")
    op.drop_table("mp_grant_answers")
    op.drop_table("mp_identities")
