"""gunicorn config hooks of the load benchmark's web processes (``--config python:benchmarks.gunicorn_bench``).

Only what the benchmark measures: each worker counts its SQL statements (benchmarks/stmt_count.py) once
the application is loaded. Production's gunicorn runs without it.
"""


def post_worker_init(worker):
    from benchmarks import stmt_count

    stmt_count.install("web")
