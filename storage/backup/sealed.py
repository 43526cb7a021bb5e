"""The sealed stream: a passphrase-encrypted, authenticated, chunked byte stream.

Layout of a sealed file::

    MAGIC (8 bytes) | header length (2 bytes, big-endian) | header (JSON, UTF-8)
    then frames:  ciphertext length (4 bytes, big-endian) | ciphertext + 16-byte GCM tag

The key: scrypt(passphrase, salt, n, r, p) gives 48 bytes; the first 32 are the
AES-256-GCM key, the last 16 are stored in the header as `check`, so a wrong
passphrase is told apart from a damaged file before any chunk is opened (it helps a
guesser no more than trying chunk 0 would: each guess still costs one scrypt). The
salt is random per file, so every file has its own key and counter nonces are safe.

Every chunk is AES-256-GCM with the nonce `counter (11 bytes) | final flag (1 byte)`
and the whole file prefix (magic, length, header) as associated data: this is the
STREAM construction (Hoang, Reyhanitabar, Rogaway, Vizár 2015). So a flipped byte
anywhere (header, length, ciphertext, tag) fails a tag; chunks swapped or dropped
fail on the counter; a file cut short lacks the chunk marked final; anything after
the final chunk is refused. The reader yields a chunk's plaintext only after its
tag verified, and callers that must not act on a partial file (restore) read the
whole stream once before acting on any of it.

Crypto comes from pycryptodome (already keeper's dependency for the WeCom callback):
AES-GCM and scrypt, nothing hand-made here beyond the framing.
"""

from __future__ import annotations

import json
import os
import struct
from base64 import b64decode, b64encode
from collections.abc import Iterator
from typing import IO, Any

from Crypto.Cipher import AES
from Crypto.Protocol.KDF import scrypt

from storage.backup.errors import BackupError

MAGIC = b"KEEPBAK1"
CHUNK_BYTES = 1 << 20  # plaintext per chunk: bounds memory on both sides
SCRYPT_N, SCRYPT_R, SCRYPT_P = 1 << 15, 8, 1  # 32 MiB, about 0.3 s on the CI machine
# Limits on what a file may ask of the reader: the header is read before anything
# is authenticated, so a crafted one must not make scrypt eat the machine.
MAX_SCRYPT_N, MAX_SCRYPT_R, MAX_SCRYPT_P = 1 << 20, 16, 4
# scrypt needs 128 * n * r bytes: each bound alone still allowed 2 GiB together, so
# the product is capped too (8x what keeper writes today, room for a stronger default).
MAX_SCRYPT_BYTES = 256 << 20
MAX_CHUNK_BYTES = 16 << 20
TAG_BYTES = 16


class SealError(BackupError):
    """The file cannot be opened as a keeper backup. Never carries the key."""


class WrongKey(SealError):
    """The passphrase does not open this file."""


class Tampered(SealError):
    """The file was altered, cut short or is not a keeper backup."""


def _derive(passphrase: str, salt: bytes, n: int, r: int, p: int) -> tuple[bytes, bytes]:
    if not passphrase:
        raise WrongKey("the backup key is empty")
    derived = scrypt(passphrase.encode("utf-8"), salt, 48, N=n, r=r, p=p)
    assert isinstance(derived, bytes)
    return derived[:32], derived[32:]


def _nonce(counter: int, final: bool) -> bytes:
    return counter.to_bytes(11, "big") + (b"\x01" if final else b"\x00")


