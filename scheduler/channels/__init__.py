"""Channel adapters: one interface (`scheduler.core.channel`: `Channel.send(recipient,
message) -> SendResult`), re-exported here.

The WeCom app channel (`scheduler.channels.wecom_app`) is the first; its pure parts
are the classifier (`wecom_errors`), the token cache (`wecom_token`) and the
per-recipient budget (`budget`). The one-call channels share `webhook` (the shell)
and `errors` (the transport rows): the group robot (`robot`), WxPusher
(`wxpusher`), Server酱 (`serverchan`) and a wecomchan relay (`wecomchan`), each
with its `*_errors` table; `factory.from_settings` builds those that are configured.
"""

from scheduler.core.channel import Channel, OutboundMessage, SendResult

__all__ = ["Channel", "OutboundMessage", "SendResult"]
