"""Money typed in free word order: `晚饭 48`, `地铁 4块`, `花了35吃午饭`, `收到工资8000`.

The rules, in the order they are applied:
- Exactly one amount. A number followed by another unit (`3点`, `20分钟`, `8000步`,
  `3个`) is not money; two amounts are one message too many.
- Questions (`午饭35贵吗`), past days (`昨天打车 30`: the ledger records the day it is
  told) and long sentences are never recorded: asked or missed.
- Direction: an income word (工资 奖金 红包 报销 兼职 退款 ... or 收到, 到账) without
  a spending verb is income; a spending verb, a spending category word or a currency
  word is an expense.
- Category: the longest lexicon word inside the note (早餐 -> 餐饮, 地铁 -> 交通).
  The entry is recorded when the direction is certain and the category is known (or
  a verb says money moved: `花了200` is 其他); otherwise it is asked with the guess.
- The note is the rest of the message as typed, minus the spending verb.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal

from handlers.commands import Command, Confirm, RecordLedger
from handlers.parse.lexicon import (
    ABOUT_AFTER,
    ADDRESS_UNITS,
    AMOUNT_LEADS,
    COUNT_ONE,
    EXPENSE_SYNONYMS,
    GIFT_AFTER_OF,
    GIFT_OCCASIONS,
    GIFT_VERBS,
    GIFT_WORDS,
    GIVEN_TO_ME,
    GIVER_SENT_ADVERBS,
    GIVER_SENT_VERBS,
    GIVERS,
    HEDGES,
    INCOME_IN_WORDS,
    INCOME_SYNONYMS,
    INCOME_VERBS,
    LEDGER_WORDS,
    LIMIT_ENDS,
    LOAN_WORDS,
    MEAL_SUFFIX,
    MEASURE_WORDS,
    MEASURING_DEVICES,
    MONEY_ENDINGS,
    MY_PEOPLE,
    NOT_A_NUMBER_AFTER,
    NOT_FROM_GIVER,
    NOT_MONEY_UNITS,
    NOTE_TIME_WORDS,
    ONE_CHAR_MEASURES,
    ORGANIZATIONS,
    OTHER_PEOPLE,
    PAID_AFTER,
    PAID_ALREADY,
    PASSED_ON_WORD,
    PAY_VERBS,
    PRICE_UNITS,
    RECEIVED_VERBS,
    RECORD_LEADS,
    REMARK_WORDS,
    SPEND_OUT_WORDS,
    TWO_WAY_MONEY,
    WEIGHT_CUES,
)
from handlers.parse.numbers import MAX_AMOUNT, amount_matches, find_amount, is_money
from handlers.parse.patterns import (
    ADDED_WORD,
    ARRIVED_LAST,
    ARRIVED_WORDS,
    BUY_WORD,
    CLAUSE_END_PATTERN,
    CONSUMED_VERBS,
    COUNTED_PATTERN,
    COUNTER_GE,
    EARNED_BY_WORK,
    EARNED_WORDS,
    ERRAND_WORD,
    GIFT_CATEGORY,
    GIVING_VERBS,
    INCOME_MARKS,
    JUST_NOW,
    LARGE_CN_UNITS,
    LEDGER_KEYWORD,
    LENT_WORDS,
    ME,
    MEAL_CATEGORY,
    MONEY_PAST_PATTERN,
    MONEY_QUESTION_PATTERN,
    NOT_BEFORE_MONEY,
    NOT_GIVEN_WORDS,
    NOTE_SPLIT_PATTERN,
    NOTE_TAIL_PATTERN,
    OF,
    OTHER_CATEGORY,
    PART_TIME_WORD,
    PAYEE_TRANSFER_PATTERN,
    PER_COUNT_AFTER_PATTERN,
    PER_UNIT_AFTER_PATTERN,
    PER_UNIT_BEFORE_PATTERN,
    PRICE_SAID_PATTERN,
    RED_PACKET_CATEGORY,
    REFUND_CATEGORY,
    SENT_RED_PACKET_PATTERN,
    SHARE_SIGNS,
    SHOPPING_CATEGORY,
    SOLD_WORD,
    SOMEONE_EARNED,
    SOMEONE_GAP_PATTERN,
    SOMEONE_SPENT,
    STRONG_SPEND,
    TRANSFER_WORD,
    WEIGHT_WORD,
    WITH_WORDS,
)
from storage.vocabulary import LedgerDirection

MAX_NOTE = 12  # longer text around a number reads like a diary: ask, don't record
_QUESTION = re.compile(MONEY_QUESTION_PATTERN)
_REMARK = re.compile("|".join(map(re.escape, sorted(REMARK_WORDS, key=len, reverse=True))))
_PAST = re.compile(MONEY_PAST_PATTERN)
_VERBS = "|".join(sorted({*STRONG_SPEND, *INCOME_VERBS}, key=len, reverse=True))
_NOTE_TRIM = re.compile(rf"^(?:{_VERBS})\s*|\s*(?:{_VERBS})$")
_NOTE_TAIL = re.compile(NOTE_TAIL_PATTERN)
"""`房租 四千二 交了` (了 already dropped): a verb left at the end is no part of the note."""
_MONEY_VERBS = (*STRONG_SPEND, *INCOME_VERBS)
_NOTE_SPLIT = re.compile(NOTE_SPLIT_PATTERN)
_CATEGORY_WORDS = sorted(EXPENSE_SYNONYMS, key=len, reverse=True)
_INCOME_WORDS = sorted(INCOME_SYNONYMS, key=len, reverse=True)
_LEDGER_WORDS = "|".join(map(re.escape, LEDGER_WORDS))
_LEDGER_WORD = re.compile(_LEDGER_WORDS)
_LEDGER_WORD_BEFORE = re.compile(f"(?:{_LEDGER_WORDS})$")
_PER_UNIT_AFTER = re.compile(PER_UNIT_AFTER_PATTERN)
_PER_UNIT_BEFORE = re.compile(PER_UNIT_BEFORE_PATTERN)
_PER_COUNT_AFTER = re.compile(PER_COUNT_AFTER_PATTERN)
_PRICE_SAID = re.compile(PRICE_SAID_PATTERN)
_NOTE_TIME = re.compile("|".join(map(re.escape, NOTE_TIME_WORDS)))
_PAY_LEAD = re.compile(f"^[{''.join(PAY_VERBS)}](?=(?:{_LEDGER_WORDS}))")
"""A one-character pay verb before a bill (`交电费`, `充话费`, `付房租`)."""


def read_money(text: str) -> Command | None:
    """A ledger entry (or a question about one) read from `text`; None if not money."""
    if _QUESTION.search(text) or _REMARK.search(_without_devices(text)):
        return None  # a question, or a remark (人均120, 听说涨到4000): no record
    found = [m for m in amount_matches(text) if stands_alone(m)]
    if len(found) != 1:
        return None
    match = found[0]
    if match["sign"] == "-":
        return None  # `-3` is no expense: a correction is 撤销, a refund is income
    value = find_amount(match)
    if value is None:
        return None
    if not is_money(match) and any(word in text for word in (*WEIGHT_CUES, WEIGHT_WORD)):
        return None  # 我妈体重55, 称了一下 138: a number by a weight word is never money
    after = text[match.end() :].split()
    if after and after[0].lower() in NOT_MONEY_UNITS:
        return None  # 72.4 磅, 5 公里: a measure, not money
    note = _note(text[: match.start()] + " " + text[match.end() :])
    about = text.startswith(ABOUT_AFTER, match.end())  # 1200多, 三百来块: about that much
    if text[: match.start()].rstrip().endswith(RECEIVED_VERBS):  # 份子钱…一共收了32600
        story = about or _PAST.search(text) is not None  # 收了三百来块: asked
        return _received(value[0], clean_note(note), story=story)
    hedged = text.replace(JUST_NOW, "")  # 才 hedges (才50), 刚才 only says when
    story = bool(_PAST.search(text)) or any(word in hedged for word in HEDGES)
    story = story or _per_unit(match) or about
    priced = _PRICE_SAID.search(text[: match.start()]) is not None
    story = story or (priced and _find(text, STRONG_SPEND) is None)  # 一桌酒席要两千八
    story = story or _someone_else(text)
    if _GIVER_GAVE.search(text[: match.start()]) is not None:  # 乘客多给了二十: came in, asked
        return Confirm(guess=_ledger(LedgerDirection.INCOME, value[0], OTHER_CATEGORY, note))
    return _entry(value[0], note, money_said=is_money(match), story=story)


def _without_devices(text: str) -> str:
    """`text` without the names of measuring devices (`血压计退了`: 血压 is no remark)."""
    for device in MEASURING_DEVICES:
        text = text.replace(device, " ")
    return text


def _came_in(note: str) -> bool:
    """Whether a word says money came to the user (`妈妈转给我`, `到账`, `乘客多给了`,
    `过节客户发了个红包`); `转给我妈` is the user's money going to their mother (给我
    then one of theirs), `给客户发了个红包` the user's going to a client."""
    if _GIVER_SENT.search(note) is not None or _red_packet_from_someone(note):
        return True
    for word in INCOME_IN_WORDS:
        at = note.find(word)
        while at >= 0:
            end = at + len(word)
            if not (word.endswith(ME) and note.startswith(MY_PEOPLE, end)):
                return True
            at = note.find(word, at + 1)
    return False


