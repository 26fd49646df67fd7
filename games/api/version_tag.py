"""Opaque tags for "has what this viewer sees changed?" (the API's ETag, the game page's live version).

``Game.version`` moves with every write, a sub-pick of another seat included, and how many picks a seat
makes within a step can depend on hidden choices. A tag is therefore a keyed hash of the version and of
who is looking, never the counter itself: a viewer learns only whether something changed since their
last look, as the page's "still deciding" list already shows, not how many writes there were.
"""

from __future__ import annotations

from django.utils.crypto import salted_hmac


# The HMAC's key salt: the module's former dotted path, kept as it was when the module moved into
# games/api/, so the tags (the ETags and page versions clients hold) stay the same across the move.
KEY_SALT = "games.version_tag"


def version_tag(*parts) -> str:
    """A short opaque tag for ``parts`` (ids, the version, the viewer), stable for the same parts."""
    return salted_hmac(KEY_SALT, "|".join(str(p) for p in parts), algorithm="sha256").hexdigest()[:24]
