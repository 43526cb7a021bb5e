"""Encrypted, verified backups of the whole database, portable between engines.

- `make_backup(url, out, key, now=...)`: one consistent snapshot (SQLite's online
  backup API; on MariaDB one `WITH CONSISTENT SNAPSHOT` transaction) written as
  JSON lines with typed values (`codec`), a manifest of per-table row counts and
  checksums (`archive`), zlib-compressed and sealed with AES-256-GCM under a key
  scrypt derives from the passphrase (`sealed`). The access-token cache's rows are
  left out (`storage.models.CACHE`): a restored keeper fetches new tokens.
- `restore_backup(file, url, key)`: into an empty database only; the whole file is
  authenticated and checked against its manifest before anything is written; the
  schema is built at the backup's revision, then migrated up (`restore`).
- `verify_backup(file, key)`: restores into a scratch SQLite and compares (`verify`).
- `make_and_verify(url, directory, key, now=...)`: both, for the scheduler; returns
  a `BackupOutcome` and never raises for a backup problem.

A SQLite backup restores into MariaDB and back: values are written as keeper's own
column types return them, identically on both engines, so the checksums agree.
"""

from storage.backup.errors import BackupError
from storage.backup.make import make_backup
from storage.backup.restore import RestoreRefused, restore_backup
from storage.backup.sealed import Tampered, WrongKey
from storage.backup.verify import BackupOutcome, Verification, make_and_verify, verify_backup

__all__ = [
    "BackupError",
    "BackupOutcome",
    "RestoreRefused",
    "Tampered",
    "Verification",
    "WrongKey",
    "make_and_verify",
    "make_backup",
    "restore_backup",
    "verify_backup",
]
