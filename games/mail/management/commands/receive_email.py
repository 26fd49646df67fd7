"""Read one raw RFC 5322 message from standard input (as an MTA pipe delivers it) and handle it.

Postfix example (master.cf):  faltisia unix - n n - - pipe user=app argv=/app/manage.py receive_email
--recipient ${original_recipient}.  Exit status is 0 for every handled message, answered or ignored,
so the MTA never bounces (and never loops); only an internal error returns 75 (EX_TEMPFAIL: retry).
"""

import logging
import os
import sys

from django.core.management.base import BaseCommand

from games.mail.inbound import inbound_message_process

logger = logging.getLogger(__name__)
EX_TEMPFAIL = 75


class Command(BaseCommand):
    help = "Process one inbound email from standard input."
    stealth_options = ("stdin",)

    def add_arguments(self, parser):
        parser.add_argument("--recipient", default=None,
                            help="envelope recipient (default: $ORIGINAL_RECIPIENT or $RECIPIENT if set)")

    def handle(self, *args, **options):
        source = options.get("stdin") or sys.stdin  # call_command(..., stdin=BytesIO(raw)) in tests
        stream = getattr(source, "buffer", source)
        raw = stream.read()
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        recipient = options["recipient"] or os.environ.get("ORIGINAL_RECIPIENT") or os.environ.get("RECIPIENT")
        try:
            result = inbound_message_process(raw=raw, recipient=recipient)
        except Exception:
            logger.exception("inbound mail could not be processed; asking the MTA to retry")
            sys.exit(EX_TEMPFAIL)
        self.stdout.write(f"{result.outcome} {result.reason}{' answered' if result.answered else ''}")
