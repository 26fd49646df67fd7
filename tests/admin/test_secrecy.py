"""The admin reads no secret through its query string, search, sorting or pages during play.

Staff are players too. A superuser seated at a game in play must not be able to tell whether another
seat holds a card, picked an option, has a seed above some number, ...: every admin channel answers the
same (status and rows listed) whether or not the value matches. Secret fields: games/admin/secrecy.py.
"""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from games.admin.secrecy import SECRET_FIELDS, SecretFieldsAdminMixin, SecretFieldsInlineMixin, lookup_touches_secret
from games.mail.models import InboundMessage, Notification, SeatMailbox, UsedLink
from games.models import Event, Game, GameStatus, Prompt, Seat, Submission
from games.tournaments.models import Tournament, TournamentStatus
from tests.factories import make_started_game
from tests.games.helpers import pick

pytestmark = pytest.mark.django_db

CANARY = "CANARY-SECRET"
NOPE = "NOTHING-LIKE-IT"
SEED = 7  # make_started_game's seed
TOURNAMENT_SEED = 123456789


class Played:
    """A 2-player game in play whose seat 0 is a superuser; every secret of seat 1 holds CANARY."""

    def __init__(self):
        self.game, users = make_started_game(players=2, seed=SEED)
        boss = users[0]
        boss.is_staff = boss.is_superuser = True
        boss.save()
        self.site = Client()
        self.site.force_login(boss)
        pick(self.game, 0)  # a pick and a private event of seat 0
        self.game.refresh_from_db()
        game = self.game
        Game.objects.filter(pk=game.pk).update(state={**game.state, "canary_hand": [CANARY]})
        seat = Seat.objects.get(game=game, position=1)
        Seat.objects.filter(pk=seat.pk).update(standing_orders=[CANARY], email_token_hash=f"{CANARY}-hash")
        prompt = Prompt.objects.get(game=game, seat=seat, closed_at__isnull=True)
        Prompt.objects.filter(pk=prompt.pk).update(options=[{"id": CANARY, "label": CANARY}],
                                                   text=f"{CANARY}: keep it face down?")
        Submission.objects.filter(game=game).update(option_id=CANARY)
        self.private_event = Event.objects.create(game=game, phase=game.phase, text=f"You drew {CANARY}.",
                                                  data={"card": CANARY}, visibility=[1])
        self.notification = Notification.objects.create(
            kind="prompt", dedupe_key="canary", address="p1@example.org", game=game, seat=seat, prompt=prompt,
            subject="[Game] Tiny", body_text=f"Your hand: {CANARY}", body_html=f"<p>{CANARY}</p>",
            headers={"Reply-To": f"play+{CANARY}@example.org"}, message_id="<m@example.org>")
        SeatMailbox.objects.filter(seat=seat).delete()
        self.mailbox = SeatMailbox.objects.create(seat=seat, nonce=f"{CANARY}-nonce", token_hash=f"{CANARY}-th")
        self.inbound = InboundMessage.objects.create(mailbox=self.mailbox, message_key="k1", subject=f"play {CANARY}",
                                                     from_address="p1@example.org", outcome="recorded")
        self.used_link = UsedLink.objects.create(nonce=f"{CANARY}-link", prompt=prompt, option_id=CANARY)
        self.tournament = Tournament.objects.create(name="Cup", engine="tinygame", format="round_robin",
                                                    table_size=2, status=TournamentStatus.RUNNING,
                                                    seed=TOURNAMENT_SEED)

    def answer(self, changelist: str, params: dict) -> tuple[int, list[int] | None]:
        """What a changelist tells: its status and the rows it lists, in order."""
        r = self.site.get(reverse(f"admin:{changelist}_changelist"), params)
        cl = r.context.get("cl") if r.status_code == 200 and r.context is not None else None
        return r.status_code, None if cl is None else [o.pk for o in cl.result_list]

    def page(self, url: str) -> str:
        r = self.site.get(url)
        assert r.status_code == 200, url
        return r.content.decode()

    def finish(self):
        Game.objects.filter(pk=self.game.pk).update(status=GameStatus.FINISHED)


@pytest.fixture
def played():
    return Played()


