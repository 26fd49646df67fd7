"""Special effects of mana, crystals and the offers: discarding as a cost, Crystallize, Mana Draw, Concentration,
Pure Magic, Training, Decompose, spells learnt from the offer, Mana Storm / Bolt / Claim, Restoration, Endless Mana,
the Gem Pouch, the Amulets, turning tokens into crystals.
"""

from __future__ import annotations

from ..base import Event
from . import hexmap, mana
from .cards import ACTION_KINDS, CARDS, name
from .card_text import describe, plural, WOUND
from .hero import action_cards_in_hand, heal, hero_name, take_from_offer, throw_away, wounds_in_hand
from .pool import add_pool
from .resolver import atom_usable, combat_allowed, hand_without, in_combat, make_ctx, usable
from .specials_registry import always, register, Special
from .unit_rules import unit_wounds


# discard_card: a cost; discard another non-Wound card from the hand
def _discardables(state, seat):
    s = state["seats"][seat]
    return [c for c in dict.fromkeys(s["hand"]) if c != WOUND]


def _discard_usable(state, seat, args, ctx):
    return any(c != WOUND for c in hand_without(state, seat, ctx))


# A mana paid as part of an effect (Crystallize, Pure Magic, Mana Bolt): the option id is "<source>><colour>".
def _spendable(state, seat, exclude_crystals=True):
    """(source, colour it gives) for one mana of a basic colour, gold by day offered as each colour."""
    out, seen = [], set()
    for colour in mana.BASIC:
        for src in mana.sources_for(state, seat, colour):
            if exclude_crystals and src.startswith("crystal"):
                continue
            key = (mana.label(state, src), colour)
            if key not in seen:
                seen.add(key)
                out.append((src, colour))
    return out


def _spend_choices(state, seat, useful=None):
    return [(f"{src}>{colour}", f"{mana.label(state, src)} as {colour}" if "gold" in mana.label(state, src)
             else mana.label(state, src))
            for src, colour in _spendable(state, seat, exclude_crystals=False)
            if useful is None or useful(colour)]


def _split(choice):
    src, colour = choice.split(">")
    return src, colour


def _discard_do(state, seat, args, choice, events):
    s = state["seats"][seat]
    s["hand"].remove(choice)
    s["discard"].append(choice)
    events.append(Event(f"{hero_name(state, seat)} discards {name(choice)}.", None, {"seat": seat}))


def _crystallize_do(state, seat, args, choice, events):
    src, colour = _split(choice)
    mana.pay(state, seat, src)
    mana.crystal_gain(state["seats"][seat], colour, state["turn"])


def _extra_die(state, seat, args, choice, events):
    state["turn"]["dice_allowed"] = state["turn"].get("dice_allowed", 1) + 1


def _free_dice(state):
    return [i for i in range(len(state["source"]["dice"])) if i not in state["source"]["taken"]]


def _mana_draw_do(state, seat, args, choice, events):
    i = _free_dice(state)[0]
    turn = state["turn"]
    state["source"]["taken"].append(i)
    state["source"]["dice"][i] = choice
    turn.setdefault("keep_dice", {})[str(i)] = choice
    turn["tokens"].extend([choice] * args[0])


def _concentration_usable(state, seat, args, ctx):
    """Of use if another Action card in the hand has a powered effect of use now (it will be played with it)."""
    hand = hand_without(state, seat, ctx)
    return any(CARDS[c].kind in ACTION_KINDS and usable(state, seat, CARDS[c].powered, dict(
        ctx, exclude=[x for x in (ctx.get("exclude"), c) if x])) for c in dict.fromkeys(hand))


def _concentration_do(state, seat, args, choice, events):
    state["turn"]["boost"] = args[0]


def _mastery_choices(state, seat, args):
    cr = state["seats"][seat]["crystals"]
    return [(c, f"a {c} crystal") for c in mana.BASIC if 0 < cr[c] < mana.CRYSTAL_MAX]


def _mastery_do(state, seat, args, choice, events):
    mana.crystal_gain(state["seats"][seat], choice, state["turn"])


def _crystal_return(state, seat, args, choice, events):
    state["turn"]["crystal_return"] = True


PURE = {"green": "move", "white": "influence", "blue": "block", "red": "attack"}


def _pure_useful(state, seat):
    ctx = make_ctx(state, seat)
    return lambda colour: atom_usable(state, seat, ["atom", PURE[colour], 1, "physical"], ctx)


