"""Steps and phases: open each decision step, resolve it in the rules' order, move the time marker."""

from __future__ import annotations

from ..base import Event
from ..rng import Rng
from .cards import ATTRS, CARDS, COLORS, NUM, count, printed_number
from . import london, solo
from .effects import attend, card_playable, resolve_card, students
from .offcampus import execute, is_legal
from .scoring import final_result
from .setup import RESTOCK

EXAM_MP = {1: 1, 2: 1, 3: 2}
EXAM_STERLINGS = {1: 1, 2: 3, 3: 6}


def _ev(state: dict, text: str, phase: str | None = None, bfl: dict | None = None,
        wording: str | None = None, **seats) -> Event:
    """A public event stamped with where it happened, so surfaces can group the log without parsing text.

    ``phase`` defaults to the step being resolved (lecture/action for the off-campus queue, also when
    a re-prompt resumes it); registration, exams and the end pass their own.

    ``wording``: the sentence with ``{key}`` where a seat is named, each ``key`` a keyword
    argument holding a 0-based seat position or a list of them; the presentation fills in the players'
    names (games/presentation/faltisia/events.py). The seats' characters are stamped beside it, so an old
    surface or the API can name them too. ``text`` stays the fallback, already plain English.
    """
    data = {"round": state["round"], "term": state["term"], "phase": phase or state["qctx"] or state["phase"]}
    if bfl is not None:  # Battle for London: what happened, as data (kind, seat, route, checkpoint, ...)
        data["london"] = bfl
    if wording is not None:
        data.update(seats)
        data["wording"] = wording
        data["characters"] = [CARDS[s["char"]].name if s["char"] else None for s in state["seats"]]
    return Event(text, None, data)


def _seat_ev(state: dict, si: int, rest: str, phase: str | None = None, bfl: dict | None = None) -> Event:
    """An event about one seat: "Seat 2 (Kaede) <rest>", worded with the player's name on every surface."""
    escaped = rest.replace("{", "{{").replace("}", "}}")
    return _ev(state, f"{_name(state, si)} {rest}", phase, bfl, wording="{seat} " + escaped, seat=si)


def _name(state: dict, si: int) -> str:
    """A seat as the engine's own text names it: 1-based, as people count (the data keeps 0-based)."""
    char = state["seats"][si]["char"]
    return f"Seat {si + 1} ({CARDS[char].name})" if char else f"Seat {si + 1}"


def _seat_list(seats: list[int]) -> str:
    """``[0, 2]`` as people read it: "seats 1 and 3" (never a Python list)."""
    nums = [str(i + 1) for i in seats]
    if len(nums) == 1:
        return f"seat {nums[0]}"
    return "seats " + ", ".join(nums[:-1]) + " and " + nums[-1]


def open_step(state: dict, phase: str, stage: str, seats=None) -> None:
    """Open a new decision step for the given seats (all by default)."""
    state["step"] += 1
    state["phase"] = phase
    for i, s in enumerate(state["seats"]):
        if seats is None or i in seats:
            s["dec"] = {"st": stage}
            s["plan"] = None


def start(state: dict) -> None:
    """Open the first step of a fresh game."""
    if state["chars_free"]:
        open_step(state, "characters", "char")
    else:
        open_step(state, "setup", "discard")


def resolve(state: dict) -> list[Event]:
    """Resolve the complete step and open the next one (or end the game)."""
    ev: list[Event] = []
    ph = state["phase"]
    if ph == "characters":
        _resolve_characters(state, ev)
    elif ph == "setup":
        _resolve_setup(state, ev)
    elif ph == "draft":
        _resolve_draft(state, ev)
    elif ph == "lecture":
        _resolve_lecture(state, ev)
    elif ph == "action":
        _resolve_action(state, ev)
    elif ph == "reprompt":
        kind, si = state["queue"].pop(0)
        seat = state["seats"][si]
        ev.append(_offcampus_event(state, si, seat["plan"]["act"]))
        seat["plan"] = None
        if not _pause_for_choice(state, si):
            _run_queue(state, ev)
    elif ph in ("route", "bigben"):
        _resolve_london_choice(state, ev)
        _run_queue(state, ev)
    else:
        raise AssertionError(f"nothing to resolve in phase {ph}")
    return ev


