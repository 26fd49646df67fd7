"""Writes. Each public function is one transaction and ends by scheduling its side effects on commit."""

from .lifecycle import game_abandon, game_create, game_join, game_pause, game_resume
from .resolution import phase_resolve
from .seats import seat_reclaim, seat_standing_orders_set, seat_web_seen_set
from .submissions import submission_create
from .sweep import due_phases, due_phases_sweep

__all__ = [
    "game_abandon", "game_create", "game_join", "game_pause", "game_resume", "phase_resolve", "seat_reclaim",
    "seat_standing_orders_set", "seat_web_seen_set", "submission_create", "due_phases", "due_phases_sweep",
]
