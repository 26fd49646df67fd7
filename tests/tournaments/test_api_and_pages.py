"""Tournament and leaderboard API routes, the public standings page and the tournament admin."""

from django.test import Client, TestCase
from django.urls import reverse

from games.tournaments.models import Entry, Round, Tournament
from tests.factories import UserFactory
from tests.tournaments.helpers import bot_field, director, make_tournament, run_to_the_end


def test_staff_create_users_register_and_anyone_reads_standings(db, api):
    boss, player = director(), UserFactory()
    body = {"name": "Spring league", "game": "tinygame", "format": "swiss", "table_size": 3, "rounds": 2,
            "options": {"rounds": 1}}
    r = api.as_user(player).post("/api/tournaments/", body, format="json")
    assert r.status_code == 403 and r.json()["error"] == "not_game_admin"
    r = api.as_user(boss).post("/api/tournaments/", {**body, "settings": {"tie_breaks": ["luck"]}}, format="json")
    assert r.status_code == 400 and not Tournament.objects.exists()
    r = api.as_user(boss).post("/api/tournaments/", body, format="json")
    assert r.status_code == 201
    tid = r.json()["id"]
    r = api.as_user(player).post(f"/api/tournaments/{tid}/register/")
    assert r.status_code == 201 and Entry.objects.filter(tournament_id=tid, user=player).exists()
    assert api.as_user(player).delete(f"/api/tournaments/{tid}/register/").status_code == 204
    assert not Entry.objects.filter(tournament_id=tid).exists()

    anonymous = Client()
    listed = anonymous.get("/api/tournaments/").json()["tournaments"]
    assert [t["id"] for t in listed] == [tid]
    standings = anonymous.get(f"/api/tournaments/{tid}/standings/")
    assert standings.status_code == 200 and standings.json()["rows"] == []


def test_standings_page_json_and_leaderboard_after_a_finished_tournament(db, api):
    boss = director()
    t = make_tournament(boss, name="Autumn cup", rounds=2)
    users = bot_field(t, 6)
    run_to_the_end(t, boss)
    anonymous = Client()
    data = anonymous.get(f"/api/tournaments/{t.pk}/standings/").json()
    assert data["final"] and len(data["rows"]) == 6 and data["rows"][0]["rank"] == 1
    page = anonymous.get(f"/tournaments/{t.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Final standings" in html and all(u.username in html for u in users)
    board = anonymous.get("/api/leaderboard/", {"game": "tinygame"}).json()
    assert {r["player"] for r in board["rows"]} == {u.username for u in users}
    assert [r["rating"] for r in board["rows"]] == sorted((r["rating"] for r in board["rows"]), reverse=True)
    assert anonymous.get("/leaderboard/", {"game": "tinygame"}).status_code == 200
    mine = anonymous.get(f"/api/players/{users[0].username}/ratings/").json()
    assert mine["ratings"][0]["games"] == 2


def test_staff_start_and_drop_through_the_api(db, api):
    boss = director()
    t = make_tournament(boss, rounds=1)
    players = [UserFactory() for _ in range(3)]
    for p in players:
        api.as_user(p).post(f"/api/tournaments/{t.pk}/register/")
    assert api.as_user(players[0]).post(f"/api/tournaments/{t.pk}/start/").status_code == 403
    with TestCase.captureOnCommitCallbacks(execute=True):
        r = api.as_user(boss).post(f"/api/tournaments/{t.pk}/start/")
    assert r.status_code == 200 and r.json()["status"] == "running"
    r = api.as_user(boss).post(f"/api/tournaments/{t.pk}/drop/", {"player": players[2].username}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "dropped"
    r = api.as_user(players[0]).post(f"/api/tournaments/{t.pk}/drop/", {"player": players[1].username},
                                     format="json")
    assert r.status_code == 403


def test_tournament_admin_start_action_and_permissions(db):
    boss = director()
    boss.is_superuser = True
    boss.save()
    t = make_tournament(boss, rounds=1)
    bot_field(t, 3)
    url = reverse("admin:tournaments_tournament_changelist")
    clerk = UserFactory()
    clerk.is_staff = True
    clerk.save()
    staff = Client()
    staff.force_login(clerk)
    assert staff.post(url, {"action": "start", "_selected_action": [t.pk]}).status_code == 403
    site = Client()
    site.force_login(boss)
    with TestCase.captureOnCommitCallbacks(execute=True):
        r = site.post(url, {"action": "start", "_selected_action": [t.pk], "index": 0}, follow=True)
    assert "round 1 seated" in r.content.decode()
    t.refresh_from_db()
    assert t.status == "finished" and Round.objects.filter(tournament=t).count() == 1
    page = site.get(reverse("admin:tournaments_tournament_change", args=[t.pk]))
    assert page.status_code == 200 and "pts" in page.content.decode()
    games = site.get(reverse("admin:games_game_changelist"), {"tournament": str(t.pk)})
    assert len(games.context["cl"].result_list) == 1
