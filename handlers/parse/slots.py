"""The typed slots of a message, wherever they stand (issue 19).

`read` pulls out of a normalised, tidied message: the amounts that can be money, a
weight with its unit (斤 still in 斤: the family converts), a count of glasses, the
`x3` / `+2` of a water check-in, a list number (`提醒4`, `第3个`), and whether a day
or time was said (and the day). A slot is a value and nothing more: which intent it
serves is decided in `intents`.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

from handlers.commands import ParseError
from handlers.parse.lazy import lazy
from handlers.parse.lexicon import (
    NOT_A_NUMBER_AFTER,
    SPAN_UNITS,
    TRADE_VERBS,
    WEIGHT_CHANGE_WORDS,
    WEIGHT_UNITS,
)
from handlers.parse.numbers import (
    SPOKEN_DECIMAL,
    amount_matches,
    find_amount,
    is_money,
    number_value,
    small_int,
)
from handlers.parse.patterns import (
    AFTER_MY_WEIGHT,
    AMOUNT_NOT_AFTER,
    AMOUNT_NOT_BEFORE,
    CJK_FIRST,
    CJK_LAST,
    CN_POINT,
    CUP_COUNT_PATTERN,
    DAY_WORDS_PATTERN,
    LIST_NUMBER_PATTERN,
    LITRE_UNITS,
    OF,
    SLOT_WEIGHT_PATTERN,
    TIME_WORDS_PATTERN,
    UNIT_FIRST_PATTERN,
    VOLUME_PATTERN,
    WATER_TIMES_PATTERN,
)
from handlers.parse.when import match_day

_WEIGHT = re.compile(
    SLOT_WEIGHT_PATTERN,
    re.IGNORECASE,
)
_UNIT_FIRST = re.compile(UNIT_FIRST_PATTERN, re.IGNORECASE)
_COUNT = re.compile(CUP_COUNT_PATTERN)
_WATER_TIMES = re.compile(
    WATER_TIMES_PATTERN,
    re.IGNORECASE,
)
_LIST_NUMBER = re.compile(LIST_NUMBER_PATTERN)
_VOLUME = re.compile(VOLUME_PATTERN, re.IGNORECASE)
DAY_WORDS = re.compile(DAY_WORDS_PATTERN)
_TIME_WORDS = re.compile(TIME_WORDS_PATTERN)


class Slots:
    """The values found (empty / None: none of that kind), each read when a family
    first asks for it."""

    def __init__(self, text: str, today: dt.date | None) -> None:
        self.text = text
        self.today = today

    @lazy
    def _amounts(self) -> tuple[tuple[Decimal, ...], bool]:
        return _amounts(self.text)

    @property
    def amounts(self) -> tuple[Decimal, ...]:
        return self._amounts[0]

    @property
    def amounts_with_currency(self) -> bool:
        return self._amounts[1]

    @lazy
    def _weight(self) -> tuple[Decimal | None, str | None]:
        return _weight(self.text)

    @property
    def weight(self) -> Decimal | None:
        return self._weight[0]

    @property
    def weight_unit(self) -> str | None:
        return self._weight[1]

    @lazy
    def count(self) -> int | None:
        found = _COUNT.search(self.text)
        return small_int(found["n"]) if found else None

    @lazy
    def water_ml(self) -> int | None:
        """`500ml`, `一瓶550毫升`, `1.5升`: a volume of water, in millilitres."""
        found = _VOLUME.search(self.text)
        if found is None:
            return None
        value = number_value(found["n"])
        if value is None:
            return None
        litres = found["unit"].casefold() in LITRE_UNITS
        return int(value * (1000 if litres else 1))

    @lazy
    def water_times(self) -> int | None:
        times = _WATER_TIMES.fullmatch(self.text.strip())
        return small_int(times["k"] or times["n"] or times["m"]) if times else None

    @lazy
    def list_number(self) -> int | None:
        return _list_number(self.text)

    @lazy
    def day(self) -> dt.date | None:
        return _day(self.text, self.today)

    @lazy
    def when_found(self) -> bool:
        return bool(DAY_WORDS.search(self.text) or _TIME_WORDS.search(self.text))


def read(text: str, today: dt.date | None = None) -> Slots:
    """The slots of `text` (normalised and tidied), each read when first asked for."""
    return Slots(text, today)


def _amounts(text: str) -> tuple[tuple[Decimal, ...], bool]:
    """The money-shaped numbers not followed by a weight or count unit."""
    found: list[Decimal] = []
    currency = False
    for match in amount_matches(text):
        after = text[match.end() :].lstrip().lower()
        if after.startswith((*WEIGHT_UNITS, *AMOUNT_NOT_BEFORE)):
            continue
        before = text[: match.start()].rstrip()
        if before.endswith(AMOUNT_NOT_AFTER):
            continue
        try:
            value = find_amount(match)
        except ParseError:
            continue
        if value is not None:
            found.append(value[0])
            currency = currency or is_money(match)
    return tuple(found), currency


def _weight(text: str) -> tuple[Decimal | None, str | None]:
    """The one number that can be a weight, and its unit (None when unsaid); none
    when several numbers stand in the message."""
    if (before := _UNIT_FIRST.search(text)) is not None:
        return number_value(before["n"]), before["unit"].lower()  # kg 68.6 早上称的
    found = [m for m in _WEIGHT.finditer(text) if m["n"] and not _a_word(m) and not _goods(m)]
    found = [m for m in found if not _describes(m)]
    found = [m for m in found if not _a_change(m)] or found  # 轻了0.3公斤，现在是65.2公斤
    with_unit = [m for m in found if m["unit"]]
    chosen = with_unit if with_unit else found
    if len(chosen) != 1:
        return None, None
    match = chosen[0]
    if match["unit"] is None and not any(ch.isdigit() for ch in match["n"]) and len(match["n"]) < 2:
        return None, None  # 一, 两: a word, not a weight
    spoken = re.fullmatch(SPOKEN_DECIMAL, match["n"])
    said = match["n"].replace(CN_POINT, ".") if spoken else match["n"]
    value = number_value(said)
    if value is not None and match["half"]:
        value += Decimal("0.5")  # 131斤半
    unit = match["unit"].lower() if match["unit"] else None
    return value, unit


def _a_change(match: re.Match[str]) -> bool:
    """`比昨天轻了0.3公斤`: by how much it changed, not what it is."""
    return match.string[: match.start()].rstrip().endswith(WEIGHT_CHANGE_WORDS)


def _describes(match: re.Match[str]) -> bool:
    """`来了个90斤的小姑娘`, `5kg的哑铃`: a weight with its unit, then 的 and a word, tells
    what someone or something weighs, never mine now."""
    if not match["unit"]:
        return False
    after = match.string[match.end() : match.end() + 2]
    return len(after) == 2 and after[0] == OF and CJK_FIRST <= after[1] <= CJK_LAST


def _goods(match: re.Match[str]) -> bool:
    """`卖了三百斤白菜`: a weight unit followed by what was weighed is goods, not me."""
    if not match["unit"]:
        return False
    after = match.string[match.end() : match.end() + 1]
    traded = any(verb in match.string[: match.start()] for verb in TRADE_VERBS)
    return traded and CJK_FIRST <= after <= CJK_LAST and after not in AFTER_MY_WEIGHT


def _a_word(match: re.Match[str]) -> bool:
    """`一下`, `三个月`: a Chinese numeral that is part of a word or counts something
    else, never a weight."""
    if match["unit"] or any(ch.isdigit() for ch in match["n"]):
        return False
    after = match.string[match.end("n") :]
    return after.startswith((*NOT_A_NUMBER_AFTER, *SPAN_UNITS))


def _list_number(text: str) -> int | None:
    match = _LIST_NUMBER.search(text)
    if match is None:
        return None
    return small_int(match["a"] or match["b"] or match["c"])


def _day(text: str, today: dt.date | None) -> dt.date | None:
    if today is None:
        return None
    found = DAY_WORDS.search(text)
    if found is None:
        return None
    try:
        day = match_day(text, today, found.start())
    except ParseError:
        return None
    return day[0] if day else None
