"""Seed a scale benchmark database with PostgreSQL COPY: N active Faltisia games with history and
players who read mail.

Rows are written as COPY text, built from a template of each model's defaults with only the varying
columns filled per row, so seeding costs what PostgreSQL spends storing and indexing the rows. What
is seeded for ``games`` active games of 4 seats:

- users: one per game (each sits at 4 games), email confirmed; preferences with varied reminder lead
  times (``LEAD_PATTERNS``), 90% with prompt emails on, 5% digest readers (their next digest spread over
  the next 23 hours, as after a day of hourly runs);
- per game: the state (one of 16 real deals), 4 seats, the previous step's 4 closed prompts (past
  deadlines) with their picks and one event, one sent result email and its done mail job, and one open
  prompt per seat, deadlines spread over the next 2 days, reminders planned (``next_reminder_at``) and
  prompt emails settled, as the periodic jobs leave them;
- the due work, the same at every size (``DUE``): reminders due now, prompts just opened and not yet
  emailed nor planned, games with a passed deadline, digests due this hour, lost outbox rows, lost mail
  jobs.
"""

from __future__ import annotations

import json
import time
from contextlib import contextmanager
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.utils import timezone

PLAYERS = 4
LEAD_PATTERNS = [[24, 2], [2], [48, 12, 1], [], [6], [24]]
DIGEST_SHARE = 20  # one reader in 20 (5%)
DUE = {"reminders": 80, "new_prompts": 40, "deadline_games": 50, "digests": 20, "outbox": 30, "mail_jobs": 20}
# The due work lives in the first games: reminders in games 1-20, new prompts 21-30, passed deadlines
# 31-80; the reminder users (1-80) get leads [24, 2].
REMINDER_GAMES = range(1, 21)
# shift_to spreads the 97 seeded deadlines over the 45 h / 97 (27.8 min) between two of them, past these games
SPREAD_FROM, SPREAD_SECONDS = 100, 1670
NEW_PROMPT_GAMES = range(21, 31)
DEADLINE_GAMES = range(31, 81)


def _text(value) -> str:
    """One value in COPY's text format."""
    if value is None:
        return r"\N"
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, (dict, list)):
        value = json.dumps(value)
    s = str(value)
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


class Copier:
    """COPY rows of ``model``: every column from the model's defaults (``fixed`` overrides them), the
    ``varying`` ones given per row, in that order."""

    def __init__(self, model, varying: list[str], **fixed):
        self.model = model
        self.fields = [f for f in model._meta.concrete_fields]
        base = []
        for f in self.fields:
            if f.attname in fixed:
                value = fixed[f.attname]
            elif f.name in fixed:
                value = fixed[f.name]
            else:  # the default, "" for a text column without one, None for a nullable one
                value = f.get_default()
            base.append(_text(value))
        self.base = base
        self.slots = [next(i for i, f in enumerate(self.fields) if f.attname == name or f.name == name)
                      for name in varying]
        self.rows = 0

    def line(self, values) -> str:
        row = list(self.base)
        for slot, value in zip(self.slots, values):
            row[slot] = _text(value)
        return "\t".join(row)

    def copy(self, lines) -> None:
        """COPY the lines (an iterable of ``line`` results) in chunks of 20,000."""
        table = self.model._meta.db_table
        cols = ", ".join(f'"{f.column}"' for f in self.fields)
        with connection.cursor() as c:
            raw = c.cursor  # psycopg's own cursor under Django's wrapper
            with raw.copy(f"COPY {table} ({cols}) FROM STDIN") as copy:
                chunk = []
                for line in lines:
                    chunk.append(line)
                    if len(chunk) == 20_000:
                        copy.write("\n".join(chunk) + "\n")
                        self.rows += len(chunk)
                        chunk = []
                if chunk:
                    copy.write("\n".join(chunk) + "\n")
                    self.rows += len(chunk)


