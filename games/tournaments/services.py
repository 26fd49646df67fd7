"""Writes: create a tournament, register, start, seat rounds, count results, drop and replace players.

Every function that changes a running tournament locks the tournament row first, so two games
finishing at the same moment cannot both create the next round (the unique round number is the
second line of defence).
"""

from __future__ import annotations

import logging
import math
import secrets
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User

from ..engines.registry import get_engine
from ..errors import ErrorCode, GameError
from ..models import Game, GameStatus, Press, Seat
from ..services.admin_actions import game_create_seated, seat_hand_to_bot, seat_replace_player
from ..services.clock import clock_validate
from ..services.enqueue import signal_on_commit
from ..ratings.services import game_rated_set
from . import pairing
from .models import (Entry, EntryStatus, Notice, NoticeKind, Round, RoundStatus, Table, TableSeat, Tournament,
                     TournamentFormat, TournamentStatus)
from .notifier import notice_mail_on_commit
from .rules import Rules, rules_from
from .selectors import entry_meetings, tournament_standings
from .signals import game_assigned, round_started, tournament_cancelled, tournament_finished


logger = logging.getLogger(__name__)


class TournamentError(GameError):
    """A refused tournament request (HTTP status from the code, as for games)."""


def _engine(slug: str):
    try:
        return get_engine(slug)
    except (KeyError, ImportError, AttributeError):
        raise TournamentError(ErrorCode.UNKNOWN_GAME, f"no game called {slug!r} is available here")


def tournament_rules(tournament: Tournament) -> Rules:
    return rules_from(table_size=tournament.table_size, min_players=_engine(tournament.engine).min_players,
                      settings=tournament.settings)


def _check_director(tournament: Tournament, user: User) -> None:
    if not (user.is_staff or tournament.created_by_id == user.pk):
        raise TournamentError(ErrorCode.NOT_GAME_ADMIN, "only staff or the tournament's creator may do this")


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _settings_check(*, engine: str, format: str, table_size: int, rounds: int, options: dict[str, Any],
                    clock: dict[str, Any], settings: dict[str, Any], registration_opens: datetime | None,
                    registration_closes: datetime | None, max_players: int | None, press: str) -> None:
    """Refuse settings a tournament could not be run with; shared by a staff creation and a proposal."""
    game_engine = _engine(engine)
    if press not in Press.values:
        raise TournamentError(ErrorCode.INVALID_SETTINGS, f"press must be one of {', '.join(Press.values)}")
    if format not in TournamentFormat.values:
        raise TournamentError(ErrorCode.INVALID_SETTINGS, f"format must be one of {TournamentFormat.values}")
    if format == TournamentFormat.SWISS and rounds < 1:
        raise TournamentError(ErrorCode.INVALID_SETTINGS, "a Swiss tournament needs rounds >= 1")
    if registration_opens and registration_closes and registration_closes <= registration_opens:
        raise TournamentError(ErrorCode.INVALID_SETTINGS, "registration must close after it opens")
    try:
        game_engine.clean_options(table_size, options)
        clock_validate(clock)
        rules_from(table_size=table_size, min_players=game_engine.min_players, settings=settings)
    except ValueError as e:
        raise TournamentError(ErrorCode.INVALID_SETTINGS, str(e))
    if max_players is not None and max_players < game_engine.min_players:
        raise TournamentError(ErrorCode.INVALID_SETTINGS, "max_players is below the game's minimum")


