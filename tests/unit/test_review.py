"""The weekly review's maths and words (scheduler.core.review, scheduler.core.texts.review_text)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scheduler.core import review as rv
from scheduler.core.texts import review_text as words

SUNDAY = dt.date(2026, 11, 29)
D = Decimal


def day(back: int) -> dt.date:
    """The day `back` days before the review's Sunday."""
    return SUNDAY - dt.timedelta(days=back)


def weights(*pairs: tuple[int, str]) -> dict[dt.date, Decimal]:
    return {day(back): D(value) for back, value in pairs}


# --- moving averages --------------------------------------------------------------


@pytest.mark.parametrize(
    ("recorded", "expected"),
    [
        ([], None),
        ([(0, "72.0")], D("72.00")),
        ([(0, "72.0"), (6, "71.0")], D("71.50")),  # both inside the 7 days
        ([(0, "72.0"), (7, "60.0")], D("72.00")),  # the 8th day back is outside
        ([(3, "70.0"), (4, "71.0"), (5, "72.0")], D("71.00")),  # missing days skipped
        ([(1, "70.1"), (2, "70.2"), (2, "70.2")], D("70.15")),
        ([(8, "70.0")], None),
    ],
)
def test_the_moving_average_takes_the_recorded_days_of_the_seven(
    recorded: list[tuple[int, str]], expected: Decimal | None
) -> None:
    assert rv.moving_average(weights(*recorded), SUNDAY) == expected


def test_a_days_weight_is_its_last_weighing() -> None:
    daily = rv.daily_weights([(SUNDAY, D("73")), (SUNDAY, D("72"))])
    assert daily == {SUNDAY: D("72")}


@pytest.mark.parametrize(
    ("recorded", "change"),
    [
        ([(0, "71.0"), (7, "72.0")], D("-1.00")),
        ([(0, "71.0"), (2, "71.4"), (9, "72.0"), (12, "72.2")], D("-0.90")),
        ([(0, "71.0")], None),  # nothing the week before: no change claimed
        ([(7, "71.0")], None),  # nothing this week: no findings at all
    ],
)
def test_the_weeks_change_compares_moving_averages_not_first_and_last(
    recorded: list[tuple[int, str]], change: Decimal | None
) -> None:
    findings = rv.weight_findings(weights(*recorded), SUNDAY, None)
    if change is None and not any(back < 7 for back, _ in recorded):
        assert findings is None
    else:
        assert findings is not None
        assert findings.change == change


# --- trend and projection ---------------------------------------------------------


def steady(per_week: str, start: str = "75.0", every: int = 2) -> dict[dt.date, Decimal]:
    """A weighing every `every` days over 28 days, moving `per_week` kg a week."""
    slope = D(per_week) / 7
    return {day(back): D(start) - slope * back for back in range(27, -1, -every)}


@pytest.mark.parametrize(
    ("daily", "trend"),
    [
        (steady("-0.5"), "down"),
        (steady("0.5"), "up"),
        (steady("0.1"), "flat"),
        (steady("-0.19"), "flat"),
        (weights((0, "72"), (3, "72.5"), (6, "73")), None),  # too few days
        (weights((0, "72"), (3, "72"), (6, "72"), (9, "72"), (12, "72")), None),  # span 12 < 14
        (weights((0, "72"), (5, "72"), (10, "72"), (15, "72")), "flat"),
    ],
)
def test_the_four_week_trend_needs_enough_days_and_calls_small_slopes_flat(
    daily: dict[dt.date, Decimal], trend: str | None
) -> None:
    findings = rv.weight_findings(daily, SUNDAY, None)
    assert findings is not None
    assert findings.trend == trend


def test_a_projection_is_given_when_the_fit_holds_and_heads_to_the_goal() -> None:
    findings = rv.weight_findings(steady("-0.5", start="75.0"), SUNDAY, D("70"))
    assert findings is not None
    assert findings.projected == SUNDAY + dt.timedelta(days=70)  # 5 kg at 0.5 kg a week
    assert findings.to_goal is not None
    assert findings.to_goal < 0
    assert not findings.against_goal


