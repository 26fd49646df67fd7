"""The games admin: found by Django's admin autodiscovery as ``games.admin``.

    game_admin.py  the model admins of games (games, seats, prompts, submissions, events), registered
                   with admin.site on import
    chat_admin.py  table talk: messages with reports first, hiding and restoring, the moderators' log
    read_only.py   the bases of the admins and inlines of records nobody adds, edits or deletes by hand
                   (also used by games.mail.admin)
    secrecy.py     the rule that no admin page, filter, search or sort shows a game's hidden information
                   (also used by games.mail.admin and games.tournaments.admin)
"""

from . import chat_admin, game_admin  # noqa: F401  (register the model admins with admin.site)
