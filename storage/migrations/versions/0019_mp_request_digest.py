"""mp request digest: what an action's first body said, so a different replay is told

Revision ID: 0019
Revises: 0017 (retention; both were written at once, this one chained after)
Create Date: 2026-12-01 16:00:00

`mp_actions.request_digest`: the SHA-256 of the action's canonical request (every
field, the time as an instant; `bot.mp.validate.digest`). The same `action_id` with
another count or time is answered 409 `conflict` with the stored answer; a true
replay still gets 200. Rows from before hold NULL and are answered as before (a
replay, whatever its body): nothing is known to compare them with. Grant answers
need no column: their one varying field, `result`, is stored already.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("mp_actions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("request_digest", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("mp_actions", schema=None) as batch_op:
        batch_op.drop_column("request_digest")
