"""Records: weight, water, money and the journal, as keyword commands.

`体重 72.4`, `喝水 +2`, `记账 35 午饭`, `收入 8000 工资`, `日记 ……`. The same
facts typed without a keyword (`晚饭 48`, `称了下 70.1`, `喝了三杯水`) are read by
`handlers.parse.natural`.
"""

from __future__ import annotations

import re
from decimal import Decimal

from handlers import texts
from handlers.commands import (
    CheckInWater,
    Command,
    Confirm,
    ParseError,
    RecordLedger,
    RecordWeight,
    SetWaterGoal,
    WriteJournal,
)
from handlers.parse import slots as found_slots
from handlers.parse.body import Body
from handlers.parse.lexicon import (
    EXPENSE_CATEGORIES,
    GOAL_WORD,
    INCOME_CATEGORIES,
    INCOME_SYNONYMS,
    MEASURE_WORDS,
    ML_PER_GLASS,
    SPOKEN_FILLERS,
    WATER_CHECK_WORDS,
    WATER_COUNT_LEADS,
    WATER_MISSED,
    WATER_OVERCOUNTED,
)
from handlers.parse.money import category_of, clean_note, given_category, is_given, stands_alone
from handlers.parse.normalise import words
from handlers.parse.numbers import (
    amount_matches,
    check_weight,
    find_amount,
    match_amount,
    parse_weight,
    small_int,
)
from handlers.parse.patterns import (
    EXPENSE_KEYWORDS,
    INCOME_KEYWORDS,
    JOURNAL_LEAD_MARKS,
    JOURNAL_PARTICLE_ENDS,
    JOURNAL_PARTICLES,
    LIKELY_JIN_FROM,
    OTHER_CATEGORY,
    RECORD_WORD_PATTERN,
    WATER_COUNT_PATTERN,
    WEIGHT_LEAD_MARKS,
    WEIGHT_NOW_PATTERN,
    WEIGHT_UNIT_FIRST_PATTERN,
    WEIGHT_UNIT_STARTS,
)
from storage.vocabulary import LedgerDirection

LEDGER_DIRECTIONS: dict[str, LedgerDirection] = {
    **dict.fromkeys(EXPENSE_KEYWORDS, LedgerDirection.EXPENSE),
    **dict.fromkeys(INCOME_KEYWORDS, LedgerDirection.INCOME),
}
_WATER = re.compile(WATER_COUNT_PATTERN)
WATER_RANGE = (-10, 20)
_RECORD_WORD = re.compile(RECORD_WORD_PATTERN)


def parse_weight_body(body: Body) -> Command:
    """`体重 72.4` / `体重72.4kg` / `体重 145斤` / `体重 七十二点四`; a value of 100 or
    more with no unit is asked, guessed as 斤 (`体重一百二`: 60 kg), as in a sentence."""
    said = body.text.lstrip(WEIGHT_LEAD_MARKS)  # 体重。。。71.3
    said = _RECORD_WORD.sub("", said, count=1)  # 体重记 57.9
    kg = parse_weight(said, unit_required=False)
    if kg is None:
        kg = _weight_then_remark(said)  # 体重63.5 比昨天轻了, 体重 那个 嗯 六十九点八
    if kg is None and (now := _WEIGHT_NOW.match(said)) is not None:
        kg = _quiet_weight(now["value"])  # 体重又涨了 现在52
    if kg is None and (first := _UNIT_FIRST.match(said.strip())) is not None:
        kg = _quiet_weight(first["value"] + first["unit0"])  # 体重记一下 kg是57.6
    if kg is None:
        raise ParseError(texts.WEIGHT_FORMAT)
    unit_said = any(unit in said.casefold() for unit in WEIGHT_UNIT_STARTS)
    if kg >= LIKELY_JIN_FROM and not unit_said:  # 体重一百二: 120 斤 more likely than kg
        return Confirm(guess=RecordWeight(kg=check_weight(kg, jin=True)))
    return RecordWeight(kg=kg)


_WEIGHT_NOW = re.compile(WEIGHT_NOW_PATTERN, re.IGNORECASE)
_UNIT_FIRST = re.compile(WEIGHT_UNIT_FIRST_PATTERN, re.IGNORECASE)


def _quiet_weight(said: str) -> Decimal | None:
    """`said` read as a weight, or None where it is none."""
    try:
        return parse_weight(said, unit_required=False)
    except ParseError:
        return None


def _weight_then_remark(said: str) -> Decimal | None:
    """A weight first, then words with no other number (fillers dropped)."""
    words = [w for w in said.replace(",", " ").split() if w not in SPOKEN_FILLERS]
    if not words:
        return None
    rest = " ".join(words[1:])
    if any(ch.isdigit() for ch in rest) or len(rest) > 12:
        return None
    if rest.lower().startswith(WEIGHT_UNIT_STARTS):
        return None  # 体重 40 斤了 is read with its unit; 72.4 磅 is no weight we keep
    return _quiet_weight(words[0])