def _sent_by(people: tuple[str, ...], then: str = "") -> re.Pattern[str]:
    """One of `people`, not right after 给 (送, 帮, 替), maybe an adverb, a verb of
    sending, then `then`: someone who sent money."""
    return re.compile(
        f"(?<![{NOT_FROM_GIVER}])(?:{'|'.join(map(re.escape, people))})"
        f"(?:{'|'.join(GIVER_SENT_ADVERBS)})?(?:{'|'.join(GIVER_SENT_VERBS)}){then}"
    )


_GIVER_SENT = _sent_by(GIVERS)
"""A giver who sent money (`客户发了个红包`): it came in, unless 给 says it went to them."""
_RED_PACKET_FROM = _sent_by(
    OTHER_PEOPLE,
    f"(?:{'|'.join(COUNT_ONE)})?(?:{'|'.join(map(re.escape, GIFT_WORDS))})(?!\\s*{PASSED_ON_WORD})",
)
"""Someone close who sent a red packet, to no one named (`过生日我妈发了个红包`): mine."""


def _red_packet_from_someone(note: str) -> bool:
    """`_RED_PACKET_FROM`, with no 给 (or 送, 帮, 替) anywhere before the person in
    the clause (`给表妹发了个红包` went to 表妹)."""
    for found in _RED_PACKET_FROM.finditer(note):
        clause = note[: found.start()].rsplit(",", 1)[-1]
        if not any(word in clause for word in NOT_FROM_GIVER):
            return True
    return False


