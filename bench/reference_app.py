"""The WeCom callback a user would otherwise write: sync Flask + wechatpy + SQLAlchemy.

It is the yardstick for `bench/callback.py`, so it is kept small and honest: it
does what a careful minimal bot does for every message and nothing more - check
the timestamp, verify the signature and decrypt (wechatpy), parse (wechatpy),
insert one row keyed by the unique MsgId (a duplicate just gets the reply), and
answer an encrypted passive reply. Run it under gunicorn with sync workers:

    REF_DB=/tmp/ref.db REF_TOKEN=... REF_AES_KEY=... REF_CORP_ID=... \
        gunicorn -w 2 --chdir bench reference_app:app

`REF_DB_URL` (e.g. `mysql+pymysql://root@127.0.0.1:3306/ref`) puts the same table
on another database instead of the SQLite file `REF_DB`.

`python bench/reference_app.py` creates the table (once, before the workers start).
"""

import os
import time

from flask import Flask, abort, request
from sqlalchemy import BigInteger, String, create_engine, event
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from wechatpy.enterprise import parse_message
from wechatpy.enterprise.crypto import WeChatCrypto
from wechatpy.enterprise.replies import TextReply
from wechatpy.exceptions import WeChatException

MAX_AGE_SECONDS = 600  # the same replay window keeper enforces
QUERY = ("msg_signature", "timestamp", "nonce")

engine = create_engine(os.environ.get("REF_DB_URL") or f"sqlite:///{os.environ['REF_DB']}")
crypto = WeChatCrypto(os.environ["REF_TOKEN"], os.environ["REF_AES_KEY"], os.environ["REF_CORP_ID"])
app = Flask(__name__)
app.config["MAX_CONTENT_LENGTH"] = 64 * 1024


if engine.dialect.name == "sqlite":

    @event.listens_for(engine, "connect")
    def _wal(dbapi_connection, _record):
        dbapi_connection.execute("PRAGMA journal_mode=WAL")


class Base(DeclarativeBase):
    pass


class Message(Base):
    __tablename__ = "messages"
    msg_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)  # unique: dedup key
    user: Mapped[str] = mapped_column(String(64))
    content: Mapped[str] = mapped_column(String(4000))


@app.post("/wecom/callback")
def callback():
    """Verify, decrypt, parse, record once, answer an encrypted "ok"."""
    signature, timestamp, nonce = (request.args.get(k, "") for k in QUERY)
    if not timestamp.isdigit() or abs(time.time() - int(timestamp)) > MAX_AGE_SECONDS:
        abort(403)
    try:
        msg = parse_message(crypto.decrypt_message(request.data, signature, timestamp, nonce))
    except WeChatException:  # bad signature, foreign CorpID
        abort(403)
    with Session(engine) as session:
        session.add(Message(msg_id=msg.id, user=msg.source, content=msg.content[:4000]))
        try:
            session.commit()
        except IntegrityError:
            session.rollback()  # a retry of a message we already have: just answer
    reply = TextReply(message=msg, content="ok").render()
    return crypto.encrypt_message(reply, nonce, timestamp), {"Content-Type": "application/xml"}


if __name__ == "__main__":
    Base.metadata.create_all(engine)