def parse_water(body: Body) -> Command:
    """`喝水` (one glass) / `喝水 +2` / `喝水 -1` / `喝水 2杯` / `喝水 两杯`."""
    if not body.text or body.text in WATER_CHECK_WORDS:
        return CheckInWater(glasses=1)  # 喝水打卡
    found = found_slots.read(body.text)
    if found.water_ml is not None and GOAL_WORD in body.text:  # 喝水目标 2000ml: eight
        return Confirm(guess=SetWaterGoal(glasses=max(1, round(found.water_ml / ML_PER_GLASS))))
    if (ml := found.water_ml) is not None:  # 喝水 1L: four glasses, asked
        return Confirm(guess=water(max(1, round(ml / ML_PER_GLASS))))
    if found.count and any(word in body.text for word in WATER_OVERCOUNTED):
        return water(-found.count)  # 喝水多记了一杯，减掉
    if found.count and any(word in body.text for word in WATER_MISSED):
        return water(found.count)  # 喝水少记了两杯
    for word in WATER_COUNT_LEADS:  # 喝水打卡 +2, 饮水记录 +2: a lead word, then the count
        rest = body.text.removeprefix(word).strip() if body.text.startswith(word) else ""
        if rest and (counted := _WATER.fullmatch(rest)) is not None:
            return _water_count(counted)
    said = _WATER.match(body.text)
    if said is not None and said.end() < len(body.text):
        rest = body.text[said.end() :].strip()
        if rest and not any(ch.isdigit() for ch in rest) and len(rest) <= 10:
            return _water_count(said)  # 喝水 +2 打卡, 喝水 -1 刚才多点了: a remark after it
    match = _WATER.fullmatch(body.text)
    if match is None:
        raise ParseError(texts.WATER_FORMAT)
    return _water_count(match)


def _water_count(match: re.Match[str]) -> Command:
    count = small_int(match["count"])
    if count is None:
        raise ParseError(texts.WATER_FORMAT)
    return water(-count if match["sign"] == "-" else count)


def water(glasses: int) -> CheckInWater:
    """A check-in of `glasses`, or ParseError outside -10..20 (and for 0)."""
    if glasses == 0 or not WATER_RANGE[0] <= glasses <= WATER_RANGE[1]:
        raise ParseError(texts.WATER_OUT_OF_RANGE)
    return CheckInWater(glasses=glasses)


def parse_ledger(body: Body) -> Command:
    """`记账 35 午饭` / `支出 35.5 交通 打车` / `收入 8000` (category defaults to 其他).

    The category is canonical (`lexicon.EXPENSE_CATEGORIES` / `INCOME_CATEGORIES`): a
    category named first is kept (`交通 打车`), else it is inferred from the words
    (`午饭` -> 餐饮, `奖金 年终` -> 奖金) and the words are the note. Also forgives the
    amount coming second: `记账 午饭 35`.
    """
    direction = LEDGER_DIRECTIONS[body.keyword]
    found = match_amount(body.text)
    if found is not None and found[1].startswith(MEASURE_WORDS):
        # 花了2个小时: a count of something else, not an amount
        raise ParseError(
            texts.ledger_needs_amount(body.keyword, income=direction == LedgerDirection.INCOME)
        )
    if found is not None:
        amount, rest = found
        labels = words(rest)
    else:
        amount, labels = _amount_inside(body, direction)
    category, note = canonical_category(direction, labels)
    return RecordLedger(direction=direction, amount=amount, category=category, note=note)


def _amount_inside(body: Body, direction: LedgerDirection) -> tuple[Decimal, list[str]]:
    """`记账 午饭 35` / `记账 晚饭48元`: the one amount after the words, and the words."""
    labels = words(body.text)
    found = match_amount(" ".join(labels[1:])) if len(labels) >= 2 else None
    if found is not None and (not found[1] or found[1][0].isspace()):
        return found[0], [labels[0], *words(found[1])]  # `物业费 356.8 元`: 元 goes too
    inside = [m for m in amount_matches(body.text) if stands_alone(m)]
    if len(inside) == 1 and (value := find_amount(inside[0])) is not None:
        match = inside[0]
        return value[0], words(f"{body.text[: match.start()]} {body.text[match.end() :]}")
    raise ParseError(
        texts.ledger_needs_amount(body.keyword, income=direction == LedgerDirection.INCOME)
    )


def canonical_category(direction: LedgerDirection, labels: list[str]) -> tuple[str, str]:
    """The category and note of a keyword entry's words (see `parse_ledger`)."""
    names = EXPENSE_CATEGORIES if direction == LedgerDirection.EXPENSE else INCOME_CATEGORIES
    if labels and labels[0] in names:
        return labels[0], " ".join(labels[1:])
    note = clean_note(" ".join(labels))
    if direction == LedgerDirection.INCOME:
        word = next((w for w in labels if w in INCOME_SYNONYMS), None)
        return (INCOME_SYNONYMS[word] if word else OTHER_CATEGORY), note
    return (given_category(note) if is_given(note) else category_of(note)[1]), note


def parse_journal(body: Body) -> Command:
    """`日记 ……`: the text exactly as typed, only outer whitespace (and a `:`) removed."""
    text = body.raw.lstrip(JOURNAL_LEAD_MARKS).strip()
    if text[:1] in JOURNAL_PARTICLES and text[1:2] in JOURNAL_PARTICLE_ENDS:  # 写个日记吧：…
        text = text[1:].lstrip(JOURNAL_LEAD_MARKS).strip()
    if not text:
        raise ParseError(texts.JOURNAL_NEEDS_TEXT)
    return WriteJournal(text=text)
