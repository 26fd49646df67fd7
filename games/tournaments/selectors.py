"""Reads: tournament lists and details, who has met whom, and the standings."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.db.models import Count, QuerySet

from . import pairing
from .models import Entry, EntryStatus, Table, TableSeat, Tournament, TournamentFormat, TournamentStatus
from .rules import TIE_BREAKS, rules_from
from .standings import GameLine, Line, standings_order


def tournaments_visible(*, status: str | None = None) -> QuerySet[Tournament]:
    """Listed tournaments: everything but proposals staff have not approved yet."""
    qs = (Tournament.objects.exclude(status=TournamentStatus.PROPOSED)
          .annotate(players=Count("entries")).order_by("-id"))
    return qs.filter(status=status) if status else qs


def proposals_for(*, user) -> QuerySet[Tournament]:
    """Proposals awaiting approval that ``user`` may see: all of them for staff, their own for a player."""
    qs = Tournament.objects.filter(status=TournamentStatus.PROPOSED).select_related("proposed_by").order_by("id")
    if not user.is_authenticated:
        return qs.none()
    return qs if user.is_staff else qs.filter(proposed_by=user)


def tournament_shown_to(*, tournament: Tournament, user) -> bool:
    """A proposal shows to staff and its proposer only; every other tournament is public."""
    if tournament.status != TournamentStatus.PROPOSED:
        return True
    return user.is_authenticated and (user.is_staff or tournament.proposed_by_id == user.pk)


def tournament_summary(t: Tournament) -> dict[str, Any]:
    return {"id": t.pk, "name": t.name, "game": t.engine, "format": t.format, "table_size": t.table_size,
            "rounds": t.rounds, "current_round": t.current_round, "status": t.status, "rated": t.rated,
            "press": t.press,
            "registration_opens": t.registration_opens.isoformat() if t.registration_opens else None,
            "registration_closes": t.registration_closes.isoformat() if t.registration_closes else None,
            "players": t.players if hasattr(t, "players") else t.entries.count()}


def entry_meetings(*, tournament: Tournament) -> Counter:
    """How often each pair of entries has sat at one table (byes excluded)."""
    by_table: dict[int, list[int]] = {}
    for table_id, entry_id in (TableSeat.objects.filter(table__round__tournament=tournament,
                                                        table__game__isnull=False)
                               .values_list("table_id", "entry_id")):
        by_table.setdefault(table_id, []).append(entry_id)
    return pairing.meetings(by_table.values())


def _tie_breaks(tournament: Tournament) -> tuple[str, ...]:
    from ..engines.registry import get_engine

    return rules_from(table_size=tournament.table_size, min_players=get_engine(tournament.engine).min_players,
                      settings=tournament.settings).tie_breaks


def tournament_standings(*, tournament: Tournament) -> dict[str, Any]:
    """Standings of every entry so far, with each counted result; ranks shared on full ties."""
    entries = list(Entry.objects.filter(tournament=tournament).select_related("user").order_by("id"))
    elimination = tournament.format == TournamentFormat.SINGLE_ELIMINATION
    lines = {e.id: Line(entry_id=e.id, name=e.user.username, status=e.status, eliminated_in=e.eliminated_in)
             for e in entries}
    sizes = dict(Table.objects.filter(round__tournament=tournament).annotate(n=Count("places"))
                 .values_list("id", "n"))
    counted = (TableSeat.objects.filter(table__round__tournament=tournament, table__scored_at__isnull=False)
               .select_related("table__round").order_by("table__round__number", "table__number"))
    for ts in counted:
        is_bye = ts.table.game_id is None
        lines[ts.entry_id].games.append(GameLine(
            round=ts.table.round.number, place=None if is_bye else ts.place, points=ts.points or 0.0,
            mp=ts.mp or 0, tiebreak=ts.tiebreak or 0, table_size=1 if is_bye else sizes[ts.table_id]))
    rounds_played = tournament.round_set.filter(status="finished").count()
    if elimination:
        for line in lines.values():
            if line.status == EntryStatus.DROPPED:
                line.eliminated_in = max((g.round for g in line.games), default=0)
    tie_breaks = _tie_breaks(tournament)
    rows = standings_order(list(lines.values()), tie_breaks=tie_breaks, elimination=elimination,
                           rounds_played=rounds_played)
    return {"tournament": tournament_summary(tournament), "final": tournament.status == TournamentStatus.FINISHED,
            "tie_breaks": [{"key": k, "meaning": TIE_BREAKS[k]} for k in tie_breaks],
            "rounds_played": rounds_played, "rows": rows}


def tournament_rounds(*, tournament: Tournament) -> list[dict[str, Any]]:
    """Rounds with their tables: who sits where, the game, and the places once counted."""
    out = []
    for rnd in tournament.round_set.prefetch_related("tables__places__entry__user", "tables__game"):
        tables = []
        for t in rnd.tables.all():
            tables.append({"table": t.number, "game": t.game_id, "bye": t.game_id is None,
                           "status": t.game.status if t.game_id else "bye",
                           "players": [{"player": s.entry.user.username, "seat": s.position, "place": s.place,
                                        "points": s.points, "mp": s.mp} for s in t.places.all()]})
        out.append({"round": rnd.number, "status": rnd.status, "tables": tables})
    return out