# (changelist, lookup, a value that matches seat 1's secret, one that does not)
LOOKUPS = [
    ("games_game", "state__icontains", CANARY, NOPE),
    ("games_game", "seed", SEED, SEED + 1),
    ("games_game", "seed__gt", SEED - 1, SEED),
    ("games_seat", "standing_orders__icontains", CANARY, NOPE),
    ("games_seat", "email_token_hash__startswith", CANARY, NOPE),
    ("games_prompt", "options__icontains", CANARY, NOPE),
    ("games_prompt", "text__icontains", CANARY, NOPE),
    ("games_submission", "option_id", CANARY, NOPE),
    ("games_submission", "option_id__in", CANARY, NOPE),
    ("games_event", "text__icontains", CANARY, NOPE),
    ("games_event", "data__icontains", CANARY, NOPE),
    ("mail_notification", "body_text__icontains", CANARY, NOPE),
    ("mail_notification", "body_html__icontains", CANARY, NOPE),
    ("mail_notification", "headers__icontains", CANARY, NOPE),
    ("mail_inboundmessage", "subject__icontains", CANARY, NOPE),
    ("mail_usedlink", "option_id", CANARY, NOPE),
    ("mail_usedlink", "nonce__startswith", CANARY, NOPE),
    ("mail_seatmailbox", "token_hash__startswith", CANARY, NOPE),
    ("mail_seatmailbox", "nonce__startswith", CANARY, NOPE),
    ("tournaments_tournament", "seed", TOURNAMENT_SEED, TOURNAMENT_SEED + 1),
    ("tournaments_tournament", "seed__lt", TOURNAMENT_SEED + 1, TOURNAMENT_SEED),
]


@pytest.mark.parametrize("changelist,lookup,hit,miss", LOOKUPS, ids=[f"{c}?{k}" for c, k, _, _ in LOOKUPS])
def test_a_query_string_lookup_on_a_secret_field_answers_the_same_whatever_the_value(played, changelist, lookup,
                                                                                     hit, miss):
    """A filter in the query string (`?option_id=...`, `?seed__gt=...`) answers no yes/no about another seat's
    secrets: the list is the same for a hit as for a miss."""
    matching, not_matching = played.answer(changelist, {lookup: hit}), played.answer(changelist, {lookup: miss})
    assert matching == not_matching
    assert matching[1] is None or matching[1] == []  # nothing listed because of the secret either


def test_search_matches_a_private_event_only_once_its_game_is_over(played):
    """`?q=` on the log does not search private events' text (a card drawn) during play."""
    assert played.answer("games_event", {"q": CANARY}) == played.answer("games_event", {"q": NOPE})
    public = Event.objects.filter(game=played.game, visibility__isnull=True).first()
    assert played.answer("games_event", {"q": public.text})[1] == [public.pk]  # public text stays searchable
    played.finish()
    assert played.answer("games_event", {"q": CANARY})[1] == [played.private_event.pk]


@pytest.mark.parametrize("changelist,make_rows", [
    ("mail_inboundmessage", lambda p, subjects: [
        InboundMessage.objects.create(mailbox=p.mailbox, message_key=f"o{i}", subject=s, outcome="recorded").pk
        for i, s in enumerate(subjects)]),
    ("games_event", lambda p, subjects: [
        Event.objects.create(game=p.game, phase=p.game.phase, text=s, visibility=[1]).pk for s in subjects]),
], ids=["inbound-subject", "event-text"])
def test_sorting_by_a_secret_column_does_not_order_by_the_secret(played, changelist, make_rows):
    """`?o=<column>` must not sort inbound mails by subject or the log by (private) text: the order would
    reveal them. Sorted by any column, the order listed must be the same whichever of two rows
    holds the smaller secret."""
    columns = len(played.site.get(reverse(f"admin:{changelist}_changelist")).context["cl"].list_display)

    def order(subjects):
        InboundMessage.objects.all().delete()
        Event.objects.filter(game=played.game).delete()
        a, b = make_rows(played, subjects)
        for o in [str(i) for i in range(columns)] + [f"-{i}" for i in range(columns)]:
            listed = [pk for pk in played.answer(changelist, {"o": o})[1] if pk in (a, b)]
            yield o, ["first" if pk == a else "second" for pk in listed]
    assert list(order(["a-card", "z-card"])) == list(order(["z-card", "a-card"]))


def test_no_admin_column_sorts_by_a_secret_field():
    """No `?o=` column of any admin orders by a secret field (such as the log by its text)."""
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    for model, model_admin in admin.site._registry.items():
        cl_class = model_admin.get_changelist(request)
        for column in model_admin.list_display:
            cl = cl_class.__new__(cl_class)
            cl.model, cl.model_admin, cl.lookup_opts = model, model_admin, model._meta
            order_field = cl.get_ordering_field(column)
            name = order_field if isinstance(order_field, str) else getattr(
                getattr(order_field, "expression", order_field), "name", None)
            assert not (isinstance(name, str) and lookup_touches_secret(model, name.lstrip("-"))), (model, column)


