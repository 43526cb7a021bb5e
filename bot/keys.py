"""Typed application keys: what the composition root puts into the aiohttp app."""

from __future__ import annotations

import asyncio
import datetime as dt

from aiohttp import web
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.conversation import Conversation
from bot.crypto import WeComCrypto
from bot.settings import Settings
from scheduler.clock import Clock
from storage.database import Database

SETTINGS = web.AppKey("settings", Settings)
CLOCK = web.AppKey("clock", Clock)
CRYPTO = web.AppKey("crypto", WeComCrypto)
ENGINE = web.AppKey("engine", AsyncEngine)
DATABASE = web.AppKey("database", Database)
CONVERSATION = web.AppKey("conversation", Conversation)
STARTED_AT = web.AppKey("started_at", dt.datetime)
REPLY_DEADLINE_S = web.AppKey("reply_deadline_s", float)
METRICS_PORT = web.AppKey("metrics_port", int)
"""The port `/metrics` is served on (0: metrics are off)."""
BACKGROUND = web.AppKey("background", set[asyncio.Task[tuple[str, str]]])
"""Handling tasks that passed their deadline, cancelled and finishing their cleanup."""
