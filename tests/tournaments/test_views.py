"""The players' tournament pages: index, register/withdraw buttons, proposals that staff
approve in one click, pages in the site's layout and leaderboards under the game's real name."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from games.tournaments.models import Entry, Tournament, TournamentStatus
from games.tournaments.services import tournament_propose, tournament_start
from tests.factories import UserFactory
from tests.tournaments.helpers import bot_field, director, make_tournament, run_to_the_end

PROPOSAL = {"name": "Carol's cup", "game": "tinygame", "format": "swiss", "table_size": "3", "rounds": "2",
            "clock": "fixed-48h", "rated": "on"}


def signed_in(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_index_lists_open_running_and_finished_in_the_site_layout(db):
    """/tournaments/ lists open, running and finished events."""
    boss = director()
    make_tournament(boss, name="Open cup")
    running = make_tournament(boss, name="Running cup", rounds=2, clock={"type": "none"})
    bot_field(running, 3)
    tournament_start(tournament=running, by=boss)
    done = make_tournament(boss, name="Done cup", rounds=1)
    bot_field(done, 3)
    run_to_the_end(done, boss)
    page = Client().get("/tournaments/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'class="topnav"' in html and "site.css" in html  # the site's layout, not a bare page
    sections = {key: html.index(f'id="{key}-tournaments"') for key in ("open", "running", "finished")}
    assert sections["open"] < html.index("Open cup") < sections["running"] < html.index("Running cup")
    assert sections["finished"] < html.index("Done cup")
    assert "Tiny Game" in html  # the game's real name from the registry


def test_nav_links_to_tournaments_and_leaderboard_for_everyone(db):
    """A nav link to the tournaments, signed in or not."""
    for client, url in ((Client(), "/accounts/login/"), (signed_in(UserFactory()), "/")):
        html = client.get(url).content.decode()
        assert f'href="{reverse("tournaments-index")}"' in html and f'href="{reverse("leaderboard-page")}"' in html


def test_register_and_withdraw_buttons_post_through_the_services(db):
    """Register/withdraw buttons (POST + CSRF) on the tournament page."""
    boss, carol = director(), UserFactory()
    cup = make_tournament(boss, name="Button cup")
    page = signed_in(carol).get(f"/tournaments/{cup.pk}/").content.decode()
    assert f'action="/tournaments/{cup.pk}/join/"' in page and "csrfmiddlewaretoken" in page
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(carol)
    assert strict.post(f"/tournaments/{cup.pk}/join/").status_code == 403  # no token, no entry
    assert not Entry.objects.filter(tournament=cup).exists()
    assert Client().post(f"/tournaments/{cup.pk}/join/").status_code == 302  # to the login page
    c = signed_in(carol)
    r = c.post(f"/tournaments/{cup.pk}/join/", follow=True)
    assert "You are registered" in r.content.decode() and Entry.objects.filter(tournament=cup, user=carol).exists()
    assert f'action="/tournaments/{cup.pk}/withdraw/"' in r.content.decode()
    r = c.post(f"/tournaments/{cup.pk}/withdraw/", follow=True)
    assert "You have withdrawn" in r.content.decode() and not Entry.objects.filter(tournament=cup).exists()
    assert c.get(f"/tournaments/{cup.pk}/join/").status_code == 405


def test_a_refused_registration_is_explained_on_the_page(db):
    """The services' refusal (a full tournament) reaches the player as a message."""
    boss = director()
    cup = make_tournament(boss, name="Tiny cup", max_players=2)
    bot_field(cup, 2)
    r = signed_in(UserFactory()).post(f"/tournaments/{cup.pk}/join/", follow=True)
    assert "the tournament is full" in r.content.decode()