@pytest.mark.parametrize(
    ("daily", "goal", "why"),
    [
        (steady("0.5", start="75.0"), "70", "heading away"),
        (steady("-0.5", start="75.0"), "80", "heading away, goal above"),
        (steady("-0.05", start="75.0"), "60", "so slow it is past a year"),
        (
            {day(back): D("75") + (D("2") if back % 4 else D("-2")) for back in range(27, -1, -1)},
            "70",
            "a noisy fit that explains little",
        ),
        (weights((0, "75"), (3, "74")), "70", "too few days for a fit"),
    ],
)
def test_no_projection_when_the_fit_does_not_hold(
    daily: dict[dt.date, Decimal], goal: str, why: str
) -> None:
    findings = rv.weight_findings(daily, SUNDAY, D(goal))
    assert findings is not None
    assert findings.projected is None, why


def test_a_trend_away_from_the_goal_suggests_a_task_for_next_monday() -> None:
    result = rv.review(
        rv.WeekFacts(week_end=SUNDAY, weights=sorted(steady("0.5").items()), goal_weight=D("70"))
    )
    assert result.weight is not None
    assert result.weight.against_goal
    assert result.suggestion == rv.SuggestTask(title="安排 3 次运动", due=dt.date(2026, 11, 30))


# --- spending ---------------------------------------------------------------------


def spent(back: int, category: str, amount: str) -> rv.Expense:
    return rv.Expense(day=day(back), category=category, amount=D(amount))


@pytest.mark.parametrize(
    ("expenses", "rose", "high", "percent"),
    [
        # 外卖 usually 100 a week (400 over 4 weeks), 250 this week: +150, +150%
        (
            [spent(1, "外卖", "250"), *(spent(7 * k, "外卖", "100") for k in (1, 2, 3, 4))],
            "外卖",
            True,
            150,
        ),
        # only 2 of the 4 weeks had it: usual is 50, not 100
        (
            [spent(0, "外卖", "110"), spent(8, "外卖", "100"), spent(15, "外卖", "100")],
            "外卖",
            True,
            120,
        ),
        # above its usual but by less than 50: not "well above"
        (
            [spent(0, "外卖", "60"), *(spent(7 * k, "外卖", "40") for k in (1, 2, 3, 4))],
            "外卖",
            False,
            50,
        ),
        # 1.5x and 50 more, both at their edge: well above
        (
            [spent(0, "外卖", "150"), *(spent(7 * k, "外卖", "100") for k in (1, 2, 3, 4))],
            "外卖",
            True,
            50,
        ),
        # a new category has no usual and no relative rise
        ([spent(0, "宠物", "80")], "宠物", True, None),
        ([spent(0, "宠物", "30")], "宠物", False, None),
        # the largest absolute rise wins over the largest relative one
        (
            [
                spent(0, "咖啡", "40"),
                spent(8, "咖啡", "4"),
                spent(0, "外卖", "300"),
                *(spent(7 * k, "外卖", "100") for k in (1, 2, 3, 4)),
            ],
            "外卖",
            True,
            200,
        ),
        # a monthly rent paid this week is not a rise: one of the 4 weeks had as much
        ([spent(0, "房租", "3000"), spent(30, "房租", "3000")], None, False, None),
        # a category that fell is never "rose most"
        ([spent(0, "外卖", "10"), spent(8, "外卖", "400")], None, False, None),
        # the fifth week back is outside the usual
        ([spent(0, "外卖", "100"), spent(35, "外卖", "1000")], "外卖", True, None),
    ],
)
def test_the_category_that_rose_most_is_measured_against_its_usual(
    expenses: list[rv.Expense], rose: str | None, high: bool, percent: int | None
) -> None:
    findings = rv.spending_findings(expenses, SUNDAY)
    assert findings is not None
    if rose is None:
        assert findings.rose_most is None
        return
    assert findings.rose_most is not None
    assert (findings.rose_most.category, findings.rose_most.high) == (rose, high)
    assert findings.rose_most.percent == percent


def test_no_spending_this_week_means_no_spending_findings() -> None:
    assert rv.spending_findings([spent(8, "外卖", "100")], SUNDAY) is None
    assert rv.spending_findings([spent(-1, "外卖", "100")], SUNDAY) is None  # after the week


