"""A Battle for London game driven through the server for the expansion's page, mail and API tests: two
players, seed 48690 (seed 31 until card set v3 changed the 2-player decks), both playing the engine's greedy
default except that seat 1 skips its first lecture (so its Attendance Award flips). At the first state with
two routes taken, a Control Point broken and a Big Ben bonus taken, seat 0 has reached Big Ben on route A with
the "Eight MP" bonus (its set-aside Maid Ability still hidden) and seat 1 is on route B."""

from __future__ import annotations

from games.engines.faltisia.engine import FaltisiaEngine
from games.models import Game, GameStatus
from tests.factories import make_started_game
from tests.games.helpers import open_prompt, pick

BFL = {"expansion": "battle_for_london"}
SEED = 48690
ENGINE = FaltisiaEngine()


def mid_game_reached(state: dict) -> bool:
    seats = state["seats"]
    return (sum(1 for s in seats if s["bfl"]["route"]) >= 2 and any(s["bfl"]["controls"] for s in seats)
            and any(who is not None for who in state["london"]["big_ben"].values()))


def _choice(game: Game, seat: int) -> str:
    prompt = open_prompt(game, seat)
    ids = [o["id"] for o in prompt.options]
    if seat == 1 and "skip" in ids and game.state["seats"][1]["bfl"]["award"]:
        return "skip"
    return ENGINE.default_option(game.state, seat)


def drive(game: Game, done, limit: int = 5000) -> Game:
    """Pick for whichever seat is open until ``done(state)`` or the game ends."""
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE or done(game.state):
            return game
        seat = next(p for p in range(game.players) if open_prompt(game, p) is not None)
        pick(game, seat, _choice(game, seat))
    raise AssertionError("the game did not get there")


def london_game() -> tuple[Game, list]:
    game, users = make_started_game(players=2, engine="faltisia", options=BFL, seed=SEED)
    drive(game, mid_game_reached)
    assert game.status == GameStatus.ACTIVE, f"seed {SEED} reaches the mid-game state before the end"
    return game, users


def finish(game: Game) -> Game:
    drive(game, lambda state: False)
    assert game.status == GameStatus.FINISHED
    return game
