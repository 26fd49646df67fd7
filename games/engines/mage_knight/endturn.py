"""The end of a turn (rules: "End of Turn"), in the rules' order:

1. "Return Mana Dice to the source and reroll them" (Mana Draw's die keeps the colour it was set to).
2. "Forced Withdraw: If you are not on a safe space ..., backtrack your move until you are on a safe space,
   taking one Wound per space" (the path is ``turn["moved_from"]``).
3. The space's end-of-turn effect (crystal mine: a crystal of its colour; magical glade: throw away a Wound).
4. Rewards of the sites conquered this turn ("Claim indicated reward at turn end"), as sites.py words; a
   reward card goes on top of the deed deck, so the draw below brings it to the hand. Spells, Advanced
   Actions and Units from an offer are the player's pick (``pending = {"kind": "reward"}``).
5. Played cards to the discard pile, unused mana tokens vanish, levels.gain (mkcore) for the Fame gained,
   then draw up to the hand limit. ``state["turn"] = None`` marks the turn over.
"""

from __future__ import annotations

from ..base import Event
from . import cards, hexgrid, hexmap, interaction, levels, mana
from .card_text import plural, WOUND
from .hero import change_reputation, draw, take_from_offer, take_wounds
from .specials_movement import time_bending_open
from .tactic_turn import hand_limit_bonus
from .unit_rules import unit_name

CHOSEN = {"spell": "spells", "advanced_action": "advanced", "unit": "units"}


def begin(state, seat: int, events: list) -> None:
    """Start (or, after a reward pick, continue) the end of the turn."""
    turn = state["turn"]
    if not turn.get("closing"):
        turn["closing"] = True
        turn["pending"] = None
        mana.return_dice(state, turn.get("keep_dice"))
        if turn.get("stolen_die_used"):  # Mana Steal: the die returns to the Source, rerolled
            state["source"]["dice"].append(mana.roll(state))
        withdraw(state, seat, events)
        site_end_of_turn(state, seat, events)
    rewards(state, seat, events)
    if turn["pending"] is None:
        finish(state, seat, events)


def withdraw(state, seat: int, events: list) -> int:
    s = state["seats"][seat]
    m = state["map"]
    others = [o["pos"] for i, o in enumerate(state["seats"]) if i != seat and o.get("pos")]
    path = list(state["turn"]["moved_from"])
    spaces = 0
    while s["pos"] and not hexmap.is_safe(m, s["pos"], seat, others) and path:
        s["pos"] = path.pop()
        spaces += 1
    if spaces:
        events.append(Event(f"Seat {seat + 1} withdraws {spaces} space{'s' if spaces > 1 else ''} to {s['pos']}.",
                            None, {"seat": seat, "withdraw": spaces}))
        take_wounds(state, seat, spaces, events)
    return spaces


def site_end_of_turn(state, seat: int, events: list) -> None:
    s = state["seats"][seat]
    cell = state["map"]["hexes"].get(s["pos"]) if s["pos"] else None
    if not cell:
        return
    if cell.get("site") == "mine" and cell.get("mine_colour"):
        colour = cell["mine_colour"]
        if s["crystals"][colour] < mana.CRYSTAL_MAX:  # "unless you already hold 3 crystals of that colour"
            s["crystals"][colour] += 1
            events.append(Event(f"Seat {seat + 1} takes a {colour} crystal from the mine.", None, {"seat": seat}))
    elif cell.get("site") == "magical_glade":
        for pile in ("hand", "discard"):  # "throw away a Wound from hand or discard pile"
            if WOUND in s[pile]:
                s[pile].remove(WOUND)
                events.append(Event(f"Seat {seat + 1} throws away a Wound in the glade.", None, {"seat": seat}))
                break


def _roll_crystal(state, seat, events):
    """"roll a mana die per crystal: basic colour = that crystal, gold = crystal of your choice, black =
    Fame +1 instead" (gold: the colour the seat holds fewest of)."""
    s = state["seats"][seat]
    face = mana.roll(state)
    if face == "black":
        s["fame"] += 1
    else:
        colour = face if face in mana.BASIC else min(mana.BASIC, key=lambda c: s["crystals"][c])
        if s["crystals"][colour] < mana.CRYSTAL_MAX:
            s["crystals"][colour] += 1
    events.append(Event(f"Seat {seat + 1} rolls {face} for a crystal.", None, {"seat": seat, "roll": face}))


