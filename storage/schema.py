"""The whole schema: every model module imported, so `metadata` is complete.

Alembic's environment and the schema tests read `metadata` from here.
"""

from __future__ import annotations

from storage import delivery_models, models, web_models

metadata = models.Base.metadata
MODULES = (models, delivery_models, web_models)
