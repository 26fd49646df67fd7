"""The games admin, driven through its own views (changelist action form POSTs, change pages).

Contract: every admin action goes through a service and is recorded
in the game's log as an Event visible to all, naming the admin; submissions and events are
read-only; a non-staff user is sent to the admin login; staff without permissions get 403.
"""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Event, Game, GameStatus, Prompt, Seat, Submission, SubmissionSource
from tests.factories import UserFactory, make_started_game
from tests.games.helpers import open_prompt, pick

CHANGELIST = reverse("admin:games_game_changelist")


@pytest.fixture
def admin_user(db):
    u = UserFactory(username="boss")
    u.is_staff = u.is_superuser = True
    u.save()
    return u


@pytest.fixture
def site(admin_user):
    c = Client()
    c.force_login(admin_user)
    return c


def act(client, action, game, **extra):
    """POST the changelist's action form as the browser does (on-commit callbacks run)."""
    data = {"action": action, "_selected_action": [game.pk], "index": 0, **extra}
    from django.test import TestCase

    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post(CHANGELIST, data, follow=True)


def admin_events(game, action):
    return list(Event.objects.filter(game=game, data__action=action))


def test_pause_and_resume_through_the_changelist_are_logged_for_everyone(site, admin_user):
    game, _ = make_started_game(players=2)
    r = act(site, "pause_games", game)
    assert r.status_code == 200 and "Paused 1 game" in r.content.decode()
    game.refresh_from_db()
    assert game.status == GameStatus.PAUSED
    [ev] = admin_events(game, "pause")
    assert ev.visibility is None and ev.data["admin"] == "boss" and ev.text.startswith("Admin boss paused")
    act(site, "resume_games", game)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE and len(admin_events(game, "resume")) == 1


def test_resume_of_an_active_game_is_refused_with_a_message_and_changes_nothing(site):
    game, _ = make_started_game(players=2)
    r = act(site, "resume_games", game)
    assert "the game is not paused" in r.content.decode()
    assert not admin_events(game, "resume")


def test_extend_deadline_moves_only_the_named_seat(site):
    game, _ = make_started_game(players=2)
    before = {p.seat.position: p.deadline for p in Prompt.objects.filter(game=game, closed_at__isnull=True)}
    act(site, "extend_deadlines", game, hours="5", position="1")
    after = {p.seat.position: p.deadline for p in Prompt.objects.filter(game=game, closed_at__isnull=True)}
    assert after[1] - before[1] == timedelta(hours=5) and after[0] == before[0]
    [ev] = admin_events(game, "extend")
    assert ev.data["seat"] == 1 and "5 hours" in ev.text


def test_extend_without_hours_is_refused_and_changes_nothing(site):
    game, _ = make_started_game(players=2)
    r = act(site, "extend_deadlines", game)
    assert "Give the number of hours" in r.content.decode()
    assert not admin_events(game, "extend")


def test_force_resolve_defaults_missing_decisions_and_resolves_the_step(site):
    game, _ = make_started_game(players=2, options={"rounds": 1})
    pick(game, 0)
    pick(game, 0)  # seat 0 decided the draft step; seat 1 silent
    act(site, "force_resolve", game)
    game.refresh_from_db()
    assert game.phase == 1  # the step resolved on commit
    defaults = Submission.objects.filter(game=game, seat__position=1, source=SubmissionSource.DEFAULT)
    assert defaults.count() == 2
    assert Seat.objects.get(game=game, position=1).missed_deadlines == 0  # the admin's choice, not a miss
    assert len(admin_events(game, "force_resolve")) == 1


def test_replace_player_hands_the_seat_and_its_prompt_to_the_new_player(site):
    game, users = make_started_game(players=2)
    newcomer = UserFactory(username="sub")
    act(site, "replace_player", game, position="1", username="sub")
    seat = Seat.objects.get(game=game, position=1)
    assert seat.user == newcomer and open_prompt(game, 1) is not None
    [ev] = admin_events(game, "replace")
    assert ev.data["old"] == users[1].username and ev.data["new"] == "sub"
    # The same player cannot take a second seat at the game.
    r = act(site, "replace_player", game, position="0", username="sub")
    assert "already sits at this game" in r.content.decode()
    assert Seat.objects.get(game=game, position=0).user == users[0]


def test_seat_to_bot_plays_at_once_and_back_returns_it(site):
    game, users = make_started_game(players=2, options={"rounds": 1})
    act(site, "seat_to_bot", game, position="1")
    seat = Seat.objects.get(game=game, position=1)
    assert seat.is_bot
    assert Submission.objects.filter(game=game, seat=seat, source=SubmissionSource.BOT).exists()
    act(site, "seat_from_bot", game, position="1")
    seat.refresh_from_db()
    assert not seat.is_bot and seat.user == users[1]
    assert [e.data["action"] for e in Event.objects.filter(game=game, data__has_key="admin")] == \
        ["to_bot", "from_bot"]