class SealedWriter:
    """Encrypts what is written to it into `out`; `close()` writes the final chunk.

    Without `close()` the file has no final chunk, and every reader refuses it.
    """

    def __init__(self, out: IO[bytes], passphrase: str) -> None:
        salt = os.urandom(16)
        self._key, check = _derive(passphrase, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
        header = {
            "format": 1,
            "cipher": "AES-256-GCM/STREAM",
            "kdf": {"name": "scrypt", "n": SCRYPT_N, "r": SCRYPT_R, "p": SCRYPT_P},
            "salt": b64encode(salt).decode(),
            "check": b64encode(check).decode(),
            "chunk": CHUNK_BYTES,
        }
        body = json.dumps(header, sort_keys=True).encode()
        self._prefix = MAGIC + struct.pack(">H", len(body)) + body
        self._out = out
        self._out.write(self._prefix)
        self._buffer = bytearray()
        self._counter = 0

    def write(self, data: bytes) -> None:
        self._buffer += data
        # Strictly more than a chunk: the last chunk (written by close) is never empty
        # of meaning, it always exists, and it alone carries the final flag.
        while len(self._buffer) > CHUNK_BYTES:
            self._seal(bytes(self._buffer[:CHUNK_BYTES]), final=False)
            del self._buffer[:CHUNK_BYTES]

    def close(self) -> None:
        self._seal(bytes(self._buffer), final=True)
        self._buffer.clear()

    def _seal(self, plain: bytes, *, final: bool) -> None:
        cipher = AES.new(self._key, AES.MODE_GCM, nonce=_nonce(self._counter, final))
        cipher.update(self._prefix)
        sealed, tag = cipher.encrypt_and_digest(plain)
        self._out.write(struct.pack(">I", len(sealed) + TAG_BYTES) + sealed + tag)
        self._counter += 1


def open_sealed(source: IO[bytes], passphrase: str) -> Iterator[bytes]:
    """Yield the plaintext chunks of a sealed file, each only after its tag verified.

    Raises:
        WrongKey: the passphrase does not match the file's key check.
        Tampered: a tag fails, the file is cut short, reordered, extended or foreign.
    """
    prefix, header = _read_header(source)
    kdf = header["kdf"]
    key, check = _derive(passphrase, b64decode(header["salt"]), kdf["n"], kdf["r"], kdf["p"])
    if check != b64decode(header["check"]):
        raise WrongKey("wrong backup key (or the file's header was altered)")
    counter, limit = 0, int(header["chunk"]) + TAG_BYTES
    while True:
        frame = _read_frame(source, limit, counter)
        middle = _try_open(key, prefix, frame, counter, final=False)
        if middle is not None:
            yield middle
            counter += 1
            continue
        last = _try_open(key, prefix, frame, counter, final=True)
        if last is None:
            raise Tampered(f"the backup file was altered or damaged (chunk {counter})")
        if source.read(1):
            raise Tampered("the backup file has data after its last chunk")
        yield last
        return


def _try_open(
    key: bytes, prefix: bytes, frame: bytes, counter: int, *, final: bool
) -> bytes | None:
    cipher = AES.new(key, AES.MODE_GCM, nonce=_nonce(counter, final))
    cipher.update(prefix)
    try:
        plain = cipher.decrypt_and_verify(frame[:-TAG_BYTES], frame[-TAG_BYTES:])
    except ValueError:
        return None
    assert isinstance(plain, bytes)
    return plain


def _read_frame(source: IO[bytes], limit: int, counter: int) -> bytes:
    raw = source.read(4)
    if len(raw) < 4:
        raise Tampered(f"the backup file is cut short (ends before chunk {counter}'s end)")
    (length,) = struct.unpack(">I", raw)
    if not TAG_BYTES <= length <= limit:
        raise Tampered(f"the backup file was altered or damaged (chunk {counter})")
    frame = source.read(length)
    if len(frame) < length:
        raise Tampered(f"the backup file is cut short (in chunk {counter})")
    return frame


def _read_header(source: IO[bytes]) -> tuple[bytes, dict[str, Any]]:
    magic = source.read(len(MAGIC) + 2)
    if len(magic) < len(MAGIC) + 2 or not magic.startswith(MAGIC):
        raise Tampered("not a keeper backup file (or its first bytes were altered)")
    (length,) = struct.unpack(">H", magic[len(MAGIC) :])
    body = source.read(length)
    try:
        header = json.loads(body)
        kdf = header["kdf"]
        _check_limits(kdf["n"], kdf["r"], kdf["p"], header["chunk"])
        b64decode(header["salt"], validate=True)
        b64decode(header["check"], validate=True)
    except (ValueError, KeyError, TypeError):
        raise Tampered("the backup file's header is damaged") from None
    return magic + body, header


def _check_limits(n: object, r: object, p: object, chunk: object) -> None:
    for value, top in ((n, MAX_SCRYPT_N), (r, MAX_SCRYPT_R), (p, MAX_SCRYPT_P)):
        if not isinstance(value, int) or not 1 <= value <= top:
            raise ValueError("kdf parameter out of range")
    assert isinstance(n, int)
    assert isinstance(r, int)
    if 128 * n * r > MAX_SCRYPT_BYTES:
        raise ValueError("kdf memory out of range")
    if n & (n - 1) or not isinstance(chunk, int) or not 1 <= chunk <= MAX_CHUNK_BYTES:
        raise ValueError("header parameter out of range")