@transaction.atomic
def tournament_create(*, created_by: User, name: str, engine: str, format: str, table_size: int,
                      rounds: int = 0, options: dict[str, Any] | None = None, clock: dict[str, Any] | None = None,
                      settings: dict[str, Any] | None = None, rated: bool = True, press: str = Press.NONE,
                      registration_opens: datetime | None = None, registration_closes: datetime | None = None,
                      max_players: int | None = None, seed: int | None = None) -> Tournament:
    """Create a tournament open for registration; every setting is checked here, once."""
    if not (created_by.is_staff or created_by.has_perm("tournaments.add_tournament")):
        raise TournamentError(ErrorCode.NOT_GAME_ADMIN, "only staff may create tournaments")
    options, clock, settings = options or {}, clock or {}, settings or {}
    _settings_check(engine=engine, format=format, table_size=table_size, rounds=rounds, options=options,
                    clock=clock, settings=settings, registration_opens=registration_opens,
                    registration_closes=registration_closes, max_players=max_players, press=press)
    return Tournament.objects.create(
        name=name, engine=engine, format=format, table_size=table_size, rounds=rounds, options=options,
        clock=clock, settings=settings, rated=rated, press=press, registration_opens=registration_opens,
        registration_closes=registration_closes, max_players=max_players, created_by=created_by,
        seed=seed if seed is not None else secrets.randbits(48))


@transaction.atomic
def tournament_propose(*, proposed_by: User, name: str, engine: str, format: str, table_size: int,
                       rounds: int = 0, clock: dict[str, Any] | None = None, rated: bool = True,
                       press: str = Press.NONE, registration_closes: datetime | None = None,
                       max_players: int | None = None) -> Tournament:
    """A signed-in player suggests a tournament; it waits, unlisted, until staff approve it.

    The same checks as a staff creation, so an approved proposal can always be run. The proposer is not
    its director: created_by stays empty until a staff member approves it and becomes the director.
    """
    clock = clock or {}
    _settings_check(engine=engine, format=format, table_size=table_size, rounds=rounds, options={},
                    clock=clock, settings={}, registration_opens=None,
                    registration_closes=registration_closes, max_players=max_players, press=press)
    return Tournament.objects.create(
        name=name, engine=engine, format=format, table_size=table_size, rounds=rounds, clock=clock, rated=rated,
        press=press, registration_closes=registration_closes, max_players=max_players, proposed_by=proposed_by,
        status=TournamentStatus.PROPOSED)


@transaction.atomic
def tournament_approve(*, tournament: Tournament, by: User) -> Tournament:
    """Staff open a proposed tournament for registration, becoming its director; approving twice is a no-op."""
    if not (by.is_staff or by.has_perm("tournaments.add_tournament")):
        raise TournamentError(ErrorCode.NOT_GAME_ADMIN, "only staff may approve tournaments")
    tournament = _locked(tournament)
    if tournament.status == TournamentStatus.REGISTRATION and tournament.created_by_id is not None:
        return tournament
    if tournament.status != TournamentStatus.PROPOSED:
        raise TournamentError(ErrorCode.GAME_NOT_OPEN, f"the tournament is {tournament.status}, not proposed")
    tournament.status = TournamentStatus.REGISTRATION
    tournament.created_by = by
    tournament.save(update_fields=["status", "created_by"])
    return tournament


@transaction.atomic
def tournament_register(*, tournament: Tournament, user: User, plays_as_bot: bool = False,
                        now: datetime | None = None) -> Entry:
    """Enter the tournament during its registration window (idempotent: returns the existing entry)."""
    now = now or timezone.now()
    tournament = _locked(tournament)
    existing = Entry.objects.filter(tournament=tournament, user=user).first()
    if existing is not None:
        return existing
    if tournament.status == TournamentStatus.PROPOSED:
        raise TournamentError(ErrorCode.GAME_NOT_OPEN, "this tournament is a proposal staff have not approved yet")
    if tournament.status != TournamentStatus.REGISTRATION:
        raise TournamentError(ErrorCode.GAME_NOT_OPEN, "registration is closed: the tournament has started")
    if tournament.registration_opens and now < tournament.registration_opens:
        raise TournamentError(ErrorCode.GAME_NOT_OPEN, "registration has not opened yet")
    if tournament.registration_closes and now >= tournament.registration_closes:
        raise TournamentError(ErrorCode.GAME_NOT_OPEN, "registration has closed")
    if tournament.max_players and Entry.objects.filter(tournament=tournament).count() >= tournament.max_players:
        raise TournamentError(ErrorCode.GAME_FULL, "the tournament is full")
    return Entry.objects.create(tournament=tournament, user=user, plays_as_bot=plays_as_bot)


