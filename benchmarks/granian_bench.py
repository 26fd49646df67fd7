"""The load benchmark's WSGI application under granian (``load_bench.py --web-server granian``).

Granian has no hook like gunicorn's ``post_worker_init`` (benchmarks/gunicorn_bench.py), so each worker that
imports this module counts its SQL statements (benchmarks/stmt_count.py) once the application is loaded.
"""

from benchmarks import stmt_count
from faltisia.wsgi import application

__all__ = ["application"]  # what granian serves

stmt_count.install("web")
