"""Typed application keys: what the composition root puts into the aiohttp app."""

from __future__ import annotations

import datetime as dt

from aiohttp import web
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot.conversation import Conversation
from bot.crypto import WeComCrypto
from bot.settings import Settings
from scheduler.clock import Clock

SETTINGS = web.AppKey("settings", Settings)
CLOCK = web.AppKey("clock", Clock)
CRYPTO = web.AppKey("crypto", WeComCrypto)
ENGINE = web.AppKey("engine", AsyncEngine)
SESSIONMAKER = web.AppKey("sessionmaker", async_sessionmaker[AsyncSession])
CONVERSATION = web.AppKey("conversation", Conversation)
STARTED_AT = web.AppKey("started_at", dt.datetime)
