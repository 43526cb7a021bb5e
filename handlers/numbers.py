"""Text normalisation and the numbers inside commands: weights, amounts, counts.

Everything here is pure and total: functions return a value, return None for "not
this shape", or raise `ParseError` with the user-facing message for "this shape, but
a bad value" (a weight of 500 kg, an amount of 0).
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

from handlers import texts
from handlers.commands import ParseError

# Full-width ASCII (U+FF01..U+FF5E) maps one-to-one onto ASCII; a few other look-alikes
# join them. Every mapping is one character to one character, so an index into the
# normalised text is also an index into the original (the journal keeps the original).
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}
_LOOK_ALIKES = {
    0x3000: " ",  # ideographic space
    0x00A0: " ",  # no-break space
    0xFFE5: "¥",  # full-width yen/yuan sign
    0x2014: "-",  # em dash, often typed for a range
    0x2013: "-",  # en dash
    0x2212: "-",  # minus sign
    0x301C: "~",  # wave dash
}
_TRANSLATION: dict[int, int | str] = {**_FULL_WIDTH, **_LOOK_ALIKES}

_SEPARATOR_CHARS = frozenset(",;:、")

# Decimal numbers as typed: ASCII digits only (`\d` would also accept e.g. Arabic-Indic).
NUMBER = r"[0-9]+(?:\.[0-9]+)?"

_WEIGHT = re.compile(rf"(?P<number>{NUMBER})\s*(?P<unit>kg|公斤|千克|斤)?", re.IGNORECASE)
_AMOUNT = re.compile(
    r"(?P<sign>[+-]?)\s*¥?\s*"
    r"(?P<whole>[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?P<fraction>\.[0-9]+)?(?![0-9.])"
    r"\s*(?:元|块钱|块|rmb|cny)?"
    r"(?![A-Za-z])",  # "1e5" or "35abc" is not an amount followed by a category
    re.IGNORECASE,
)
_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5}
_CN_DIGITS |= {"六": 6, "七": 7, "八": 8, "九": 9}

MIN_KG = Decimal(20)
MAX_KG = Decimal(300)
MAX_AMOUNT = Decimal(10_000_000)
_CENT = Decimal("0.01")


def normalise(text: str) -> str:
    """Full-width digits, letters and punctuation to ASCII; same length as `text`."""
    return text.translate(_TRANSLATION)


def is_separator(char: str) -> bool:
    """Whitespace or the light punctuation people put between words (`,` `;` `:` `、`)."""
    return char.isspace() or char in _SEPARATOR_CHARS


def strip_separators(text: str) -> str:
    """`text` without leading and trailing separators (linear time, no regex)."""
    start, end = 0, len(text)
    while start < end and is_separator(text[start]):
        start += 1
    while end > start and is_separator(text[end - 1]):
        end -= 1
    return text[start:end]


def words(text: str) -> list[str]:
    """`text` split on separators, without empty words."""
    return [word for word in re.split(r"[\s,;、]+", text) if word]


def small_int(token: str) -> int | None:
    """`"12"` -> 12, `"两"` -> 2, `"十二"` -> 12, `"二十"` -> 20; None for anything else."""
    if token.isascii() and token.isdigit():
        return int(token)
    tens, ten, ones = token.partition("十")
    if not ten:
        return _CN_DIGITS.get(token)
    high = 1 if tens == "" else _CN_DIGITS.get(tens)
    low = 0 if ones == "" else _CN_DIGITS.get(ones)
    if high is None or low is None or high == 0:
        return None
    return high * 10 + low


def parse_weight(text: str, *, unit_required: bool) -> Decimal | None:
    """`"72.4"`, `"72.4kg"`, `"145斤"` -> kilograms, quantized to 0.01.

    Returns None when `text` is not a weight (or has no unit but `unit_required`);
    raises ParseError when it is one but outside 20-300 kg.
    """
    match = _WEIGHT.fullmatch(text)
    if match is None or (unit_required and match["unit"] is None):
        return None
    kg = Decimal(match["number"])
    if match["unit"] == "斤":
        kg = kg / 2
    if not MIN_KG <= kg <= MAX_KG:
        raise ParseError(texts.WEIGHT_OUT_OF_RANGE)
    return kg.quantize(_CENT, rounding=ROUND_HALF_UP)


def match_amount(text: str) -> tuple[Decimal, str] | None:
    """An amount at the start of `text` (`35` `¥35` `35.5块` `1,200元`) and the rest.

    Returns None when `text` does not start with an amount; raises ParseError when
    the amount is not positive, has more than two decimals, or is over ten million.
    """
    match = _AMOUNT.match(text)
    if match is None:
        return None
    amount = Decimal(match["whole"].replace(",", "") + (match["fraction"] or ""))
    return check_amount(amount, negative=match["sign"] == "-"), text[match.end() :]


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
