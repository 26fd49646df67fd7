"""The WSGI application as the load benchmark serves it under a server without gunicorn's config hooks
(granian): the production application, with each process counting its SQL statements once it is loaded
(benchmarks/stmt_count.py), as benchmarks/gunicorn_bench.py does for gunicorn."""

import os

from faltisia.wsgi import application  # noqa: F401  (loads Django)

if os.environ.get("BENCH_STMT_COUNT_DIR"):
    from benchmarks import stmt_count

    stmt_count.install("web")
