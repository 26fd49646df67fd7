#!/usr/bin/env bash
# ./run.sh        install into .venv, migrate, create the demo game, run the dev server + an in-process beat
#                 (ADDR=host:port, DEMO_CLOCK_SECONDS=300, DEMO_BOTS=1, EMAIL_FILE_PATH=dir: see README.md)
# ./run.sh test   install into .venv and run the test suite (extra arguments go to pytest)
set -euo pipefail
cd "$(dirname "$0")"
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
if [ ! -f .venv/.installed ] || [ requirements.txt -nt .venv/.installed ]; then
  .venv/bin/pip install -q --disable-pip-version-check -r requirements.txt
  touch .venv/.installed
fi

case "${1:-run}" in
  test)
    shift || true
    exec .venv/bin/pytest "$@"
    ;;
  run)
    ADDR="${ADDR:-127.0.0.1:8000}"
    # Links in emails (settings.MAIL_BASE_URL) point at this server unless a base URL is given.
    if [ -z "${MAIL_BASE_URL:-}" ] && [ -z "${SITE_URL:-}" ]; then
      export MAIL_BASE_URL="http://$ADDR"
    fi
    # Demo mail is written to files (one per message), not to the terminal, unless a backend is given.
    export EMAIL_BACKEND="${EMAIL_BACKEND:-django.core.mail.backends.filebased.EmailBackend}"
    export EMAIL_FILE_PATH="${EMAIL_FILE_PATH:-$PWD/var/mail}"
    .venv/bin/python manage.py migrate --noinput -v 0
    # DEMO_CLOCK_SECONDS=300 and DEMO_BOTS=1 give the demo game a short clock and bot seats.
    DEMO_ARGS=(--base-url "http://$ADDR")
    if [ -n "${DEMO_CLOCK_SECONDS:-}" ]; then DEMO_ARGS+=(--clock-seconds "$DEMO_CLOCK_SECONDS"); fi
    if [ -n "${DEMO_BOTS:-}" ]; then DEMO_ARGS+=(--bots "$DEMO_BOTS"); fi
    BANNER="$(LOG_LEVEL="${LOG_LEVEL:-WARNING}" .venv/bin/python manage.py demo_setup "${DEMO_ARGS[@]}")"
    # Deadlines, reminders, digests and tournament sweeps fire in the embedded mode too: a child process
    # runs Celery beat's schedule in-process. It runs every few seconds, so it logs warnings and errors only.
    LOG_LEVEL="${BEAT_LOG_LEVEL:-WARNING}" .venv/bin/python manage.py beat_embedded &
    BEAT=$!
    .venv/bin/python manage.py runserver "$ADDR" &
    SERVER=$!
    trap 'kill $BEAT $SERVER 2>/dev/null' EXIT INT TERM
    # The banner comes last, once the server answers (after its own start lines), so it stays on screen.
    HOST="${ADDR%:*}"; PORT="${ADDR##*:}"
    case "$HOST" in "$ADDR"|0.0.0.0|"") HOST=127.0.0.1;; esac
    for _ in $(seq 1 120); do
      if (exec 3<>"/dev/tcp/$HOST/$PORT") 2>/dev/null; then break; fi
      if ! kill -0 "$SERVER" 2>/dev/null; then break; fi
      sleep 0.5
    done
    sleep 1
    printf '\n%s\n%s\n\n' "$BANNER" "  Stop:   Control-C"
    wait "$SERVER"
    ;;
  *)
    echo "usage: $0 [run|test [pytest args]]" >&2; exit 2
    ;;
esac
