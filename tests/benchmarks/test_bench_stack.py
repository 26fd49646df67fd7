"""benchmarks/stack.py's web server choice: granian is only ever a comparison, started in gunicorn's
shape, and still counts its statements. The command is checked here; granian is not a dependency of
the project, so no test starts it (docs/benchmarks.md says how the figures were made)."""

from __future__ import annotations

from benchmarks.stack import BenchStack


def _stack(tmp_path, **options) -> BenchStack:
    return BenchStack(db_url="postgres://postgres@127.0.0.1:5432/unused", workdir=tmp_path, web_workers=3,
                      web_threads=8, **options)


def test_granian_is_started_in_gunicorns_shape_with_the_application_that_counts_statements(tmp_path):
    stack = _stack(tmp_path, web_server="granian", granian_backpressure=256, stmt_count_dir=tmp_path)
    args = stack._granian_args()
    assert args[1:3] == ["-m", "granian"]
    assert args[args.index("--workers") + 1] == "3" and args[args.index("--blocking-threads") + 1] == "8"
    assert args[args.index("--port") + 1] == str(stack.http_port)
    assert args[args.index("--backpressure") + 1] == "256"
    assert args[-1] == "benchmarks.granian_bench:application"  # the application is the last argument


def test_granian_without_counting_serves_the_production_application_with_its_own_backpressure(tmp_path):
    args = _stack(tmp_path, web_server="granian")._granian_args()
    assert "--backpressure" not in args
    assert args[-1] == "faltisia.wsgi:application"


def test_gunicorn_stays_the_default(tmp_path):
    assert _stack(tmp_path).web_server == "gunicorn"