@transaction.atomic
def tournament_withdraw(*, tournament: Tournament, user: User) -> None:
    """Leave before the start (the entry goes), or drop out after it (see entry_drop)."""
    tournament = _locked(tournament)
    entry = Entry.objects.filter(tournament=tournament, user=user).first()
    if entry is None:
        raise TournamentError(ErrorCode.NOT_YOUR_SEAT, "you are not registered in this tournament")
    if tournament.status == TournamentStatus.REGISTRATION:
        entry.delete()
        return
    entry_drop(entry=entry, by=user)


def _rounds_planned(tournament: Tournament, players: int) -> int:
    n = tournament.table_size
    if tournament.format == TournamentFormat.SWISS:
        return tournament.rounds
    if tournament.format == TournamentFormat.ROUND_ROBIN:
        if tournament.rounds:
            return tournament.rounds
        if n == 2:
            return players - 1 if players % 2 == 0 else players
        return math.ceil((players - 1) / (n - 1))  # the fewest rounds in which everyone can meet everyone
    return 0  # elimination: until one table is left


def _enough_players(tournament: Tournament, count: int) -> bool:
    """Enough entries to seat at least one table of the game (the start's only requirement)."""
    return count >= _engine(tournament.engine).min_players


@transaction.atomic
def tournament_start(*, tournament: Tournament, by: User) -> Round:
    """Close registration, seed the entries and seat round 1 (a director's act)."""
    tournament = _locked(tournament)
    _check_director(tournament, by)
    return _start_locked(tournament)


def _start_locked(tournament: Tournament) -> Round:
    """Start a locked tournament; shared by the director's start and the registration sweep."""
    if tournament.status != TournamentStatus.REGISTRATION:
        raise TournamentError(ErrorCode.GAME_NOT_OPEN, f"the tournament is {tournament.status}")
    entries = list(Entry.objects.filter(tournament=tournament).select_related("user").order_by("id"))
    if not _enough_players(tournament, len(entries)):
        raise TournamentError(ErrorCode.INVALID_SETTINGS, "not enough players to seat one table")
    # Seeds: best rating in this game first, then registration order.
    from ..ratings.models import Rating
    ordinal = dict(Rating.objects.filter(engine=tournament.engine, user__in=[e.user for e in entries])
                   .values_list("user_id", "ordinal"))
    for i, e in enumerate(sorted(entries, key=lambda e: (-ordinal.get(e.user_id, float("-inf")), e.id)), 1):
        e.seed_no = i
        e.save(update_fields=["seed_no"])
    tournament.status = TournamentStatus.RUNNING
    tournament.started_at = timezone.now()
    tournament.rounds = _rounds_planned(tournament, len(entries))
    tournament.save(update_fields=["status", "started_at", "rounds"])
    return _round_create(tournament, number=1)


def _active_entries(tournament: Tournament) -> list[Entry]:
    return list(Entry.objects.filter(tournament=tournament, status=EntryStatus.ACTIVE).select_related("user")
                .order_by("seed_no", "id"))


