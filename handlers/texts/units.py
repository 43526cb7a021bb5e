"""Numbers as replies write them: kilograms, yuan, a signed change."""

from __future__ import annotations

from decimal import Decimal


def kg(value: Decimal) -> str:
    """72.40 -> "72.4", 70.00 -> "70"."""
    return f"{value.normalize():f}"


def yuan(value: Decimal) -> str:
    return f"{value:.2f} 元"


def signed(value: Decimal, unit: str = "") -> str:
    if value == 0:
        return "持平"
    sign = "+" if value > 0 else "-"
    return f"{sign}{kg(abs(value))}{unit}"