_GIVER_GAVE = re.compile(
    f"(?:{'|'.join(map(re.escape, (*GIVERS, *OTHER_PEOPLE)))})"
    f"(?:{'|'.join(map(re.escape, GIVEN_TO_ME))})\\s*$"
)
"""A giver, then 给了, right before the amount: `乘客多给了二十` came in, asked (`老婆给我
买了个包3000` and `老板给了2000奖金给小李` are not this: something else comes between)."""


def _received(amount: Decimal, note: str, *, story: bool) -> Command:
    """Money the user received, said right after 收了 / 收到 / 到账: income, its kind
    from the note (份子钱 received is a 红包), asked when the note is long or a story."""
    word = _first(note, _INCOME_WORDS)
    category = INCOME_SYNONYMS.get(word or "", OTHER_CATEGORY)
    if category == OTHER_CATEGORY and _find(note, GIFT_WORDS) is not None:
        category = RED_PACKET_CATEGORY  # 份子钱, 礼金 received
    entry = _ledger(LedgerDirection.INCOME, amount, category, note)
    unsure = story or not note or len(note) > MAX_NOTE  # 收到 500: of what?
    return Confirm(guess=entry) if unsure else entry


def _per_unit(match: re.Match[str]) -> bool:
    """`鸡蛋五块八一斤`, `一斤12块`, `30元/个`, `苹果9块9三斤`: a price, not money spent."""
    text = match.string
    return bool(
        _PER_UNIT_AFTER.match(text, match.end())
        or _PER_COUNT_AFTER.match(text, match.end())
        or _PER_UNIT_BEFORE.search(text[: match.start()])
    )


