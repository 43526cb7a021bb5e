"""Properties of the parser (issue 9): total on any text, and for generated well-formed
phrasings (number forms x units x word orders x particles) the value read is the value
written."""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from handlers import commands
from handlers.commands import CheckInWater, Confirm, ParseError, RecordLedger, RecordWeight
from handlers.parse import parse
from handlers.parse.lexicon import EXPENSE_SYNONYMS

TODAY = dt.date(2026, 12, 1)
NOW = dt.datetime(2026, 12, 1, 9, 30)  # noqa: DTZ001 -- the user's naive wall clock
SETTINGS = settings(max_examples=300, deadline=None)
COMMAND_TYPES = tuple(commands.Command.__args__)  # type: ignore[attr-defined]
DIGITS = "零一二三四五六七八九"


def chinese(number: int) -> str:
    """1..99999 in Chinese numerals, as people write them (十二, 一百零五, 两千)."""
    parts, zero = [], False
    for value, unit in ((10_000, "万"), (1000, "千"), (100, "百"), (10, "十"), (1, "")):
        digit = number // value % 10
        if digit == 0:
            zero = bool(parts)
            continue
        if zero:
            parts.append("零")
            zero = False
        word = "两" if digit == 2 and unit in ("千", "万") else DIGITS[digit]
        parts.append(("" if digit == 1 and unit == "十" and not parts else word) + unit)
    return "".join(parts)


def read(text: str) -> object:
    try:
        return parse(text, today=TODAY, now_local=NOW)
    except ParseError as error:
        return error


@SETTINGS
@given(text=st.text(max_size=60))
def test_any_text_is_a_command_a_question_or_a_parse_error(text: str) -> None:
    result = read(text)
    if isinstance(result, ParseError):
        assert result.message.strip()
        return
    assert isinstance(result, COMMAND_TYPES)
    if isinstance(result, Confirm):
        assert dataclasses.is_dataclass(result.guess)
        assert not isinstance(result.guess, Confirm)


PARTICLES = ["", "了", "啦", "~", "！", " 😀", "哈", "。"]
CATEGORY_WORDS = sorted(
    w for w, c in EXPENSE_SYNONYMS.items() if len(w) >= 2 and w not in ("红包", "东西")
)


@st.composite
def weights(draw: st.DrawFn) -> tuple[str, Decimal]:
    tenths = draw(st.integers(min_value=300, max_value=1990))
    value = Decimal(tenths) / 10
    said = draw(st.sampled_from(["ascii", "chinese"]))
    whole, fraction = divmod(tenths, 10)
    number = str(value) if said == "ascii" else f"{chinese(whole)}点{DIGITS[fraction]}"
    unit = draw(st.sampled_from(["kg", "公斤", "千克", "kgs", "斤", ""]))
    space = draw(st.sampled_from(["", " "]))
    lead = draw(st.sampled_from(["体重", "称了", "称了下", "空腹", "体重是", ""]))
    if (unit == "" and (lead == "" or value >= 100)) or (unit == "斤" and value < 40):
        unit = "kg"  # a bare number is asked, 100+ without a unit may be 斤, 20 kg is the floor
    text = f"{lead}{space}{number}{space}{unit}{draw(st.sampled_from(PARTICLES))}"
    kg = value / 2 if unit == "斤" else value
    return text, kg.quantize(Decimal("0.01"))


@SETTINGS
@given(case=weights())
def test_a_generated_weight_reads_as_its_value(case: tuple[str, Decimal]) -> None:
    text, kg = case
    assert read(text) == RecordWeight(kg=kg), text


@st.composite
def expenses(draw: st.DrawFn) -> tuple[str, Decimal, str, str]:
    yuan = draw(st.integers(min_value=1, max_value=99_999))
    form = draw(st.sampled_from(["plain", "块", "元", "块钱", "¥", "chinese", "chinese块"]))
    amount = {
        "plain": str(yuan),
        "块": f"{yuan}块",
        "元": f"{yuan}元",
        "块钱": f"{yuan}块钱",
        "¥": f"¥{yuan}",
        "chinese": chinese(yuan),
        "chinese块": f"{chinese(yuan)}块",
    }[form]
    word = draw(st.sampled_from(CATEGORY_WORDS))
    glued = ["wordamount"] if not word.isascii() else []  # KTV1 may name room 1: spaced only
    order = draw(st.sampled_from(["word amount", "amount word", *glued]))
    if order == "word amount":
        text = f"{word} {amount}"
    elif order == "amount word":
        text = f"{amount} {word}"
    else:
        text = f"{word}{amount}"
    return text + draw(st.sampled_from(PARTICLES)), Decimal(yuan), EXPENSE_SYNONYMS[word], word


@SETTINGS
@given(case=expenses())
def test_a_generated_expense_reads_as_its_amount_and_category(
    case: tuple[str, Decimal, str, str],
) -> None:
    text, amount, category, word = case
    expected = RecordLedger(direction="expense", amount=amount, category=category, note=word)
    assert read(text) == expected, text


@SETTINGS
@given(
    glasses=st.integers(min_value=1, max_value=20),
    chinese_said=st.booleans(),
    lead=st.sampled_from(["喝了", "又喝了", "刚喝了", "喝完了"]),
    particle=st.sampled_from(PARTICLES),
)
def test_a_generated_water_check_in_reads_as_its_glasses(
    glasses: int, chinese_said: bool, lead: str, particle: str
) -> None:
    count = chinese(glasses) if chinese_said else str(glasses)
    assert read(f"{lead}{count}杯水{particle}") == CheckInWater(glasses=glasses)


def test_chinese_numerals_of_the_generator_are_those_people_write() -> None:
    assert [chinese(n) for n in (2, 10, 12, 20, 105, 2000, 2500, 10_005)] == [
        "二", "十", "十二", "二十", "一百零五", "两千", "两千五百", "一万零五",
    ]  # fmt: skip