def _seating(tournament: Tournament, number: int, rules: Rules) -> tuple[list[list[int]], list[int]]:
    """(tables of entry ids, bye entry ids) for round ``number``."""
    entries = _active_entries(tournament)
    ids = [e.id for e in entries]
    if tournament.format == TournamentFormat.ROUND_ROBIN and tournament.table_size == 2:
        # Over the whole event, against the field as registered: dropped players' pairs become byes.
        everyone = list(Entry.objects.filter(tournament=tournament).order_by("seed_no", "id")
                        .values_list("id", flat=True))
        pairs, byes = pairing.circle_round(everyone, number)
        active = set(ids)
        tables = [p for p in pairs if set(p) <= active]
        byes = [e for e in byes if e in active] + [e for p in pairs if not set(p) <= active for e in p if e in active]
        return tables, byes
    layout = pairing.table_layout(len(ids), table_size=tournament.table_size, min_players=rules.min_players,
                                  odd_players=rules.odd_players)
    if tournament.format == TournamentFormat.SINGLE_ELIMINATION:
        # Byes go to the top seeds (they advance); the rest are dealt over the tables by seed.
        byes, seated = ids[:layout.byes], ids[layout.byes:]
        return pairing.snake(seated, layout.sizes), byes
    if tournament.format == TournamentFormat.SWISS:
        standing = [row["entry"] for row in tournament_standings(tournament=tournament)["rows"]]
        order = [e for e in standing if e in set(ids)]
    else:
        order = ids
    byes: list[int] = []
    if layout.byes:
        # The lowest-placed players who have not had a bye yet sit out (and score bye points).
        had_bye = set(TableSeat.objects.filter(table__round__tournament=tournament, table__game__isnull=True)
                      .values_list("entry_id", flat=True))
        for e in reversed(order):
            if len(byes) < layout.byes and e not in had_bye:
                byes.append(e)
        for e in reversed(order):
            if len(byes) < layout.byes and e not in byes:
                byes.append(e)
        order = [e for e in order if e not in byes]
    tables = pairing.seat_tables(order, layout.sizes, entry_meetings(tournament=tournament))
    return tables, byes


def _round_create(tournament: Tournament, *, number: int) -> Round:
    rules = tournament_rules(tournament)
    tables, byes = _seating(tournament, number, rules)
    try:
        with transaction.atomic():
            rnd = Round.objects.create(tournament=tournament, number=number)
    except IntegrityError:
        raise TournamentError(ErrorCode.INVALID_SETTINGS, f"round {number} already exists")
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    entries = {e.id: e for e in Entry.objects.filter(tournament=tournament).select_related("user")}
    assigned: list[tuple[Entry, Game | None]] = []
    for t_no, members in enumerate(tables, start=1):
        users = [entries[e].user for e in members]
        bots = [p for p, e in enumerate(members) if entries[e].plays_as_bot]
        # A seed per table derived from the tournament's: the whole event can be replayed.
        seed = (tournament.seed * 1_000_003 + number * 1009 + t_no) % (2 ** 62)
        game = game_create_seated(created_by=tournament.created_by or users[0], engine=tournament.engine,
                                  users=users, bot_positions=bots, options=tournament.options,
                                  clock=tournament.clock, seed=seed, press=tournament.press)
        game_rated_set(game=game, rated=tournament.rated)
        table = Table.objects.create(round=rnd, number=t_no, game=game)
        TableSeat.objects.bulk_create([TableSeat(table=table, entry_id=e, position=p) for p, e in enumerate(members)])
        assigned += [(entries[e], game) for e in members]
    for i, e in enumerate(byes, start=len(tables) + 1):
        table = Table.objects.create(round=rnd, number=i, game=None, scored_at=timezone.now())
        TableSeat.objects.create(table=table, entry_id=e, position=0, points=rules.bye_points)
        assigned.append((entries[e], None))
    _notify_round(tournament, rnd, assigned)
    # Bots may already have finished a table inside this transaction; count it once it is visible.
    _round_finish_if_done(tournament, rnd)
    return rnd


def _notify_round(tournament: Tournament, rnd: Round, assigned: list[tuple[Entry, Game | None]]) -> None:
    for entry, game in assigned:
        if game is None:
            body = (f"Round {rnd.number} of {tournament.name} has started. You have a bye this round "
                    f"and score {tournament_rules(tournament).bye_points:g} points.")
        else:
            opponents = ", ".join(s.user.username for s in Seat.objects.filter(game=game).select_related("user")
                                  if s.user_id and s.user_id != entry.user_id)
            body = (f"Round {rnd.number} of {tournament.name} has started. Your game is #{game.pk} "
                    f"against {opponents}. You will be asked for each decision as it comes.")
        notice = Notice.objects.create(tournament=tournament, user=entry.user, kind=NoticeKind.GAME_ASSIGNED,
                                       subject=f"{tournament.name}: round {rnd.number}, your next game",
                                       body=body, game=game, round_number=rnd.number)
        notice_mail_on_commit(notice)
        signal_on_commit(game_assigned, tournament=tournament, round=rnd, user=entry.user, game=game, notice=notice)
    signal_on_commit(round_started, tournament=tournament, round=rnd)


