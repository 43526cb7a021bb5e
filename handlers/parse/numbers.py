"""Numbers as people type them: weights, amounts, counts.

Digits (`72.4`, `1,200`), Chinese numerals (一百四十五, 七十二点四, 两千五, 一万二),
multipliers (`3k`, `1.2w`, `2千`, `1.5万`), currency words before or after
(`¥35`, `35块钱`, `35rmb`), 十八块五 / 18块5 (yuan and jiao) and weight units
(`kg kgs 公斤 千克 斤`), with or without spaces.

Everything here is pure and total: functions return a value, None for "not this
shape", or raise `ParseError` with the user-facing message for "this shape, but a bad
value" (a weight of 500 kg, an amount of 0).
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from handlers import texts
from handlers.commands import ParseError
from handlers.parse.lexicon import (
    ABOUT_AFTER,
    AMOUNT_FOLLOWERS,
    AMOUNT_LEADS,
    ASCII_MULTIPLIERS,
    CN_DIGITS,
    CN_MYRIAD,
    CN_UNITS,
    GIFT_AFTER_OF,
    GIFT_VERBS,
    GIVEN_TO_ME,
    LEDGER_WORDS,
    LIMIT_ENDS,
    MEASURE_WORDS,
    ONE_CHAR_MEASURES,
    PAID_ALREADY,
    PRICE_UNITS,
)
from handlers.parse.patterns import (
    AMOUNT_CURRENCY,
    AMOUNT_JIAO,
    AMOUNT_NUMBER,
    AMOUNT_OF,
    CN_MULTIPLIERS,
    CN_POINT,
    CN_ZEROS,
    JIN,
    MONTH_CHAR,
    WEIGHT_PATTERN,
)
from handlers.parse.patterns import ANY_NUMBER as ANY_NUMBER  # re-exported: the readers' numbers
from handlers.parse.patterns import CN_INT as CN_INT
from handlers.parse.patterns import CN_NUMBER as CN_NUMBER
from handlers.parse.patterns import LIST_N as LIST_N
from handlers.parse.patterns import NUMBER as NUMBER
from handlers.parse.patterns import SPOKEN_DECIMAL as SPOKEN_DECIMAL

_WEIGHT = re.compile(WEIGHT_PATTERN.format(number=ANY_NUMBER), re.IGNORECASE)

_UNIT_START = "|".join(sorted({*PRICE_UNITS, *MEASURE_WORDS}, key=len, reverse=True))
"""`十八块一斤`: a 一 before a unit is a count, not 1 角."""
_AMOUNT = re.compile(
    AMOUNT_NUMBER + AMOUNT_CURRENCY + AMOUNT_JIAO + _UNIT_START + "))?"
    r"(?![A-Za-z])",  # "1e5" or "35abc" is not an amount followed by a category
    re.IGNORECASE,
)

MIN_KG = Decimal(20)
MAX_KG = Decimal(300)
MAX_AMOUNT = Decimal(10_000_000)
_CENT = Decimal("0.01")
_MAX_DIGITS = 40


def cn_int(said: str) -> int | None:
    """一百四十五 -> 145, 两千五 -> 2500, 一万二 -> 12000, 二零二六 -> 2026; else None."""
    if not said or len(said) > 12:
        return None
    if all(char in CN_DIGITS for char in said):
        return int("".join(str(CN_DIGITS[char]) for char in said))
    total = section = 0
    digit: int | None = None
    last_unit, after_zero = 0, False
    for char in said:
        if char in CN_ZEROS:
            after_zero = True  # 一百零五: the next digit is units
        elif char in CN_DIGITS:
            if digit is not None:
                return None
            digit = CN_DIGITS[char]
        elif char in CN_UNITS:
            unit = CN_UNITS[char]
            if digit is None and (unit != 10 or section or total):
                return None
            section += (1 if digit is None else digit) * unit
            digit, last_unit, after_zero = None, unit, False
        elif char in CN_MYRIAD and (section or digit):
            total, section = (section + (digit or 0)) * CN_MYRIAD[char], 0
            digit, last_unit, after_zero = None, CN_MYRIAD[char], False
        else:
            return None
    if digit is not None:  # 两千五 is 2500, 一百零五 is 105
        section += digit * (last_unit // 10 if last_unit >= 100 and not after_zero else 1)
    return total + section


def cn_number(said: str) -> Decimal | None:
    """七十二点四 -> 72.4 (digits after 点 are read one by one); None when not a number."""
    whole, dot, fraction = said.partition(CN_POINT)
    value = cn_int(whole)
    if value is None:
        return None
    if not dot:
        return Decimal(value)
    if not fraction or any(char not in CN_DIGITS for char in fraction):
        return None
    return Decimal(f"{value}.{''.join(str(CN_DIGITS[char]) for char in fraction)}")


def number_value(said: str) -> Decimal | None:
    """`72.4` or a Chinese numeral -> its value; None for anything else."""
    if said[:1].isascii():
        said = said.replace(CN_POINT, ".")
        if len(said) > _MAX_DIGITS:
            return None
        try:
            return Decimal(said)
        except InvalidOperation:
            return None
    return cn_number(said)


def small_int(token: str) -> int | None:
    """`"12"` -> 12, `"两"` -> 2, `"十二"` -> 12, `"二十"` -> 20; None for anything else."""
    if token.isascii() and token.isdigit():
        return int(token[:_MAX_DIGITS])
    return cn_int(token)


def parse_weight(text: str, *, unit_required: bool) -> Decimal | None:
    """`"72.4"`, `"72.4kg"`, `"145斤"`, `"七十二点四公斤"` -> kilograms, quantized to 0.01.

    Returns None when `text` is not a weight (or has no unit but `unit_required`);
    raises ParseError when it is one but outside 20-300 kg.
    """
    match = _WEIGHT.fullmatch(text)
    if match is None or (unit_required and match["unit"] is None):
        return None
    value = number_value(match["number"])
    if value is None:
        return None
    return check_weight(value, jin=match["unit"] == JIN)


def check_weight(value: Decimal, *, jin: bool) -> Decimal:
    """`value` (in 斤 when `jin`) as kilograms to 0.01, or ParseError out of 20-300 kg."""
    kg = value / 2 if jin else value
    if not MIN_KG <= kg <= MAX_KG:
        raise ParseError(texts.WEIGHT_OUT_OF_RANGE)
    return kg.quantize(_CENT, rounding=ROUND_HALF_UP)


def match_amount(text: str, pos: int = 0) -> tuple[Decimal, str] | None:
    """An amount at `pos` (`35` `¥35` `35.5块` `1,200元` `三十五块` `3k`) and the rest.

    Returns None when `text` does not start with an amount; raises ParseError when
    the amount is not positive, has more than two decimals, or is over ten million.
    """
    found = find_amount(_AMOUNT.match(text, pos))
    if found is None:
        return None
    return found[0], text[found[1] :]


def amount_matches(text: str) -> list[re.Match[str]]:
    """Every amount-shaped piece of `text` (for the natural readers to choose from)."""
    return [m for m in _AMOUNT.finditer(text) if m["whole"] or m["cn"]]


def find_amount(match: re.Match[str] | None) -> tuple[Decimal, int] | None:
    """The value of an `_AMOUNT` match and where it ended; None when it is no amount."""
    if match is None or not (match["whole"] or match["cn"]):
        return None
    if match["cn"]:
        if not _cn_amount_ends_well(match):
            return None
        amount = cn_number(match["cn"])
        if amount is None:
            return None
    else:
        digits = match["whole"].replace(",", "") + (match["fraction"] or "")
        if len(digits) > _MAX_DIGITS:
            raise ParseError(texts.AMOUNT_TOO_LARGE)
        amount = Decimal(digits) * _multiplier(match["mult"])
        if match["next"]:  # 3万2: the next digit is a tenth of the multiplier
            amount += Decimal(match["next"]) * _multiplier(match["mult"]) / 10
    if match["jiao"]:
        amount += Decimal(small_int(match["jiao"]) or 0) / 10
    return check_amount(amount, negative=match["sign"] == "-"), match.end()


def is_money(match: re.Match[str]) -> bool:
    """Whether an amount match said it was money (`¥`, `块`, `元`, `rmb`)."""
    return bool(match["cur"]) or match[0].lstrip("+- ").lower().startswith(("¥", "rmb"))


def _cn_amount_ends_well(match: re.Match[str]) -> bool:
    """一起 is not 1 + 起: a Chinese numeral is an amount only before a currency word,
    a separator or the end (so `三十五 午饭` is, `一起吃饭` is not)."""
    if match["cur"]:
        return True
    end = match.end("cn")
    after = match.string[end : end + 1]
    if after and after in ONE_CHAR_MEASURES:
        return False  # 一瓶水算两杯: a count of things, never an amount
    if after == MONTH_CHAR and (cn_number(match["cn"]) or 0) <= 12:
        return False  # 十二月房租两千八: a month, not an amount
    if not after or not after.isalnum() or after in AMOUNT_FOLLOWERS:
        return True
    if match.string.startswith((*LIMIT_ENDS, *ABOUT_AFTER, *PAID_ALREADY), end):
        return True  # 控制在五百以内, 两千多 (about that much: asked)
    if match.string[: match.start()].rstrip().endswith((*AMOUNT_LEADS, *GIVEN_TO_ME)):
        return True  # 客人给了五十小费: the verb before says it is money
    if after == AMOUNT_OF:  # 六百的红包: an amount, then 的 and its item (周四的会 is no amount)
        given = match.string[: match.start()].rstrip().endswith(GIFT_VERBS)  # 随了一千的礼
        return match.string.startswith(LEDGER_WORDS, end + 1) or (
            given and match.string.startswith(GIFT_AFTER_OF, end)
        )
    return match.string.startswith(LEDGER_WORDS, end)  # 两千生活费: an amount, then its item


def _multiplier(said: str | None) -> Decimal:
    if not said:
        return Decimal(1)
    return Decimal(ASCII_MULTIPLIERS.get(said.lower()) or CN_MULTIPLIERS[said])


def check_amount(amount: Decimal, *, negative: bool) -> Decimal:
    """`amount` quantized to cents, or ParseError saying what is wrong with it."""
    if negative or amount <= 0:
        raise ParseError(texts.AMOUNT_NOT_POSITIVE)
    if amount > MAX_AMOUNT:
        raise ParseError(texts.AMOUNT_TOO_LARGE)
    cents = amount.quantize(_CENT)
    if cents != amount:
        raise ParseError(texts.AMOUNT_TOO_PRECISE)
    return cents


def is_bare_number(text: str) -> bool:
    """`"72.4"`, `"-3"`: a number with nothing to say what it measures."""
    return re.fullmatch(rf"[+-]?\s*{NUMBER}", text) is not None