@contextmanager
def deferred_indexes(models, timings: dict):
    """Drop the tables' keys, indexes and the foreign keys that touch them, and build them again on
    exit, in a restore's order (pg_restore: data, then primary keys and unique constraints, then the
    other indexes, then foreign keys): one sorted build per index instead of a B-tree insert per row,
    and no per-row foreign-key trigger. Check constraints stay (they cost a comparison per row)."""
    tables = [m._meta.db_table for m in models]
    with connection.cursor() as c:
        c.execute("SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint "
                  "WHERE contype = 'f' AND (conrelid::regclass::text = ANY(%s) OR confrelid::regclass::text = ANY(%s))",
                  [tables, tables])
        foreign = c.fetchall()
        c.execute("SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint "
                  "WHERE contype IN ('p', 'u') AND conrelid::regclass::text = ANY(%s)", [tables])
        keys = c.fetchall()
        c.execute("SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid) FROM pg_index i "
                  "WHERE indrelid::regclass::text = ANY(%s) AND NOT EXISTS (SELECT 1 FROM pg_constraint k "
                  "WHERE k.conindid = i.indexrelid AND k.contype IN ('p', 'u', 'x'))", [tables])
        indexes = c.fetchall()
        for table, name, _ in foreign + keys:
            c.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
        for name, _ in indexes:
            c.execute(f"DROP INDEX {name}")
    yield
    t0 = time.perf_counter()
    with connection.cursor() as c:
        c.execute("SET maintenance_work_mem = '512MB'")  # each index sorted in memory
        for table, name, definition in keys:
            c.execute(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')
        for _, definition in indexes:
            c.execute(definition)
        timings["indexes"] = round(time.perf_counter() - t0, 2)
        t0 = time.perf_counter()
        for table, name, definition in foreign:
            c.execute(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')
        timings["foreign_keys"] = round(time.perf_counter() - t0, 2)
    timings["rebuilt"] = {"keys": len(keys), "indexes": len(indexes), "foreign_keys": len(foreign)}


def _templates():
    from games.engines.registry import get_engine

    engine = get_engine("faltisia")
    out = []
    for i in range(16):
        state = engine.new_game(players=PLAYERS, options={}, seed=1000 + i)
        prompts = [engine.prompt(state, p) for p in range(PLAYERS)]
        out.append((1000 + i, state, engine.step(state), prompts))
    return out


def _reset_sequences(models) -> None:
    with connection.cursor() as c:
        for model in models:
            table = model._meta.db_table
            c.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                      f"COALESCE((SELECT MAX(id) FROM {table}), 1))")


def leads_of(user_id: int) -> list[int]:
    return [24, 2] if user_id <= DUE["reminders"] else LEAD_PATTERNS[user_id % len(LEAD_PATTERNS)]


def next_reminder(deadline: datetime, opened_at: datetime, leads: list[int], now: datetime) -> datetime | None:
    """What the reminders task would have planned (games/mail/reminders.py): the next lead time ahead."""
    ahead = [deadline - timedelta(hours=h) for h in leads
             if opened_at < deadline - timedelta(hours=h) and deadline - timedelta(hours=h) > now]
    return min(ahead) if ahead else None


def seed(*, games: int, now: datetime | None = None, defer_indexes: bool = True) -> dict:
    """Write everything; returns the row counts and seconds per table. ``defer_indexes``: drop the
    seeded tables' indexes and constraints before the COPY and build them after (deferred_indexes)."""
    from accounts.models import NotificationPreferences, User
    from games.mail.models import MailJob, Notification
    from games.models import Event, Game, Prompt, Seat, Submission

    now = now or timezone.now()
    models = [User, NotificationPreferences, Game, Seat, Prompt, Submission, Event, Notification, MailJob]
    timings: dict = {}
    with connection.cursor() as c:
        c.execute("SET synchronous_commit = off")  # a crash loses the benchmark's seed, nothing else
        # index builds in this backend alone, so its CPU time (below) is all of the seeding's database work
        c.execute("SET max_parallel_maintenance_workers = 0")
        c.execute("SELECT pg_backend_pid()")
        backend = c.fetchone()[0]
    db_cpu0, py_cpu0 = _cpu_seconds(backend), time.process_time()
    if defer_indexes:
        with deferred_indexes(models, timings):
            _copy_all(games, now, timings)
    else:
        _copy_all(games, now, timings)
    t0 = time.perf_counter()
    _reset_sequences(models)
    with connection.cursor() as c:
        c.execute("ANALYZE")
    timings["analyze"] = round(time.perf_counter() - t0, 2)
    # CPU seconds moves far less than wall time with the other engineers' load on the shared machine
    cpu = {"db": round(_cpu_seconds(backend) - db_cpu0, 1), "python": round(time.process_time() - py_cpu0, 1)}
    return {"games": games, "users": games, "digest_readers": games // DIGEST_SHARE, "seconds": timings,
            "cpu_seconds": cpu}


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a local process (the PostgreSQL backend), 0 when not readable."""
    import os
    from pathlib import Path

    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _copy_all(games: int, now: datetime, timings: dict) -> None:
    from accounts.models import NotificationPreferences, User
    from games.mail.models import MailJob, Notification
    from games.models import Event, Game, Prompt, Seat, Submission

    templates = _templates()
    users = games  # each user sits at PLAYERS games

    def timed(name, copier, lines):
        t0 = time.perf_counter()
        copier.copy(lines)
        timings[name] = round(time.perf_counter() - t0, 2)

    def user_of(game_id: int, position: int) -> int:
        return ((game_id - 1) * PLAYERS + position) % users + 1

    # Users and their preferences.
    copier = Copier(User, ["id", "username", "email"], password="!", is_active=True, is_staff=False,
                    is_superuser=False, first_name="", last_name="", date_joined=now,
                    email_verified_at=now - timedelta(days=30))
    timed("users", copier, (copier.line((u, f"bench{u}", f"bench{u}@example.org")) for u in range(1, users + 1)))

    readers = [u for u in range(1, users + 1) if u % DIGEST_SHARE == 0]
    due_readers = set(readers[:DUE["digests"]])

    def prefs_rows(c):
        for u in range(1, users + 1):
            digest = u % DIGEST_SHARE == 0
            if not digest:
                next_digest = None
            elif u in due_readers:
                next_digest = now - timedelta(minutes=1)
            else:  # spread over the next 23 hours, after the hour being measured
                next_digest = now + timedelta(hours=1) + timedelta(seconds=(u * 7919) % (22 * 3600))
            yield c.line((u, u, u % 10 != 9 or u <= DUE["reminders"], digest, leads_of(u), next_digest))

    copier = Copier(NotificationPreferences, ["id", "user_id", "email_prompts", "digest", "reminder_lead_hours",
                                              "next_digest_at"], email_results=True)
    timed("preferences", copier, prefs_rows(copier))

    # Games, seats.
    copier = Copier(Game, ["id", "seed", "state", "phase"], engine="faltisia", options={}, players=PLAYERS,
                    status="active", clock={"type": "fixed", "step_seconds": 172800, "extensions": 0,
                                            "bot_after_misses": 0},
                    is_public=False, created_at=now - timedelta(days=3), started_at=now - timedelta(days=3),
                    updated_at=now - timedelta(hours=1), version=10)
    # The state JSON is the bulk of each row: format each template's once.
    state_text = {t[0]: _text(t[1]) for t in templates}
    seed_slot, state_slot, phase_slot, id_slot = (copier.slots[1], copier.slots[2], copier.slots[3],
                                                  copier.slots[0])

    def game_lines():
        for g in range(1, games + 1):
            t = templates[g % len(templates)]
            row = list(copier.base)
            row[id_slot], row[seed_slot], row[state_slot], row[phase_slot] = str(g), str(t[0]), state_text[t[0]], str(t[2])
            yield "\t".join(row)

    timed("games", copier, game_lines())

    copier = Copier(Seat, ["id", "game_id", "user_id", "position"])
    timed("seats", copier, (copier.line(((g - 1) * PLAYERS + p + 1, g, user_of(g, p), p))
                            for g in range(1, games + 1) for p in range(PLAYERS)))

    # Prompts: the previous step's closed ones (ids 1..4N), then the open ones (4N+1..8N).
    prompt_text = {}
    for t in templates:
        for p in range(PLAYERS):
            wanted = t[3][p]
            prompt_text[(t[0], p)] = (_text(wanted.id), _text(wanted.text),
                                      _text([o.as_dict() for o in wanted.options]), wanted.options[0].id)
    copier = Copier(Prompt, ["id", "game_id", "seat_id", "prompt_id", "phase", "text", "options", "deadline",
                             "opened_at", "closed_at", "answered", "mail_pending", "reminder_planned",
                             "next_reminder_at"])
    seats_total = games * PLAYERS

    def prompt_lines():
        for g in range(1, games + 1):
            t = templates[g % len(templates)]
            for p in range(PLAYERS):
                seat = (g - 1) * PLAYERS + p + 1
                pid, text, options, _ = prompt_text[(t[0], p)]
                yield "\t".join(_closed_prompt(copier, seat, g, pid, text, options, max(t[2] - 1, 0), now))
        for g in range(1, games + 1):
            t = templates[g % len(templates)]
            step = 45 * 3600 * (g % 97) / 97  # deadlines spread over the next 3 to 48 hours
            deadline = now + timedelta(hours=3) + timedelta(seconds=step)
            opened_at, mail_pending, planned = now - timedelta(hours=1), False, True
            if g in REMINDER_GAMES:
                deadline = now + timedelta(hours=2) - timedelta(minutes=1)  # the 2-hour lead just crossed
            elif g in NEW_PROMPT_GAMES:
                opened_at, mail_pending, planned = now - timedelta(minutes=2), True, False
            elif g in DEADLINE_GAMES:
                deadline = now - timedelta(minutes=1)
            for p in range(PLAYERS):
                seat = (g - 1) * PLAYERS + p + 1
                pid, text, options, _ = prompt_text[(t[0], p)]
                nxt = None
                if planned:
                    nxt = (now - timedelta(minutes=1) if g in REMINDER_GAMES
                           else next_reminder(deadline, opened_at, leads_of(user_of(g, p)), now))
                row = list(copier.base)
                for slot, value in zip(copier.slots, (seats_total + seat, g, seat, None, t[2], None, None, deadline,
                                                      opened_at, None, False, mail_pending, planned, nxt)):
                    row[slot] = _text(value)
                row[copier.slots[3]], row[copier.slots[5]], row[copier.slots[6]] = pid, text, options
                yield "\t".join(row)

    timed("prompts", copier, prompt_lines())

    copier_sub = Copier(Submission, ["id", "game_id", "seat_id", "prompt_row_id", "phase", "prompt_id",
                                     "option_id"], source="web", created_at=now - timedelta(days=1))

    def submission_lines():
        for g in range(1, games + 1):
            t = templates[g % len(templates)]
            for p in range(PLAYERS):
                seat = (g - 1) * PLAYERS + p + 1
                pid, _, _, option = prompt_text[(t[0], p)]
                yield copier_sub.line((seat, g, seat, seat, max(t[2] - 1, 0), t[3][p].id, option))

    timed("submissions", copier_sub, submission_lines())

    copier = Copier(Event, ["id", "game_id", "phase"], text="The previous step was resolved.", data={},
                    visibility=None, created_at=now - timedelta(hours=2))
    timed("events", copier, (copier.line((g, g, templates[g % len(templates)][2])) for g in range(1, games + 1)))

    # One sent result email and its done mail job per game; the lost ones (pending) are the due work.
    copier = Copier(Notification, ["id", "dedupe_key", "user_id", "game_id", "status", "created_at", "sent_at"],
                    kind="result", address="bench@example.org", subject="A step was resolved",
                    body_text="what happened", body_html="", message_id="<bench@localhost>", headers={},
                    attempts=1, last_error="")

    def notification_lines():
        for g in range(1, games + 1):
            lost = g <= DUE["outbox"]
            yield copier.line((g, f"bench:result:{g}", user_of(g, 0), g, "pending" if lost else "sent",
                               now - timedelta(minutes=5), None if lost else now - timedelta(minutes=5)))

    timed("notifications", copier, notification_lines())
    copier = Copier(MailJob, ["id", "game_id", "phase", "status", "due_at", "done_at"], kind="result",
                    event_ids=[], created_at=now - timedelta(minutes=5), attempts=0, last_error="")

    def job_lines():
        for g in range(1, games + 1):
            lost = DUE["outbox"] < g <= DUE["outbox"] + DUE["mail_jobs"]
            yield copier.line((g, g, max(templates[g % len(templates)][2] - 1, 0), "pending" if lost else "done",
                               now - timedelta(minutes=4), None if lost else now - timedelta(minutes=4)))

    timed("mail_jobs", copier, job_lines())


def _closed_prompt(copier: Copier, seat: int, game: int, pid: str, text: str, options: str, phase: int,
                   now: datetime) -> list[str]:
    row = list(copier.base)
    values = (seat, game, seat, None, phase, None, None, now - timedelta(days=1), now - timedelta(days=3),
              now - timedelta(days=1), True, False, True, None)
    for slot, value in zip(copier.slots, values):
        row[slot] = _text(value)
    row[copier.slots[3]], row[copier.slots[5]], row[copier.slots[6]] = pid, text, options
    return row


def seeded_now() -> datetime | None:
    """The seeding's "now" as the database holds it (the first seeded user joined then; shift_to moves it
    with everything else)."""
    from accounts.models import User

    return User.objects.filter(pk=1, username="bench1").values_list("date_joined", flat=True).first()


def _has_lead_sql(user: str, hours: int) -> str:
    """SQL: whether the seeded player ``user`` (an SQL expression of their id) has this lead (leads_of)."""
    due = "true" if hours in [24, 2] else "false"
    patterns = [i for i, p in enumerate(LEAD_PATTERNS) if hours in p]
    among = f"({user} %% {len(LEAD_PATTERNS)}) IN ({', '.join(map(str, patterns))})" if patterns else "false"
    return f"(CASE WHEN {user} <= {DUE['reminders']} THEN {due} ELSE {among} END)"


def shift_to(*, start: datetime, games: int, vacuum: bool = True) -> dict:
    """Move a seeded database's clock to ``start``: add (start - the seeding's now) to every time the
    periodic jobs read of the seeded rows, so that at ``start`` the due work is the designed one (DUE),
    the same at every size, however long ago the seeding ran (1M games take many minutes to seed, and a
    database is reused). A few UPDATEs: the open prompts' deadline, opened_at and next_reminder_at, the
    digest readers' next_digest_at, the users' join and confirmation times (the marker seeded_now reads),
    the lost outbox rows and mail jobs; then VACUUM ANALYZE of the prompts (the UPDATE left a dead
    version of each open prompt). Closed history stays where it is (older, still closed).

    The seeding gives the open prompts 97 distinct deadlines (``step``), so its players' lead times are
    crossed in bursts 28 minutes apart; real deadlines are spread. Past the designed due work's games
    (game ids above ``SPREAD_FROM``) each game's open prompts move by up to ``SPREAD_SECONDS`` more
    (its id picks how much) and their next reminder is planned again from the moved deadline (the
    earliest lead time still ahead of ``start``), which spreads the deadlines evenly and makes the
    reminders fall due at a steady rate (~15 a second at 1M games). All in one transaction: a cancelled shift moves nothing. Returns what was moved and how long
    it took."""
    from accounts.models import NotificationPreferences, User
    from games.mail.models import MailJob, Notification
    from games.models import Prompt

    before = seeded_now()
    if before is None or start <= before:
        return {"shifted_s": 0.0, "seconds": 0.0}
    delta = start - before
    t0 = time.perf_counter()
    rows = {}
    # Past the due work's games: each game's prompts move SPREAD more, and their next reminder is planned
    # again as the reminders task would (_lead_sql: the earliest of the player's lead times still ahead of
    # ``start``; a lead the spread moved from before the seeding's now to after start is planned too).
    spread = f"((game_id * 7919) %% {SPREAD_SECONDS}) * interval '1 second'"
    d, o = f"(deadline + %(delta)s + {spread})", f"(opened_at + %(delta)s + {spread})"
    user = "(((seat_id - 1) %% %(games)s) + 1)"
    ahead = ", ".join(f"CASE WHEN {_has_lead_sql(user, h)} AND {d} - interval '{h} hours' > %(start)s "
                      f"AND {o} < {d} - interval '{h} hours' THEN {d} - interval '{h} hours' END"
                      for h in sorted({h for p in LEAD_PATTERNS + [[24, 2]] for h in p}))
    statements = [
        ("prompts", f"UPDATE {Prompt._meta.db_table} SET deadline = deadline + %(delta)s, "
                    "opened_at = opened_at + %(delta)s, next_reminder_at = next_reminder_at + %(delta)s "
                    f"WHERE closed_at IS NULL AND game_id <= {SPREAD_FROM}", {"delta": delta}),
        ("prompts_spread", f"UPDATE {Prompt._meta.db_table} SET deadline = {d}, opened_at = {o}, "
                           f"next_reminder_at = LEAST({ahead}) "
                           f"WHERE closed_at IS NULL AND game_id > {SPREAD_FROM} AND game_id <= %(games)s",
         {"delta": delta, "start": start, "games": games}),
        ("digest_readers", f"UPDATE {NotificationPreferences._meta.db_table} SET next_digest_at = next_digest_at + %s "
                           "WHERE next_digest_at IS NOT NULL AND user_id <= %s", [delta, games]),
        ("users", f"UPDATE {User._meta.db_table} SET date_joined = date_joined + %s, "
                  "email_verified_at = email_verified_at + %s WHERE id <= %s", [delta, delta, games]),
        ("outbox_pending", f"UPDATE {Notification._meta.db_table} SET created_at = created_at + %s "
                           "WHERE status = 'pending' AND game_id <= %s", [delta, games]),
        ("jobs_pending", f"UPDATE {MailJob._meta.db_table} SET created_at = created_at + %s, due_at = due_at + %s "
                         "WHERE status = 'pending' AND game_id <= %s", [delta, delta, games]),
    ]
    with transaction.atomic(), connection.cursor() as c:
        for name, sql, params in statements:
            c.execute(sql, params)
            rows[name] = c.rowcount
    updated = time.perf_counter() - t0
    if vacuum:
        with connection.cursor() as c:
            c.execute(f"VACUUM (ANALYZE) {Prompt._meta.db_table}")
    return {"shifted_s": round(delta.total_seconds(), 1), "rows": rows, "update_seconds": round(updated, 1),
            "seconds": round(time.perf_counter() - t0, 1)}


def reminders_crossed_meanwhile_move(*, since: datetime, until: datetime) -> int:
    """Move the open prompts whose next reminder fell due while shift_to ran (``since`` .. ``until``) on by
    the time it took: deadline, opening and next reminder time, so their players' lead times are crossed
    from ``until`` on, at the steady rate, instead of being a backlog when the stack starts (shift_to
    takes minutes at 1M games: ~4,500 reminders fell due meanwhile). One UPDATE through the due index;
    returns the prompts moved."""
    from django.db.models import F

    from games.mail import reminders

    delta = until - since
    return (reminders.due_prompts(now=until).filter(next_reminder_at__gte=since)
            .update(deadline=F("deadline") + delta, opened_at=F("opened_at") + delta,
                    next_reminder_at=F("next_reminder_at") + delta))


def _rearmed_deadline(due_at: datetime) -> datetime:
    """The deadline rearm_due_work gives a reminder prompt due at ``due_at`` (its 2-hour lead crossed
    just before): a new deadline each run, so a new reminder (its own dedupe key)."""
    return due_at + timedelta(hours=2) - timedelta(seconds=1)


def rearm_due_work(*, start: datetime, span_seconds: float) -> dict[int, datetime]:
    """Make a seeded database's due work due again at ``start``, for a run under load that begins long
    after the seeding (load_bench.py --reuse-db): the reminder games' open prompts get their 2-hour
    lead crossed at times spread evenly over [start, start + span_seconds] (each deadline 2 hours after
    it: a new deadline, so a new reminder), and the due digest readers' next digest is ``start``.
    Returns each reminder prompt's id -> its due time, to check the reminders were sent on time."""
    from accounts.models import NotificationPreferences
    from games.models import Prompt

    ids = list(Prompt.objects.filter(game_id__in=REMINDER_GAMES, closed_at__isnull=True)
               .order_by("id").values_list("id", flat=True))
    due = {}
    for i, pk in enumerate(ids):
        at = start + timedelta(seconds=span_seconds * i / max(1, len(ids) - 1))
        Prompt.objects.filter(pk=pk).update(next_reminder_at=at, deadline=_rearmed_deadline(at))
        due[pk] = at
    readers = [u for u in range(DIGEST_SHARE, DIGEST_SHARE * (DUE["digests"] + 1), DIGEST_SHARE)]
    NotificationPreferences.objects.filter(user_id__in=readers).update(next_digest_at=start)
    return due