def _someone_else(text: str) -> bool:
    """`同事花了500买了个键盘`, `我妈今天花了200买菜`, `我哥赚了1万`: someone else
    spent or earned it (asked); `给老妈转了两千` is the user's money going to them, and
    `我和老婆花了300` the user's with them."""
    for person in OTHER_PEOPLE:
        at = text.find(person)
        if at < 0 or any(verb in text[max(0, at - 3) : at] for verb in GIVING_VERBS):
            continue
        if at and text[at - 1] in WITH_WORDS:
            continue
        if text.startswith(OF, at + len(person)):
            continue  # 老大的钢琴课学费交了: whose fees, paid by the user
        if _THEIR_MONEY.match(text, at + len(person)):
            return True
    return False


_THEIR_MONEY = re.compile(
    f"{SOMEONE_GAP_PATTERN}(?:{'|'.join(map(re.escape, (*SOMEONE_SPENT, *SOMEONE_EARNED)))})"
)
"""After a person: when or where, then a verb of spending or earning."""


def category_of(note: str) -> tuple[str | None, str]:
    """The longest spending word in `note` and its canonical category (其他 if none);
    what was paid is said before 去 (`打车去医院打疫苗`: 打车, not the errand)."""
    paid, went, _errand = note.partition(ERRAND_WORD)
    if went and (word := _find(paid, _CATEGORY_WORDS)) is not None:
        return word, EXPENSE_SYNONYMS[word]
    word = _find(note, _CATEGORY_WORDS)
    if word is not None and EXPENSE_SYNONYMS[word] == GIFT_CATEGORY and _find(note, ORGANIZATIONS):
        return word, OTHER_CATEGORY  # 份子钱交给公司了: a fee to a company, no gift
    if word is None and MEAL_SUFFIX in note:
        return MEAL_SUFFIX, MEAL_CATEGORY  # 值班餐, 病号餐: a meal of any name
    return word, EXPENSE_SYNONYMS.get(word or "", OTHER_CATEGORY)