def _pure_do(state, seat, args, choice, events):
    src, colour = _split(choice)
    mana.pay(state, seat, src)
    add_pool(state["turn"], PURE[colour], args[0])


def _in_need_do(state, seat, args, choice, events):
    s = state["seats"][seat]
    wounds = wounds_in_hand(s) + sum(unit_wounds(u) for u in s["units"])
    add_pool(state["turn"], "influence", args[0] + args[1] * wounds)


def _aa_pairs(state, seat, offer):
    pairs = []
    for c in action_cards_in_hand(state, seat):
        for o in state["offers"].get(offer, []):
            if CARDS.get(o) and CARDS[o].colour == CARDS[c].colour and CARDS[c].colour:
                pairs.append((f"{c}>{o}", f"throw away {name(c)}, take {name(o)}"))
    return pairs


def _training(dest):
    def do(state, seat, args, choice, events):
        c, o = choice.split(">")
        throw_away(state, seat, c)
        take_from_offer(state, "advanced", o)
        state["seats"][seat][dest].append(o)
        events.append(Event(f"{hero_name(state, seat)} throws away {name(c)} and takes {name(o)}.", None,
                            {"seat": seat}))
    return do


def _decompose_choices(state, seat, args):
    return [(c, f"throw away {name(c)}") for c in action_cards_in_hand(state, seat) if CARDS[c].colour]


def _decompose(powered):
    def do(state, seat, args, choice, events):
        colour = CARDS[choice].colour
        throw_away(state, seat, choice)
        s = state["seats"][seat]
        for c in ([x for x in mana.BASIC if x != colour] if powered else [colour, colour]):
            mana.crystal_gain(s, c, state["turn"])
    return do


def _learn_spell_choices(state, seat, args):
    out = []
    for sp in state["offers"].get("spells", []):
        colour = CARDS[sp].colour if sp in CARDS else ""
        srcs = mana.sources_for(state, seat, colour) if colour else []
        if srcs:
            out.append((f"{sp}>{srcs[0]}", f"{name(sp)}, paying with {mana.label(state, srcs[0])}"))
    return out


def _learn_spell_do(state, seat, args, choice, events):
    sp, src = choice.split(">")
    mana.pay(state, seat, src)
    take_from_offer(state, "spells", sp)
    state["seats"][seat]["discard"].append(sp)
    events.append(Event(f"{hero_name(state, seat)} learns {name(sp)}.", None, {"seat": seat}))


def _book_spell_do(state, seat, args, choice, events):
    c, o = choice.split(">")
    throw_away(state, seat, c)
    take_from_offer(state, "spells", o)
    s = state["seats"][seat]
    s["hand"].append(o)
    mana.crystal_gain(s, CARDS[o].colour, state["turn"])


def _recruit_bonus(rep, fame):
    def do(state, seat, args, choice, events):
        state["turn"]["recruit_bonus"] = [rep, fame]
    return do


def _storm_choices(state, seat, args):
    seen, out = set(), []
    for i in _free_dice(state):
        d = state["source"]["dice"][i]
        if d in mana.BASIC and d not in seen:
            seen.add(d)
            out.append((str(i), f"the {d} die"))
    return out


def _storm_powered_do(state, seat, args, choice, events):
    """Mana Storm powered: "reroll all Source dice; you may use 3 extra dice and black/gold dice count as any basic
    colour this turn" (the dice already taken this turn are rerolled when they come back)."""
    turn = state["turn"]
    for i in _free_dice(state):
        state["source"]["dice"][i] = mana.roll(state)
    turn["dice_allowed"] = turn.get("dice_allowed", 1) + 3
    turn["storm"] = True
    events.append(Event(f"{hero_name(state, seat)} rerolls the Source: " + ", ".join(
        state["source"]["dice"][i] for i in _free_dice(state)) + " (Mana Storm).", None, {"seat": seat}))


def _storm_do(state, seat, args, choice, events):
    i = int(choice)
    mana.crystal_gain(state["seats"][seat], state["source"]["dice"][i], state["turn"])
    state["source"]["dice"][i] = mana.roll(state)


BOLT = {"blue": ("attack", 0, "ice"), "red": ("attack", 1, "cold_fire"), "white": ("ranged", 2, "ice"),
        "green": ("siege", 3, "ice")}


def _bolt_useful(state, seat):
    allowed = combat_allowed(state)
    return lambda colour: {"attack": "melee"}.get(BOLT[colour][0], BOLT[colour][0]) in allowed


