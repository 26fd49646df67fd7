"""A game's rules page for players: /games/<slug>/rules/ (public; the rules hide nothing).

The summary itself is the game's presentation package's ``rules_template``; this page frames it with what
the engine says of itself (name, player counts, standing orders).
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.engines.registry import get_engine
from games.presentation.registry import presentation_for


@require_GET
def game_rules(request, slug: str):
    try:
        engine = get_engine(slug)
    except KeyError:
        raise Http404("No such game.")
    presentation = presentation_for(slug)
    context = {"engine": engine, "slug": slug, "players": presentation.players_note(engine),
               "standing_orders": engine.standing_orders(), "rules_template": presentation.rules_template,
               "glossary": presentation.glossary()}
    context.update(presentation.rules_context(engine))
    return render(request, "web/rules.html", context)