def test_abandon_closes_prompts_and_says_why(site):
    game, _ = make_started_game(players=2)
    act(site, "abandon_games", game, reason="server move")
    game.refresh_from_db()
    assert game.status == GameStatus.ABANDONED
    assert not Prompt.objects.filter(game=game, closed_at__isnull=True).exists()
    [ev] = admin_events(game, "abandon")
    assert "server move" in ev.text and ev.visibility is None
    r = act(site, "abandon_games", game)
    assert "already abandoned" in r.content.decode()


def test_lateness_filter_finds_games_with_overdue_prompts_and_missed_seats(site):
    late, _ = make_started_game(players=2)
    fine, _ = make_started_game(players=2)
    Prompt.objects.filter(game=late, seat__position=0).update(deadline=timezone.now() - timedelta(minutes=1))
    ids = lambda r: {g.pk for g in r.context["cl"].result_list}  # noqa: E731
    assert ids(site.get(CHANGELIST, {"late": "overdue"})) == {late.pk}
    Seat.objects.filter(game=fine, position=1).update(missed_deadlines=2)
    assert ids(site.get(CHANGELIST, {"late": "missed"})) == {fine.pk}
    assert ids(site.get(CHANGELIST, {"status": "active"})) == {late.pk, fine.pk}


def test_change_page_shows_inlines_read_only(site):
    game, _ = make_started_game(players=2)
    pick(game, 0)
    r = site.get(reverse("admin:games_game_change", args=[game.pk]))
    assert r.status_code == 200
    body = r.content.decode()
    assert "Submissions (latest" in body and "Log (latest" in body and "Prompts (latest" in body
    # No editable inline rows: the formsets of submissions and events have no forms with inputs.
    assert 'name="submissions-0-option_id"' not in body and 'name="events-0-text"' not in body
    # Submissions and events have no add/change/delete in their own admin either.
    sub = Submission.objects.filter(game=game).first()
    assert site.get(reverse("admin:games_submission_add")).status_code == 403
    r = site.post(reverse("admin:games_submission_change", args=[sub.pk]), {"option_id": "c99"})
    assert r.status_code == 403
    assert site.post(reverse("admin:games_event_delete", args=[Event.objects.first().pk]),
                     {"post": "yes"}).status_code == 403


def test_non_staff_is_sent_to_login_and_staff_without_permission_gets_403(db):
    game, users = make_started_game(players=2)
    player = Client()
    player.force_login(users[0])
    r = player.post(CHANGELIST, {"action": "pause_games", "_selected_action": [game.pk]})
    assert r.status_code == 302 and reverse("admin:login") in r["Location"]
    anonymous = Client().get(CHANGELIST)
    assert anonymous.status_code == 302 and reverse("admin:login") in anonymous["Location"]

    clerk = UserFactory()
    clerk.is_staff = True
    clerk.save()
    staff = Client()
    staff.force_login(clerk)
    assert staff.get(CHANGELIST).status_code == 403
    assert staff.post(CHANGELIST, {"action": "pause_games", "_selected_action": [game.pk]}).status_code == 403
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE and not Event.objects.filter(game=game, data__has_key="admin")

    # View permission alone shows the list but not the actions that change games.
    clerk.user_permissions.add(Permission.objects.get(codename="view_game"))
    staff.force_login(clerk)
    r = staff.get(CHANGELIST)
    assert r.status_code == 200 and "pause_games" not in r.content.decode()
    r = staff.post(CHANGELIST, {"action": "pause_games", "_selected_action": [game.pk], "index": 0})
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    clerk.user_permissions.add(Permission.objects.get(codename="change_game"))
    staff.force_login(clerk)
    act(staff, "pause_games", game)
    game.refresh_from_db()
    assert game.status == GameStatus.PAUSED


def test_user_admin_shows_reliability_from_submissions_and_seats(site, admin_user):
    game, users = make_started_game(players=2, clock={"type": "fixed", "step_seconds": 60, "extensions": 0})
    pick(game, 0)
    pick(game, 0)
    Prompt.objects.filter(game=game, seat__position=1).update(deadline=timezone.now() - timedelta(seconds=1))
    from django.test import TestCase

    from games.services import due_phases_sweep, phase_resolve
    with TestCase.captureOnCommitCallbacks(execute=True):
        due_phases_sweep(resolve=lambda g, p: phase_resolve(game_id=g, phase=p))
    r = site.get(reverse("admin:accounts_user_changelist"), {"reliability": "ever_missed"})
    listed = {u.username: u for u in r.context["cl"].result_list}
    assert set(listed) == {users[1].username}
    assert listed[users[1].username].decisions_missed == 2 and listed[users[1].username].missed_now == 1
    page = site.get(reverse("admin:accounts_user_change", args=[users[0].pk])).content.decode()
    assert "2 decisions on time, 0 missed (100% on time)" in page


