"""The games admin: found by Django's admin autodiscovery as ``games.admin``.

    game_admin.py  the model admins of games (games, seats, prompts, submissions, events), registered
                   with admin.site on import
    secrecy.py     the rule that no admin page, filter, search or sort shows a game's hidden information
                   (also used by games.mail.admin and games.tournaments.admin)
"""

from . import game_admin  # noqa: F401  (registers the model admins with admin.site)
