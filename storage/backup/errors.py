"""The one exception family of backups: its text is safe to show as is.

No message carries the backup key, a database password or a record's contents.
"""

from __future__ import annotations


class BackupError(Exception):
    """A backup, restore or verify that cannot go on; the message says why."""

    written: bool | None = None
    """Set by restore: False when it stopped before its first write to the target."""
