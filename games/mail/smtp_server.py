"""A small SMTP server for inbound mail (aiosmtpd) that feeds the one inbound service.

For a host without a full MTA, or behind one that relays to it. It accepts only recipients of our
reply domain (no open relay), caps the size, and hands every message to inbound_message_process with
its envelope recipient. The service runs in a worker thread: Django's ORM is synchronous.
"""

from __future__ import annotations

import asyncio
import logging

from aiosmtpd.controller import Controller
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

logger = logging.getLogger(__name__)


def _process(raw: bytes, recipient: str) -> str:
    from .inbound import inbound_message_process

    close_old_connections()
    try:
        return inbound_message_process(raw=raw, recipient=recipient).outcome
    finally:
        close_old_connections()


class InboundHandler:
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        domain = address.rpartition("@")[2].lower()
        if domain != settings.EMAIL_DOMAIN.lower():
            return "550 5.7.1 relaying denied"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        for rcpt in envelope.rcpt_tos:
            try:
                outcome = await sync_to_async(_process, thread_sensitive=False)(raw, rcpt)
                # Never log the address itself: its local part carries the seat's secret reply token.
                logger.info("smtp inbound for @%s: %s", rcpt.rpartition("@")[2], outcome)
            except Exception:
                logger.exception("smtp inbound failed")
                return "451 4.3.0 temporary failure, try again later"
        return "250 Message accepted"


def make_controller(*, host: str = "127.0.0.1", port: int = 8025) -> Controller:
    # decode_data=False keeps the bytes as sent; the size cap is enforced by the SMTP server itself
    # (a little above the service's own cap, so the service can still answer "too large").
    return Controller(InboundHandler(), hostname=host, port=port,
                      data_size_limit=settings.MAIL_INBOUND_MAX_BYTES * 4, decode_data=False)


def serve_forever(*, host: str, port: int) -> None:
    controller = make_controller(host=host, port=port)
    controller.start()
    logger.info("SMTP inbound listening on %s:%s", host, port)
    try:
        asyncio.run(_wait_forever())
    except KeyboardInterrupt:
        pass
    finally:
        controller.stop()


async def _wait_forever() -> None:
    await asyncio.Event().wait()

