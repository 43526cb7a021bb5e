"""The smallest environment `load_settings` accepts: the five WeCom variables, made up.

Every settings test starts from `GOOD` and adds or breaks a variable on top of it
(`{**GOOD, name: value}`); it is read-only, so no test can change it for another.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

GOOD: Mapping[str, str] = MappingProxyType(
    {
        "WECOM_CORP_ID": "wwabc123",
        "WECOM_AGENT_ID": "1000002",
        "WECOM_SECRET": "s3cr3t-value-for-tests",
        "WECOM_TOKEN": "TokenValue42",
        "WECOM_AES_KEY": "jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C",
    }
)
