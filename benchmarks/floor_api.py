"""The machine's floor for a write request: a bare DRF endpoint that authenticates and does one insert.

Mounted only when settings.BENCHMARK_FLOOR_ENDPOINT is true (faltisia/urls.py), never in production.
It reuses the Event table (one row on a game the benchmark creates for it), so it needs no model and no
migration: the figure is "what one authenticated DRF write costs on this machine", which the load
benchmark compares the real POST /moves/ against.
"""

from __future__ import annotations

from django.http import JsonResponse
from rest_framework import status
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Event


class FloorInsertApi(APIView):
    """POST: insert one Event row on game ``game_id``, with stock DRF: its own TokenAuthentication (the
    API's FastTokenAuthentication is this server's optimisation, not the machine's floor), the API's
    error handling."""

    authentication_classes = [TokenAuthentication, SessionAuthentication]

    def post(self, request, game_id: int):
        event = Event.objects.create(game_id=game_id, phase=0, text="benchmark floor", data={}, visibility=[])
        return Response({"id": event.pk}, status=status.HTTP_201_CREATED)


# The rungs below the floor (benchmarks/server_floor.py; the first, bare WSGI, is benchmarks/hello_wsgi.py):
# what each layer a request passes costs on its own.

def plain_django_view(request):
    """Django's whole middleware stack and URL resolver, no DRF, no query."""
    return JsonResponse({})


class AuthenticatedApi(APIView):
    """GET: DRF with the API's own authentication (one small query) and rendering, nothing else."""

    def get(self, request):
        return Response({"user": request.user.pk})
