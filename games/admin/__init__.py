"""The games admin: found by Django's admin autodiscovery as ``games.admin``.

    game_admin.py  the model admins of games (games, seats, prompts, submissions, events), registered
                   with admin.site on import
    chat_admin.py  table talk: messages with reports first, hiding and restoring, the moderators' log
    secrecy.py     the rule that no admin page, filter, search or sort shows a game's hidden information
                   (also used by games.mail.admin and games.tournaments.admin)
"""

from . import chat_admin, game_admin  # noqa: F401  (register the model admins with admin.site)