def _entry(amount: Decimal, note: str, *, money_said: bool, story: bool) -> Command | None:
    """The entry `note` and `amount` make, recorded only when nothing is a guess."""
    if (given := _given(amount, note)) is not None:
        unsure = story or len(note) > MAX_NOTE
        return Confirm(guess=given) if unsure and not isinstance(given, Confirm) else given
    sent = _SENT_RED_PACKET.search(note) is not None and not _came_in(note)  # 发了个群红包
    income = _first(note, _INCOME_WORDS) or _find(note, INCOME_VERBS)
    verb = _find(note, STRONG_SPEND)
    word, category = category_of(note)
    clean = clean_note(note)
    coming_in = _came_in(note) or _find(note, EARNED_WORDS) is not None  # 外孙女给我发了个红包
    coming_in = coming_in or any(part in INCOME_MARKS for part in note.split())  # …收入300
    if coming_in and not income:
        # 妈妈给我转了 500: money came in, of no named kind; for a holiday, a gift (红包)
        income = RED_PACKET_CATEGORY if _find(note, GIFT_OCCASIONS) else OTHER_CATEGORY
    worked = _find(note, EARNED_BY_WORK) is not None and SOLD_WORD not in note and bool(clean)
    worked = worked and not clean.removeprefix(ME).startswith(OTHER_PEOPLE)  # 我哥赚了1万
    if worked and INCOME_SYNONYMS.get(income or "", OTHER_CATEGORY) == OTHER_CATEGORY:
        income = PART_TIME_WORD  # 帮邻居家孩子补课 赚了两百: earned by work, no kind named
    refund = INCOME_SYNONYMS.get(income or "") == REFUND_CATEGORY and not verb  # 拼多多退了59
    if sent:
        entry = _ledger(LedgerDirection.EXPENSE, amount, GIFT_CATEGORY, clean)
        certain = True
    elif income and (coming_in or refund or (not verb and len(income) >= len(word or ""))):
        entry = _ledger(
            LedgerDirection.INCOME, amount, INCOME_SYNONYMS.get(income, OTHER_CATEGORY), clean
        )
        certain = income in INCOME_SYNONYMS or coming_in or (income in INCOME_VERBS and bool(clean))
        two_way = income in TWO_WAY_MONEY and word is not None and not coming_in
        certain = certain and not two_way  # 婚纱定金 2000: paid or received?
    elif word or verb or money_said:
        bought = verb is not None and verb.startswith(BUY_WORD) and word is None
        entry = _ledger(
            LedgerDirection.EXPENSE, amount, SHOPPING_CATEGORY if bought else category, clean
        )
        certain = word is not None or (verb is not None and not bought and not clean)
    elif note:
        return Confirm(guess=_ledger(LedgerDirection.EXPENSE, amount, OTHER_CATEGORY, clean))
    else:
        return None
    if story or len(clean) > MAX_NOTE or not certain:  # when and how it was paid: not long
        return Confirm(guess=entry)
    return entry


def _given(amount: Decimal, note: str) -> Command | None:
    """Money going out to someone (`给侄子包了个红包 200`, `给老妈转了两千`): an
    expense, 人情 unless a spending word names another category; money coming in
    from someone (`儿子转来的生活费`) is left to the income rule. Recorded when a gift
    word or a transfer says money moved, else asked."""
    if not is_given(note):
        return None  # 送外卖赚了 50: earned, not given
    gift = _find(note, GIFT_WORDS) or _find(note, GIFT_VERBS)  # 送了两瓶酒: a gift
    word = category_of(note)[0]
    entry = _ledger(LedgerDirection.EXPENSE, amount, given_category(note), _item_paid(note))
    return entry if gift or word or TRANSFER_WORD in note else Confirm(guess=entry)


def _item_paid(note: str) -> str:
    """`给房东转了 房租` -> `房租`: the payee's words dropped when an item stands beside
    them (the item says where the money went); `note` as it is otherwise."""
    parts = note.split()
    kept = [part for part in parts if not _PAYEE_TRANSFER.match(part)]
    return " ".join(kept) if kept and len(kept) < len(parts) else note


_PAYEE_TRANSFER = re.compile(PAYEE_TRANSFER_PATTERN)
_SENT_RED_PACKET = re.compile(SENT_RED_PACKET_PATTERN)


def clean_note(note: str) -> str:
    """`note` without the verb that only says money moved: `花了 午饭` is 午饭,
    `交电费` is 电费 (`交通` and a word of the lexicon such as 发红包 stay whole)."""
    if note in EXPENSE_SYNONYMS or note in INCOME_SYNONYMS:
        return note  # 发红包 keeps its verb
    note = _NOTE_TAIL.sub("", _NOTE_TRIM.sub("", note)).strip()
    if (ate := next((v for v in CONSUMED_VERBS if note.startswith(v)), None)) is not None:
        note = note.removeprefix(ate)  # 吃了碗云吞面: after the verb, a measure counts the meal
        if len(note) > 2 and (note[0] in ONE_CHAR_MEASURES or note[0] == COUNTER_GE):
            note = note[1:]
    note = _PAY_LEAD.sub("", note)
    for lead in AMOUNT_LEADS:  # 组会请大家喝奶茶 一共: the word that led the amount
        note = note.removesuffix(lead).rstrip()
    if (timeless := _NOTE_TIME.sub(" ", note).strip()) and timeless != note:
        note = " ".join(timeless.split())  # 房贷这个月: when is the record's day, not its item
    if len(note) > 2 and note[0] in ONE_CHAR_MEASURES and _LEDGER_WORD.match(note, 1):
        note = note[1:]  # 花了28块5买了杯奶茶: 杯 counted the amount's thing
    elif len(note) > 2 and note[0] == COUNTER_GE:
        note = note[1:]  # 买了个电暖器: 个 starts no item
    return note