def test_a_category_well_above_its_usual_suggests_a_budget_at_its_usual_level() -> None:
    expenses = [spent(0, "外卖", "300"), *(spent(7 * k, "外卖", "100") for k in (1, 2, 3, 4))]
    result = rv.review(rv.WeekFacts(week_end=SUNDAY, expenses=expenses))
    # 100 a week is about 433 a month, rounded up to the next 50
    assert result.suggestion == rv.SuggestBudget(category="外卖", amount=D("450"))
    budgeted = rv.review(
        rv.WeekFacts(week_end=SUNDAY, expenses=expenses, budgets={"外卖": D("600")})
    )
    # it has a budget already: a task to look at it instead (issue 22: a step always)
    assert budgeted.suggestion == rv.SuggestTask(
        title="看看外卖支出和本月预算", due=dt.date(2026, 11, 30)
    )


MONDAY_AFTER = dt.date(2026, 11, 30)
OTHER_WEEKS = [spent(7 * k, "餐饮", "40") for k in (1, 2, 3, 4)]


@pytest.mark.parametrize(
    ("expenses", "budgets", "suggestion"),
    [
        # four weeks without 购物, then 600: a budget at this week's amount
        (
            [*OTHER_WEEKS, spent(0, "餐饮", "40"), spent(0, "购物", "600")],
            {},
            rv.SuggestBudget(category="购物", amount=D("600")),
        ),
        # this week's amount rounded up to the next 50
        ([spent(0, "购物", "612.5")], {}, rv.SuggestBudget(category="购物", amount=D("650"))),
        # two expenses this week add up: 80, rounded up to 100
        (
            [spent(2, "宠物", "30"), spent(0, "宠物", "50")],
            {},
            rv.SuggestBudget(category="宠物", amount=D("100")),
        ),
        # a first week ever: nothing has a usual, the biggest change still gets a step
        (
            [spent(0, "购物", "600"), spent(1, "餐饮", "90")],
            {},
            rv.SuggestBudget(category="购物", amount=D("600")),
        ),
        # spending five weeks back is no baseline
        (
            [spent(0, "购物", "600"), spent(35, "购物", "2000")],
            {},
            rv.SuggestBudget(category="购物", amount=D("600")),
        ),
        # with a budget for it already: a task to look at it
        (
            [*OTHER_WEEKS, spent(0, "购物", "600")],
            {"购物": D("2000")},
            rv.SuggestTask(title="看看购物支出和本月预算", due=MONDAY_AFTER),
        ),
        # too small to be named (under HIGH_MIN_RISE): the review names nothing, offers nothing
        ([*OTHER_WEEKS, spent(0, "宠物", "30")], {}, None),
    ],
)
def test_a_risen_category_without_a_baseline_gets_a_step(
    expenses: list[rv.Expense], budgets: dict[str, Decimal], suggestion: rv.Suggestion | None
) -> None:
    result = rv.review(rv.WeekFacts(week_end=SUNDAY, expenses=expenses, budgets=budgets))
    assert result.suggestion == suggestion
    text = words.full(result)
    if suggestion is None:
        assert "回「好」" not in text
    else:  # the review that names the change ends with its question
        assert result.spending is not None
        assert result.spending.rose_most is not None
        assert f"{result.spending.rose_most.category} " in text
        assert text.endswith(words.question(suggestion))


# --- budgets ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("budget", "spent_so_far", "state", "percent"),
    [
        ("1500", "0", "ok", 0),
        ("1500", "1199.99", "ok", 80),  # rounds to 80% but is not yet 80%
        ("1500", "1200", "near", 80),
        ("1500", "1499.99", "near", 100),
        ("1500", "1500", "over", 100),
        ("1500", "2000", "over", 133),
        ("0", "0", "over", 100),
    ],
)
def test_budget_edges(budget: str, spent_so_far: str, state: str, percent: int) -> None:
    (progress,) = rv.budget_progress({"餐饮": D(budget)}, {"餐饮": D(spent_so_far)})
    assert (progress.state, progress.percent) == (state, percent)


def test_a_budget_nearly_used_suggests_a_look_with_what_is_left() -> None:
    result = rv.review(
        rv.WeekFacts(
            week_end=SUNDAY,
            expenses=[spent(0, "餐饮", "100")],
            budgets={"餐饮": D("1500")},
            month_spent={"餐饮": D("1380")},
        )
    )
    assert result.suggestion == rv.SuggestTask(
        title="看看餐饮支出和本月预算", due=dt.date(2026, 11, 30)
    )


