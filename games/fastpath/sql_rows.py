"""Model instances from hand-written SQL, for the few statements every pick and every game view run.

Why not the ORM here: the turn server is CPU-bound in its web processes, and compiling an ORM query
costs more CPU than the database spends running it. Measured on PostgreSQL (benchmarks/request_cost.py
and the load benchmark): the locked game row 0.6 ms, the seats joined with their open prompts 1.2 ms,
against 0.1-0.15 ms for the same SQL written out. Everything else keeps using the ORM.

The SQL written with these helpers is plain SQL that PostgreSQL and SQLite both run. Values still pass
through Django's own converters and adapters (JSON, and datetimes and booleans on SQLite), so the
instances are exactly the ones the ORM would have built.
"""

from __future__ import annotations

from typing import Any, Callable, Hashable, Sequence

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init


_STATEMENTS: dict[tuple, str] = {}


def default_connection():
    """The default database's connection (Django's ``connection``, looked up once per call rather than on every
    attribute, as its proxy does)."""
    return connections[DEFAULT_DB_ALIAS]


def statement(key: Hashable, build: Callable[[], str]) -> str:
    """The SQL text ``build()`` makes, built once per database vendor and ``key`` (building it, with
    its quoting, costs about as much CPU as running a small query)."""
    full_key = (default_connection().vendor, key)
    sql = _STATEMENTS.get(full_key)
    if sql is None:
        sql = _STATEMENTS[full_key] = build()
    return sql


def _cursor():
    """A cursor of the default connection, reused by this module's statements on the same open connection.

    A new Django cursor costs ~50 us of CPU per statement on PostgreSQL (its creation, and a fresh psycopg
    cursor's adapters on its first execute: 134 against 85 us for a one-row SELECT), and a pick
    runs about six of these statements. The reused cursor is Django's own wrapper, so every statement still
    goes through the connection's execute wrappers (statement counting, CaptureQueriesContext), its error
    wrapping and its broken-transaction check. It is made afresh whenever that would differ: a new or
    reopened connection (Connection.connection is another object), a change of whether queries are logged
    (a debug cursor), or a request whose health check has not run yet (BaseDatabaseWrapper.cursor runs it).
    Django's connections are per thread, so is the cursor kept on one.
    """
    db = default_connection()
    kept = getattr(db, "_sql_rows_cursor", None)
    if (kept is not None and kept[0] is db.connection and kept[1] == db.queries_logged
            and (db.health_check_done or not db.health_check_enabled)):
        return kept[2]
    cursor = db.cursor()
    db._sql_rows_cursor = (db.connection, db.queries_logged, cursor)
    return cursor


def fetch_one(sql: str, params: Sequence[Any]) -> tuple | None:
    """The first row ``sql`` returns, or None."""
    cursor = _cursor()
    cursor.execute(sql, params)
    return cursor.fetchone()


def fetch_all(sql: str, params: Sequence[Any]) -> list[tuple]:
    cursor = _cursor()
    cursor.execute(sql, params)
    return cursor.fetchall()


def execute(sql: str, params: Sequence[Any]) -> None:
    """Run a statement that returns no rows (an UPDATE)."""
    _cursor().execute(sql, params)


def quoted(name: str) -> str:
    return default_connection().ops.quote_name(name)


def table(model: type[Model]) -> str:
    return quoted(model._meta.db_table)


def for_update() -> str:
    """The row-lock clause of a SELECT that a transaction must hold (SQLite locks the whole database on
    write instead, as Django's ``select_for_update`` does).

    FOR NO KEY UPDATE, not FOR UPDATE: writers of the row still wait for each other, but a transaction
    that inserts a row referring to it (a mail for the game) can check its foreign key (FOR KEY SHARE, at
    commit: Django's keys are deferred) without waiting for the lock holder. With FOR UPDATE, a mail
    worker holding a prompt row and committing a mail for the game deadlocks with a pick that holds the
    game and goes on to close that prompt."""
    db = default_connection()
    if not db.in_atomic_block:
        raise RuntimeError("a locking read outside a transaction locks nothing")
    features = db.features
    if features.has_select_for_no_key_update:
        return " FOR NO KEY UPDATE"
    return " FOR UPDATE" if features.has_select_for_update else ""


def db_value(model: type[Model], field_name: str, value: Any) -> Any:
    """``value`` adapted for a hand-written INSERT or UPDATE of ``model.field_name`` (JSON dumped,
    datetimes in the database's form)."""
    return model._meta.get_field(field_name).get_db_prep_save(value, default_connection())


