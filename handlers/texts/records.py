"""Records: weight, water check-ins, money and the journal; how to write each, and
the reply once it is recorded (`handlers/records.py`)."""

from __future__ import annotations

from decimal import Decimal

from handlers.texts.units import kg, signed, yuan
from storage.vocabulary import LedgerDirection

WEIGHT_FORMAT = "体重要写成数字，比如：体重 72.4 或 体重 145斤"
WEIGHT_OUT_OF_RANGE = "体重要在 20 到 300 公斤之间，比如：体重 72.4（用斤就写 体重 145斤）"
WATER_FORMAT = "喝水要写成：喝水、喝水 +2 或 喝水 -1（记错了用负数减掉）"
WATER_OUT_OF_RANGE = "喝水一次记 1 到 20 杯，减掉最多 10 杯，比如：喝水 +2 或 喝水 -1"
AMOUNT_NOT_POSITIVE = "金额要大于 0，比如：记账 35 午饭（收入用：收入 8000 工资）"
AMOUNT_TOO_PRECISE = "金额最多两位小数，比如：记账 35.50 午饭"
AMOUNT_TOO_LARGE = "金额太大了，一笔最多 1000 万。"


def ledger_needs_amount(keyword: str, *, income: bool) -> str:
    """`记账` without a number: show the same keyword with an amount."""
    example = "8000 工资" if income else "35 午饭"
    return f"{keyword}要写金额，比如：{keyword} {example}"


JOURNAL_NEEDS_TEXT = "日记要写内容，比如：日记 复诊以后感觉轻松了一些"


def weight_recorded(value: Decimal, previous: Decimal | None) -> str:
    if previous is None:
        return f"记下了：体重 {kg(value)} kg。"
    if value == previous:
        return f"记下了：体重 {kg(value)} kg，和上次一样。"
    return f"记下了：体重 {kg(value)} kg，比上次{signed(value - previous, ' kg')}。"


def water_recorded(glasses: int, today_total: int) -> str:
    if glasses < 0:
        return f"已减去 {-glasses} 杯，今天共 {today_total} 杯水。"
    return f"喝水 +{glasses}，今天第 {today_total} 杯。"


def ledger_recorded(direction: str, amount: Decimal, category: str, note: str) -> str:
    return f"记账：{ledger_entry(direction, amount, category, note)}。"


def ledger_entry(direction: str, amount: Decimal, category: str, note: str) -> str:
    """`支出 35.00 元（餐饮 午饭）`: one ledger entry, as recorded and as guessed."""
    what = "支出" if direction == LedgerDirection.EXPENSE else "收入"
    detail = f"{category} {note}".strip()
    return f"{what} {yuan(amount)}（{detail}）"


def journal_saved(length: int) -> str:
    return f"日记已保存，{length} 字。"