def _table_score(table: Table, rules: Rules) -> None:
    """Write each seat's place, points, score and tie-break from the finished (or abandoned) game."""
    game = table.game
    seats = list(table.places.all())
    result = game.result or {}
    ranks = result.get("ranks") if game.status == GameStatus.FINISHED else None
    if ranks:
        points = rules.points_for_ranks(list(ranks))
        scores = result.get("scores") or [0] * len(ranks)
        tiebreak = result.get("tiebreak") or [0] * len(ranks)
        for s in seats:
            s.place, s.points = ranks[s.position], points[s.position]
            s.mp, s.tiebreak = scores[s.position], tiebreak[s.position]
    else:  # abandoned: the game counts for nobody (no place, no points), documented in docs/tournaments.md
        for s in seats:
            s.place, s.points, s.mp, s.tiebreak = None, 0.0, 0, 0
    TableSeat.objects.bulk_update(seats, ["place", "points", "mp", "tiebreak"])
    table.scored_at = timezone.now()
    table.save(update_fields=["scored_at"])


@transaction.atomic
def tournament_game_over(*, game: Game) -> bool:
    """Count a finished or abandoned tournament game; seat the next round once every table is in.

    Called from the game_finished / game_abandoned receivers; idempotent (a table is scored once).
    Returns True if the game belonged to a running tournament and was counted now.
    """
    table = Table.objects.filter(game_id=game.pk).select_related("round").first()
    if table is None:
        return False
    tournament = _locked(table.round.tournament)
    table = Table.objects.select_for_update(of=("self",)).select_related("round", "game").get(pk=table.pk)
    if table.scored_at is not None or table.game.status not in (GameStatus.FINISHED, GameStatus.ABANDONED):
        return False
    _table_score(table, tournament_rules(tournament))
    if tournament.status == TournamentStatus.RUNNING:
        _round_finish_if_done(tournament, table.round)
    return True


def _round_finish_if_done(tournament: Tournament, rnd: Round) -> None:
    rnd = Round.objects.select_for_update().get(pk=rnd.pk)
    if rnd.status == RoundStatus.FINISHED:
        return
    # Tables finished by bots within the round's own transaction: score them now.
    rules = tournament_rules(tournament)
    for table in rnd.tables.filter(scored_at__isnull=True, game__status__in=[GameStatus.FINISHED,
                                                                            GameStatus.ABANDONED]):
        _table_score(table, rules)
    if rnd.tables.filter(scored_at__isnull=True).exists():
        return
    rnd.status = RoundStatus.FINISHED
    rnd.finished_at = timezone.now()
    rnd.save(update_fields=["status", "finished_at"])
    if tournament.format == TournamentFormat.SINGLE_ELIMINATION:
        more = _eliminate(tournament, rnd, rules)
    else:
        more = rnd.number < tournament.rounds and len(_active_entries(tournament)) >= rules.min_players
    if more:
        _round_create(tournament, number=rnd.number + 1)
    else:
        _tournament_finish(tournament)


