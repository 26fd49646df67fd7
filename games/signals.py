"""Signals the notification layers (email, web push) hook. All are sent after the transaction commits."""

from django.dispatch import Signal

# kwargs: prompt (games.models.Prompt) — a seat has a new decision to make;
#   follow_up_of: None, or the source ("api", "web", "email", "bot", ...) of the same seat's pick that
#   opened it within the same step: the next pick of a compound decision the player is making right now
#   (an API or web player already has it in the response or the page; an email player has only the mail)
prompt_opened = Signal()
# kwargs: game, phase (the resolved step number), events (list of games.models.Event)
phase_resolved = Signal()
# kwargs: game (with .result filled)
game_finished = Signal()
# kwargs: game — an admin ended the game without a result (games.services.admin_actions.game_abandon)
game_abandoned = Signal()
