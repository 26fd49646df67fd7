"""Signals the notification layers (email, web push) hook. All are sent after the transaction commits."""

from django.dispatch import Signal

# kwargs: prompt (games.models.Prompt) — a seat has a new decision to make
prompt_opened = Signal()
# kwargs: game, phase (the resolved step number), events (list of games.models.Event)
phase_resolved = Signal()
# kwargs: game (with .result filled)
game_finished = Signal()
# kwargs: game — an admin ended the game without a result (games.services.admin_actions.game_abandon)
game_abandoned = Signal()