def _bolt_choices(state, seat, args):
    out = []
    for i, lab in _spend_choices(state, seat, _bolt_useful(state, seat)):
        kind, minus, elem = BOLT[_split(i)[1]]
        out.append((i, f"{lab}: {describe(['atom', kind, args[0] - minus, elem])}"))
    return out


def _bolt_do(state, seat, args, choice, events):
    src, colour = _split(choice)
    mana.pay(state, seat, src)
    kind, minus, elem = BOLT[colour]
    add_pool(state["turn"], kind, args[0] - minus, elem)


def _claim_choices(state, seat, args):
    """Mana Claim: "take a basic-coloured Source die until end of Round: gain 3 tokens of its colour now, or 1 token
    each turn for the rest of the Round" -- both ways for each colour, 3 now first (the default)."""
    out = []
    for i, lab in _storm_choices(state, seat, args):
        c = state["source"]["dice"][int(i)]
        out.append((f"{i}>now", f"take {lab}: 3 {c} mana tokens now"))
        out.append((f"{i}>turns", f"take {lab}: 1 {c} mana token now and at the start of each of your turns this "
                                  f"Round"))
    return out


def _claim_do(state, seat, args, choice, events):
    i, how = choice.split(">")
    colour = mana.take_die_out(state, int(i))
    each = how == "turns"
    state["seats"][seat]["claimed"] = {"colour": colour, "each_turn": each, "curse": bool(args[0])}
    state["turn"]["tokens"].extend([colour] * (1 if each else 3))
    events.append(Event(f"{hero_name(state, seat)} takes the {colour} die from the Source until the end of the Round ("
                        + ("Mana Curse" if args[0] else "Mana Claim") + ").", None,
                        {"seat": seat, "claimed": colour, "each_turn": each, "curse": bool(args[0])}))


def _restoration_do(state, seat, args, choice, events):
    pos = state["seats"][seat].get("pos")
    terrain = state["map"]["hexes"].get(pos, {}).get("terrain") if pos else None
    heal(state, seat, 5 if terrain == "forest" else 3, events)


def _endless_do(state, seat, args, choice, events):
    """A Ring thrown away: "unlimited <colour> and black mana this turn" (mana.sources_for offers it for every cost)
    "; Fame +1 per <colour> Spell cast this turn" (counted at the end of the turn, endturn.py)."""
    endless = state["turn"].setdefault("endless", [])
    for c in (args[0], "black"):
        if c not in endless:
            endless.append(c)
    state["turn"].setdefault("ring_fame", []).append(args[0])


def _gem_pouch_do(state, seat, args, choice, events):
    s = state["seats"][seat]
    for _ in range(2):
        face = mana.roll(state)
        if face == "black":
            s["fame"] += 1
        elif face == "gold":  # "gold = your choice": a pick after the rolls
            state["turn"]["queue"].insert(0, ["atom", "special", "gem_gold"])
        else:
            mana.crystal_gain(s, face, state["turn"])
        events.append(Event(f"{hero_name(state, seat)} rolls {face}.", None, {"seat": seat}))


def _gem_gold_choices(state, seat, args):
    """Endless Gem Pouch, a gold roll: a crystal of the colour chosen (the colours held fewest of first)."""
    cr = state["seats"][seat]["crystals"]
    return [(c, f"a {c} crystal" + (" (you hold 3: a token instead)" if cr[c] >= mana.CRYSTAL_MAX else ""))
            for c in sorted(mana.BASIC, key=lambda c: cr[c])]


AMULET_TIME = {"sun": "night", "dark": "day"}  # when each Amulet's extra rules apply


def _amulet_do(state, seat, args, choice, events):
    """Amulet of the Sun, at Night: "forests cost 3, gold mana usable, fortified-site garrisons and ruins revealed as
    by Day"; Amulet of Darkness, by Day: "deserts cost 3 and black mana usable as at Night" (mana.time_for)."""
    kind = args[0]
    turn = state["turn"]
    if state["time"] != AMULET_TIME[kind] or turn.get("amulet") == kind:
        return
    turn["amulet"] = kind
    turn.setdefault("terrain", []).append(["set", "forest" if kind == "sun" else "desert", 3])
    if kind == "sun":
        pos = state["seats"][seat].get("pos")
        events += hexmap.reveal_ruins_at_day(state["map"])
        if pos:
            events += hexmap.reveal_garrisons_near(state["map"], pos, "day")
    events.append(Event(f"{hero_name(state, seat)}: " + (
        "this turn forests cost 3, gold mana is usable and sites are revealed as by Day (Amulet of the Sun)."
        if kind == "sun" else "this turn deserts cost 3 and black mana is usable as at Night (Amulet of Darkness)."),
        None, {"seat": seat}))