def rewards(state, seat: int, events: list) -> None:
    turn = state["turn"]
    s = state["seats"][seat]
    while turn["rewards"]:
        word = turn["rewards"][0]
        if word in CHOSEN and reward_choices(state, seat, word):
            turn["pending"] = {"kind": "reward", "word": word}
            return
        turn["rewards"].pop(0)
        if word == "crystal_roll":
            _roll_crystal(state, seat, events)
        elif word == "four_crystals":
            for c in mana.BASIC:
                if s["crystals"][c] < mana.CRYSTAL_MAX:
                    s["crystals"][c] += 1
        elif word == "dungeon_roll":  # gold or black = a Spell, else an Artifact
            face = mana.roll(state)
            turn["rewards"].insert(0, "spell" if face in ("gold", "black") else "artifact")
            events.append(Event(f"Seat {seat + 1} rolls {face} for the dungeon's reward.", None, {"seat": seat}))
        elif word == "artifact" or word in CHOSEN:
            deck = state["decks"].get({"artifact": "artifacts"}.get(word, CHOSEN.get(word)), [])
            if word != "unit" and deck:
                card = deck.pop()
                s["deck"].append(card)
                events.append(Event(f"Seat {seat + 1} gains a {word.replace('_', ' ')}.", None, {"seat": seat}))
                events.append(Event(f"You gain {cards.name(card)} (on top of your deed deck).", (seat,),
                                    {"card": card}))


def reward_choices(state, seat: int, word: str) -> list[str]:
    offer = state["offers"].get(CHOSEN[word], [])
    if word == "unit":
        if not interaction.has_command(state, seat) and not state["seats"][seat]["units"]:
            return []  # no Command token at all (none to free by disbanding)
        return [u for u in dict.fromkeys(offer) if interaction.is_unit(u)]
    return [c for c in dict.fromkeys(offer) if c in cards.CARDS]


def reward_options(state, seat: int) -> list[tuple[str, str]]:
    word = state["turn"]["pending"]["word"]
    if word == "unit":
        if not interaction.has_command(state, seat):  # make room: disband a Unit (rulebook)
            return [(f"t-reward:{c}>{u['uid']}", f"take {unit_name(c)}, disbanding {unit_name(u['id'])}")
                    for c in reward_choices(state, seat, word) for u in state["seats"][seat]["units"]]
    return [(f"t-reward:{c}", f"take {unit_name(c) if word == 'unit' else cards.name(c)}")
            for c in reward_choices(state, seat, word)]


def reward_pick(state, seat: int, card: str, events: list) -> None:
    turn = state["turn"]
    word = turn["rewards"].pop(0)
    turn["pending"] = None
    if word == "unit":
        card, _, disband = card.partition(">")
        if disband:
            interaction.disband(state, seat, int(disband), events)
        interaction.add_unit(state, seat, card, events)
    else:
        take_from_offer(state, CHOSEN[word], card)
        state["seats"][seat]["deck"].append(card)
        events.append(Event(f"Seat {seat + 1} takes {cards.name(card)}.", None, {"seat": seat, "card": card}))
    begin(state, seat, events)


def keep_bonus(state, seat: int) -> int:
    """The keep's hand limit bonus (sites.json keep.passive): "if ending turn on/adjacent to an owned keep:
    + number of keeps you own"."""
    hexes = state["map"]["hexes"]
    pos = state["seats"][seat].get("pos")
    if not pos:
        return 0
    owned = [k for k, h in hexes.items() if h.get("site") == "keep" and h.get("owner") == seat]
    near = {pos, *hexgrid.neighbours(pos)}
    return len(owned) if any(k in near for k in owned) else 0


def tempo_place(state, seat: int) -> str | None:
    """Steady Tempo: "at end of turn may put this card on the bottom of a non-empty Deed deck instead of
    discarding" (powered: "on top of the Deed deck"): where it may go now, or None."""
    s = state["seats"][seat]
    for card, how in state["turn"].get("played", []):
        if card == "steady_tempo" and card in s["play_area"]:
            if how == "powered":
                return "top"
            return "bottom" if s["deck"] else None
    return None


def tempo_options(state, seat: int) -> list[tuple[str, str]]:
    where = state["turn"]["pending"]["where"]
    return [("t-tempo:yes", f"put Steady Tempo {'on top' if where == 'top' else 'at the bottom'} of your deed deck"),
            ("t-tempo:no", "discard Steady Tempo")]


def tempo_pick(state, seat: int, arg: str, events: list) -> None:
    turn = state["turn"]
    where = turn["pending"]["where"]
    turn["pending"] = None
    turn["tempo_asked"] = True
    if arg == "yes":
        turn["tempo_place"] = where
        events.append(Event(f"Seat {seat + 1} puts Steady Tempo {'on top' if where == 'top' else 'at the bottom'} "
                            f"of the deed deck.", None, {"seat": seat, "card": "steady_tempo"}))
    finish(state, seat, events)


