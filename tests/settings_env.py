"""The smallest environment `load_settings` accepts: the five WeCom variables, made up;
and `changed`, how a test changes a few settings of a `Settings` it was given.

Every settings test starts from `GOOD` and adds or breaks a variable on top of it
(`{**GOOD, name: value}`); it is read-only, so no test can change it for another.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType

from bot.settings import Settings

GOOD: Mapping[str, str] = MappingProxyType(
    {
        "WECOM_CORP_ID": "wwabc123",
        "WECOM_AGENT_ID": "1000002",
        "WECOM_SECRET": "s3cr3t-value-for-tests",
        "WECOM_TOKEN": "TokenValue42",
        "WECOM_AES_KEY": "jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C",
    }
)


def changed(settings: Settings, **groups: Mapping[str, object]) -> Settings:
    """`settings` with some fields of some of its groups changed, e.g.
    `changed(TEST_SETTINGS, wecom={"api_base": url}, web={"public_url": ""})`.

    A group or field that does not exist raises TypeError, as `dataclasses.replace` does.
    """
    return dataclasses.replace(
        settings,
        **{
            name: dataclasses.replace(getattr(settings, name), **fields)
            for name, fields in groups.items()
        },
    )