def given_category(note: str) -> str:
    """The category of money given to someone: 人情, unless a spending word names
    another (`给女儿交学费` is 教育) or it was bought for them with no such word
    (`给女儿买了件羽绒服` is 购物)."""
    gift = _find(note, GIFT_WORDS) or _find(note, GIFT_VERBS)
    word, category = category_of(note)
    if _find(note, LOAN_WORDS) is not None and not gift:
        return category  # 借给表弟两千: a loan, no gift (其他 unless an item is named)
    if _find(note, ORGANIZATIONS) is not None:
        return category  # 份子钱交给公司了: a fee to a company, no gift
    if BUY_WORD in note and not gift and word is None:
        return SHOPPING_CATEGORY
    return GIFT_CATEGORY if gift or word is None or category == OTHER_CATEGORY else category


def is_given(note: str) -> bool:
    """Whether `note` says the user's money went to someone (`给婆婆包了红包`)."""
    if _came_in(note) or _find(note, SPEND_OUT_WORDS) is None:
        return False
    return _find(note, NOT_GIVEN_WORDS) is None


_LEDGER_LEADS = (*RECORD_LEADS, LEDGER_KEYWORD)


def _note(text: str) -> str:
    """The words around the amount, without record leads and punctuation."""
    for lead in _LEDGER_LEADS:
        text = text.replace(lead, " ")
    return " ".join(w for w in _NOTE_SPLIT.split(text) if w)


def guess_expense(value: Decimal) -> RecordLedger | None:
    """The expense a lone number would be, if it can be one (positive, cents, capped)."""
    if value <= 0 or value > MAX_AMOUNT or value != value.quantize(Decimal("0.01")):
        return None
    return _ledger(LedgerDirection.EXPENSE, value.quantize(Decimal("0.01")), OTHER_CATEGORY, "")


def _ledger(direction: LedgerDirection, amount: Decimal, category: str, note: str) -> RecordLedger:
    return RecordLedger(direction=direction, amount=amount, category=category, note=note.strip())


def _first(text: str, table: Iterable[str]) -> str | None:
    """The word of `table` that starts earliest in `text` (the longest at a tie):
    `兼职工资` is 兼职, the more specific word said first."""
    found = [(text.find(word), -len(word), word) for word in table if word in text]
    return min(found)[2] if found else None


def _find(text: str, table: Iterable[str]) -> str | None:
    """The first (longest, as tables are sorted) word of `table` inside `text`."""
    for word in table:
        if word in text:
            return word
    return None


def _large_cn(match: re.Match[str]) -> bool:
    """`三百六`, `一千一百五`: a Chinese numeral with 百, 千 or 万 is a number even
    glued to the word before it (a name ends in 三, not in 三百)."""
    return bool(match["cn"]) and any(unit in match["cn"] for unit in LARGE_CN_UNITS)


def _money_before(said_before: str) -> bool:
    """Whether a ledger word or a verb that moves money was said before the number."""
    if _LEDGER_WORD.search(said_before) is not None:
        return True
    said = (*_MONEY_VERBS, *GIFT_VERBS, *INCOME_IN_WORDS, *GIVEN_TO_ME)
    return any(verb in said_before for verb in said)