def protection_wounds(state, seat: int) -> int:
    """Banner of Protection (thrown away): "at end of turn you may throw away all Wounds received this turn" -- as
    many Wounds as were received, of those still in the hand or the discard pile."""
    s = state["seats"][seat]
    turn = state["turn"]
    if not turn.get("protection") or turn.get("protection_asked"):
        return 0
    return min(turn.get("wounds_received", 0), s["hand"].count(WOUND) + s["discard"].count(WOUND))


def protection_options(state, seat: int) -> list[tuple[str, str]]:
    n = state["turn"]["pending"]["wounds"]
    return [("t-protect:yes", f"throw away the {plural(n, 'Wound')} received this turn (Banner of Protection)"),
            ("t-protect:no", "keep them")]


def protection_pick(state, seat: int, arg: str, events: list) -> None:
    turn = state["turn"]
    s = state["seats"][seat]
    n = turn["pending"]["wounds"]
    turn["pending"] = None
    turn["protection_asked"] = True
    if arg == "yes":
        for _ in range(n):
            s["hand" if WOUND in s["hand"] else "discard"].remove(WOUND)
        events.append(Event(f"Seat {seat + 1} throws away {plural(n, 'Wound')} (Banner of Protection).", None,
                            {"seat": seat, "healed": n}))
    finish(state, seat, events)


def finish(state, seat: int, events: list) -> None:
    turn = state["turn"]
    s = state["seats"][seat]
    n = protection_wounds(state, seat)
    if n:
        turn["pending"] = {"kind": "protect", "wounds": n}
        return
    # Time Bending: "set this card aside for the Round, return the other cards played this turn to hand, skip
    # drawing, and take another turn immediately" (dropped if the round's end or the final turns came meanwhile)
    bend = bool(turn.get("time_bend")) and "space_bending" in s["play_area"] and time_bending_open(state)
    if not turn.get("tempo_asked") and not bend:
        where = tempo_place(state, seat)
        if where:  # the "may" is the player's pick
            turn["pending"] = {"kind": "tempo", "where": where}
            return
    if turn.get("crystal_return"):
        for c in turn.get("crystals_spent", []):
            s["crystals"][c] = min(mana.CRYSTAL_MAX, s["crystals"][c] + 1)
    place = turn.pop("tempo_place", None)
    if place:
        s["play_area"].remove("steady_tempo")
        if place == "top":
            s["deck"].append("steady_tempo")
        else:
            s["deck"].insert(0, "steady_tempo")
    if bend:
        s["play_area"].remove("space_bending")
        s.setdefault("set_aside", []).append("space_bending")
        s["hand"] += s["play_area"]
        state["tactics"]["time_bent"] = seat
        events.append(Event(f"Seat {seat + 1} sets Time Bending aside and takes the played cards back into the hand.",
                            None, {"seat": seat, "card": "space_bending"}))
    else:
        s["discard"] += s["play_area"]
    s["play_area"] = []
    for colour in turn.get("ring_fame", []):  # a Ring thrown away: "Fame +1 per <colour> Spell cast this turn"
        n = sum(1 for card, how in turn.get("played", []) if how != "sideways" and cards.CARDS[card].kind == "spell"
                and cards.CARDS[card].colour == colour)
        if n:
            s["fame"] += n
            events.append(Event(f"Seat {seat + 1} gains {n} Fame for {colour} Spells cast (Ring).", None,
                                {"seat": seat, "fame": n}))
    for fame, reputation in turn.get("noble_earned", []):  # Noble Manners: "at end of turn if used in an interaction"
        s["fame"] += fame
        events.append(Event(f"Seat {seat + 1} gains {fame} Fame (Noble Manners).", None, {"seat": seat, "fame": fame}))
        if reputation:
            change_reputation(state, seat, reputation, events)
    levels.gain(state, seat, events)
    # Planning's hand_limit_bonus; Meditation / Trance: "draw 2 over Hand limit at end of turn" (turn["hand_bonus"])
    missing = (s["hand_limit"] + keep_bonus(state, seat) + hand_limit_bonus(state, seat) + turn.get("hand_bonus", 0)
               - len(s["hand"]))
    if missing > 0 and not bend:
        draw(state, seat, missing, events)
    state["turn"] = None
    events.append(Event(f"Seat {seat + 1}'s turn ends.", None, {"seat": seat, "kind": "turn_end"}))