# --- tasks and the order of suggestions --------------------------------------------


def task(number: int, back: int | None) -> rv.OpenTask:
    return rv.OpenTask(
        id=100 + number, number=number, title=f"事{number}", due=None if back is None else day(back)
    )


def test_tasks_overdue_for_more_than_a_week_come_first() -> None:
    expenses = [spent(0, "外卖", "300"), *(spent(7 * k, "外卖", "100") for k in (1, 2, 3, 4))]
    tasks = [task(1, 8), task(2, 7), task(3, 1), task(4, None), task(5, -2)]
    result = rv.review(rv.WeekFacts(week_end=SUNDAY, expenses=expenses, open_tasks=tasks))
    assert result.tasks == rv.TaskFindings(done=0, open=5, overdue=3, long_overdue=(tasks[0],))
    assert result.suggestion == rv.MoveOverdue(task_ids=(101,), to=dt.date(2026, 11, 30))


def test_a_week_with_nothing_recorded_is_empty_and_pushes_nothing() -> None:
    result = rv.review(
        rv.WeekFacts(
            week_end=SUNDAY,
            weights=[(day(8), D("72"))],
            expenses=[spent(8, "外卖", "30")],
            open_tasks=[task(1, 20)],
            events_next_week=2,
        )
    )
    assert result.empty
    assert words.push(result) is None


# --- words ------------------------------------------------------------------------


def month_of_facts() -> rv.WeekFacts:
    daily = steady("-0.5")
    expenses = [spent(0, "外卖", "320"), spent(2, "房租", "3000"), spent(30, "房租", "3000")]
    expenses += [spent(7 * k, "外卖", "120") for k in (1, 2, 3, 4)]
    return rv.WeekFacts(
        week_end=SUNDAY,
        weights=sorted(daily.items()),
        goal_weight=D("70"),
        expenses=expenses,
        budgets={"餐饮": D("1500")},
        month_spent={"餐饮": D("900")},
        tasks_done=5,
        open_tasks=[task(1, 2), task(2, None)],
        events_next_week=3,
        water_goal_days=4,
        water_days=6,
    )


def test_the_push_names_directions_only() -> None:
    text = words.push(rv.review(month_of_facts()))
    assert text == "本周回看好了：体重略降，有一类支出比平时多。回「周报」看详情"
    assert not re.search(r"\d", text)


def test_the_push_calls_a_category_without_a_usual_new_not_more_than_usual() -> None:
    facts = dataclasses.replace(
        month_of_facts(),
        expenses=[spent(0, "羽绒服", "600"), *(spent(7 * k, "外卖", "120") for k in (1, 2, 3, 4))],
    )
    text = words.push(rv.review(facts))
    assert text is not None
    assert "有一类新的支出" in text
    assert "比平时多" not in text


def test_the_full_review_reads_as_a_short_page() -> None:
    text = words.full(rv.review(month_of_facts()))
    assert text.splitlines() == [
        "本周回看（11/23–11/29）",
        "体重：7 天平均 75.2 kg，比上周 -0.5 kg，近 4 周下降，离目标还差 5.2 kg，"
        "照这个速度约 2027/2/7 到。",
        "支出：本周 3320 元。",
        "  外卖 320 元，平时每周约 120 元，多了 200 元（+167%）。",
        "预算：餐饮 本月已用 900 / 1500 元（60%）。",
        "任务：本周完成 5 个，还有 2 个没做，其中 1 个已过期。",
        "下周有 3 个日程。",
        "喝水：4 天达到目标。",
        "外卖每月定个 550 元的预算？回「好」",
    ]


@pytest.mark.parametrize(
    ("suggestion", "text"),
    [
        (rv.SuggestBudget(category="外卖", amount=D("200")), "外卖每月定个 200 元的预算？回「好」"),
        (
            rv.SuggestTask(title="安排 3 次运动", due=dt.date(2026, 11, 30)),
            "下周一（11/30）加个任务「安排 3 次运动」？回「好」",
        ),
        (
            rv.MoveOverdue(task_ids=(1, 2), to=dt.date(2026, 11, 30)),
            "有 2 个任务过期超过一周，都挪到下周一（11/30）？回「好」",
        ),
    ],
)
def test_each_suggestion_is_one_question(suggestion: rv.Suggestion, text: str) -> None:
    assert words.question(suggestion) == text