def _day_night_token(state, seat, args, choice, events):
    state["turn"]["tokens"].append("gold" if state["time"] == "day" else "black")


def _token_crystal_choices(state, seat, args):
    """Blood Ritual powered (MKD: an optional mana-to-crystal conversion): one of the ``args[0]`` tokens just gained,
    of a basic colour whose crystals are not at the cap."""
    gained = state["turn"]["tokens"][-args[0]:]
    cr = state["seats"][seat]["crystals"]
    colours = [c for c in dict.fromkeys(gained) if c in mana.BASIC and cr[c] < mana.CRYSTAL_MAX]
    if not colours:
        return []
    return [("keep", "keep the tokens")] + [(c, f"turn the {c} token into a {c} crystal") for c in colours]


def _token_crystal_do(state, seat, args, choice, events):
    if choice in mana.BASIC:
        tokens = state["turn"]["tokens"]
        del tokens[len(tokens) - 1 - tokens[::-1].index(choice)]
        mana.crystal_gain(state["seats"][seat], choice, state["turn"])


def _influence_ok(state, seat, args, ctx):
    return not in_combat(state)


MANA_SPECIALS: dict[str, Special] = {
    "discard_card": Special(lambda a: "discard a card", _discard_usable, _discard_do,
                            lambda st, se, a: [(c, f"discard {name(c)}") for c in _discardables(st, se)], cost=True),
    "crystallize": Special(lambda a: "pay a mana of a basic colour and gain a crystal of that colour",
                           lambda st, se, a, ctx: bool(_spendable(st, se)), _crystallize_do,
                           lambda st, se, a: [(f"{s}>{c}", f"{mana.label(st, s)} into a {c} crystal")
                                              for s, c in _spendable(st, se)], pays=True),
    "extra_die": Special(lambda a: "use one more Source die this turn", always, _extra_die),
    "mana_draw": Special(lambda a: f"set a Source die to a colour and gain {a[0]} mana tokens of it",
                         lambda st, se, a, ctx: bool(_free_dice(st)), _mana_draw_do,
                         lambda st, se, a: [(c, f"{c} ({plural(a[0], 'token')})") for c in mana.BASIC]),
    "concentration": Special(lambda a: f"the next Action card you play powered needs no mana, and +{a[0]} on one "
                                       f"Move, Influence, Attack or Block it gives",
                             _concentration_usable,
                             _concentration_do),
    "crystal_mastery": Special(lambda a: "gain a crystal of a colour you already have",
                               lambda st, se, a, ctx: bool(_mastery_choices(st, se, a)), _mastery_do,
                               _mastery_choices),
    "crystal_return": Special(lambda a: "the crystals you spend this turn come back at its end", always,
                              _crystal_return),
    "pure_magic": Special(lambda a: f"pay a mana: green for Move {a[0]}, white for Influence {a[0]}, blue for Block "
                                   f"{a[0]} or red for Attack {a[0]}",
                          lambda st, se, a, ctx: bool(_spend_choices(st, se, _pure_useful(st, se))), _pure_do,
                          lambda st, se, a: [(i, f"{lab}: {PURE[_split(i)[1]].title()} {a[0]}")
                                             for i, lab in _spend_choices(st, se, _pure_useful(st, se))],
                          pays=True),
    "in_need": Special(lambda a: f"Influence {a[0]}, +{a[1]} per wound in your hand or on your Units",
                       lambda st, se, a, ctx: atom_usable(st, se, ["atom", "influence", a[0]], ctx), _in_need_do),
    "training": Special(lambda a: "throw away an Action card: take an Advanced Action of its colour from the "
                                  "offer into your discard pile",
                        lambda st, se, a, ctx: bool(_aa_pairs(st, se, "advanced")), _training("discard"),
                        lambda st, se, a: _aa_pairs(st, se, "advanced")),
    "training_hand": Special(lambda a: "throw away an Action card: take an Advanced Action of its colour from the "
                                       "offer into your hand",
                             lambda st, se, a, ctx: bool(_aa_pairs(st, se, "advanced")), _training("hand"),
                             lambda st, se, a: _aa_pairs(st, se, "advanced")),
    "decompose": Special(lambda a: "throw away an Action card: gain 2 crystals of its colour",
                         lambda st, se, a, ctx: bool(_decompose_choices(st, se, a)), _decompose(False),
                         _decompose_choices),
    "decompose_powered": Special(lambda a: "throw away an Action card: gain a crystal of each other basic colour",
                                 lambda st, se, a, ctx: bool(_decompose_choices(st, se, a)), _decompose(True),
                                 _decompose_choices),
    "learn_spell": Special(lambda a: "pay a mana: take a Spell of that colour from the offer",
                           lambda st, se, a, ctx: bool(_learn_spell_choices(st, se, a)), _learn_spell_do,
                           _learn_spell_choices, pays=True),
    "book_spell": Special(lambda a: "throw away an Action card: take a Spell of its colour into your hand and "
                                    "gain a crystal of that colour",
                          lambda st, se, a, ctx: bool(_aa_pairs(st, se, "spells")), _book_spell_do,
                          lambda st, se, a: _aa_pairs(st, se, "spells")),
    "recruit_reputation": Special(lambda a: "Reputation +1 per Unit recruited this turn", _influence_ok,
                                  _recruit_bonus(1, 0)),
    "recruit_glory": Special(lambda a: "Reputation and Fame +1 per Unit recruited this turn", _influence_ok,
                             _recruit_bonus(1, 1)),
    "mana_storm": Special(lambda a: "gain a crystal of a Source die's colour, then reroll that die",
                          lambda st, se, a, ctx: bool(_storm_choices(st, se, a)), _storm_do, _storm_choices),
    "mana_storm_powered": Special(lambda a: "reroll all Source dice; this turn you may use 3 more dice and black and "
                                            "gold dice count as any basic colour", always, _storm_powered_do),
    "mana_bolt": Special(lambda a: f"pay a mana: blue for Attack {a[0]} (ice), red for Attack {a[0] - 1} "
                                   f"(cold fire), white for Ranged Attack {a[0] - 2} (ice) or green for Siege "
                                   f"Attack {a[0] - 3} (ice)",
                         lambda st, se, a, ctx: bool(_spend_choices(st, se, _bolt_useful(st, se))), _bolt_do,
                         lambda st, se, a: _bolt_choices(st, se, a), pays=True),
    "mana_claim": Special(lambda a: "take a basic-coloured Source die until the end of the Round: gain 3 mana tokens "
                                    "of its colour now, or 1 now and 1 at the start of each of your turns this Round"
                                    + ("; until then every other player who uses mana of that colour takes a Wound "
                                       "(at most 1 a turn)" if a[0] else ""),
                          lambda st, se, a, ctx: bool(_storm_choices(st, se, a)) and not st["seats"][se].get("claimed"),
                          _claim_do, _claim_choices),
    "restoration": Special(lambda a: "Heal 3 wounds (5 in a forest)",
                           lambda st, se, a, ctx: not in_combat(st) and wounds_in_hand(st["seats"][se]) > 0,
                           _restoration_do),
    "endless_mana": Special(lambda a: f"unlimited {a[0]} and black mana this turn; Fame +1 for each {a[0]} Spell "
                                      f"cast this turn", lambda st, se, a, ctx: a[0] not in st["turn"].get("ring_fame", ()),
                            _endless_do),
    "gem_pouch": Special(lambda a: "roll a mana die twice: gain a crystal of each colour rolled (gold: of your choice; "
                                   "Fame +1 for black)",
                         always, _gem_pouch_do),
    "gem_gold": Special(lambda a: "a crystal of the colour you choose", always,
                        lambda st, se, a, ch, ev: mana.crystal_gain(st["seats"][se], ch, st["turn"]), _gem_gold_choices),
    "amulet": Special(lambda a: ("at Night also: this turn forests cost 3, gold mana is usable and fortified sites' "
                                 "defenders and ruins are revealed as by Day") if a[0] == "sun" else
                      "by Day also: this turn deserts cost 3 and black mana is usable as at Night",
                      lambda *a: False, _amulet_do),
    "day_night_token": Special(lambda a: "gain a gold mana token by day or a black one at night", always,
                               _day_night_token),
    "token_to_crystal": Special(lambda a: f"you may turn one of these {a[0]} tokens of a basic colour into a crystal",
                                lambda *a: False, _token_crystal_do, _token_crystal_choices),
}

register(MANA_SPECIALS)