def _resolve_characters(state: dict, ev: list) -> None:
    rng = Rng(state["rng"])
    wants: dict[str, list[int]] = {}
    for i, s in enumerate(state["seats"]):
        if s["plan"] is not None:
            wants.setdefault(s["plan"]["char"], []).append(i)
    losers = []
    for cid in sorted(wants):
        seats = wants[cid]
        winner = seats[rng.below(len(seats))] if len(seats) > 1 else seats[0]
        if len(seats) > 1:
            # Collision: a seeded draw among the seats that picked it; the others choose again.
            state["decisions"].append({"kind": "character_collision", "character": cid, "seats": seats,
                                       "winner": winner})
            ev.append(_ev(state, f"{_seat_list(seats).capitalize()} all chose {CARDS[cid].name}; a draw gives it to "
                              f"seat {winner + 1}.",
                          wording=f"{{seats}} all chose {CARDS[cid].name}; a draw gives it to {{winner}}.",
                          seats=seats, winner=winner))
            losers += [s for s in seats if s != winner]
        seat = state["seats"][winner]
        seat["char"], seat["ability"] = cid, cid[1:]
        if "bfl" in seat:  # Battle for London: the character's two Maid Ability cards, chosen at setup
            seat["bfl"]["offer"] = london.new_seat_part(cid[1:])["offer"]
            seat["ability"] = None
        state["chars_free"].remove(cid)
    state["rng"] = rng.state
    for s in state["seats"]:
        s["plan"] = None
    if losers:
        open_step(state, "characters", "char", set(losers))
        return
    state["box"] += state["chars_free"] + [c[1:] for c in state["chars_free"]]
    if state.get("london") is not None:
        state["box"] += [london.expansion_ability(c[1:]) for c in state["chars_free"]]
    state["chars_free"] = []
    everyone = list(range(state["players"]))
    ev.append(_ev(state, "Characters: " + ", ".join(_name(state, i) for i in everyone) + ".",
                  wording="Characters: {everyone}.", everyone=everyone))
    open_step(state, "setup", "discard")


def _resolve_setup(state: dict, ev: list) -> None:
    for s in state["seats"]:
        plan = s["plan"]
        s["offer"].remove(plan["discard"])
        state["box"].append(plan["discard"])
        s["reqs"], s["offer"] = s["offer"], []
        s["attr"] = list(plan["attr"])
        if "ability" in plan:  # Battle for London: the secret pick of one of the two Maid Ability cards
            london.choose_ability(s, plan["ability"])
        s["plan"] = None
    parts = [(i, ", ".join(f"{ATTRS[a].capitalize()} {v}" for a, v in enumerate(s["attr"])))
             for i, s in enumerate(state["seats"])]
    ev.append(_ev(state, "Starting attributes revealed: " + "; ".join(f"{_name(state, i)}: {a}" for i, a in parts)
                  + ".", wording="Starting attributes revealed: " + "; ".join(f"{{s{i}}}: {a}" for i, a in parts)
                  + ".", **{f"s{i}": i for i, _ in parts}))
    cm = state.get("classmate")
    if cm is not None:
        ev.append(_ev(state, f"{solo.name(cm)} plays at {cm['difficulty'].capitalize()}: every attribute "
                      f"{cm['attr'][0]}, 3 Sterlings, token line "
                      + ", ".join(COLORS[c] for c in cm["line"]) + "; two Graduation Requirements face down."))
    start_round(state, 1, ev)


def start_round(state: dict, rnd: int, ev: list) -> None:
    """Registration phase: restock the Academy Store, deal the draft packs."""
    state["round"], state["term"] = rnd, 0
    n = state["players"]
    for _ in range(RESTOCK[n]):
        if state["item_deck"]:
            state["store"].append(state["item_deck"].pop())
    deck = state["decks"][str(rnd)]
    cm = state.get("classmate")
    if cm is not None:
        # Solo Registration: seven cards face down to the Classmate as a stack, then the player is dealt two
        # face up per pick, keeps one and discards the other, until seven.
        cm["stack"] = deck[-7:]
        del deck[-7:]
        _deal_solo_pair(state)
    else:
        for s in state["seats"]:
            s["pack"] = deck[-7:]
            del deck[-7:]
        state["box"] += deck
        deck.clear()
    state["pick"] = 1
    ev.append(_ev(state, f"Round {rnd}: the Academy Store now offers "
                  + ", ".join(CARDS[c].name for c in state["store"])
                  + ("; the Classmate takes its seven cards face down and you are dealt two cards to keep one."
                     if cm is not None else "; drafting begins."), "registration"))
    open_step(state, "draft", "draft")