# --- properties -------------------------------------------------------------------

CATEGORIES = ["餐饮", "外卖", "交通", "房租", "咖啡", "宠物", "书"]
amounts = st.decimals(min_value=D("0.01"), max_value=D("5000"), places=2)
weeks_back = st.integers(min_value=-3, max_value=40)


@st.composite
def facts(draw: st.DrawFn) -> rv.WeekFacts:
    expenses = draw(
        st.lists(
            st.builds(
                rv.Expense,
                day=weeks_back.map(day),
                category=st.sampled_from(CATEGORIES),
                amount=amounts,
            ),
            max_size=30,
        )
    )
    weighings = draw(
        st.lists(
            st.tuples(
                st.integers(min_value=-2, max_value=40).map(day),
                st.decimals(min_value=D("40"), max_value=D("150"), places=1),
            ),
            max_size=30,
        )
    )
    budget_names = draw(st.sets(st.sampled_from(CATEGORIES), max_size=3))
    return rv.WeekFacts(
        week_end=SUNDAY,
        weights=sorted(weighings, key=lambda p: p[0]),
        goal_weight=draw(st.none() | st.decimals(min_value=D("40"), max_value=D("150"), places=1)),
        expenses=expenses,
        budgets={c: draw(amounts) for c in sorted(budget_names)},
        month_spent={c: draw(amounts) for c in sorted(budget_names)},
        tasks_done=draw(st.integers(min_value=0, max_value=20)),
        open_tasks=draw(
            st.lists(st.builds(task, st.integers(1, 99), st.none() | weeks_back), max_size=8)
        ),
        water_goal_days=draw(st.integers(min_value=0, max_value=7)),
        water_days=draw(st.integers(min_value=0, max_value=7)),
    )


@settings(max_examples=150, deadline=None)
@given(facts())
def test_the_review_never_mentions_a_category_or_subject_the_user_did_not_record(
    week: rv.WeekFacts,
) -> None:
    result = rv.review(week)
    text = words.full(result)
    this_week = {
        e.category for e in week.expenses if SUNDAY - dt.timedelta(days=6) <= e.day <= SUNDAY
    }
    named = {c for c in CATEGORIES if c in text}
    assert named <= this_week | set(week.budgets)
    weighed = any(SUNDAY - dt.timedelta(days=6) <= d <= SUNDAY for d, _ in week.weights)
    assert ("体重" in text) == weighed
    assert ("支出：" in text) == bool(this_week)
    if not week.water_days:
        assert "喝水" not in text
    assert "连续" not in text
    assert "断" not in text
    assert len(text.encode()) <= 2048


@settings(max_examples=150, deadline=None)
@given(facts())
def test_the_push_never_carries_a_number_or_a_category(week: rv.WeekFacts) -> None:
    text = words.push(rv.review(week))
    if text is None:
        assert rv.review(week).empty
        return
    assert not re.search(r"\d", text)
    assert not any(c in text for c in CATEGORIES)
    assert len(text) <= 60


@pytest.mark.parametrize(
    ("spent", "told", "expected"),
    [
        ("79", {}, ()),
        ("80", {}, (("餐饮", 80),)),
        ("80", {"餐饮": 80}, ()),  # told this month already
        ("99", {"餐饮": 80}, ()),
        ("100", {"餐饮": 80}, (("餐饮", 100),)),
        ("150", {}, (("餐饮", 100),)),  # straight past both: the higher one, once
        ("150", {"餐饮": 100}, ()),
    ],
)
def test_a_budget_threshold_is_told_once_a_month(
    spent: str, told: dict[str, int], expected: tuple[tuple[str, int], ...]
) -> None:
    progress = rv.budget_progress({"餐饮": Decimal(100)}, {"餐饮": Decimal(spent)})
    assert rv.nudges(progress, told) == expected


def test_a_budget_nudge_names_no_amount_and_no_category() -> None:
    assert words.budget_nudge(()) is None
    both = words.budget_nudge((("餐饮", 80), ("交通", 100)))
    assert both == words.BUDGET_NUDGES[100]
    assert "餐饮" not in both
    assert not any(ch.isdigit() for ch in both)
