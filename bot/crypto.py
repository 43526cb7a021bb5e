"""WeCom callback crypto (企业微信 "加解密方案"), written to be total.

WeCom signs every callback with SHA1 over the sorted concatenation of the
callback Token, the timestamp, the nonce and the ciphertext, and encrypts the
message with AES-256-CBC: key = base64decode(EncodingAESKey + "="), IV = the
first 16 bytes of the key, plaintext = 16 random bytes + 4-byte big-endian
message length + message + receive id (the CorpID), padded PKCS#7-style to
32-byte blocks (pad value 1..32, not the usual 16).

We do not call wechatpy's `PrpCrypto` for this: it validates neither the
padding nor the length field, so malformed input surfaces as an assorted
`IndexError`, `struct.error`, `UnicodeDecodeError` or silently wrong text, and
it compares signatures with `!=`. Here every malformed input raises a
`CryptoError` subclass and nothing else, signatures are compared in constant
time, and no exception text carries the token, the key, the ciphertext or the
plaintext.

Call order matters: verify the signature before decrypting, so an attacker who
cannot sign cannot use `decrypt` as a padding oracle.

Errors (all derive from `CryptoError`):

- `BadSignature`: msg_signature does not match (HTTP 403 at the callback).
- `BadCiphertext`: the ciphertext is not something WeCom could have produced.
- `ForeignReceiveId`: it decrypted, but for another CorpID (HTTP 403).
- `MalformedEnvelope`: the outer XML of a POST body is unacceptable (HTTP 400);
  its subclass `EnvelopeTooLarge` is raised for bodies over the size limit.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING
from xml.etree.ElementTree import Element, ParseError

import defusedxml.ElementTree as SafeET
from Crypto.Cipher import AES

if TYPE_CHECKING:
    from Crypto.Cipher._mode_cbc import CbcMode

__all__ = [
    "MAX_ENVELOPE_BYTES",
    "BadCiphertext",
    "BadSignature",
    "CryptoError",
    "Envelope",
    "EnvelopeTooLarge",
    "ForeignReceiveId",
    "MalformedEnvelope",
    "WeComCrypto",
    "parse_envelope",
]

BLOCK_BYTES = 32  # WeCom pads to 32-byte blocks, not AES's 16
RANDOM_PREFIX_BYTES = 16
LENGTH_FIELD_BYTES = 4
AES_KEY_CHARS = 43
MAX_ENVELOPE_BYTES = 64 * 1024  # a callback envelope is a few KiB; this is a backstop


class CryptoError(Exception):
    """Base of every error this module raises for bad input."""


class BadSignature(CryptoError):
    """The msg_signature does not match token, timestamp, nonce and ciphertext."""


class BadCiphertext(CryptoError):
    """The ciphertext is malformed: base64, length, padding, framing or UTF-8."""


class ForeignReceiveId(CryptoError):
    """The message decrypted, but its receive id is not our CorpID."""


class MalformedEnvelope(CryptoError):
    """The outer XML of a callback body is missing, malformed or unsafe."""


class EnvelopeTooLarge(MalformedEnvelope):
    """The callback body is larger than the envelope size limit."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Envelope:
    """The outer, unencrypted fields of a WeCom callback POST body."""

    encrypt: str
    to_user_name: str | None = None
    agent_id: str | None = None