class ModelColumns:
    """The columns of one model in a hand-written SELECT (``sql``), and the instance a row's slice of
    them makes (``instance``). The primary key comes first, so a LEFT JOIN that found nothing reads as
    None."""

    def __init__(self, model: type[Model], alias: str, field_names: Sequence[str] | None = None) -> None:
        meta = model._meta
        fields = [meta.get_field(n) for n in field_names] if field_names else list(meta.concrete_fields)
        if fields[0] is not meta.pk:
            fields = [meta.pk] + [f for f in fields if f is not meta.pk]
        self.model, self.alias, self.fields = model, alias, fields
        self.attnames = [f.attname for f in fields]
        self.cols = [f.get_col(alias) for f in fields]
        self._converters: dict[str, list[tuple[int, Callable]]] = {}  # by database vendor

    def __len__(self) -> int:
        return len(self.fields)

    def sql(self) -> str:
        return ", ".join(f"{self.alias}.{quoted(f.column)}" for f in self.fields)

    def _converters_for(self, db) -> list[tuple[int, Callable]]:
        """(column index, converter) pairs for ``db``'s vendor: Django's own, as the ORM applies them."""
        found = self._converters.get(db.vendor)
        if found is None:
            found = self._converters[db.vendor] = [
                (i, convert) for i, (field, col) in enumerate(zip(self.fields, self.cols))
                for convert in db.ops.get_db_converters(col) + field.get_db_converters(db)]
        return found

    def instance(self, row: Sequence[Any], start: int = 0) -> Model | None:
        """The instance made of ``row[start:start + len(self)]``; None if its primary key is NULL."""
        values = list(row[start:start + len(self.fields)])
        if values[0] is None:
            return None
        db = default_connection()
        for i, convert in self._converters_for(db):
            values[i] = convert(values[i], self.cols[i], db)
        if pre_init.receivers or post_init.receivers:
            return self.model.from_db(db.alias, self.attnames, values)
        # What from_db and Model.__init__ do for these columns when no pre_init or post_init receiver listens
        # (none does here): the values as attributes (the columns not read stay deferred, as from_db leaves
        # them) and the state of a row loaded from ``db``. Model.__init__'s per-field loop and its two signal
        # sends are ~7% of a web process's CPU under the load benchmark (~15 instances a request).
        obj = self.model.__new__(self.model)
        obj.__dict__.update(zip(self.attnames, values))
        obj._state = state = ModelState()
        state.adding, state.db = False, db.alias
        return obj


# model -> (field name, attname, whether it is a relation to be given as an instance, the field): for ``new``
_NEW_FIELDS: dict[type[Model], list[tuple[str, str, bool, Any]]] = {}


def _new_fields(model: type[Model]) -> list[tuple[str, str, bool, Any]]:
    found = _NEW_FIELDS.get(model)
    if found is None:
        found = []
        for field in model._meta.concrete_fields:
            relation = bool(field.many_to_one or field.one_to_one)
            if relation and [rh.attname for _, rh in field.related_fields] != [field.related_model._meta.pk.attname]:
                raise TypeError(f"{model.__name__}.{field.name}: sql_rows.new knows relations to a primary key only")
            found.append((field.name, field.attname, relation, field))
        _NEW_FIELDS[model] = found
    return found


def new(model: type[Model], **values: Any) -> Model:
    """``model(**values)``, for a row of the hot path about to be inserted (a pick's Submission, its take-back
    point, the prompts and events of a step), without Model.__init__'s generic work.

    Model.__init__ walks every field through ``setattr``, a related instance through its descriptor (type,
    router and relation checks), and sends pre_init and post_init: ~6% of a web process's CPU under the load
    benchmark for the 3-5 instances a pick makes (py-spy). This makes the same
    instance as that code does when no pre_init or post_init receiver listens and no database router is set
    (otherwise it is Model.__init__ itself): every column's attribute (a related instance's key, the field's
    default for a column not given), a related instance cached on the instance, the database of the related
    instance, and a TypeError for a keyword that is not a field.

    One difference, on purpose: a one-to-one's related instance does not get the new instance cached on it
    (the descriptor's reverse cache). Both ways would be a reference cycle (a pick's Submission and the prompt
    it answers, its take-back point and the Submission), freed by the garbage collector instead of with the
    request. Nothing reads those reverse accessors of a row just made; one that did
    would query.
    """
    if pre_init.receivers or post_init.receivers or settings.DATABASE_ROUTERS:
        return model(**values)
    obj = model.__new__(model)
    obj._state = state = ModelState()
    attributes = obj.__dict__
    for name, attname, relation, field in _new_fields(model):
        if relation and name in values:
            related = values.pop(name)
            if related is None:
                attributes[attname] = None
            else:
                if related._state.db is None:
                    related._state.db = DEFAULT_DB_ALIAS
                state.db = state.db or related._state.db
                attributes[attname] = related.pk
            field.set_cached_value(obj, related)
        elif attname in values:
            attributes[attname] = values.pop(attname)
        else:
            attributes[attname] = field.get_default()
    if values:
        raise TypeError(f"{model.__name__}() got unexpected keyword arguments: {', '.join(sorted(values))}")
    return obj


