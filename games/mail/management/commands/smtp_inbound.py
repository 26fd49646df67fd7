"""Run the inbound SMTP server (games/mail/smtp_server.py) until interrupted."""

from django.core.management.base import BaseCommand

from games.mail.smtp_server import serve_forever


class Command(BaseCommand):
    help = "Receive inbound game email over SMTP and feed it to the inbound service."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8025)

    def handle(self, *args, **options):
        self.stdout.write(f"SMTP inbound on {options['host']}:{options['port']}")
        self.stdout.flush()
        serve_forever(host=options["host"], port=options["port"])