class WeComCrypto:
    """Sign, verify, encrypt and decrypt WeCom callback messages for one app.

    Args:
        token: the callback Token (WECOM_TOKEN).
        encoding_aes_key: the 43-character EncodingAESKey (WECOM_AES_KEY).
        receive_id: the CorpID every message must be addressed to (WECOM_CORP_ID).

    Raises:
        ValueError: a setting is malformed; the message names it, never its value.
    """

    __slots__ = ("_key", "_receive_id", "_token")

    def __init__(self, token: str, encoding_aes_key: str, receive_id: str) -> None:
        if not token:
            raise ValueError("WECOM_TOKEN (callback Token) must not be empty")
        if not receive_id:
            raise ValueError("WECOM_CORP_ID (receive id) must not be empty")
        self._token = token
        self._key = _decode_aes_key(encoding_aes_key)
        self._receive_id = receive_id.encode("utf-8")

    def signature(self, timestamp: str, nonce: str, encrypt: str) -> str:
        """Return WeCom's msg_signature: SHA1 hex of the sorted, joined parts."""
        joined = "".join(sorted([self._token, timestamp, nonce, encrypt]))
        # surrogatepass keeps this total for any str; such input never matches anyway.
        return hashlib.sha1(joined.encode("utf-8", "surrogatepass")).hexdigest()

    def verify(self, msg_signature: str, timestamp: str, nonce: str, encrypt: str) -> None:
        """Raise `BadSignature` unless msg_signature signs (timestamp, nonce, encrypt).

        The comparison is constant-time (`hmac.compare_digest`) over UTF-8 bytes,
        so non-ASCII input is a mismatch rather than a `TypeError`.
        """
        expected = self.signature(timestamp, nonce, encrypt).encode("ascii")
        given = msg_signature.encode("utf-8", "surrogatepass")
        if not hmac.compare_digest(expected, given):
            raise BadSignature("msg_signature does not match")

    def decrypt(self, encrypt: str) -> str:
        """Decrypt a base64 ciphertext addressed to our receive id.

        Raises:
            BadCiphertext: anything malformed (never any other exception).
            ForeignReceiveId: well-formed, but for another receive id.
        """
        raw = _b64decode(encrypt)
        if not raw or len(raw) % BLOCK_BYTES:
            raise BadCiphertext("ciphertext length is not a positive multiple of 32")
        padded = self._cipher().decrypt(raw)
        message, receive_id = _unframe(_unpad(padded))
        if receive_id != self._receive_id:
            raise ForeignReceiveId("message is addressed to another receive id")
        try:
            return message.decode("utf-8")
        except UnicodeDecodeError:
            raise BadCiphertext("message is not valid UTF-8") from None

    def encrypt(self, plaintext: str, *, random16: bytes | None = None) -> str:
        """Encrypt plaintext for our receive id; return base64 text.

        Args:
            plaintext: the message (XML or an echostr), encoded as UTF-8.
            random16: the 16-byte random prefix; fresh from `secrets` when None.
                Pass one only to reproduce a known ciphertext in tests.
        """
        prefix = secrets.token_bytes(RANDOM_PREFIX_BYTES) if random16 is None else random16
        if len(prefix) != RANDOM_PREFIX_BYTES:
            raise ValueError("random16 must be exactly 16 bytes")
        message = plaintext.encode("utf-8")
        framed = prefix + len(message).to_bytes(LENGTH_FIELD_BYTES, "big")
        framed += message + self._receive_id
        return base64.b64encode(self._cipher().encrypt(_pad(framed))).decode("ascii")

    def encrypt_reply(self, plaintext_xml: str, *, timestamp: str, nonce: str) -> str:
        """Encrypt and sign a passive reply; return WeCom's reply envelope XML."""
        if not (
            timestamp.isascii() and timestamp.isdigit() and nonce.isascii() and nonce.isalnum()
        ):
            raise ValueError("timestamp must be digits and nonce ASCII letters or digits")
        encrypt = self.encrypt(plaintext_xml)
        signature = self.signature(timestamp, nonce, encrypt)
        return (
            f"<xml><Encrypt><![CDATA[{encrypt}]]></Encrypt>"
            f"<MsgSignature><![CDATA[{signature}]]></MsgSignature>"
            f"<TimeStamp>{timestamp}</TimeStamp>"
            f"<Nonce><![CDATA[{nonce}]]></Nonce></xml>"
        )

    def verify_url(self, msg_signature: str, timestamp: str, nonce: str, echostr: str) -> str:
        """Answer WeCom's URL check: verify the signature, return the decrypted echostr."""
        self.verify(msg_signature, timestamp, nonce, echostr)
        return self.decrypt(echostr)

    def _cipher(self) -> CbcMode:
        # A CBC cipher object is stateful, so each call gets a fresh one.
        return AES.new(self._key, AES.MODE_CBC, iv=self._key[:16])