_VALUE_CONVERTERS: dict[tuple, list[tuple[Callable, Any]]] = {}


def column_value(model: type[Model], field_name: str, value: Any) -> Any:
    """A value read from a column that holds ``model.field_name`` (a subquery's), converted as the ORM would
    convert that field's column (datetimes and booleans on SQLite)."""
    if value is None:
        return None
    db = default_connection()
    key = (db.vendor, model, field_name)
    pairs = _VALUE_CONVERTERS.get(key)
    if pairs is None:
        field = model._meta.get_field(field_name)
        col = field.get_col("x")
        pairs = _VALUE_CONVERTERS[key] = [(convert, col) for convert in
                                          db.ops.get_db_converters(col) + field.get_db_converters(db)]
    for convert, col in pairs:
        value = convert(value, col, db)
    return value


def _insert_fields(model: type[Model]) -> list:
    meta = model._meta
    return [f for f in meta.concrete_fields if f is not meta.pk]


def _insert_values_sql(model: type[Model], n_rows: int) -> str:
    """``INSERT INTO t (columns) VALUES (%s, ...), ...`` for ``n_rows`` rows of ``model``, its primary key
    left to the database."""
    fields = _insert_fields(model)
    one_row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    return (f"INSERT INTO {table(model)} ({', '.join(quoted(f.column) for f in fields)})"
            f" VALUES {', '.join([one_row] * n_rows)}")


def _insert_params(objs: Sequence[Model]) -> list:
    db = default_connection()
    fields = _insert_fields(type(objs[0]))
    return [f.get_db_prep_save(f.pre_save(obj, True), db) for obj in objs for f in fields]


def insert(objs: Sequence[Model]) -> None:
    """``Model.objects.bulk_create(objs)`` in one hand-written INSERT that returns the new primary keys
    (PostgreSQL and SQLite 3.35+ both have RETURNING); auto_now_add fields are set as ``save`` would."""
    if not objs:
        return
    model = type(objs[0])
    sql = statement(("insert", model, len(objs)), lambda: (
        f"{_insert_values_sql(model, len(objs))} RETURNING {quoted(model._meta.pk.column)}"))
    keys = fetch_all(sql, _insert_params(objs))
    for obj, (pk,) in zip(objs, keys, strict=True):
        obj.pk = pk
        obj._state.adding, obj._state.db = False, DEFAULT_DB_ALIAS


def insert_statement(objs: Sequence[Model]) -> tuple[str, list]:
    """The INSERT of ``insert`` without its RETURNING, to run later (``execute_together``): the objects get no
    primary key."""
    model = type(objs[0])
    return statement(("insert_later", model, len(objs)), lambda: _insert_values_sql(model, len(objs))), \
        _insert_params(objs)


def update_statement(obj: Model, field_names: Sequence[str]) -> tuple[str, list]:
    """``obj.save(update_fields=field_names)`` as one hand-written UPDATE, to run with ``execute`` or
    ``execute_together`` (auto_now fields are set)."""
    meta = obj._meta
    fields = [meta.get_field(n) for n in field_names]
    db = default_connection()
    values = [f.get_db_prep_save(f.pre_save(obj, False), db) for f in fields]
    sql = statement(("update", type(obj), tuple(field_names)), lambda: (
        f"UPDATE {table(type(obj))} SET {', '.join(quoted(f.column) + ' = %s' for f in fields)}"
        f" WHERE {quoted(meta.pk.column)} = %s"))
    return sql, values + [obj.pk]


def execute_together(statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
    """Run writes that return nothing, in order, as one statement on PostgreSQL (each but the last a
    data-modifying WITH query: one round trip, one parse, instead of one each), one by one elsewhere.

    Only for writes to distinct rows that do not read each other's effects: the parts of one PostgreSQL
    statement all see the rows as they were before it (a row changed twice in one statement keeps only one
    change), and a unique index is checked row by row as each part runs.
    """
    if len(statements) > 1 and default_connection().vendor == "postgresql":
        *first, last = statements
        sql = statement(("together",) + tuple(s for s, _ in statements), lambda: (
            "WITH " + ", ".join(f"w{i} AS ({s})" for i, (s, _) in enumerate(first)) + " " + last[0]))
        execute(sql, [p for _, params in statements for p in params])
        return
    for sql, params in statements:
        execute(sql, params)