def _deal_solo_pair(state: dict) -> None:
    """Deal the solo player two cards face up from the Round deck (the rest returns to the box after pick 7)."""
    deck = state["decks"][str(state["round"])]
    state["seats"][0]["pack"] = deck[-2:]
    del deck[-2:]


def _resolve_draft(state: dict, ev: list) -> None:
    seats = state["seats"]
    for s in seats:
        card = s["plan"]["card"]
        s["pack"].remove(card)
        s["picked"].append(card)
        s["plan"] = None
    if state.get("classmate") is not None:
        state["box"] += seats[0]["pack"]  # the card not kept is discarded
        seats[0]["pack"] = []
        if state["pick"] < 7:
            state["pick"] += 1
            _deal_solo_pair(state)
            open_step(state, "draft", "draft")
            return
        deck = state["decks"][str(state["round"])]
        state["box"] += deck
        deck.clear()
    elif state["pick"] < 7:
        n = state["players"]
        # "Left" is seat+1 (Rounds 1 and 3); "right" is seat-1 (Round 2).
        d = -1 if state["round"] == 2 else 1
        packs = [s["pack"] for s in seats]
        for i in range(n):
            seats[(i + d) % n]["pack"] = packs[i]
        state["pick"] += 1
        open_step(state, "draft", "draft")
        return
    for s in seats:
        s["hand"] += s["picked"]
        s["picked"] = []
    state["pick"] = 0
    start_term(state, 1, ev)


def start_term(state: dict, term: int, ev: list) -> None:
    state["term"] = term
    if state.get("classmate") is not None:
        solo.new_term(state["classmate"])
    col = state["schedule"][state["round"] - 1][term - 1]
    if col < 0:  # an X space: no lecture, no skipping
        state["lecture"] = None
        open_step(state, "action", "play")
    else:
        state["lecture"] = col
        open_step(state, "lecture", "lec")


def skip_order_key(state: dict, si: int) -> tuple[int, int]:
    """Highest-numbered face-up action card in the notebook (0 if none), then the character number.
    ``si`` -1 is the solo Classmate."""
    s = state["classmate"] if si < 0 else state["seats"][si]
    return (max((NUM[c] for c in s["up"]), default=0), NUM[s["char"]])


def _resolve_lecture(state: dict, ev: list) -> None:
    col = state["lecture"]
    skippers = []
    attendees = []
    for i, s in enumerate(state["seats"]):
        if s["plan"]["k"] == "attend":
            attend(s, col)
            attendees.append(i)
        else:
            skippers.append(i)
    if attendees:
        gain = f"+1 {ATTRS[col].capitalize()}"
        ev.append(_ev(state, f"{COLORS[col].capitalize()} lecture attended by {_seat_list(attendees)} ({gain}).",
                      wording=f"{{attendees}} attended the {COLORS[col]} lecture: {gain}.", attendees=attendees))
    for i in skippers:
        if london.flip_award(state["seats"][i]):
            ev.append(_seat_ev(state, i, "skips a lecture: their Attendance Award flips to 0 MP.",
                               bfl={"kind": "attendance_award", "seat": i}))
    cm = state.get("classmate")
    if cm is not None:
        if solo.attends(cm, col):
            attend(cm, col)
            ev.append(_ev(state, solo.note(state, cm, f"attends the {COLORS[col]} lecture "
                                                      f"(+1 {ATTRS[col].capitalize()})")))
        else:
            ev.append(_ev(state, solo.note(state, cm, f"has {ATTRS[col].capitalize()} 15 and skips the "
                                                      f"{COLORS[col]} lecture")))
            skippers.append(-1)  # acts in the usual skip order (EN: "in the same manner as the multiplayer game")
    skippers.sort(key=lambda i: skip_order_key(state, i))
    state["queue"] = [["cm" if i < 0 else "oc", i] for i in skippers]
    state["qctx"] = "lecture"
    _run_queue(state, ev)


