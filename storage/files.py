"""Giving a finished file its final name without ever replacing another one.

`keeper export` and `keeper backup --out` both write next to the destination and
then name the result; the destination is checked before the work starts, but a
file may appear there meanwhile (another run, a person), and it must survive.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["place_new"]


def place_new(partial: Path, out: Path) -> None:
    """Give `partial` the name `out`, which must not exist. `partial` stays where it
    is (the caller removes it): a hard link fails if `out` exists, where a rename
    would replace it. Filesystems without hard links (vfat or exFAT sticks, SMB
    mounts) get a checked rename, whose window is the check's alone.

    Raises:
        FileExistsError: `out` exists, also when it appeared during the work.
        OSError: the name could not be given (permissions, a missing folder).
    """
    try:
        os.link(partial, out)
    except FileExistsError:
        raise
    except OSError:
        if out.exists():
            raise FileExistsError(out) from None
        partial.rename(out)
