"""Tables of the weekly review (issue 14): monthly budgets per category.

Same conventions as `storage.models`. The weight goal is a column on `users`.
"""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from storage.models import TABLE_OPTIONS, Base, Hundredths, _table, _user_fk


class Budget(Base):
    """`预算 餐饮 1500`: a monthly amount for one expense category, one per category.

    `nudged_month` ("2026-11") and `nudged_level` (80 or 100) remember the highest
    threshold already told in a digest that month, so each is told once, never once
    per record.
    """

    __tablename__ = "budgets"
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = _user_fk()
    category: Mapped[str] = mapped_column(String(32))
    amount: Mapped[Decimal] = mapped_column(Hundredths())
    nudged_month: Mapped[str | None] = mapped_column(String(7))
    nudged_level: Mapped[int] = mapped_column(Integer, server_default="0")

    __table_args__ = (UniqueConstraint("user_id", "category"), TABLE_OPTIONS)


BUDGETS = _table(Budget)
