"""Sealing a user's channel secret (a Server酱 SendKey) for storage: AES-256-GCM.

No I/O: bytes in, text out. It defines how a sealed column is stored
(`storage.channel_models`), so it sits in storage, which every layer that seals or
opens one may import: the channel service, the routing and the Server酱 channel. It is
not the scheduler core's: each seal draws a fresh nonce from the OS.

The key comes from the composition root
(`bot.settings.Settings.channel_key`): KEEPER_WEB_SECRET when set, else WECOM_SECRET,
each passed through HMAC-SHA256 under its own label, so it is never the session
cookie key nor the secret itself. Resetting WECOM_SECRET without KEEPER_WEB_SECRET
therefore makes every sealed SendKey unreadable: `open_secret` raises `Unreadable`,
the send fails as a configuration error, 设置 渠道 says to bind the key again.

A sealed value is `v1.` + base64(nonce 12 bytes | tag 16 bytes | ciphertext), with the
user id and the channel name as associated data, so a value copied to another user's
row (or another channel) does not open.
"""

from __future__ import annotations

import base64
import binascii
import secrets as random_bytes

from Crypto.Cipher import AES

__all__ = ["Unreadable", "open_secret", "seal_secret"]

PREFIX = "v1."
NONCE_BYTES = 12
TAG_BYTES = 16


class Unreadable(Exception):
    """The sealed value does not open with this key (rotated secret, damaged row)."""


def _context(user_id: int, channel: str) -> bytes:
    return f"keeper user channel:{user_id}:{channel}".encode()


def seal_secret(key: bytes, plaintext: str, *, user_id: int, channel: str) -> str:
    """The text to store for `plaintext` (a fresh random nonce every time)."""
    nonce = random_bytes.token_bytes(NONCE_BYTES)
    cipher = AES.new(key, AES.MODE_GCM, nonce=nonce, mac_len=TAG_BYTES)
    cipher.update(_context(user_id, channel))
    body, tag = cipher.encrypt_and_digest(plaintext.encode())
    return PREFIX + base64.b64encode(nonce + tag + body).decode()


def open_secret(key: bytes, sealed: str, *, user_id: int, channel: str) -> str:
    """The plaintext of a value made by `seal_secret` with the same key and context.

    Raises:
        Unreadable: another key, another user or channel, or a damaged value.
    """
    if not sealed.startswith(PREFIX):
        raise Unreadable("not a sealed value")
    try:
        raw = base64.b64decode(sealed[len(PREFIX) :], validate=True)
    except (binascii.Error, ValueError) as exc:
        raise Unreadable("not a sealed value") from exc
    if len(raw) < NONCE_BYTES + TAG_BYTES:
        raise Unreadable("too short to be a sealed value")
    nonce, tag = raw[:NONCE_BYTES], raw[NONCE_BYTES : NONCE_BYTES + TAG_BYTES]
    body = raw[NONCE_BYTES + TAG_BYTES :]
    cipher = AES.new(key, AES.MODE_GCM, nonce=nonce, mac_len=TAG_BYTES)
    cipher.update(_context(user_id, channel))
    try:
        return cipher.decrypt_and_verify(body, tag).decode()
    except (ValueError, UnicodeDecodeError) as exc:
        raise Unreadable("the key does not open it") from exc