def test_a_game_in_play_shows_staff_no_snapshot_seed_or_picks_until_it_is_over(site):
    """DESIGN.md: hidden information never leaves the server, on every surface. Staff may be players or
    tournament directors, so the admin hides the snapshot (every hand), the seed (the deck order) and the
    options picked (draft picks, face-down cards) while the game is being played."""
    game, _ = make_started_game(players=2)
    planted = "CANARY-OPTION-ID"
    pick(game, 0)
    Submission.objects.filter(game=game).update(option_id=planted)
    page = site.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert planted not in page
    assert 'class="form-row field-state' not in page and 'class="form-row field-seed' not in page
    Game.objects.filter(pk=game.pk).update(status=GameStatus.FINISHED)
    page = site.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert planted in page and "field-state" in page and "field-seed" in page


def test_prompt_and_submission_pages_hide_hands_and_picks_of_a_game_in_play(site):
    """The same rule on the Prompt and Submission admin pages: options (a hand) and picks stay hidden."""
    game, _ = make_started_game(players=2)
    pick(game, 0)
    planted = "CANARY-CARD"
    Submission.objects.filter(game=game).update(option_id=planted)
    Prompt.objects.filter(game=game).update(options=[{"id": planted, "label": planted}])
    sub, prompt = Submission.objects.filter(game=game).first(), Prompt.objects.filter(game=game).first()
    pages = [reverse("admin:games_submission_changelist"), reverse("admin:games_prompt_changelist"),
             reverse("admin:games_submission_change", args=[sub.pk]),
             reverse("admin:games_prompt_change", args=[prompt.pk])]
    for url in pages:
        assert planted not in site.get(url).content.decode(), url
    Game.objects.filter(pk=game.pk).update(status=GameStatus.FINISHED)
    assert planted in site.get(pages[0]).content.decode()
    assert planted in site.get(pages[2]).content.decode()
    assert planted in site.get(pages[3]).content.decode()


def test_replace_player_refuses_a_deactivated_account(site):
    """A banned (is_active=False) account must not be handed a seat, its hand and its mails by "Replace the
    player": it is refused like an unknown name."""
    game, users = make_started_game(players=2)
    banned = UserFactory(username="banned")
    banned.is_active = False
    banned.save()
    r = act(site, "replace_player", game, position="1", username="banned")
    assert "No active user called" in r.content.decode()
    assert Seat.objects.get(game=game, position=1).user == users[1] and not admin_events(game, "replace")


def test_tournament_replace_refuses_a_deactivated_account(site, admin_user):
    """The same for the tournament action "Replace the player <username> with <new username>"."""
    from games.tournaments.models import Entry
    from games.tournaments.services import tournament_register
    from tests.tournaments.helpers import make_tournament

    t = make_tournament(admin_user, table_size=2)
    player = UserFactory(username="entrant")
    tournament_register(tournament=t, user=player)
    banned = UserFactory(username="banned")
    banned.is_active = False
    banned.save()
    r = site.post(reverse("admin:tournaments_tournament_changelist"),
                  {"action": "replace_player", "_selected_action": [t.pk], "index": 0, "username": "entrant",
                   "new_username": "banned"}, follow=True)
    assert "active user as the substitute" in r.content.decode()
    assert Entry.objects.get(tournament=t).user == player


def test_an_admin_who_plays_in_a_game_cannot_act_on_it(site, admin_user):
    """Staff play too: no admin action on a game where the admin holds a seat (a conflict of interest: extending
    one's own deadline, forcing a step, replacing an opponent); another admin's game is acted on as usual."""
    own, _ = make_started_game(players=2)
    Seat.objects.filter(game=own, position=1).update(user=admin_user)
    other, _ = make_started_game(players=2)
    data = {"action": "pause_games", "_selected_action": [own.pk, other.pk], "index": 0}
    r = site.post(CHANGELIST, data, follow=True)
    said = [str(m) for m in r.context["messages"]]
    assert said == [f"game {own.pk}: you play in this game; another admin must do this.", "Paused 1 game."]
    own.refresh_from_db()
    other.refresh_from_db()
    assert own.status == GameStatus.ACTIVE and other.status == GameStatus.PAUSED
    assert not Event.objects.filter(game=own, data__action="pause").exists()
