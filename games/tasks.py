"""Thin Celery entry points: take ids, call a service, return quietly when there is nothing to do."""

from celery import shared_task

from .services import due_phases_sweep, phase_resolve
from .services.enqueue import resolve_task_register


@shared_task(name="games.resolve_phase", acks_late=True, reject_on_worker_lost=True,
             time_limit=120, soft_time_limit=100, ignore_result=True)
def resolve_phase(game_id: int, phase: int) -> bool:
    """Resolve one step; duplicates, late and concurrent runs change nothing."""
    return phase_resolve(game_id=game_id, phase=phase)


resolve_task_register(resolve_phase)  # the services enqueue it after the write that completes a step


# Not acks_late: a lost sweep is simply replaced by the next one a second later.
@shared_task(name="games.sweep_due_phases", acks_late=False, time_limit=60, soft_time_limit=50, ignore_result=True)
def sweep_due_phases() -> int:
    """Run by beat every few seconds: enqueue a resolution for every due or stalled step."""
    return due_phases_sweep(resolve=lambda game_id, phase: resolve_phase.delay(game_id, phase))
