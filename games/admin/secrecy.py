"""Admin secrecy: staff play too, so no admin page, filter, search or sort reveals a game's hidden information.

One table (``SECRET_FIELDS``) names every field that holds a hand, a pick, a seed, a private log entry, a
private message (or a text that may quote one) or a credential; ``SecretFieldsAdminMixin`` (model admins)
and ``SecretFieldsInlineMixin`` (inlines on a game's page) enforce it on every channel the admin offers:

- change pages and inlines leave a field out until the row's secrets are revealed (its game is over);
  an ``unqueried`` field (a moderator's or a reporter's reason) is shown, since moderators need it;
- query-string lookups (``?seed__gt=``, ``?option_id=``, ``?game__state__icontains=``,
  ``?text__startswith=``, through any relation) on a secret field are refused with a 400 whatever the value,
  so the answer says nothing about it;
- search (``?q=``, and the autocomplete that uses the same search) matches an ``until_over`` field only on
  rows whose secrets are revealed, so a game in play answers "no match" whatever it holds, and never
  matches an ``always`` or ``unqueried`` field;
- sorting (``?o=``) never orders by a secret field;
- a ``list_filter`` or ``date_hierarchy`` on a secret field is a system-check error (it would bypass the above).

Lookups on secret fields are refused even for finished games: allowing them there would need a second
rule (drop every row of a game in play whenever such a lookup is present) for little use, since
operators read a finished game's secrets on its change page. An admin using the mixin must not override
``get_fields`` without calling super, nor declare ``fieldsets`` (a system-check error): both would
bypass the hiding.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from functools import reduce

from django.contrib.admin.views.main import ChangeList
from django.core import checks
from django.core.exceptions import FieldDoesNotExist
from django.db.models import Q
from django.db.models.constants import LOOKUP_SEP
from django.utils.text import smart_split, unescape_string_literal

from games.models import GameStatus

GAME_OVER = (GameStatus.FINISHED, GameStatus.ABANDONED)


@dataclass(frozen=True)
class Secrets:
    until_over: tuple[str, ...] = ()  # a hand, a pick, the deck order: shown once the game is over
    always: tuple[str, ...] = ()  # credentials (reply tokens, link nonces, headers): never shown, never filtered
    # Shown to staff, never a lookup, search or sort: a reason staff need to read, which may quote a private
    # message that its row's page does not show yet.
    unqueried: tuple[str, ...] = ()

    @property
    def all(self) -> frozenset[str]:
        return frozenset(self.until_over) | frozenset(self.always) | frozenset(self.unqueried)

    def kind_of(self, field_name: str) -> str | None:
        for kind in ("always", "unqueried", "until_over"):
            if field_name in getattr(self, kind):
                return kind
        return None


# "app_label.model_name" -> its secret fields. Models missing here hold nothing hidden.
SECRET_FIELDS: dict[str, Secrets] = {
    "games.game": Secrets(until_over=("state", "seed")),  # the snapshot holds every hand; the seed the decks
    "games.seat": Secrets(until_over=("standing_orders",), always=("email_token_hash",)),
    "games.prompt": Secrets(until_over=("options", "text")),  # the options are the hand; a text names a card
    "games.submission": Secrets(until_over=("option_id",)),
    "games.event": Secrets(until_over=("text", "data")),  # of a private event (``visibility`` set)
    "mail.notification": Secrets(until_over=("body_text", "body_html"), always=("headers",)),
    "mail.inboundmessage": Secrets(until_over=("subject",)),  # players type their pick in the subject
    "mail.usedlink": Secrets(until_over=("option_id",), always=("nonce",)),
    "mail.seatmailbox": Secrets(always=("nonce", "token_hash")),
    "tournaments.tournament": Secrets(until_over=("seed",)),  # every table's seed derives from it
    # Table talk. A private message's text (``audience`` set) is its seats' secret until one of its readers
    # reports it or the game is over; a table message's text is not, but its lookups are refused as well
    # (one rule per field). Hiding and restoring are logged with a reason that may quote the message.
    "chat.chatmessage": Secrets(until_over=("text",), unqueried=("hidden_reason",)),
    "chat.seatnote": Secrets(always=("text",)),  # a player's own notes: staff's never
    "chat.chatreport": Secrets(unqueried=("reason",)),  # the reporter's words may quote the message
    "chat.moderationaction": Secrets(unqueried=("reason",)),
}


def secrets_of(model) -> Secrets:
    return SECRET_FIELDS.get(model._meta.label_lower, Secrets())


def secret_on_path(model, lookup: str) -> str | None:
    """The kind of the secret field (``Secrets``' "until_over", "always" or "unqueried") that ``lookup``
    ("game__seed__gt", "submissions__option_id") reads on its way, or None when it reads none."""
    for part in lookup.split(LOOKUP_SEP):
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            return None  # "pk", a transform or a lookup name: no further field on the path
        kind = secrets_of(model).kind_of(field.name)
        if kind is not None:
            return kind
        if not field.is_relation or field.related_model is None:
            return None
        model = field.related_model
    return None


def lookup_touches_secret(model, lookup: str) -> bool:
    """Whether ``lookup`` ("game__seed__gt", "submissions__option_id") reads a secret field on its way."""
    return secret_on_path(model, lookup) is not None


SEARCH_PREFIXES = {"=": "iexact", "^": "istartswith", "@": "icontains"}  # "@" (full text) searched plainly


def _search_q(field_names, search_term: str) -> Q:
    """Django's search semantics: every word of the term matches one of the fields."""
    def condition(field: str, word: str) -> Q:
        lookup = SEARCH_PREFIXES.get(field[:1])
        return Q(**{f"{field[1:]}__{lookup}" if lookup else f"{field}__icontains": word})

    words = [unescape_string_literal(w) if w[:1] in "\"'" and w[-1:] == w[:1] else w
             for w in smart_split(search_term)]
    return reduce(operator.and_, [reduce(operator.or_, (condition(f, w) for f in field_names)) for w in words], Q())


class SecretSafeChangeList(ChangeList):
    """The changelist of an admin with secrets: ``?o=`` never sorts by a secret field."""

    def get_ordering_field(self, field_name):
        order_field = super().get_ordering_field(field_name)
        # A column orders by a name ("seed", "-game__seed"), an F("seed") or an F("seed").desc().
        name = order_field if isinstance(order_field, str) else getattr(
            getattr(order_field, "expression", order_field), "name", None)
        if isinstance(name, str) and lookup_touches_secret(self.model, name.lstrip("-")):
            return None  # as for an unsortable column: the order is left as it was
        return order_field


class SecretFieldsAdminMixin:
    """For a ModelAdmin whose model (or a model it reaches) has secret fields; put it first in the bases.

    ``game_path`` leads from a row to its game ("" when the row is the game); a row with no game keeps its
    secrets for good (a digest mail covers several games; an inbound message from an unknown sender has
    no seat).
    """

    game_path: str | None = "game"

    # --- which rows have their secrets revealed -------------------------------------------------
    def secrets_revealed(self, obj) -> bool:
        """A row's secrets may be shown once its game is over (never when there is no row or no game)."""
        if obj is None or self.game_path is None:
            return False
        game = obj
        for attr in filter(None, self.game_path.split(LOOKUP_SEP)):
            game = getattr(game, attr, None)
            if game is None:
                return False
        return game.status in GAME_OVER

    def revealed_rows(self) -> Q:
        """The rows ``secrets_revealed`` is true for, as a filter (used by search)."""
        if self.game_path is None:
            return Q(pk__in=[])
        prefix = f"{self.game_path}{LOOKUP_SEP}" if self.game_path else ""
        return Q(**{f"{prefix}status__in": GAME_OVER})

    # --- change pages ------------------------------------------------------------------------
    def get_fields(self, request, obj=None):
        secret = secrets_of(self.model)
        hidden = set(secret.always) | (set() if self.secrets_revealed(obj) else set(secret.until_over))
        return [f for f in super().get_fields(request, obj) if f not in hidden]

    # --- the changelist's query string ---------------------------------------------------------
    def lookup_allowed(self, lookup, value, request=None):
        if lookup_touches_secret(self.model, lookup):
            return False  # the changelist answers 400 for any value: a refusal says nothing about a secret
        return super().lookup_allowed(lookup, value, request)

    def get_changelist(self, request, **kwargs):
        return SecretSafeChangeList

    def get_search_fields(self, request):
        return [f for f in super().get_search_fields(request)
                if not lookup_touches_secret(self.model, f.lstrip("".join(SEARCH_PREFIXES)))]

    def get_search_results(self, request, queryset, search_term):
        """Open fields search every row; an ``until_over`` field only the rows whose secrets are revealed;
        an ``always`` or ``unqueried`` field none."""
        if self.get_search_fields(request):
            found, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        else:
            found, may_have_duplicates = (queryset.none() if search_term else queryset), False
        secret_fields = [f for f in super().get_search_fields(request)
                         if secret_on_path(self.model, f.lstrip("".join(SEARCH_PREFIXES))) == "until_over"]
        if not search_term or not secret_fields:
            return found, may_have_duplicates
        also = queryset.filter(self.revealed_rows()).filter(_search_q(secret_fields, search_term))
        return found | also, True

    def check(self, **kwargs):
        errors = super().check(**kwargs)
        if self.fieldsets:
            errors.append(checks.Error(f"{type(self).__name__} declares fieldsets: secret fields are left out "
                                       "through get_fields, which fieldsets bypass.", obj=type(self),
                                       id="faltisia.E002"))
        names = [f if isinstance(f, str) else f[0] for f in self.list_filter
                 if isinstance(f, str) or isinstance(f, (tuple, list))]
        names += [self.date_hierarchy] if self.date_hierarchy else []
        for name in names:
            if lookup_touches_secret(self.model, name):
                errors.append(checks.Error(f"{type(self).__name__} filters by the secret field {name!r}: "
                                           "a list filter would reveal it while the game is played.",
                                           obj=type(self), id="faltisia.E001"))
        return errors


class SecretFieldsInlineMixin:
    """For an inline on a game's change page: its model's secret fields are left out while the game runs.

    On another model's page (a message's reports and log) the inline's model must have no ``until_over``
    field: nothing there says whether the game is over."""

    def get_fields(self, request, obj=None):
        secret = secrets_of(self.model)
        hidden = set(secret.always)
        if secret.until_over and (obj is None or obj.status not in GAME_OVER):
            hidden |= set(secret.until_over)
        return [f for f in super().get_fields(request, obj) if f not in hidden]
