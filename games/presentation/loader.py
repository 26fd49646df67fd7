"""A template loader for the presentation packages: ``games/<slug>/<file>`` is ``<file>`` in the ``templates/``
folder of that slug's package (``games/generic/<file>``: the generic presentation's).

So a game's templates live next to its presenter, and a new game's package needs no settings change.
Listed in settings.TEMPLATES (inside Django's cached loader, like the others).
"""

from __future__ import annotations

from django.core.exceptions import SuspiciousFileOperation
from django.template import Origin
from django.template.loaders.filesystem import Loader as FilesystemLoader
from django.utils._os import safe_join

from .registry import templates_dir

PREFIX = "games/"


class Loader(FilesystemLoader):
    def get_template_sources(self, template_name: str):
        if not template_name.startswith(PREFIX):
            return
        slug, _, rest = template_name[len(PREFIX):].partition("/")
        if not slug or not rest:
            return
        try:
            directory = templates_dir(slug)
        except ImportError:
            return
        if directory is None:
            return
        try:
            name = safe_join(directory, rest)
        except SuspiciousFileOperation:
            return  # "games/x/../../secret": never outside the package's templates folder
        yield Origin(name=name, template_name=template_name, loader=self)
