"""WeCom callback crypto: published vectors, an independent encryptor, wechatpy
interop, and totality on malformed input."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import re
from pathlib import Path

import pytest
from Crypto.Cipher import AES
from hypothesis import given
from hypothesis import strategies as st
from wechatpy.enterprise.crypto import WeChatCrypto

from bot.crypto import (
    BadCiphertext,
    BadSignature,
    CryptoError,
    EnvelopeTooLarge,
    ForeignReceiveId,
    MalformedEnvelope,
    WeComCrypto,
    parse_envelope,
)

TOKEN = "QDG6eK"
AES_KEY = "jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C"
CORP_ID = "wx5823bf96d3bd56c7"
SECRET_FRAGMENTS = (TOKEN, AES_KEY, AES_KEY[:20])


VECTORS_FILE = Path(__file__).parents[1] / "data" / "wecom_vectors.json"
"""WeCom's published callback crypto samples (the file says where from), shipped with
the tests so that they run on every clone."""

VECTORS = [
    pytest.param(v, id=v["name"])
    for v in json.loads(VECTORS_FILE.read_text(encoding="utf-8"))["vectors"]
]


def _crypto_for(vector: dict[str, str]) -> WeComCrypto:
    return WeComCrypto(vector["token"], vector["encoding_aes_key"], vector["receive_id"])


@pytest.fixture
def crypto() -> WeComCrypto:
    return WeComCrypto(TOKEN, AES_KEY, CORP_ID)


# -- an independent implementation of the published algorithm ------------------------


def _ref_key(encoding_aes_key: str) -> bytes:
    return base64.b64decode(encoding_aes_key + "=")


def _ref_frame(
    message: bytes, receive_id: bytes, random16: bytes, length: int | None = None
) -> bytes:
    size = len(message) if length is None else length
    return random16 + size.to_bytes(4, "big") + message + receive_id


def _ref_pkcs7_32(data: bytes) -> bytes:
    count = 32 - len(data) % 32
    return data + bytes([count] * count)


def _ref_aes(key: bytes, padded: bytes) -> str:
    """Raw AES-256-CBC, IV = key[:16], no padding added here."""
    return base64.b64encode(AES.new(key, AES.MODE_CBC, key[:16]).encrypt(padded)).decode()


def ref_encrypt(plaintext: str, *, receive_id: str = CORP_ID, random16: bytes = b"R" * 16) -> str:
    framed = _ref_frame(plaintext.encode(), receive_id.encode(), random16)
    return _ref_aes(_ref_key(AES_KEY), _ref_pkcs7_32(framed))


def ref_decrypt(encrypt: str, encoding_aes_key: str = AES_KEY) -> tuple[str, str]:
    key = _ref_key(encoding_aes_key)
    padded = AES.new(key, AES.MODE_CBC, key[:16]).decrypt(base64.b64decode(encrypt))
    framed = padded[: -padded[-1]]
    length = int.from_bytes(framed[16:20], "big")
    return framed[20 : 20 + length].decode(), framed[20 + length :].decode()


def ref_signature(*parts: str) -> str:
    return hashlib.sha1("".join(sorted(parts)).encode()).hexdigest()


# -- published vectors ----------------------------------------------------------------


@pytest.mark.parametrize("vector", VECTORS)
def test_signature_equals_the_published_msg_signature(vector: dict[str, str]) -> None:
    crypto = _crypto_for(vector)
    signature = crypto.signature(vector["timestamp"], vector["nonce"], vector["encrypt"])
    assert signature == vector["msg_signature"]


@pytest.mark.parametrize("vector", VECTORS)
def test_decrypt_equals_the_published_plaintext(vector: dict[str, str]) -> None:
    assert _crypto_for(vector).decrypt(vector["encrypt"]) == vector["plaintext"]


@pytest.mark.parametrize("vector", VECTORS)
def test_verify_accepts_the_published_signature(vector: dict[str, str]) -> None:
    crypto = _crypto_for(vector)
    crypto.verify(vector["msg_signature"], vector["timestamp"], vector["nonce"], vector["encrypt"])


@pytest.mark.parametrize("vector", VECTORS)
def test_the_reference_decryptor_agrees_with_the_published_vectors(
    vector: dict[str, str],
) -> None:
    message, receive_id = ref_decrypt(vector["encrypt"], vector["encoding_aes_key"])
    assert (message, receive_id) == (vector["plaintext"], vector["receive_id"])


@pytest.mark.parametrize("vector", [v for v in VECTORS if v.id == "verify_url"])
def test_verify_url_returns_the_published_echostr(vector: dict[str, str]) -> None:
    crypto = _crypto_for(vector)
    echo = crypto.verify_url(
        vector["msg_signature"], vector["timestamp"], vector["nonce"], vector["encrypt"]
    )
    assert echo == vector["plaintext"]


# -- signatures -----------------------------------------------------------------------


def test_signature_is_sha1_of_the_sorted_parts(crypto: WeComCrypto) -> None:
    assert crypto.signature("1409659813", "1372623149", "abc") == ref_signature(
        TOKEN, "1409659813", "1372623149", "abc"
    )


@pytest.mark.parametrize(
    ("signature", "timestamp", "nonce"),
    [
        ("0" * 40, "1409659813", "1372623149"),
        (None, "1409659814", "1372623149"),
        (None, "1409659813", "1372623140"),
        ("签名", "1409659813", "1372623149"),
        ("", "1409659813", "1372623149"),
        ("\udc80", "1409659813", "1372623149"),
    ],
    ids=["zeros", "other-timestamp", "other-nonce", "non-ascii", "empty", "lone-surrogate"],
)
def test_verify_rejects_a_signature_that_does_not_match(
    crypto: WeComCrypto, signature: str | None, timestamp: str, nonce: str
) -> None:
    good = crypto.signature("1409659813", "1372623149", "abc")
    with pytest.raises(BadSignature):
        crypto.verify(good if signature is None else signature, timestamp, nonce, "abc")


def test_verify_url_checks_the_signature_before_decrypting(crypto: WeComCrypto) -> None:
    with pytest.raises(BadSignature):
        crypto.verify_url("0" * 40, "1", "2", "not even base64!")


# -- round trips against the independent encryptor and wechatpy -----------------------


@pytest.mark.parametrize(
    "plaintext",
    ["", "1288432023552776189", "<xml><Content><![CDATA[体重 72.4]]></Content></xml>", "x" * 3000]
    + ["a" * n for n in range(5, 13)],  # crosses the 32-byte boundary: pad values 1..32
)
def test_we_decrypt_what_the_reference_encrypts(crypto: WeComCrypto, plaintext: str) -> None:
    assert crypto.decrypt(ref_encrypt(plaintext)) == plaintext


@pytest.mark.parametrize("plaintext", ["", "echo", "<xml>喝水</xml>", "y" * 2049])
def test_the_reference_decrypts_what_we_encrypt(crypto: WeComCrypto, plaintext: str) -> None:
    assert ref_decrypt(crypto.encrypt(plaintext)) == (plaintext, CORP_ID)


def test_encrypt_with_a_fixed_prefix_is_byte_identical_to_the_reference(
    crypto: WeComCrypto,
) -> None:
    random16 = bytes(range(16))
    assert crypto.encrypt("记账 35 午饭", random16=random16) == ref_encrypt(
        "记账 35 午饭", random16=random16
    )


def test_an_aligned_message_gets_a_full_32_byte_pad_block(crypto: WeComCrypto) -> None:
    plaintext = "z" * (64 - 20 - len(CORP_ID))  # header + message + id fill two blocks
    raw = base64.b64decode(crypto.encrypt(plaintext))
    assert len(raw) == 96
    assert crypto.decrypt(ref_encrypt(plaintext)) == plaintext


def test_encrypt_uses_a_fresh_random_prefix_each_time(crypto: WeComCrypto) -> None:
    assert crypto.encrypt("same") != crypto.encrypt("same")


def test_encrypt_rejects_a_prefix_that_is_not_16_bytes(crypto: WeComCrypto) -> None:
    with pytest.raises(ValueError, match="16 bytes"):
        crypto.encrypt("x", random16=b"short")


def test_wechatpy_decrypts_our_reply_envelope(crypto: WeComCrypto) -> None:
    reply = crypto.encrypt_reply("<xml><Content>好</Content></xml>", timestamp="1", nonce="n1")
    signature = re.search(r"<MsgSignature><!\[CDATA\[(\w+)\]\]>", reply)
    assert signature is not None
    theirs = WeChatCrypto(TOKEN, AES_KEY, CORP_ID)
    assert theirs.decrypt_message(reply, signature.group(1), "1", "n1") == (
        "<xml><Content>好</Content></xml>"
    )


def test_we_open_what_wechatpy_encrypts(crypto: WeComCrypto) -> None:
    theirs = WeChatCrypto(TOKEN, AES_KEY, CORP_ID).encrypt_message("<xml>日记</xml>", "77", "99")
    envelope = parse_envelope(theirs.encode())
    signature = re.search(r"<MsgSignature><!\[CDATA\[(\w+)\]\]>", theirs)
    assert signature is not None
    crypto.verify(signature.group(1), "99", "77", envelope.encrypt)
    assert crypto.decrypt(envelope.encrypt) == "<xml>日记</xml>"


def test_wechatpy_accepts_our_url_check_signature(crypto: WeComCrypto) -> None:
    echostr = crypto.encrypt("5927782489442352469")
    signature = crypto.signature("1", "2", echostr)
    theirs = WeChatCrypto(TOKEN, AES_KEY, CORP_ID)
    assert theirs.check_signature(signature, "1", "2", echostr) == "5927782489442352469"


def test_encrypt_reply_builds_wecoms_envelope(crypto: WeComCrypto) -> None:
    reply = crypto.encrypt_reply("<xml/>", timestamp="1409659813", nonce="1372623149")
    match = re.fullmatch(
        r"<xml><Encrypt><!\[CDATA\[(?P<e>[A-Za-z0-9+/=]+)\]\]></Encrypt>"
        r"<MsgSignature><!\[CDATA\[(?P<s>[0-9a-f]{40})\]\]></MsgSignature>"
        r"<TimeStamp>1409659813</TimeStamp><Nonce><!\[CDATA\[1372623149\]\]></Nonce></xml>",
        reply,
    )
    assert match is not None
    assert match["s"] == ref_signature(TOKEN, "1409659813", "1372623149", match["e"])
    assert ref_decrypt(match["e"]) == ("<xml/>", CORP_ID)


@pytest.mark.parametrize(
    ("timestamp", "nonce"),
    [("abc", "1"), ("²", "1"), ("", "1"), ("1", "a]]>b"), ("1", "密"), ("1", "")],
)
def test_encrypt_reply_rejects_unsafe_timestamp_or_nonce(
    crypto: WeComCrypto, timestamp: str, nonce: str
) -> None:
    with pytest.raises(ValueError, match="timestamp must be digits"):
        crypto.encrypt_reply("<xml/>", timestamp=timestamp, nonce=nonce)


# -- malformed ciphertexts ------------------------------------------------------------

KEY = _ref_key(AES_KEY)
R16 = b"0123456789abcdef"


def _aligned(framed: bytes, tail: bytes = b"") -> bytes:
    """framed, zero-filled so that it ends with `tail` on a 32-byte boundary."""
    return framed + b"\x00" * (-(len(framed) + len(tail)) % 32) + tail


GOOD_FRAME = _ref_frame(b"h" * 8, CORP_ID.encode(), R16)


MALFORMED: list[tuple[str, str, type[CryptoError]]] = [
    ("empty", "", BadCiphertext),
    ("not-base64", "!!!not base64!!!", BadCiphertext),
    ("non-ascii", "密文密文", BadCiphertext),
    ("base64-with-newline", ref_encrypt("x")[:20] + "\n" + ref_encrypt("x")[20:], BadCiphertext),
    ("truncated", ref_encrypt("hello")[:-8], BadCiphertext),
    ("one-aes-block", base64.b64encode(b"\x01" * 16).decode(), BadCiphertext),
    ("pad-zero", _ref_aes(KEY, _aligned(_ref_frame(b"hi", CORP_ID.encode(), R16))), BadCiphertext),
    ("pad-33", _ref_aes(KEY, _aligned(GOOD_FRAME, b"\x21")), BadCiphertext),
    ("pad-255", _ref_aes(KEY, _aligned(GOOD_FRAME, b"\xff")), BadCiphertext),
    (
        "pad-bytes-disagree",
        _ref_aes(KEY, _aligned(GOOD_FRAME, b"\x04" * 4 + b"\x05")),
        BadCiphertext,
    ),
    (
        "header-too-short",
        _ref_aes(KEY, _ref_pkcs7_32(b"0123456789")),
        BadCiphertext,
    ),
    (
        "huge-length-field",
        _ref_aes(KEY, _ref_pkcs7_32(_ref_frame(b"hi", CORP_ID.encode(), R16, length=2**32 - 1))),
        BadCiphertext,
    ),
    (
        "length-one-past-the-end",
        _ref_aes(KEY, _ref_pkcs7_32(_ref_frame(b"hi", b"", R16, length=3))),
        BadCiphertext,
    ),
    (
        "non-utf8-message",
        _ref_aes(KEY, _ref_pkcs7_32(_ref_frame(b"\xff\xfe\xfd", CORP_ID.encode(), R16))),
        BadCiphertext,
    ),
    ("foreign-receive-id", ref_encrypt("hello", receive_id="wwsomebodyelse"), ForeignReceiveId),
    ("no-receive-id", ref_encrypt("hello", receive_id=""), ForeignReceiveId),
    ("receive-id-prefix", ref_encrypt("hello", receive_id=CORP_ID + "x"), ForeignReceiveId),
]


@pytest.mark.parametrize(
    ("encrypt", "error"), [pytest.param(e, err, id=name) for name, e, err in MALFORMED]
)
def test_a_malformed_ciphertext_raises_the_precise_error(
    crypto: WeComCrypto, encrypt: str, error: type[CryptoError]
) -> None:
    with pytest.raises(error) as caught:
        crypto.decrypt(encrypt)
    assert type(caught.value) is error


@pytest.mark.parametrize("encrypt", [pytest.param(e, id=name) for name, e, _ in MALFORMED])
def test_error_texts_carry_no_secret_ciphertext_or_plaintext(
    crypto: WeComCrypto, encrypt: str
) -> None:
    with pytest.raises(CryptoError) as caught:
        crypto.decrypt(encrypt)
    text = f"{caught.value}|{caught.value!r}"
    for secret in (*SECRET_FRAGMENTS, "hello"):
        assert secret not in text
    if len(encrypt) > 8:
        assert encrypt[:8] not in text


def test_a_bad_signature_error_carries_no_secret(crypto: WeComCrypto) -> None:
    with pytest.raises(BadSignature) as caught:
        crypto.verify("0" * 40, "1", "2", "ciphertextciphertext")
    text = f"{caught.value}|{caught.value!r}"
    assert all(secret not in text for secret in (*SECRET_FRAGMENTS, "ciphertext"))


def test_a_message_for_another_key_is_rejected(crypto: WeComCrypto) -> None:
    other = WeComCrypto(TOKEN, "A" * 43, CORP_ID).encrypt("hello")
    with pytest.raises(CryptoError):
        crypto.decrypt(other)


# -- constructor validation ------------------------------------------------------------


@pytest.mark.parametrize(
    "bad_key",
    [AES_KEY[:-1], AES_KEY + "A", AES_KEY[:-1] + "!", AES_KEY[:-1] + "é", "", " " * 43],
    ids=["42-chars", "44-chars", "bad-char", "non-ascii", "empty", "spaces"],
)
def test_a_malformed_aes_key_is_refused_without_echoing_it(bad_key: str) -> None:
    with pytest.raises(ValueError, match="WECOM_AES_KEY") as caught:
        WeComCrypto(TOKEN, bad_key, CORP_ID)
    if bad_key.strip():
        assert bad_key[:10] not in str(caught.value)


@pytest.mark.parametrize(
    ("token", "receive_id", "setting"),
    [("", CORP_ID, "WECOM_TOKEN"), (TOKEN, "", "WECOM_CORP_ID")],
)
def test_an_empty_setting_is_refused_by_name(token: str, receive_id: str, setting: str) -> None:
    with pytest.raises(ValueError, match=setting):
        WeComCrypto(token, AES_KEY, receive_id)


def test_the_crypto_object_does_not_show_its_secrets(crypto: WeComCrypto) -> None:
    assert all(secret not in repr(crypto) for secret in SECRET_FRAGMENTS)


# -- the outer envelope ---------------------------------------------------------------

WECOM_ENVELOPE = (
    b"<xml><ToUserName><![CDATA[ww1436e0e65a779aee]]></ToUserName>"
    b"<AgentID><![CDATA[1000002]]></AgentID><Encrypt><![CDATA[abc+/=]]></Encrypt></xml>"
)


def test_parse_envelope_reads_wecoms_fields() -> None:
    envelope = parse_envelope(WECOM_ENVELOPE)
    assert (envelope.encrypt, envelope.to_user_name, envelope.agent_id) == (
        "abc+/=",
        "ww1436e0e65a779aee",
        "1000002",
    )


def test_parse_envelope_needs_only_encrypt() -> None:
    envelope = parse_envelope(b"<xml><Encrypt>abc</Encrypt></xml>")
    assert (envelope.encrypt, envelope.to_user_name, envelope.agent_id) == ("abc", None, None)


def test_parse_envelope_reads_the_body_as_utf8_whatever_it_declares() -> None:
    body = '<?xml version="1.0" encoding="GBK"?><xml><Encrypt>密</Encrypt></xml>'.encode()
    assert parse_envelope(body).encrypt == "密"


BILLION_LAUGHS = (
    b'<?xml version="1.0"?><!DOCTYPE xml [<!ENTITY a "aaaaaaaaaa">'
    b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]>'
    b"<xml><Encrypt>&c;</Encrypt></xml>"
)

BAD_ENVELOPES = {
    "empty": b"",
    "not-xml": b"hello",
    "unclosed": b"<xml><Encrypt>abc</Encrypt>",
    "wrong-root": b"<root><Encrypt>abc</Encrypt></root>",
    "namespaced-root": b'<xml xmlns="urn:x"><Encrypt>abc</Encrypt></xml>',
    "no-encrypt": b"<xml><ToUserName>ww</ToUserName></xml>",
    "empty-encrypt": b"<xml><Encrypt></Encrypt></xml>",
    "two-encrypts": b"<xml><Encrypt>a</Encrypt><Encrypt>b</Encrypt></xml>",
    "nested-field": b"<xml><Encrypt>a<b>c</b></Encrypt></xml>",
    "deep-nesting": b"<xml>" + b"<a>" * 5000 + b"</a>" * 5000 + b"<Encrypt>a</Encrypt></xml>",
    "non-utf8": b"<xml><Encrypt>\xff\xfe</Encrypt></xml>",
    "gbk-body": "<xml><Encrypt>密文</Encrypt></xml>".encode("gbk"),
    "dtd": b"<!DOCTYPE xml><xml><Encrypt>abc</Encrypt></xml>",
    "internal-entity": b'<!DOCTYPE xml [<!ENTITY e "abc">]><xml><Encrypt>&e;</Encrypt></xml>',
    "billion-laughs": BILLION_LAUGHS,
    "external-entity": (
        b'<!DOCTYPE xml [<!ENTITY e SYSTEM "file:///etc/passwd">]><xml><Encrypt>&e;</Encrypt></xml>'
    ),
    "undefined-entity": b"<xml><Encrypt>&e;</Encrypt></xml>",
    "nul-byte": b"<xml><Encrypt>a\x00</Encrypt></xml>",
}


@pytest.mark.parametrize("body", BAD_ENVELOPES.values(), ids=BAD_ENVELOPES.keys())
def test_parse_envelope_refuses_a_bad_body(body: bytes) -> None:
    with pytest.raises(MalformedEnvelope):
        parse_envelope(body)


def test_parse_envelope_refuses_a_body_over_the_limit() -> None:
    body = b"<xml><Encrypt>" + b"A" * 100 + b"</Encrypt></xml>"
    with pytest.raises(EnvelopeTooLarge):
        parse_envelope(body, max_bytes=64)
    assert parse_envelope(body, max_bytes=len(body)).encrypt == "A" * 100


def test_a_malformed_envelope_is_a_crypto_error() -> None:
    assert issubclass(MalformedEnvelope, CryptoError)
    assert issubclass(EnvelopeTooLarge, MalformedEnvelope)


# -- totality (property tests) --------------------------------------------------------

ENVELOPE_PIECES = [
    "<xml>", "</xml>", "<Encrypt>", "</Encrypt>", "<ToUserName>", "</ToUserName>",
    "<AgentID/>", "<![CDATA[", "]]>", "<!DOCTYPE xml [", "<!ENTITY e 'x'>", "]>", "&e;",
    "&#0;", "&amp;", "<?xml version='1.0' encoding='utf-16'?>", "<a>", "</a>", "abc",
    "密", "\x00", "\udcff", " ", "=",
]  # fmt: skip


@given(st.text())
def test_decrypt_raises_only_crypto_errors_for_any_text(text: str) -> None:
    with contextlib.suppress(CryptoError):
        WeComCrypto(TOKEN, AES_KEY, CORP_ID).decrypt(text)


@given(
    st.integers(min_value=1, max_value=6).flatmap(
        lambda n: st.binary(min_size=32 * n, max_size=32 * n)
    )
)
def test_decrypt_raises_only_crypto_errors_for_any_aligned_ciphertext(raw: bytes) -> None:
    with contextlib.suppress(CryptoError):
        WeComCrypto(TOKEN, AES_KEY, CORP_ID).decrypt(base64.b64encode(raw).decode())


@given(st.binary(max_size=200), st.integers(min_value=0, max_value=2**32 - 1))
def test_decrypt_raises_only_crypto_errors_for_any_well_padded_frame(
    payload: bytes, length: int
) -> None:
    framed = R16 + length.to_bytes(4, "big") + payload
    with contextlib.suppress(CryptoError):
        WeComCrypto(TOKEN, AES_KEY, CORP_ID).decrypt(_ref_aes(KEY, _ref_pkcs7_32(framed)))


@given(st.binary(max_size=400))
def test_parse_envelope_raises_only_malformed_envelope_for_any_bytes(body: bytes) -> None:
    with contextlib.suppress(MalformedEnvelope):
        parse_envelope(body)


@given(st.lists(st.sampled_from(ENVELOPE_PIECES), max_size=30))
def test_parse_envelope_raises_only_malformed_envelope_for_xmlish_input(pieces: list[str]) -> None:
    with contextlib.suppress(MalformedEnvelope):
        parse_envelope("".join(pieces).encode("utf-8", "surrogatepass"))


@given(st.text(), st.text(), st.text(), st.text())
def test_verify_raises_only_bad_signature_for_any_text(
    signature: str, timestamp: str, nonce: str, encrypt: str
) -> None:
    with contextlib.suppress(BadSignature):
        WeComCrypto(TOKEN, AES_KEY, CORP_ID).verify(signature, timestamp, nonce, encrypt)