def test_change_pages_and_lists_show_no_secret_of_a_game_in_play(played):
    """The pages that could show secrets during play (a private event, standing orders, a prompt's
    text naming a face-down card, an inbound subject with a pick, the tournament seed every table's seed
    derives from) show none; the game's own ones come back once it is over, so the check can fail."""
    p = played
    seat = Seat.objects.get(game=p.game, position=1)
    prompt = Prompt.objects.get(game=p.game, seat=seat, closed_at__isnull=True)
    game_pages = [reverse("admin:games_game_change", args=[p.game.pk]),
                  reverse("admin:games_event_changelist"),
                  reverse("admin:games_event_change", args=[p.private_event.pk]),
                  reverse("admin:games_event_history", args=[p.private_event.pk]),
                  reverse("admin:games_seat_change", args=[seat.pk]),
                  reverse("admin:games_prompt_change", args=[prompt.pk]),
                  reverse("admin:mail_inboundmessage_changelist"),
                  reverse("admin:mail_inboundmessage_change", args=[p.inbound.pk]),
                  reverse("admin:mail_usedlink_change", args=[p.used_link.pk])]
    credential_pages = [reverse("admin:mail_seatmailbox_change", args=[p.mailbox.pk]),
                        reverse("admin:mail_seatmailbox_changelist")]
    for url in game_pages + credential_pages:
        assert CANARY not in p.page(url), url
    tournament_page = reverse("admin:tournaments_tournament_change", args=[p.tournament.pk])
    assert str(TOURNAMENT_SEED) not in p.page(tournament_page)

    p.finish()
    for url in game_pages[:3] + game_pages[4:8]:
        assert CANARY in p.page(url), url
    assert f"{CANARY}-hash" not in p.page(game_pages[4])  # a credential: never shown
    for url in credential_pages:
        assert CANARY not in p.page(url), url
    Tournament.objects.filter(pk=p.tournament.pk).update(status=TournamentStatus.FINISHED)
    assert str(TOURNAMENT_SEED) in p.page(tournament_page)


def test_the_tournament_add_form_does_not_show_the_seed_it_will_use(played):
    """The add form shows no prefilled seed, which a director who plays could note."""
    page = played.page(reverse("admin:tournaments_tournament_add"))
    assert 'name="seed"' not in page


def test_mail_records_can_be_neither_deleted_nor_edited(played):
    """Deleting a used link would make its one-click pick work again, and moving a seat's mailbox to another
    seat would make its replies act there: neither can be done."""
    p = played
    r = p.site.post(reverse("admin:mail_usedlink_delete", args=[p.used_link.pk]), {"post": "yes"})
    assert r.status_code == 403 and UsedLink.objects.filter(pk=p.used_link.pk).exists()
    r = p.site.post(reverse("admin:mail_notification_changelist"),
                    {"action": "delete_selected", "_selected_action": [p.notification.pk], "post": "yes"})
    assert Notification.objects.filter(pk=p.notification.pk).exists()
    other_seat = Seat.objects.get(game=p.game, position=0)
    r = p.site.post(reverse("admin:mail_seatmailbox_change", args=[p.mailbox.pk]), {"seat": other_seat.pk})
    p.mailbox.refresh_from_db()
    assert r.status_code == 403 and p.mailbox.seat.position == 1


def test_a_list_filter_on_a_secret_field_is_a_system_check_error():
    """A list_filter or date_hierarchy would bypass lookup_allowed; the check refuses it."""
    from django.contrib.admin import AdminSite

    class Leaky(SecretFieldsAdminMixin, admin.ModelAdmin):
        game_path = ""
        list_filter = ("status", ("seed", admin.EmptyFieldListFilter))

    errors = Leaky(Game, AdminSite()).check()
    assert [e.id for e in errors] == ["faltisia.E001"] and "'seed'" in errors[0].msg


def test_lookups_through_relations_reach_the_secret_fields_of_other_models():
    """`game__seed`, `submissions__option_id`, `prompt_row__options__...` are secret too."""
    assert lookup_touches_secret(Seat, "game__seed__gt")
    assert lookup_touches_secret(Game, "submissions__option_id")
    assert lookup_touches_secret(Submission, "prompt_row__options__icontains")
    assert lookup_touches_secret(InboundMessage, "mailbox__seat__game__state__icontains")
    assert not lookup_touches_secret(Seat, "game__status")
    assert not lookup_touches_secret(Game, "seats__user__username__icontains")


def test_every_admin_of_a_model_with_secrets_uses_the_secrecy_mixins():
    """A new admin (or inline) of a model with secret fields must use the shared rule."""
    for model, model_admin in admin.site._registry.items():
        if model._meta.label_lower in SECRET_FIELDS:
            assert isinstance(model_admin, SecretFieldsAdminMixin), model
        for inline in model_admin.inlines:
            if inline.model._meta.label_lower in SECRET_FIELDS and inline.model is not Event:
                assert issubclass(inline, SecretFieldsInlineMixin), inline
