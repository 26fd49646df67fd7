"""Run a command against the production-shaped stack (gunicorn + Celery worker + beat + private Redis)
on a throw-away PostgreSQL test database; `{url}` in the command is replaced by the server's base URL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench python benchmarks/with_stack.py -- \
        python ../shared/contract/api_client_check.py {url} --game tinygame --seats 4

Prints the command's output and the seconds it took; exits with its status.
"""

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _django import ROOT, setup, teardown


def main() -> int:
    argv = sys.argv[1:]
    if argv and argv[0] == "--":
        argv = argv[1:]
    if not argv:
        raise SystemExit(__doc__)
    old = setup()
    try:
        from django.db import connection

        sys.path.insert(0, str(ROOT))
        from tests.e2e.stack import Stack, database_url

        with tempfile.TemporaryDirectory() as tmp:
            stack = Stack(db_url=database_url(connection.settings_dict), workdir=Path(tmp)).start()
            try:
                t0 = time.perf_counter()
                rc = subprocess.call([a.replace("{url}", stack.base_url) for a in argv])
                print(f"# command exited {rc} after {time.perf_counter() - t0:.2f}s; restarts: {stack.restarts}")
            finally:
                stack.stop_all()
        connection.close()
        return rc
    finally:
        teardown(old)


if __name__ == "__main__":
    sys.exit(main())