def _eliminate(tournament: Tournament, rnd: Round, rules: Rules) -> bool:
    """Mark who goes out after an elimination round; True if another round is needed."""
    tables = list(rnd.tables.prefetch_related("places__entry"))
    played = [t for t in tables if t.game_id is not None]
    final = len(played) <= 1 and not [t for t in tables if t.game_id is None]
    for table in played:
        places = sorted(table.places.all(), key=lambda s: (s.place or 99, -(s.mp or 0), -(s.tiebreak or 0),
                                                           s.entry.seed_no))
        keep = 1 if final else rules.advance_per_table
        for s in places[keep:]:
            if s.entry.status == EntryStatus.ACTIVE:
                s.entry.status = EntryStatus.ELIMINATED
                s.entry.eliminated_in = rnd.number
                s.entry.save(update_fields=["status", "eliminated_in"])
    return not final and len(_active_entries(tournament)) > 1


def _tournament_finish(tournament: Tournament) -> None:
    tournament.status = TournamentStatus.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    standings = tournament_standings(tournament=tournament)["rows"]
    lines = "\n".join(f"{r['rank']:>3}. {r['player']:<20} {r['points']:g} pts, {r['mp']} MP" for r in standings)
    by_entry = {e.id: e for e in Entry.objects.filter(tournament=tournament).select_related("user")}
    for row in standings:
        entry = by_entry[row["entry"]]
        notice = Notice.objects.create(
            tournament=tournament, user=entry.user, kind=NoticeKind.TOURNAMENT_FINISHED,
            subject=f"{tournament.name}: final standings (you placed {row['rank']})",
            body=f"{tournament.name} is over. Final standings:\n\n{lines}\n")
        notice_mail_on_commit(notice)
    signal_on_commit(tournament_finished, tournament=tournament, standings=standings)


def _unfinished_seats(entry: Entry):
    return (TableSeat.objects.filter(entry=entry, table__game__status__in=[GameStatus.ACTIVE, GameStatus.PAUSED])
            .select_related("table__game"))


@transaction.atomic
def entry_drop(*, entry: Entry, by: User) -> Entry:
    """The entry leaves: it keeps its points, is paired no more, and bots finish its open games."""
    tournament = _locked(entry.tournament)
    entry = Entry.objects.select_for_update(of=("self",)).select_related("user").get(pk=entry.pk)
    if by.pk != entry.user_id:
        _check_director(tournament, by)
    if tournament.status != TournamentStatus.RUNNING:
        raise TournamentError(ErrorCode.GAME_NOT_ACTIVE, f"the tournament is {tournament.status}")
    if entry.status != EntryStatus.ACTIVE:
        raise TournamentError(ErrorCode.INVALID_SETTINGS, f"{entry.user.username} is already {entry.status}")
    entry.status = EntryStatus.DROPPED
    entry.save(update_fields=["status"])
    for ts in _unfinished_seats(entry):
        seat = Seat.objects.get(game=ts.table.game, position=ts.position)
        if not seat.is_bot:
            seat_hand_to_bot(game=ts.table.game, by=by, position=ts.position)
    return entry


@transaction.atomic
def entry_replace(*, entry: Entry, user: User, by: User) -> Entry:
    """A substitute takes over the entry (its points, history and seats in unfinished games)."""
    tournament = _locked(entry.tournament)
    _check_director(tournament, by)
    entry = Entry.objects.select_for_update(of=("self",)).select_related("user").get(pk=entry.pk)
    if tournament.status not in (TournamentStatus.REGISTRATION, TournamentStatus.RUNNING):
        raise TournamentError(ErrorCode.GAME_NOT_ACTIVE, f"the tournament is {tournament.status}")
    if Entry.objects.filter(tournament=tournament, user=user).exists():
        raise TournamentError(ErrorCode.GAME_FULL, f"{user.username} already plays in this tournament")
    if not user.is_active:
        raise TournamentError(ErrorCode.INVALID_SETTINGS, f"{user.username}'s account is deactivated")
    old = entry.user
    entry.previous_users = [*entry.previous_users, old.username]
    entry.user = user
    if entry.status == EntryStatus.DROPPED:
        entry.status = EntryStatus.ACTIVE  # a dropped place can be filled again
    entry.save(update_fields=["user", "previous_users", "status"])
    for ts in _unfinished_seats(entry):
        seat_replace_player(game=ts.table.game, by=by, position=ts.position, user=user)
    return entry


