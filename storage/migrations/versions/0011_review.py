"""weekly review: monthly budgets per category, and the user's weight goal (issue 14)

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-30 15:40:00

`预算 餐饮 1500` keeps one row per user and category; `nudged_month`/`nudged_level`
remember which threshold (80%, 100%) a digest already told this month. `目标体重 68`
is a column on `users`. The weekly-review rule itself is seeded on each user's next
message, as the digests are (`users.defaults_version`).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "budgets",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("category", sa.String(length=32), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("nudged_month", sa.String(length=7), nullable=True),
        sa.Column("nudged_level", sa.Integer(), server_default="0", nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_budgets_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_budgets")),
        sa.UniqueConstraint("user_id", "category", name=op.f("uq_budgets_user_id")),
        mysql_charset="utf8mb4",
        mysql_collate="utf8mb4_bin",
    )
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("goal_weight", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("goal_weight")
    op.drop_table("budgets")
