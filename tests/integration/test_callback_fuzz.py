"""1,000+ hostile requests: never a 500, never a change to the database.

Cases are generated from a fixed seed so a failure reproduces; each shape targets
one layer: the query string, the outer XML, the signature, the ciphertext, the
decrypted message.
"""

from __future__ import annotations

import base64
import random
from collections.abc import Callable

from aiohttp.test_utils import TestClient
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sandbox.wecom_side import WeComSide, envelope_xml
from tests.integration.conftest import row_counts

CASES = 1200
ALLOWED = {200, 400, 403, 405, 413}
Case = tuple[dict[str, str], bytes]


def _noise(rng: random.Random, n: int) -> str:
    alphabet = "abcXYZ019<>&;'\"/=?#%+ \n\t\x00\u4f60\u597d\U0001f600]]>![CDATA["
    return "".join(rng.choice(alphabet) for _ in range(n))


def _random_query(rng: random.Random, side: WeComSide) -> dict[str, str]:
    query = {
        "msg_signature": rng.choice(["", "0" * 40, _noise(rng, 40)]),
        "timestamp": rng.choice([str(side.now()), "", "-1", "9" * 30, _noise(rng, 5)]),
        "nonce": rng.choice(["", "1", _noise(rng, 10)]),
    }
    return {k: v for k, v in query.items() if rng.random() > 0.15}


def _random_body(rng: random.Random, side: WeComSide) -> Case:
    body = rng.choice([b"", rng.randbytes(rng.randint(1, 300)), _noise(rng, 200).encode()])
    return _random_query(rng, side), body


def _garbage_ciphertext(rng: random.Random, side: WeComSide) -> Case:
    encrypt = rng.choice(
        [_noise(rng, 30), base64.b64encode(rng.randbytes(rng.choice([16, 32, 48, 64]))).decode()]
    )
    timestamp, nonce = str(side.now()), str(rng.randint(0, 10**9))
    query = {
        "msg_signature": side.crypto.signature(timestamp, nonce, encrypt),
        "timestamp": timestamp,
        "nonce": nonce,
    }
    body = envelope_xml(corp_id=side.corp_id, agent_id=side.agent_id, encrypt=encrypt).encode()
    return query, body


def _garbage_plaintext(rng: random.Random, side: WeComSide) -> Case:
    plain = rng.choice(
        [
            _noise(rng, 50),
            "<xml><MsgType>text</MsgType></xml>",
            "<xml><FromUserName>u</FromUserName><MsgType>text</MsgType><CreateTime>x</CreateTime></xml>",
            f"<xml><FromUserName>{'u' * 100}</FromUserName><MsgType>text</MsgType><CreateTime>1</CreateTime></xml>",
        ]
    )
    request = side.build(plain)
    return request.query, request.body


def _tampered(rng: random.Random, side: WeComSide) -> Case:
    """A genuine message whose ciphertext was altered in transit."""
    request = side.build(_text_xml(side, "体重 70"))
    body = bytearray(request.body)
    start = request.body.index(b"<Encrypt><![CDATA[") + len(b"<Encrypt><![CDATA[")
    end = request.body.index(b"]]></Encrypt>")
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(start, end)
        body[i] = (body[i] + rng.randrange(1, 256)) % 256  # always a real change
    return request.query, bytes(body)


def _text_xml(side: WeComSide, text: str) -> str:
    return (
        f"<xml><ToUserName>{side.corp_id}</ToUserName><FromUserName>u</FromUserName>"
        f"<CreateTime>{side.now()}</CreateTime><MsgType>text</MsgType>"
        f"<Content>{text}</Content><MsgId>1</MsgId></xml>"
    )


SHAPES: list[Callable[[random.Random, WeComSide], Case]] = [
    _random_body,
    _garbage_ciphertext,
    _garbage_plaintext,
    _tampered,
]


async def test_hostile_requests_never_get_a_500_or_change_the_database(
    client: TestClient[object, object], wecom: WeComSide, engine: AsyncEngine
) -> None:
    rng = random.Random(20261129)
    before = await row_counts(engine)
    statuses: dict[int, int] = {}
    for i in range(CASES):
        query, body = SHAPES[i % len(SHAPES)](rng, wecom)
        method = client.get if rng.random() < 0.1 else client.post
        response = await method("/wecom/callback", params=query, data=body)
        statuses[response.status] = statuses.get(response.status, 0) + 1
        assert response.status in ALLOWED, (query, body[:200], response.status)
        text = await response.text()
        assert "Traceback" not in text
    assert await row_counts(engine) == before
    assert statuses.get(200, 0) == 0  # nothing hostile was accepted as a message