@transaction.atomic
def tournament_cancel(*, tournament: Tournament, by: User | None, reason: str = "") -> Tournament:
    """Call the tournament off and tell every entrant why; a second call changes nothing.

    ``by`` is the director (staff or the creator), or None for the registration sweep. Before the
    start the entries simply stay on record; after it (directors only) the unfinished tables are
    abandoned through the games' admin service, so no more deadlines fire and nobody is prompted.
    """
    tournament = _locked(tournament)
    if by is not None:
        _check_director(tournament, by)
    if tournament.status == TournamentStatus.CANCELLED:
        return tournament
    if tournament.status == TournamentStatus.FINISHED:
        raise TournamentError(ErrorCode.GAME_NOT_ACTIVE, "the tournament is already finished")
    if tournament.status == TournamentStatus.RUNNING:
        if by is None:
            raise TournamentError(ErrorCode.NOT_GAME_ADMIN, "only a director may cancel a running tournament")
        from ..services.admin_actions import game_abandon

        # Status first: the abandoned tables are then scored by tournament_game_over but seat no round.
        tournament.status = TournamentStatus.CANCELLED
        tournament.save(update_fields=["status"])
        for table in Table.objects.filter(round__tournament=tournament,
                                          game__status__in=[GameStatus.ACTIVE, GameStatus.PAUSED, GameStatus.OPEN]):
            game_abandon(game=table.game, by=by, reason=f"{tournament.name} was cancelled. {reason}".strip())
    tournament.status = TournamentStatus.CANCELLED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    why = reason.strip() or "it was called off by its director"
    for entry in Entry.objects.filter(tournament=tournament).select_related("user"):
        notice = Notice.objects.create(
            tournament=tournament, user=entry.user, kind=NoticeKind.TOURNAMENT_CANCELLED,
            subject=f"{tournament.name} is cancelled",
            body=f"{tournament.name} will not take place: {why}. Your registration has been released.\n")
        notice_mail_on_commit(notice)
    signal_on_commit(tournament_cancelled, tournament=tournament, reason=why)
    return tournament


def tournaments_due(*, now: datetime | None = None):
    """Tournaments still in registration whose registration_closes has passed (partial index)."""
    now = now or timezone.now()
    return Tournament.objects.filter(status=TournamentStatus.REGISTRATION, registration_closes__isnull=False,
                                     registration_closes__lte=now).order_by("registration_closes", "id")


def tournament_registration_close(*, tournament: Tournament, now: datetime | None = None) -> str:
    """Start a tournament whose registration has closed, or cancel it for want of players.

    Returns "started", "cancelled" or "" (nothing due: already handled, or not closed yet), so a
    duplicate or late sweep changes nothing.
    """
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _locked(tournament)
        if (tournament.status != TournamentStatus.REGISTRATION or tournament.registration_closes is None
                or tournament.registration_closes > now):
            return ""
        count = Entry.objects.filter(tournament=tournament).count()
        if _enough_players(tournament, count):
            _start_locked(tournament)
            return "started"
    need = _engine(tournament.engine).min_players
    tournament_cancel(tournament=tournament, by=None,
                      reason=f"registration closed with {count} player{'s' if count != 1 else ''} "
                             f"and at least {need} are needed")
    return "cancelled"


def tournaments_registration_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """Run by beat: close every tournament whose registration deadline has passed.

    Each tournament is its own transaction, so one that fails (logged) does not hold up the rest.
    """
    now = now or timezone.now()
    counts = {"started": 0, "cancelled": 0, "failed": 0}
    for tournament in list(tournaments_due(now=now)[:200]):
        try:
            outcome = tournament_registration_close(tournament=tournament, now=now)
        except Exception:
            logger.exception("could not close the registration of tournament %s", tournament.pk)
            counts["failed"] += 1
            continue
        if outcome:
            counts[outcome] += 1
    return counts
