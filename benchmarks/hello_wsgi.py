"""A WSGI application with nothing in it: gunicorn's own cost per request (benchmarks/server_floor.py's first rung).
Its own module, so that gunicorn loads no Django for it."""


def application(environ, start_response):
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", "2")])
    return [b"{}"]