def test_a_player_proposes_and_staff_approve_in_one_click(db, api):
    """A signed-in player proposes a tournament; staff approve it with one button."""
    carol, boss, dave = UserFactory(), director(), UserFactory()
    assert Client().get("/tournaments/propose/").status_code == 302  # sign in first
    r = signed_in(carol).post("/tournaments/propose/", PROPOSAL, follow=True)
    assert "waiting for a staff member" in r.content.decode()
    t = Tournament.objects.get(name="Carol's cup")
    assert (t.status, t.proposed_by, t.created_by, t.format, t.rounds) == (
        TournamentStatus.PROPOSED, carol, None, "swiss", 2)
    assert t.clock == {"type": "fixed", "step_seconds": 48 * 3600}

    # unlisted until approved: not in the index or the API list, not found by others, not joinable
    assert "Carol&#x27;s cup" not in Client().get("/tournaments/").content.decode()
    assert t.pk not in [x["id"] for x in Client().get("/api/tournaments/").json()["tournaments"]]
    assert signed_in(dave).get(f"/tournaments/{t.pk}/").status_code == 404
    assert api.as_user(dave).get(f"/api/tournaments/{t.pk}/").status_code == 404
    assert Client().get(f"/api/tournaments/{t.pk}/standings/").status_code == 404
    assert api.as_user(carol).get(f"/api/tournaments/{t.pk}/").json()["status"] == "proposed"
    assert signed_in(dave).post(f"/tournaments/{t.pk}/join/").status_code == 404
    mine = signed_in(carol).get("/tournaments/").content.decode()
    assert 'id="proposals"' in mine and "Carol&#x27;s cup" in mine and "Approve" not in mine
    # the proposer is not its director
    assert api.as_user(carol).post(f"/api/tournaments/{t.pk}/start/").status_code == 403
    assert signed_in(carol).post(f"/tournaments/{t.pk}/approve/").status_code == 404

    staff = signed_in(boss)
    index = staff.get("/tournaments/").content.decode()
    assert f'action="/tournaments/{t.pk}/approve/"' in index
    r = staff.post(f"/tournaments/{t.pk}/approve/", follow=True)
    assert "is approved" in r.content.decode()
    t.refresh_from_db()
    assert t.status == TournamentStatus.REGISTRATION and t.created_by == boss
    signed_in(dave).post(f"/tournaments/{t.pk}/join/")
    assert Entry.objects.filter(tournament=t, user=dave).exists()


def test_a_proposal_is_checked_like_a_staff_creation(db):
    """A proposal that could not be run is refused with the services' own message."""
    r = signed_in(UserFactory()).post("/tournaments/propose/", {**PROPOSAL, "table_size": "9"})
    assert r.status_code == 200 and not Tournament.objects.exists()
    assert "takes 2-4 players" in r.content.decode()
    r = signed_in(UserFactory()).post("/tournaments/propose/", {**PROPOSAL, "registration_closes": "2001-01-01T10:00"})
    assert "Pick a time in the future" in r.content.decode() and not Tournament.objects.exists()


def test_admin_action_approves_proposals(db):
    """Staff approve from the admin's list too (one action)."""
    boss = director()
    boss.is_superuser = True
    boss.save()
    t = tournament_propose(proposed_by=UserFactory(), name="Admin cup", engine="tinygame", format="swiss",
                           table_size=3, rounds=1)
    site = signed_in(boss)
    r = site.post(reverse("admin:tournaments_tournament_changelist"),
                  {"action": "approve", "_selected_action": [t.pk], "index": 0}, follow=True)
    assert "approved, open for registration" in r.content.decode()
    t.refresh_from_db()
    assert t.status == TournamentStatus.REGISTRATION and t.created_by == boss


def test_tournament_page_and_leaderboard_in_the_site_layout_with_the_game_name(db):
    """Standings and pairings styled like the site; the leaderboard names the game ("Tiny Game", not its slug)."""
    boss = director()
    t = make_tournament(boss, name="Styled cup", rounds=1)
    users = bot_field(t, 3)
    run_to_the_end(t, boss)
    html = Client().get(f"/tournaments/{t.pk}/").content.decode()
    assert 'class="topnav"' in html and 'class="table standings"' in html and 'id="round-1"' in html
    assert "Tiny Game" in html and all(u.username in html for u in users)
    board = Client().get("/leaderboard/", {"game": "tinygame"}).content.decode()
    assert 'class="topnav"' in board and "Tiny Game" in board and "Leaderboard: tinygame" not in board
    assert all(u.username in board for u in users)
    default = Client().get("/leaderboard/").content.decode()
    assert "Maid Knight Saga: The Story of Faltisia" in default and "Leaderboard: faltisia" not in default
    assert Client().get("/leaderboard/", {"game": "nosuchgame"}).status_code == 404
