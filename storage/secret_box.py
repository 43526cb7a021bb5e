"""Sealing a user's channel secret (a Server酱 SendKey) for storage: AES-256-GCM.

No I/O: bytes in, text out. It defines how a sealed column is stored
(`storage.channel_models`), so it sits in storage, which every layer that seals or
opens one may import: the channel service, the routing, the Server酱 channel and
`keeper rekey` (`services.rekey`). It is not the scheduler core's: each seal draws a
fresh nonce from the OS.

**The keys** (issue 22): stored secrets have a key of their own, KEEPER_DATA_KEY,
which seals nothing else and comes from no other secret, so rotating WECOM_SECRET, a
channel's token or the web key (KEEPER_WEB_SECRET) never touches them. The
composition root builds a `KeyRing` (`bot.settings.Settings.key_ring`):

- `current`: KEEPER_DATA_KEY. Every new seal uses it; without it `seal_secret` raises
  `NoDataKey` (binding is refused with a clear answer, never sealed under a key a
  later rotation would lose).
- `previous`: KEEPER_DATA_KEY_PREVIOUS, set during a rotation so values sealed under
  the old key still open until `keeper rekey` has moved them.
- `legacy`: the keys values were sealed with before issue 22, HMAC-SHA256 under the
  label "keeper user channel key v1" of KEEPER_WEB_SECRET (when set) and of
  WECOM_SECRET. They only open, never seal, so a deployment upgrades without anyone
  binding again; `keeper rekey` moves those values to the data key.

**The format.** A value is `v2.<key id>.` + base64(nonce 12 bytes | tag 16 bytes |
ciphertext). The key id is 8 hex digits of HMAC-SHA256(key text, its own label): a
fingerprint that names the key without revealing it, so the opener picks current or
previous by it, never by trying each, and `keeper rekey` and `keeper doctor` tell
which values still need the previous key without opening anything. The associated
data binds the key id, the user id and the channel name, so a value copied to
another user's row (or another channel) does not open. Values of the old format,
`v1.` + base64(...) with no key id, are opened with the legacy keys (GCM's tag tells
the right one: a wrong key fails, it never yields wrong text).

**What never leaks.** No exception text holds a key, a plaintext or a sealed value:
`Unreadable` says why in words and names at most a key id.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
import secrets as random_bytes
from dataclasses import dataclass, field

from Crypto.Cipher import AES

from storage.vocabulary import SealKey

__all__ = [
    "DataKey",
    "KeyRing",
    "NoDataKey",
    "Unreadable",
    "legacy_key",
    "open_secret",
    "seal_secret",
    "sealed_under",
]

PREFIX = "v2."
LEGACY_PREFIX = "v1."
NONCE_BYTES = 12
TAG_BYTES = 16
AES_LABEL = b"keeper data key v2: aes-256-gcm"
ID_LABEL = b"keeper data key v2: key id"
LEGACY_LABEL = b"keeper user channel key v1"
"""The label the pre-issue-22 key was derived under (from KEEPER_WEB_SECRET or
WECOM_SECRET): kept only to open what was sealed then."""
_KEY_ID = re.compile(r"[0-9a-f]{8}")


class Unreadable(Exception):
    """The sealed value opens with no key of this deployment (a key removed too soon,
    another user's or channel's value, a damaged row)."""


class NoDataKey(Exception):
    """Nothing can be sealed: KEEPER_DATA_KEY is not set."""


@dataclass(frozen=True, slots=True)
class DataKey:
    """One data key: its key id (shown, stored in each value) and its AES key (never)."""

    key_id: str
    aes: bytes = field(repr=False)

    @classmethod
    def from_text(cls, text: str) -> DataKey:
        """The key a KEEPER_DATA_KEY value stands for. Any long random text will do;
        the AES key and the key id are derived from it under labels of their own."""
        material = text.encode()
        key_id = hmac.new(material, ID_LABEL, hashlib.sha256).hexdigest()[:8]
        return cls(key_id, hmac.new(material, AES_LABEL, hashlib.sha256).digest())


def legacy_key(secret: str) -> bytes:
    """The key values were sealed with before issue 22, from KEEPER_WEB_SECRET or
    WECOM_SECRET: what `KeyRing.legacy` holds."""
    return hmac.new(secret.encode(), LEGACY_LABEL, hashlib.sha256).digest()


@dataclass(frozen=True, kw_only=True, slots=True)
class KeyRing:
    """The keys a deployment seals with (`current`) and opens with (all of them)."""

    current: DataKey | None = None
    previous: DataKey | None = None
    legacy: tuple[bytes, ...] = field(default=(), repr=False)

    def by_id(self, key_id: str) -> DataKey | None:
        """The current or previous key with this key id, or None."""
        return next((k for k in (self.current, self.previous) if k and k.key_id == key_id), None)


def _context(key_id: str, user_id: int, channel: str) -> bytes:
    return f"keeper sealed v2:{key_id}:{user_id}:{channel}".encode()


def _legacy_context(user_id: int, channel: str) -> bytes:
    return f"keeper user channel:{user_id}:{channel}".encode()


def seal_secret(ring: KeyRing, plaintext: str, *, user_id: int, channel: str) -> str:
    """The text to store for `plaintext`, sealed under the current key (a fresh
    random nonce every time).

    Raises:
        NoDataKey: KEEPER_DATA_KEY is not set.
    """
    key = ring.current
    if key is None:
        raise NoDataKey("KEEPER_DATA_KEY is not set: nothing can be sealed")
    nonce = random_bytes.token_bytes(NONCE_BYTES)
    cipher = AES.new(key.aes, AES.MODE_GCM, nonce=nonce, mac_len=TAG_BYTES)
    cipher.update(_context(key.key_id, user_id, channel))
    body, tag = cipher.encrypt_and_digest(plaintext.encode())
    return f"{PREFIX}{key.key_id}." + base64.b64encode(nonce + tag + body).decode()


def sealed_under(ring: KeyRing, sealed: str) -> SealKey:
    """Which of the ring's keys a value names, read from its header alone (nothing is
    opened): what `keeper rekey` skips and `keeper doctor` counts. A value that is no
    sealed value at all (a damaged row) is `UNKNOWN`, never an exception."""
    if sealed.startswith(LEGACY_PREFIX):
        return SealKey.LEGACY if ring.legacy else SealKey.UNKNOWN
    try:
        key_id, _ = _split(sealed)
    except Unreadable:
        return SealKey.UNKNOWN
    if ring.current and key_id == ring.current.key_id:
        return SealKey.CURRENT
    if ring.previous and key_id == ring.previous.key_id:
        return SealKey.PREVIOUS
    return SealKey.UNKNOWN


def open_secret(ring: KeyRing, sealed: str, *, user_id: int, channel: str) -> str:
    """The plaintext of a value made by `seal_secret` under one of the ring's keys (or
    sealed the pre-issue-22 way under one of its legacy keys), for this user and channel.

    Raises:
        Unreadable: no key of the ring opens it, or it is another user's or channel's
            value, or damaged.
    """
    if sealed.startswith(LEGACY_PREFIX):
        return _open_legacy(ring, sealed, user_id=user_id, channel=channel)
    key_id, raw = _split(sealed)
    key = ring.by_id(key_id)
    if key is None:
        raise Unreadable(
            f"sealed under key id {key_id}, which is neither KEEPER_DATA_KEY nor "
            "KEEPER_DATA_KEY_PREVIOUS here"
        )
    opened = _open_raw(key.aes, raw, _context(key_id, user_id, channel))
    if opened is None:
        raise Unreadable(f"the key with id {key_id} does not open it (another row's, or damaged)")
    return opened


def _split(sealed: str) -> tuple[str, bytes]:
    """The key id and the raw bytes of a `v2.` value."""
    if not sealed.startswith(PREFIX):
        raise Unreadable("not a sealed value")
    key_id, _, body = sealed[len(PREFIX) :].partition(".")
    if not _KEY_ID.fullmatch(key_id):
        raise Unreadable("not a sealed value")
    return key_id, _decoded(body)


def _decoded(body: str) -> bytes:
    try:
        raw = base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise Unreadable("not a sealed value") from exc
    if len(raw) < NONCE_BYTES + TAG_BYTES:
        raise Unreadable("too short to be a sealed value")
    return raw


def _open_legacy(ring: KeyRing, sealed: str, *, user_id: int, channel: str) -> str:
    raw = _decoded(sealed[len(LEGACY_PREFIX) :])
    for key in ring.legacy:
        opened = _open_raw(key, raw, _legacy_context(user_id, channel))
        if opened is not None:
            return opened
    raise Unreadable(
        "sealed the pre-data-key way, under a WECOM_SECRET or KEEPER_WEB_SECRET this "
        "deployment no longer has"
    )


def _open_raw(key: bytes, raw: bytes, context: bytes) -> str | None:
    """The plaintext, or None when `key` does not open `raw` for `context`."""
    nonce, tag = raw[:NONCE_BYTES], raw[NONCE_BYTES : NONCE_BYTES + TAG_BYTES]
    cipher = AES.new(key, AES.MODE_GCM, nonce=nonce, mac_len=TAG_BYTES)
    cipher.update(context)
    try:
        return cipher.decrypt_and_verify(raw[NONCE_BYTES + TAG_BYTES :], tag).decode()
    except (ValueError, UnicodeDecodeError):
        return None
