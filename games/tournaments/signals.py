"""Signals for the notification layers. All are sent after the transaction commits.

Each comes with a Notice row (games.tournaments.models.Notice) the email and web layers may consume.
"""

from django.dispatch import Signal

# kwargs: tournament, round (games.tournaments.models.Round) — a round's games have been created
round_started = Signal()
# kwargs: tournament, round, user, game (None for a bye), notice — a player's next game
game_assigned = Signal()
# kwargs: tournament, standings (list of rows as in selectors.tournament_standings)
tournament_finished = Signal()
# kwargs: tournament, reason — the tournament was called off (too few players at the close, or a director)
tournament_cancelled = Signal()
