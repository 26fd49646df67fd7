"""The fast path: the few places that answer a pick and a game's view below Django's ORM and DRF.

README.md beside this file says what it may skip and why, and how it is kept equal to the usual chain. Only the
modules .importlinter names may import it.
"""
