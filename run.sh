#!/usr/bin/env bash
# ./run.sh        install into .venv, migrate, create the demo game, run the dev server + an in-process beat
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
    .venv/bin/python manage.py migrate --noinput -v 0
    .venv/bin/python manage.py demo_setup --base-url "http://$ADDR"
    # Deadlines, reminders, digests and tournament sweeps fire in the embedded mode too: a child process
    # runs Celery beat's schedule in-process.
    .venv/bin/python manage.py beat_embedded &
    BEAT=$!
    trap 'kill $BEAT 2>/dev/null' EXIT INT TERM
    .venv/bin/python manage.py runserver "$ADDR"
    ;;
  *)
    echo "usage: $0 [run|test [pytest args]]" >&2; exit 2
    ;;
esac
