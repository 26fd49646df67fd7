"""Create demo users and a demo game a newcomer can open at once (idempotent), and print how to reach it."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.template.defaultfilters import pluralize
from rest_framework.authtoken.models import Token

from accounts.models import User
from accounts.services import user_create
from games.engines import registry
from games.models import Game, GameStatus
from games.errors import GameError
from games.services import game_create, game_join

DEMO_PASSWORD = "demo-pass-1234"


def available_engine(preferred: str) -> str:
    """The preferred game if its engine loads, else the first one that does."""
    for slug in [preferred] + [s for s in registry.slugs() if s != preferred]:
        try:
            registry.get_engine(slug)
            return slug
        except (ImportError, KeyError, AttributeError):
            continue
    raise SystemExit("no game engine is available")


class Command(BaseCommand):
    help = "Create demo users alice, bob, carol, dave and an active demo game."

    def add_arguments(self, parser):
        parser.add_argument("--game", default="faltisia")
        parser.add_argument("--players", type=int, default=3)
        parser.add_argument("--base-url", default="http://127.0.0.1:8000")
        # A short clock and bots let a newcomer see deadlines, defaults and reminders fire within minutes
        # (./run.sh passes DEMO_CLOCK_SECONDS and DEMO_BOTS).
        parser.add_argument("--clock-seconds", type=int, default=None,
                            help="seconds per decision in the demo game (default: the server's clock)")
        parser.add_argument("--bots", type=int, default=0, help="seats of the demo game played by bots")

    def handle(self, *args, game: str, players: int, base_url: str, clock_seconds: int | None, bots: int,
               **options):
        slug = available_engine(game)
        if not 0 <= bots < players:
            raise CommandError(f"--bots must be from 0 to {players - 1}")
        clock = {} if clock_seconds is None else {"step_seconds": clock_seconds}
        names = ["alice", "bob", "carol", "dave", "erin", "frank"][:players - bots]
        users = []
        for name in names:
            user = User.objects.filter(username=name).first() or user_create(
                username=name, email=f"{name}@example.org", password=DEMO_PASSWORD, email_verified=True)
            users.append(user)
        if not User.objects.filter(username="admin").exists():
            User.objects.create_superuser("admin", "admin@example.org", DEMO_PASSWORD)
        # The demo game already made with these settings, or a new one (another clock or bots: a new game).
        demo = next((g for g in Game.objects.filter(engine=slug, created_by=users[0], status=GameStatus.ACTIVE,
                                                     players=players).order_by("-id")
                     if g.clock == clock and g.seats.filter(is_bot=True).count() == bots), None)
        if demo is None:
            try:
                demo = game_create(created_by=users[0], engine=slug, players=players, seed=2024, clock=clock,
                                   bots=bots)
            except GameError as e:
                raise CommandError(e.detail) from e
            for user in users[1:]:
                game_join(game=demo, user=user)
        self.stdout.write(self.style.SUCCESS(f"Demo game #{demo.pk} ({slug}) is ready."))
        self.stdout.write(f"  Page:   {base_url}/games/{demo.pk}/  (log in as any demo player)")
        self.stdout.write(f"  API:    {base_url}/api/games/{demo.pk}/   schema: {base_url}/api/schema/")
        self.stdout.write(f"  Admin:  {base_url}/admin/  (admin / {DEMO_PASSWORD})")
        for user in users:
            token = Token.objects.get_or_create(user=user)[0].key
            self.stdout.write(f"  {user.username} / {DEMO_PASSWORD}   curl -H 'Authorization: Token {token}' "
                              f"{base_url}/api/games/{demo.pk}/")
        if clock_seconds is not None or bots:
            self.stdout.write(f"  Clock:  {clock_seconds or 'default'} seconds per decision; {bots} bot seat{pluralize(bots)}")
        if settings.EMAIL_BACKEND.endswith("filebased.EmailBackend"):
            self.stdout.write(f"  Mail:   every email is a file in {settings.EMAIL_FILE_PATH}/")
