"""A whole 2-player Mage Knight game through the JSON API only, by the generic contract client; hidden
information (hands, deck orders, face-down enemies and ruins, tile deck) stays hidden on every surface.

Two users registered through the API, each with their own token and client, play a seeded game to its scoring
by picking among their own prompt's options as the generic contract client does (``random.Random(seed).choice``).
On the way the contract of DESIGN.md is checked at prompts of every kind (a tactic, a turn, a combat):
"400 not an option; 403 not your seat; 409 stale prompt", an illegal pick changes nothing, and a resend with
the same Idempotency-Key is a replay. Every answer each seat gets (view and prompt, and the log now and then)
is searched for what that seat may not know at a real table: the rules say enemy tokens are placed "face
down", ruins tokens "face down at night", tiles are drawn from a shuffled "tile deck", and the other player's
hand and every deck's order are secret (DESIGN.md "Another player's hand ... and the order of decks are
secret"). Ids that sit only in hidden places must never come out; hand and deck cards share ids between
heroes, so canary cards (unique ids and names) are planted in a hand and in a deck instead.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace

import pytest
from django.test import TestCase
from rest_framework.test import APIClient

from games.engines.mage_knight import cards as mk_cards
from games.engines.mage_knight import enemies as mk_enemies
from games.engines.mage_knight import units as mk_units
from games.models import Game, GameStatus, Prompt, Submission

pytestmark = pytest.mark.django_db

SEED = 5
MAX_PICKS = 3000
CONTRACT_CHECK_EVERY = 37  # picks between two rounds of error-contract checks (lands on prompts of every kind)

# Card ids and names found nowhere in the card set: copies of March (a plain Move card) under canary names.
HAND_CANARIES = {0: ("zcanary_hand_0", "Canary Handkerchief Qx7f"), 1: ("zcanary_hand_1", "Canary Handbell Qx7f")}
DECK_CANARY = ("zcanary_deck", "Canary Deckchair Qx7f")


def register_canaries(monkeypatch) -> None:
    """Canary deed cards the engine and its view know (as they would any card), for planting in hidden zones."""
    for cid, name in (*HAND_CANARIES.values(), DECK_CANARY):
        monkeypatch.setitem(mk_cards.CARDS, cid, replace(mk_cards.CARDS["march"], id=cid, name=name))


# ------------------------------------------------------------------------------------ what a seat may not know


def strings(obj) -> set[str]:
    """Every string value and key inside a JSON-able value."""
    out: set[str] = set()
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            out.add(x)
        elif isinstance(x, dict):
            out.update(k for k in x if isinstance(k, str))
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
    return out


def lists(obj) -> list[list]:
    """Every list inside a JSON-able value."""
    out, stack = [], [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            out.append(list(x))
            stack.extend(x)
    return out


def _pop_hidden(state: dict) -> tuple[dict, list[str]]:
    """A copy of ``state`` without its hidden places, and the ids those places held.

    Hidden places: the enemy piles and face-down enemy tokens, the ruins pile and face-down ruins tokens, the
    tile deck and the spare tiles, the Advanced Action / spell / artifact / unit decks, every seat's skill
    pile, the Dummy's deck.
    """
    rest = copy.deepcopy(state)
    hidden: list[str] = []
    for pile in rest["enemies"]["piles"].values():
        hidden += pile
        pile.clear()
    hidden += rest["ruins"]["pile"]
    rest["ruins"]["pile"] = []
    m = rest["map"]
    hidden += m["tile_deck"]
    m["tile_deck"] = []
    for spare in (m.get("spare") or {}).values():
        hidden += spare
        spare.clear()
    for h in m["hexes"].values():
        for token in h.get("enemies", ()):
            if not token["face_up"]:
                hidden.append(token["id"])
        h["enemies"] = [t for t in h.get("enemies", ()) if t["face_up"]]
        if h.get("ruins") and not h["ruins"]["face_up"]:
            hidden.append(h["ruins"]["id"])
            h["ruins"] = None
    for deck in ("advanced", "spells", "artifacts", "units_regular", "units_elite"):
        hidden += rest["decks"].get(deck, [])
        rest["decks"][deck] = []
    for s in rest["seats"]:
        hidden += s.get("skill_pile", [])
        s["skill_pile"] = []
    if rest.get("dummy"):
        hidden += rest["dummy"]["deck"]
        rest["dummy"]["deck"] = []
    return rest, hidden


def secret_ids(state: dict) -> set[str]:
    """Ids held only in hidden places: no seat's answer may name them.

    An id also found anywhere else in the state (a face-up copy of the same enemy, a card of the same name in
    someone's hand or on the table) is left out: its appearing proves nothing.
    """
    rest, hidden = _pop_hidden(state)
    return set(hidden) - strings(rest)


def named_enemies(text: str, ids: set[str]) -> list[str]:
    """Names of the enemies ``ids`` written in ``text``, not counting their words inside a unit's or card's
    name (the enemy Monks in the unit Northern Monks; Fire Golems are a unit and an enemy)."""
    other = {u.name for u in mk_units.UNITS.values()} | {c.name for c in mk_cards.CARDS.values()}
    found = []
    for name in {mk_enemies.enemy(i).name for i in ids if i in mk_enemies.ENEMIES}:
        rest = text
        for o in sorted((o for o in other if name in o), key=len, reverse=True):
            rest = rest.replace(o, "")
        if name in rest:
            found.append(name)
    return found


def decks(state: dict) -> list[list[str]]:
    """Every deed deck: the seats' and the Dummy's (solo)."""
    return [s["deck"] for s in state["seats"]] + ([state["dummy"]["deck"]] if state.get("dummy") else [])


def deck_orders(state: dict) -> list[list[str]]:
    return [d for d in decks(state) if len(set(d)) >= 2]


class Canaries:
    """The planted canary cards, and who may know of each: where it is now, and who has seen it so far.

    Now: a card in a hand is known to that hand's owner only; a card in a deed deck to nobody. So far: a log
    is history, so it may name a canary to the seat whose hand held it, and to everyone once it was anywhere
    else (played, discarded, thrown away: the table saw it). A discard counts as public here even when the
    rules keep it face down: that only leaves out checks, it never excuses a leak the rules forbid.
    """

    def __init__(self) -> None:
        self.seen_by: dict[str, set[int]] = {}

    def plant_in_hand(self, state: dict, seat: int, cid: str) -> None:
        state["seats"][seat]["hand"].append(cid)
        self.seen_by[cid] = set()

    def plant_in_deck(self, state: dict, seat: int, cid: str) -> None:
        deck = state["seats"][seat]["deck"]
        deck.insert(len(deck) // 2, cid)
        self.seen_by[cid] = set()

    def plant_in_dummy_deck(self, state: dict, cid: str) -> None:
        deck = state["dummy"]["deck"]
        deck.insert(len(deck) // 2, cid)
        self.seen_by[cid] = set()

    def observe(self, state: dict) -> None:
        everyone = set(range(state["players"]))
        for cid, seen in self.seen_by.items():
            holders = [i for i, s in enumerate(state["seats"]) if cid in s["hand"]]
            in_deck = any(cid in d for d in decks(state))
            if holders:
                seen.update(holders)
            elif not in_deck:
                seen.update(everyone)

    def hidden_now(self, state: dict, seat: int) -> set[str]:
        """Canaries ``seat`` may not see now: in another seat's hand, or in any deed deck (its own too)."""
        out = {cid for cid in self.seen_by if any(cid in d for d in decks(state))}
        for i, s in enumerate(state["seats"]):
            if i != seat:
                out.update(cid for cid in self.seen_by if cid in s["hand"])
        return out

    def unseen_by(self, seat: int) -> set[str]:
        return {cid for cid, seen in self.seen_by.items() if seat not in seen}


def canary_name(cid: str) -> str:
    return mk_cards.CARDS[cid].name


def assert_nothing_hidden(answer: dict, state: dict, seat: int, canaries: Canaries, *,
                          log: list | None = None) -> None:
    """``answer`` (a GET of the game by ``seat``'s player) shows nothing ``seat`` may not know."""
    view = answer["view"]
    where = f"seat {seat}, phase {answer['phase']}"
    # The only hand in a view is the viewer's own.
    assert view["me"] is not None and view["me"]["seat"] == seat, where
    assert [c["id"] for c in view["me"]["hand"]] == state["seats"][seat]["hand"], where
    for hero in view["heroes"]:
        assert "hand" not in hero and "deck" not in hero, where
        assert hero["hand_count"] == len(state["seats"][hero["seat"]]["hand"]), where
    public = {"view": view, "prompt": answer["prompt"], "result": answer["result"]}
    found = strings(public)
    leaked = secret_ids(state) & found
    assert not leaked, (where, leaked)
    text = json.dumps(public)
    names = named_enemies(text, secret_ids(state))
    assert not names, (where, names)
    for order in deck_orders(state):
        assert order not in lists(public), (where, "a deck's order")
    preparing = bool(answer["prompt"]) and answer["prompt"]["text"].startswith("Preparation")
    for cid in canaries.hidden_now(state, seat):
        if preparing and cid in state["seats"][seat]["deck"]:
            continue  # Preparation: "take any card from your deed deck": the player searches their own deck
        assert cid not in found and canary_name(cid) not in text, (where, cid)
    if log is not None:
        log_text = json.dumps(log)
        for cid in canaries.unseen_by(seat):
            assert cid not in log_text and canary_name(cid) not in log_text, (where, "log", cid)


# ------------------------------------------------------------------------------------------ the API players


class Player:
    """One user with their own API client and token, as an outside client holds them."""

    def __init__(self, name: str) -> None:
        self.client = APIClient()
        r = self.client.post("/api/auth/register/", {"username": name, "email": f"{name}@example.org",
                                                     "password": f"Pw-{name}-long-enough!"}, format="json")
        assert r.status_code == 201, r.content
        self.client.credentials(HTTP_AUTHORIZATION=f"Token {r.json()['token']}")
        self.seat: int | None = None

    def get(self, path: str) -> dict:
        r = self.client.get(path)
        assert r.status_code == 200, (path, r.status_code, r.content[:300])
        return r.json()

    def move(self, gid: int, prompt_id: str, option_id: str, **headers):
        # Tasks run in-process: the step's resolution runs when the request's transaction commits, as in
        # the embedded server.
        with TestCase.captureOnCommitCallbacks(execute=True):
            return self.client.post(f"/api/games/{gid}/moves/", {"prompt": prompt_id, "option": option_id},
                                    format="json", **headers)


def game_snapshot(gid: int) -> tuple:
    g = Game.objects.get(pk=gid)
    return (g.phase, g.status, g.version, json.dumps(g.state, sort_keys=True),
            Submission.objects.filter(game=g).count(),
            sorted(Prompt.objects.filter(game=g, closed_at__isnull=True).values_list("prompt_id", flat=True)))


def check_error_contract(gid: int, me: Player, other: Player, outsider: Player, prompt: dict, tag: str) -> None:
    """DESIGN.md: "400 not an option; 403 not your seat; 409 stale prompt; each with {error, detail}", and none of
    them changes anything."""
    before = game_snapshot(gid)
    r = me.move(gid, prompt["id"], "no-such-option-" + tag)
    assert r.status_code == 400 and r.json()["error"] == "not_an_option" and r.json()["detail"], r.content
    r = outsider.move(gid, prompt["id"], prompt["options"][0]["id"])
    assert r.status_code == 403 and r.json()["error"] == "not_your_seat", r.content
    # The other player answering this seat's prompt: they have no such prompt open, so it is stale for them.
    r = other.move(gid, prompt["id"], prompt["options"][0]["id"])
    assert r.status_code == 409 and r.json()["error"] == "stale_prompt", r.content
    r = me.move(gid, prompt["id"] + "x", prompt["options"][0]["id"])
    assert r.status_code == 409 and r.json()["error"] == "stale_prompt", r.content
    assert game_snapshot(gid) == before, "a refused pick changed the game"


def test_a_whole_two_player_game_through_the_api_only(monkeypatch):
    """A whole 2-player game through the generic contract client, played to its scoring with each
    player seeing only their own prompt and nothing of the other's hand, any deck order, face-down enemies,
    face-down ruins or the tile deck."""
    register_canaries(monkeypatch)
    rng = random.Random(SEED)
    players = [Player("mkapi0"), Player("mkapi1")]
    outsider = Player("mkapiout")
    with TestCase.captureOnCommitCallbacks(execute=True):
        r = players[0].client.post("/api/games/", {"game": "mage_knight", "seats": 2, "options": {}, "clock": {},
                                                   "seed": SEED}, format="json")
    assert r.status_code == 201, r.content
    gid = r.json()["id"]
    players[0].seat = r.json()["seat"]
    with TestCase.captureOnCommitCallbacks(execute=True):
        r = players[1].client.post(f"/api/games/{gid}/join/")
    assert r.status_code == 200, r.content
    players[1].seat = r.json()["seat"]
    assert {p.seat for p in players} == {0, 1}
    by_seat = {p.seat: p for p in players}

    canaries = Canaries()
    owner_saw_canary = {0: False, 1: False}
    picks = contract_checks = replays = 0
    kinds_checked: set[str] = set()
    last = None  # (player, prompt, option) of the previous pick: its resend must be stale or a replay
    while True:
        g = Game.objects.get(pk=gid)
        if g.status != GameStatus.ACTIVE:
            break
        state = g.state
        # Plant a hand canary in the hand of a seat that is not deciding now (so its open prompt, built from
        # its hand, stays what the server stored), and the deck canary in seat 1's deck.
        deciding = state["dec"]["seat"] if state["dec"] else None
        waiting = [s for s in (0, 1) if s != deciding and HAND_CANARIES[s][0] not in canaries.seen_by]
        if waiting:
            for s in waiting:
                canaries.plant_in_hand(state, s, HAND_CANARIES[s][0])
            if DECK_CANARY[0] not in canaries.seen_by:
                canaries.plant_in_deck(state, 1, DECK_CANARY[0])
            g.save(update_fields=["state"])
        answers = {s: p.get(f"/api/games/{gid}/") for s, p in by_seat.items()}
        state = Game.objects.get(pk=gid).state
        canaries.observe(state)
        with_log = picks % 25 == 0
        for s, a in answers.items():
            if a["status"] != GameStatus.ACTIVE:
                continue
            log = by_seat[s].get(f"/api/games/{gid}/log/")["events"] if with_log else None
            assert_nothing_hidden(a, state, s, canaries, log=log)
            hand = {c["id"] for c in a["view"]["me"]["hand"]}
            owner_saw_canary[s] |= HAND_CANARIES[s][0] in hand  # the check above can fail: the owner sees it
        if any(a["status"] != GameStatus.ACTIVE for a in answers.values()):
            continue
        asked = [s for s, a in answers.items() if a["prompt"]]
        assert len(asked) == 1, f"one seat decides at a time in Mage Knight, not {asked}"
        s = asked[0]
        assert Game.objects.get(pk=gid).state["dec"]["seat"] == s
        me, other = by_seat[s], by_seat[1 - s]
        prompt = answers[s]["prompt"]
        assert prompt["options"] and set(prompt) == {"id", "text", "options", "deadline"}
        assert len({o["id"] for o in prompt["options"]}) == len(prompt["options"]), "option ids are unique"
        if picks % CONTRACT_CHECK_EVERY == 0:
            check_error_contract(gid, me, other, outsider, prompt, str(picks))
            contract_checks += 1
            kinds_checked.add(prompt["text"].split(":")[0][:30])
        option = rng.choice(prompt["options"])
        if picks % CONTRACT_CHECK_EVERY == 1:
            # An Idempotency-Key: the resend is a replay of the stored pick, the key reused for another is 409.
            key = f"mk-{picks}"
            r1 = me.move(gid, prompt["id"], option["id"], HTTP_IDEMPOTENCY_KEY=key)
            assert r1.status_code == 201 and r1.json()["replayed"] is False, r1.content
            after = game_snapshot(gid)
            r2 = me.move(gid, prompt["id"], option["id"], HTTP_IDEMPOTENCY_KEY=key)
            assert r2.status_code == 200 and r2.json()["replayed"] is True, r2.content
            assert r2.json()["submission"]["id"] == r1.json()["submission"]["id"]
            others = [o for o in prompt["options"] if o["id"] != option["id"]]
            if others:
                r3 = me.move(gid, prompt["id"], others[0]["id"], HTTP_IDEMPOTENCY_KEY=key)
                assert r3.status_code == 409 and r3.json()["error"] == "idempotency_key_reused", r3.content
            assert game_snapshot(gid) == after, "a replay applied the pick twice"
            replays += 1
        else:
            r = me.move(gid, prompt["id"], option["id"])
            assert r.status_code == 201, (r.status_code, r.content, prompt, option)
            assert r.json()["replayed"] is False and r.json()["submission"]["option"] == option["id"]
        picks += 1
        assert picks < MAX_PICKS, "the game did not end"
        if last is not None and last[0] is me:
            # The previous pick's prompt is closed: answering it again with another option is a stale 409.
            prev_prompt, prev_option = last[1], last[2]
            others = [o for o in prev_prompt["options"] if o["id"] != prev_option["id"]]
            if others and Game.objects.get(pk=gid).status == GameStatus.ACTIVE:
                before = game_snapshot(gid)
                r = me.move(gid, prev_prompt["id"], others[0]["id"])
                assert r.status_code == 409 and r.json()["error"] == "stale_prompt", r.content
                assert game_snapshot(gid) == before
        last = (me, prompt, option)

    g = Game.objects.get(pk=gid)
    assert g.status == GameStatus.FINISHED and g.state["over"], g.status
    assert contract_checks >= 3 and replays >= 3 and len(kinds_checked) >= 2, (contract_checks, kinds_checked)
    assert all(owner_saw_canary.values()), owner_saw_canary
    for p in players:
        final = p.get(f"/api/games/{gid}/")
        assert final["status"] == "finished" and final["prompt"] is None
        result = final["result"]
        assert len(result["scores"]) == 2 and sorted(result["ranks"])[0] == 1
        assert result == g.result
        assert p.get(f"/api/games/{gid}/log/")["events"]
    # Every pick was made through the API (or is the server's own pick of a prompt's only option).
    sources = set(Submission.objects.filter(game=g).values_list("source", flat=True))
    assert sources <= {"api", "forced"} and "api" in sources, sources
    assert Submission.objects.filter(game=g, source="api").count() == picks


def _face_down(state: dict) -> list[dict]:
    return [t for h in state["map"]["hexes"].values() for t in h["enemies"] if not t["face_up"]]


def _mid_game_state(min_picks: int = 30) -> dict:
    """A greedy 2-player game after ``min_picks`` picks, once some enemy token lies face down."""
    from games.engines.bots import make_bot
    from games.engines.registry import get_engine

    engine = get_engine("mage_knight")
    state = engine.new_game(players=2, options={}, seed=SEED)
    bots = [make_bot("mage_knight", "greedy", i) for i in range(2)]
    for n in range(2000):
        if n >= min_picks and _face_down(state):
            return state
        if engine.is_step_complete(state):
            engine.resolve(state)
        seat = engine.pending(state)[0]
        engine.apply(state, seat, bots[seat].choose(engine, state, seat, engine.prompt(state, seat)))
    raise AssertionError("no face-down enemy in the game")


def test_the_secrecy_check_catches_each_kind_of_leak(monkeypatch):
    """The check above can fail: a view that shows the other hand, a face-down enemy, a face-down ruins token,
    the tile deck or a deck's order is caught (so its passing over a whole game means something)."""
    from games.engines.registry import get_engine

    register_canaries(monkeypatch)
    engine = get_engine("mage_knight")
    state = _mid_game_state()
    canaries = Canaries()
    canaries.plant_in_hand(state, 1, HAND_CANARIES[1][0])
    canaries.plant_in_deck(state, 1, DECK_CANARY[0])
    canaries.observe(state)

    def answer(view):
        return {"view": view, "prompt": None, "result": None, "phase": state["step"]}

    assert_nothing_hidden(answer(engine.view(state, 0)), state, 0, canaries)  # the honest view passes
    assert_nothing_hidden(answer(engine.view(state, 1)), state, 1, canaries)
    face_down = _face_down(state)
    assert face_down and state["map"]["tile_deck"] and state["ruins"]["pile"]
    leaks = {
        "the other hand": lambda v: v["heroes"][1].update(cards=list(state["seats"][1]["hand"])),
        "a hand card's name": lambda v: v.update(note=f"Seat 2 holds {HAND_CANARIES[1][1]}"),
        "a face-down enemy": lambda v: v["map"].update(peek=[t["id"] for t in face_down]),
        "a ruins token": lambda v: v.update(next_ruins=state["ruins"]["pile"][0]),
        "the tile deck": lambda v: v["map"].update(next_tile=state["map"]["tile_deck"][-1]),
        "a deck's order": lambda v: v.update(order=list(state["seats"][1]["deck"])),
        "the deck canary": lambda v: v["me"]["hand"].append({"id": DECK_CANARY[0]}),
    }
    for what, leak in leaks.items():
        view = engine.view(state, 0)
        leak(view)
        with pytest.raises(AssertionError):
            assert_nothing_hidden(answer(view), state, 0, canaries)
            print("not caught:", what)