def _resolve_action(state: dict, ev: list) -> None:
    downs, ups = [], []
    for i, s in enumerate(state["seats"]):
        plan = s["plan"]
        card = plan["card"]
        s["hand"].remove(card)
        if plan["k"] == "down":
            s["down"].append(card)
            downs.append((NUM[card], i))
        else:
            s["played"] = card
            ups.append((NUM[card], i))
    downs.sort()
    ups.sort()
    # Decision (see docs): every face-down off-campus action goes before the face-up effects.
    state["queue"] = [["oc", i] for _, i in downs] + [["up", i] for _, i in ups]
    state["qctx"] = "action"
    if state.get("classmate") is not None:
        # Solo: "Your Classmate always goes first when resolving a played action card."
        ev.extend(_ev(state, t) for t in solo.action(state))
    if downs:
        # EN Action Phase: face-down players "announce the card number of their played card" (not the card): the
        # printed number, so a Battle for London Maid Ability (L0003, printed 0003) is not told from the base one.
        announced = [(i, printed_number(state["seats"][i]["down"][-1])) for _, i in downs]
        ev.append(_ev(state, "Face-down cards (off-campus, in card-number order): "
                      + ", ".join(f"{_name(state, i)} announces {card}" for i, card in announced) + ".",
                      wording="Face-down cards (off-campus, in card-number order): "
                      + ", ".join(f"{{s{i}}} announces {card}" for i, card in announced) + ".",
                      **{f"s{i}": i for i, _ in announced}))
    _run_queue(state, ev)


def _run_queue(state: dict, ev: list) -> None:
    """Work through the ordered resolution; pause with a re-prompt when a planned action became illegal."""
    q = state["queue"]
    seats = state["seats"]
    while q:
        kind, si = q[0]
        if kind == "cm":  # the solo Classmate skipped the lecture: its off-campus action, no plan
            ev.append(_ev(state, solo.offcampus(state)))
            q.pop(0)
            continue
        seat = seats[si]
        plan = seat["plan"]
        if kind == "oc":
            act = plan["act"]
            if not is_legal(state, seat, act):
                fb = plan.get("fb")
                if fb is not None and is_legal(state, seat, fb):
                    act = fb
                else:
                    ev.append(_seat_ev(state, si, "finds their chosen item gone: they choose again."))
                    open_step(state, "reprompt", "oc", {si})
                    seat["dec"]["ctx"] = "re"
                    return
            ev.append(_offcampus_event(state, si, act))
            q.pop(0)
            seat["plan"] = None
            if _pause_for_choice(state, si):
                return
            continue
        else:
            card = seat["played"]
            seat["played"] = None
            if card_playable(seat, card):
                resolve_card(state, si, card, plan.get("rb"), plan.get("col"))
                ev.append(_seat_ev(state, si, f"plays {CARDS[card].name} face up."))
            else:  # cannot happen with self-only effects; kept as a safe landing
                seat["down"].append(card)
                ev.append(_seat_ev(state, si, "cannot pay for their card; it stays face down."))
        q.pop(0)
        seat["plan"] = None
    state["qctx"], ctx = None, state["qctx"]
    for s in seats:
        s["plan"] = None
    if ctx == "lecture":
        open_step(state, "action", "play")
        return
    if state["term"] < 7:
        start_term(state, state["term"] + 1, ev)
        return
    _exams(state, ev)
    if state.get("classmate") is not None:
        text = solo.discard_stack(state)
        if text:
            ev.append(_ev(state, text, "exams"))
    if state["round"] < 3:
        start_round(state, state["round"] + 1, ev)
    else:
        _end(state, ev)


def _offcampus_event(state: dict, si: int, act: list) -> Event:
    """Carry out a seat's off-campus action; Peacekeeping's event carries its structured data too."""
    if act[0] == "peace":
        text, data = london.peacekeeping(state, si)
        return _seat_ev(state, si, f"{text}.", bfl=data)
    return _seat_ev(state, si, execute(state, si, act))


