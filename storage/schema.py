"""The whole schema: every model module imported, so `metadata` is complete.

Alembic's environment and the schema tests read `metadata` from here.
"""

from __future__ import annotations

from storage import backup_models as backup_models  # registers its tables
from storage import channel_models as channel_models  # registers its tables
from storage import delivery_models as delivery_models  # registers its tables
from storage import models
from storage import mp_models as mp_models  # registers its tables
from storage import retention_models as retention_models  # registers its tables
from storage import review_models as review_models  # registers its tables
from storage import web_models as web_models  # registers its tables

metadata = models.Base.metadata
