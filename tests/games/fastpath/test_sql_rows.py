"""games/fastpath/sql_rows.py: the hand-written statements of the hot path build the instances the ORM would."""

from __future__ import annotations

import pytest
from django.db import transaction

from games.models import Game, Prompt
from games.selectors import game_with_creator, open_prompt_for_seat, seats_with_open_prompts
from games.services.turn import turn_load
from tests.factories import make_started_game


@pytest.mark.django_db
def test_the_seats_read_matches_the_orm():
    game, users = make_started_game(players=3, options={"rounds": 1})
    seats = seats_with_open_prompts(game_id=game.pk)
    assert [s.position for s in seats] == [0, 1, 2]
    for seat in seats:
        orm = Prompt.objects.get(seat_id=seat.pk, closed_at__isnull=True)
        prompt = seat.open_prompt
        assert (prompt.pk, prompt.prompt_id, prompt.options, prompt.deadline, prompt.opened_at, prompt.answered) == \
            (orm.pk, orm.prompt_id, orm.options, orm.deadline, orm.opened_at, orm.answered)
        assert seat.user.username == users[seat.position].username
        assert open_prompt_for_seat(seat=seat).pk == orm.pk


@pytest.mark.django_db
def test_the_game_read_matches_the_orm():
    game, users = make_started_game(players=2, options={"rounds": 1})
    read = game_with_creator(game_id=game.pk)
    orm = Game.objects.get(pk=game.pk)
    for field in Game._meta.concrete_fields:
        assert getattr(read, field.attname) == getattr(orm, field.attname), field.name
    assert read.created_by.username == orm.created_by.username
    assert game_with_creator(game_id=10**9) is None


@pytest.mark.django_db(transaction=True)  # outside the test's own transaction
def test_the_locked_read_refuses_to_run_outside_a_transaction():
    game, _ = make_started_game(players=2, options={"rounds": 1})
    with pytest.raises(RuntimeError):
        turn_load(game_id=game.pk)
    with transaction.atomic():
        assert turn_load(game_id=game.pk).game.pk == game.pk


@pytest.mark.django_db(transaction=True)  # closes and reopens the connection
def test_the_statements_reuse_one_cursor_until_the_connection_or_its_logging_changes():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.fastpath import sql_rows

    game, _ = make_started_game(players=2, options={"rounds": 1})
    first = sql_rows._cursor()
    assert sql_rows._cursor() is first
    with CaptureQueriesContext(connection) as ctx:  # a debug cursor logs the statements
        assert game_with_creator(game_id=game.pk).pk == game.pk
        logged = sql_rows._cursor()
    assert logged is not first and len(ctx.captured_queries) == 1
    assert sql_rows._cursor() is not logged  # logging off again: a plain cursor
    connection.close()  # a dropped connection (a restart, CONN_MAX_AGE): the next statement opens a new one
    assert game_with_creator(game_id=game.pk).pk == game.pk
    assert sql_rows._cursor() is not first


@pytest.mark.django_db(transaction=True)
def test_each_thread_uses_its_own_connection():
    """The connection sql_rows keeps per thread (default_connection) is the one Django gives that thread: a
    statement run in another thread is never run on this thread's connection (their transactions are apart)."""
    import threading

    from django.db import connections

    from games.fastpath.sql_rows import default_connection

    here = default_connection()
    assert here is connections["default"] and default_connection() is here
    seen = {}

    def elsewhere():
        seen["kept"], seen["django"] = default_connection(), connections["default"]
        connections["default"].close()

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert seen["kept"] is seen["django"] and seen["kept"] is not here


@pytest.mark.django_db
def test_new_makes_the_instance_model_init_makes():
    """sql_rows.new(Model, **values), used for the rows a pick inserts, makes what Model(**values) makes: every
    column's attribute (defaults for those not given), the related instances cached on it, the database of the
    related instances; and refuses a keyword that is no field, as Model.__init__ does. One difference on purpose:
    a one-to-one's related instance is not given the new one back (a reference cycle: test_reference_cycles.py)."""
    from games.models import Event, Submission, TakeBack
    from games.fastpath.sql_rows import new

    game, _ = make_started_game(players=2, options={"rounds": 1})
    seat = game.seats.order_by("position").first()
    row = Prompt.objects.get(seat=seat, closed_at__isnull=True)

    def same(model, **values):
        expected = model(**values)
        for name, related in expected._state.fields_cache.items():  # Model.__init__'s reverse one-to-one caches
            if model._meta.get_field(name).one_to_one:
                model._meta.get_field(name).remote_field.delete_cached_value(related)
        made = new(model, **values)
        assert type(made) is model
        assert {k: v for k, v in made.__dict__.items() if k != "_state"} == \
            {k: v for k, v in expected.__dict__.items() if k != "_state"}
        assert (made._state.adding, made._state.db) == (expected._state.adding, expected._state.db)
        assert made._state.fields_cache.keys() == expected._state.fields_cache.keys()
        for name, related in expected._state.fields_cache.items():
            assert made._state.fields_cache[name] is related
        return made

    submission = same(Submission, game=game, seat=seat, prompt_row=row, phase=game.phase, prompt_id=row.prompt_id,
                      option_id="a", idempotency_key=None, source="api")
    assert submission.prompt_row is row and not Submission.prompt_row.field.remote_field.is_cached(row)
    same(Event, game=game, phase=3, text="A line.", data={"a": 1}, visibility=[0])
    same(Event, game_id=game.pk, phase=3, text="A line.")  # by key, the others left to their defaults
    same(Prompt, game=game, seat=seat, prompt_id="p", phase=1, text="?", options=[], deadline=None,
         opened_at=row.opened_at)
    point = same(TakeBack, game=game, seat=seat, phase=1, submission=submission, state="{}", event_ids=[],
                 label="a", prompt_text="?")
    assert point.submission is submission and not TakeBack.submission.field.remote_field.is_cached(submission)
    with pytest.raises(TypeError, match="unexpected keyword arguments: colour"):
        new(Event, game=game, phase=1, text="x", colour="red")


def test_with_an_event_loop_running_the_connection_is_the_one_of_its_context():
    """Where an event loop runs in the thread (Playwright's sync API in the browser tests), asgiref keeps Django's
    connections per async context: default_connection gives that one, not the thread's. (In a thread of its own:
    this one may have Playwright's loop running already.)"""
    import asyncio
    import threading

    from django.db import connections

    from games.fastpath.sql_rows import default_connection

    seen = {}

    def body():
        in_thread = default_connection()

        async def inside():
            return default_connection() is connections["default"], default_connection() is in_thread

        seen["inside"] = asyncio.run(inside())
        seen["after"] = default_connection() is in_thread is connections["default"]

    thread = threading.Thread(target=body)
    thread.start()
    thread.join()
    assert seen == {"inside": (True, False), "after": True}