def _pause_for_choice(state: dict, si: int) -> bool:
    """Battle for London: the licence just obtained asks for a route, Big Ben just reached asks for a bonus.
    Each is a decision of its own: a step with only that seat pending, taken before the queue goes on, so the
    seat sees which routes and bonuses are still free."""
    stage = london.pending_choice(state["seats"][si])
    if stage is None:
        return False
    open_step(state, stage, stage, {si})
    return True


def _resolve_london_choice(state: dict, ev: list) -> None:
    # The one seat whose plan is a route or a bonus (the others' plans wait in the queue).
    si = next(i for i, s in enumerate(state["seats"]) if s["plan"] and ("route" in s["plan"] or "bonus" in s["plan"]))
    seat = state["seats"][si]
    plan = seat["plan"]
    seat["plan"] = None
    if "route" in plan:
        text, data = london.take_route(state, si, plan["route"])
    else:
        text, data = london.claim_big_ben(state, si, plan["bonus"], plan.get("raises", []))
    ev.append(_seat_ev(state, si, f"{text}.", bfl=data))


def _exams(state: dict, ev: list) -> None:
    """Exams: top score in each attribute gains MP, top total gains Sterlings; ties all gain."""
    rnd = state["round"]
    seats = students(state)  # solo: the Classmate sits its exams too ("completed as usual")
    for a in range(4):
        top = max(s["attr"][a] for s in seats)
        winners = [i for i, s in enumerate(seats) if s["attr"][a] == top]
        for i in winners:
            seats[i]["mp"] += EXAM_MP[rnd]
        ev.append(_exam_ev(state, winners, f"Exams, {ATTRS[a]}:", f"{EXAM_MP[rnd]} MP."))
    totals = [sum(s["attr"]) for s in seats]
    top = max(totals)
    winners = [i for i, t in enumerate(totals) if t == top]
    for i in winners:
        seats[i]["ster"] += EXAM_STERLINGS[rnd]
    ev.append(_exam_ev(state, winners, "Exams, total:", count(EXAM_STERLINGS[rnd], "Sterling") + "."))


def _exam_ev(state: dict, winners: list[int], head: str, prize: str) -> Event:
    """"Exams, beauty: seats 1 and 3 gain 1 MP."; in a solo game (index 1 of students() is the Classmate)
    the player is "you"."""
    if state.get("classmate") is not None:
        who = " and ".join("you" if i == 0 else "the Classmate" for i in winners)
        verb = "gains" if winners == [1] else "gain"
        return _ev(state, f"{head} {who} {verb} {prize}", "exams")
    verb = "gain" if len(winners) > 1 else "gains"
    return _ev(state, f"{head} {_seat_list(winners)} {verb} {prize}", "exams",
               wording=f"{head} {{winners}} {verb} {prize}", winners=winners)


def _ordinal(rank: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(rank, f"{rank}th")


def _end(state: dict, ev: list) -> None:
    state["over"] = True
    state["phase"] = "over"
    state["step"] += 1
    state["lecture"] = None
    state["result"] = final_result(state)
    r = state["result"]
    if state.get("classmate") is None:
        order = sorted(range(len(r["scores"])), key=lambda i: (r["ranks"][i], i))
        ev.append(_ev(state, "Game over: " + "; ".join(
            f"{_ordinal(r['ranks'][i])} {_name(state, i)}, {r['scores'][i]} MP" for i in order) + ".",
            wording="Game over: " + "; ".join(
                f"{_ordinal(r['ranks'][i])} {{s{i}}}, {r['scores'][i]} MP" for i in order) + ".",
            **{f"s{i}": i for i in order}))
        return
    c = r["classmate"]
    reqs = "; ".join(f"{q['number']} {q['name']} ({'met' if q['met'] else 'not met'})" for q in c["requirements"])
    ev.append(_ev(state, f"Game over: you {r['scores'][0]} MP, the Classmate {c['score']} MP: "
                  f"{ {'win': 'you win', 'loss': 'the Classmate wins', 'draw': 'a draw'}[r['outcome']]}. "
                  f"The Classmate's Graduation Requirements: {reqs}."))
