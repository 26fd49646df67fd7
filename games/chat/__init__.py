"""Table talk: messages between the players of a game, moderation, and each seat's private notes.

Layered like the rest of games/: ``models`` are read by ``selectors`` and written by ``services``,
``moderation``, ``notes`` and ``batches``; the surfaces (games.api, games.web, games.mail, the admin)
import this package, never the other way round (the contract "chat-below-surfaces" in .importlinter).
"""