def all_reminders_on_time(*, since: datetime, until: datetime, period_seconds: float) -> dict:
    """Every reminder that fell due in [since, until] (its lead time crossed then: deadline - lead):
    how many were sent within one period of that time, the lateness p50 / p99 / max, and how many open
    prompts were still due at ``until`` (not yet looked at: a backlog)."""
    from benchmarks.stats import percentile
    from games.mail import reminders
    from games.mail.models import Notification

    late, unsent = [], 0
    for deadline, lead, sent_at in (Notification.objects.filter(kind="reminder", created_at__gte=since)
                                    .values_list("deadline", "lead_hours", "sent_at")):
        due_at = deadline - timedelta(hours=lead)
        if not since <= due_at <= until:
            continue
        if sent_at is None:
            unsent += 1
        else:
            late.append(max(0.0, (sent_at - due_at).total_seconds()))
    backlog = reminders.due_prompts(now=until).count()
    return {"due": len(late) + unsent, "sent": len(late), "on_time": sum(1 for s in late if s <= period_seconds),
            "lateness_p50_s": round(percentile(late, 50), 1) if late else None,
            "lateness_p99_s": round(percentile(late, 99), 1) if late else None,
            "lateness_max_s": round(max(late), 1) if late else None, "still_due_at_end": backlog,
            "period_s": period_seconds}


def reminders_on_time(due: dict[int, datetime], period_seconds: float) -> dict:
    """Of the re-armed reminders (``rearm_due_work``): how many were sent (the outbox row marked sent)
    within one period of the reminders task after their due time, and the latest one's lateness (0 for
    one sent at its time: the reminders task queues them a period ahead, to go then)."""
    from games.mail.models import Notification

    sent: dict[int, datetime | None] = {}
    for pk, deadline, sent_at in Notification.objects.filter(kind="reminder", prompt_id__in=list(due)) \
            .values_list("prompt_id", "deadline", "sent_at"):
        if deadline == _rearmed_deadline(due[pk]):  # this run's reminder, not an earlier run's
            sent[pk] = sent_at
    late = [max(0.0, (sent[pk] - at).total_seconds()) for pk, at in due.items() if sent.get(pk)]
    return {"due": len(due), "sent": len(late),
            "on_time": sum(1 for s in late if s <= period_seconds),
            "lateness_p50_s": round(sorted(late)[len(late) // 2], 1) if late else None,
            "lateness_max_s": round(max(late), 1) if late else None, "period_s": period_seconds}