def parse_envelope(body: bytes, *, max_bytes: int = MAX_ENVELOPE_BYTES) -> Envelope:
    """Parse the outer XML of a callback POST body with a hardened parser.

    DTDs, entity declarations and external references are refused (defusedxml),
    the body must be UTF-8 and at most `max_bytes`, the root must be `<xml>`
    with flat children, and `Encrypt` must occur exactly once, non-empty.
    The HTTP layer should enforce its own size limit first (413); this one is
    a backstop.

    Raises:
        EnvelopeTooLarge: the body is over `max_bytes`.
        MalformedEnvelope: anything else wrong (never any other exception).
    """
    if len(body) > max_bytes:
        raise EnvelopeTooLarge("callback body is too large")
    root = _parse_root(body)
    if root.tag != "xml":
        raise MalformedEnvelope("root element must be <xml>")
    if any(len(child) for child in root):
        raise MalformedEnvelope("envelope fields must not contain elements")
    encrypt = _single_text(root, "Encrypt")
    if not encrypt:
        raise MalformedEnvelope("Encrypt is missing or empty")
    return Envelope(
        encrypt=encrypt,
        to_user_name=_single_text(root, "ToUserName"),
        agent_id=_single_text(root, "AgentID"),
    )


def _decode_aes_key(encoding_aes_key: str) -> bytes:
    problem = "WECOM_AES_KEY (EncodingAESKey) must be 43 base64 characters"
    if len(encoding_aes_key) != AES_KEY_CHARS:
        raise ValueError(problem)
    try:
        key = base64.b64decode(encoding_aes_key + "=", validate=True)
    except ValueError:  # binascii.Error, or non-ASCII text
        raise ValueError(problem) from None
    if len(key) != 32:
        raise ValueError(problem)
    return key


def _b64decode(encrypt: str) -> bytes:
    try:
        return base64.b64decode(encrypt, validate=True)
    except ValueError:  # binascii.Error, or non-ASCII text
        raise BadCiphertext("ciphertext is not valid base64") from None


def _pad(data: bytes) -> bytes:
    count = BLOCK_BYTES - len(data) % BLOCK_BYTES  # 1..32; a full block when aligned
    return data + bytes([count]) * count


def _unpad(padded: bytes) -> bytes:
    count = padded[-1]
    if not 1 <= count <= BLOCK_BYTES or padded[-count:] != bytes([count]) * count:
        raise BadCiphertext("padding is invalid")
    return padded[:-count]


def _unframe(framed: bytes) -> tuple[bytes, bytes]:
    """Split 16 random bytes + length + message + receive id into (message, id)."""
    header = RANDOM_PREFIX_BYTES + LENGTH_FIELD_BYTES
    if len(framed) < header:
        raise BadCiphertext("plaintext is shorter than its header")
    length = int.from_bytes(framed[RANDOM_PREFIX_BYTES:header], "big")
    if length > len(framed) - header:
        raise BadCiphertext("length field exceeds the plaintext")
    return framed[header : header + length], framed[header + length :]


def _parse_root(body: bytes) -> Element:
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise MalformedEnvelope("callback body is not UTF-8") from None
    try:
        # A str input makes expat ignore any declared encoding.
        root: Element = SafeET.fromstring(
            text, forbid_dtd=True, forbid_entities=True, forbid_external=True
        )
    except (ParseError, ValueError):  # defusedxml's refusals are ValueErrors
        raise MalformedEnvelope("callback body is not acceptable XML") from None
    return root


def _single_text(root: Element, tag: str) -> str | None:
    found = root.findall(tag)
    if len(found) > 1:
        raise MalformedEnvelope(f"{tag} occurs more than once")
    if not found:
        return None
    return found[0].text or ""
