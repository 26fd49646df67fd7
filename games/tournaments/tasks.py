"""Thin Celery entry points of the tournaments app."""

from celery import shared_task

from .services import tournaments_registration_sweep


# Not acks_late: a lost sweep is replaced by the next one; each tournament is re-checked under its lock.
@shared_task(name="tournaments.close_registrations", acks_late=False, time_limit=300, soft_time_limit=280,
             ignore_result=True)
def close_registrations() -> dict:
    """Run by beat: start tournaments whose registration has closed, cancel those without enough players."""
    return tournaments_registration_sweep()
