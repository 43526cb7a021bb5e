"""Channel adapters: one interface (`Channel.send(recipient, message) -> SendResult`).

The WeCom app channel (`scheduler.channels.wecom_app`) is the first; its pure parts
are the classifier (`wecom_errors`), the token cache (`wecom_token`) and the
per-recipient budget (`budget`).
"""

from scheduler.channels.base import Channel, ErrorClass, OutboundMessage, Outcome, SendResult

__all__ = ["Channel", "ErrorClass", "OutboundMessage", "Outcome", "SendResult"]
