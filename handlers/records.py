"""Handlers for facts: weight, water, money, journal."""

from __future__ import annotations

import datetime as dt

from handlers import texts, water
from handlers.commands import CheckInWater, RecordLedger, RecordWeight, WriteJournal
from handlers.context import Context, Outcome
from handlers.router import Router
from storage.database import Session
from storage.records import Effect
from storage.repos import reads, records
from storage.vocabulary import EffectKind

router = Router("records")


@router.handles(RecordWeight)
async def record_weight(session: Session, ctx: Context, cmd: RecordWeight) -> Outcome:
    previous = await reads.latest_weight(session, ctx.user.id)
    record_id = await records.add_weight(
        session,
        user_id=ctx.user.id,
        kg=cmd.kg,
        occurred_at=ctx.occurred_at,
        source_key=ctx.source_key,
    )
    reply = texts.weight_recorded(cmd.kg, previous.value if previous else None)
    return Outcome(reply=reply, effect=Effect(kind=EffectKind.WEIGHT, record_id=record_id))


@router.handles(CheckInWater)
async def check_in_water(session: Session, ctx: Context, cmd: CheckInWater) -> Outcome:
    record_id = await records.add_water(
        session,
        user_id=ctx.user.id,
        glasses=cmd.glasses,
        occurred_at=ctx.occurred_at,
        source_key=ctx.source_key,
    )
    start = ctx.local_midnight(ctx.today)
    end = ctx.local_midnight(ctx.today + dt.timedelta(days=1))
    today_total = max(0, await reads.water_total(session, ctx.user.id, start, end))
    reply = texts.water_recorded(cmd.glasses, today_total)
    if cmd.glasses > 0 and (next_line := await water.check_in(session, ctx, today_total)):
        reply += "\n" + next_line
    return Outcome(reply=reply, effect=Effect(kind=EffectKind.WATER, record_id=record_id))


@router.handles(RecordLedger)
async def record_ledger(session: Session, ctx: Context, cmd: RecordLedger) -> Outcome:
    record_id = await records.add_ledger(
        session,
        user_id=ctx.user.id,
        direction=cmd.direction,
        amount=cmd.amount,
        category=cmd.category,
        note=cmd.note,
        occurred_at=ctx.occurred_at,
        source_key=ctx.source_key,
    )
    reply = texts.ledger_recorded(cmd.direction, cmd.amount, cmd.category, cmd.note)
    return Outcome(reply=reply, effect=Effect(kind=EffectKind.LEDGER, record_id=record_id))


@router.handles(WriteJournal)
async def write_journal(session: Session, ctx: Context, cmd: WriteJournal) -> Outcome:
    record_id = await records.add_journal(
        session,
        user_id=ctx.user.id,
        text=cmd.text,
        occurred_at=ctx.occurred_at,
        source_key=ctx.source_key,
    )
    return Outcome(
        reply=texts.journal_saved(len(cmd.text)),
        effect=Effect(kind=EffectKind.JOURNAL, record_id=record_id),
    )