_COUNTED = re.compile(COUNTED_PATTERN.format(units="|".join(PRICE_UNITS)))


_PAID_LAST = re.compile(f"(?:{'|'.join(PAID_AFTER)}){CLAUSE_END_PATTERN}")
"""A paying verb right after the amount and ending its clause (`一千八交了`; not
`2028交房`, `100付款`)."""


def _after_count(said_before: str) -> bool:
    return _COUNTED.search(said_before) is not None


def stands_alone(match: re.Match[str]) -> bool:
    """A number is money only when nothing but a currency word, a separator, the end
    or a category word follows it (`48`, `4块`, `28宵夜`; not `3点`, `8000步`)."""
    text, end, start = match.string, match.end(), match.start()
    while start < end and text[start].isspace():
        start += 1
    before = text[start - 1] if start else " "
    if before in NOT_BEFORE_MONEY or (before.isascii() and before.isalnum()):
        return False
    if before == ":" and text[: start - 1].rstrip()[-1:].isdigit():
        return False  # 9:00: minutes, not money (晚饭:48 is)
    if match["cn"] and text.startswith(NOT_A_NUMBER_AFTER, match.end("cn")):
        return False  # 一半, 一些, 一下, 一起: words, not amounts
    glued = match["cn"] and before.isalnum() and not match["cur"]
    glued = glued and not (_large_cn(match) and _money_before(text[:start]))
    counted = _after_count(text[:start]) and _money_before(text[:start])
    glued = glued and not counted  # 电影票两张九十: an item, its count and measure, the price
    said_before = text[:start].rstrip()
    after_verb = said_before.endswith((*_MONEY_VERBS, *GIFT_VERBS, *GIVEN_TO_ME, *LENT_WORDS))
    after_verb = after_verb or any(word in said_before for word in SPEND_OUT_WORDS if len(word) > 1)
    after_verb = after_verb or said_before.endswith((*MONEY_ENDINGS, *AMOUNT_LEADS))  # 的钱一千五
    if glued and not after_verb and _LEDGER_WORD_BEFORE.search(text[:start]) is None:
        return False  # 张三 200 is a name; 午饭三十五 is an amount (after a ledger word)
    if text.startswith(SHARE_SIGNS, end):
        return False  # 还剩20%: a share, not money
    if text.startswith(ABOUT_AFTER, match.end("cn") if match["cn"] else end):
        return True  # 两千多, 30左右: about that much (asked by the caller)
    if is_money(match):
        return True
    while end > match.start() and text[end - 1].isspace():
        end -= 1
    if text[end : end + 1] in ("/", "-", ":") and text[end + 1 : end + 2].isdigit():
        return False  # 12/5, 12-5, 9:30: a date or a time
    if end == len(text) or not text[end].isalnum():
        return True
    if text.startswith(ADDRESS_UNITS, end):
        return False  # 8楼12床: where, not money
    if not text.startswith(MEASURE_WORDS, end) and text[:start].rstrip().endswith(_MONEY_VERBS):
        return True  # 花了200买鞋: the verb says it is money
    if text.startswith((*ARRIVED_WORDS, *LIMIT_ENDS), end) or text[end:].strip() == ARRIVED_LAST:
        return True  # 退款129到账, 工资8000到(了), 控制在五百以内
    if _PAID_LAST.match(text, end) is not None or text.startswith(PAID_ALREADY, end):
        return True  # 保育费1800交了, 两千转过去了: the verb after, ending the clause
    paid = any(verb in text[:start] for verb in (*_MONEY_VERBS, *GIFT_VERBS, ADDED_WORD))
    if text.startswith(GIFT_AFTER_OF, end) and any(verb in text[:start] for verb in GIFT_VERBS):
        return True  # 给王姐随了300的礼
    if paid and text.startswith(OF, end) and _LEDGER_WORD.match(text, end + 1) is not None:
        return True  # 包了个五百的红包 (but 单元302的快递 is an address)
    return _LEDGER_WORD.match(text, end) is not None
