"""A game's glossary: its terms explained where they appear on the game page.

The terms are data, one file per game: ``games/presentation/<slug>/glossary.toml``, a list of ``[[term]]``
tables:

    [[term]]
    key = "mp"                       # the term's id: "gl-mp" on the game page, "term-mp" on the rules page
    name = "MP (Maid Points)"        # the heading in the glossary lists
    means = "The score: ..."         # one or two plain sentences
    forms = ["MP"]                   # the exact words that are this term in a text (case-sensitive)
    rules = "rules-scoring"          # optional: the rules page's section that says more

``Glossary.gloss(text)`` returns the text, HTML-escaped, with each form wrapped in a link to the game page's
glossary entry (``#gl-<key>``) that names it as its description (``aria-describedby``) and carries the
explanation as a tip shown on hover, on keyboard focus (CSS only) and on tap (web/static/web/glossary.js; without
JavaScript a tap follows the link to the entry in the page's glossary, which links on to the rules page).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

FILE_NAME = "glossary.toml"
_KEY = re.compile(r"^[a-z][a-z0-9-]*$")


class GlossaryError(ValueError):
    """The glossary file breaks a rule of the format; the message names the file and the term."""


@dataclass(frozen=True)
class Term:
    key: str
    name: str
    means: str
    forms: tuple[str, ...]
    rules: str = ""


class Glossary:
    def __init__(self, terms: list[Term]):
        self.terms = sorted(terms, key=lambda t: t.name.lower())
        self._by_form: dict[str, Term] = {}
        for term in terms:
            for form in term.forms:
                if form in self._by_form:
                    raise GlossaryError(f"{form!r} is a form of both {self._by_form[form].key!r} and {term.key!r}")
                self._by_form[form] = term
        # Longest form first, so "Pre-Class" wins over "Class" and "Rainbow tokens" over "tokens"; a form is a
        # whole word (no letter, digit or hyphen just before or after it).
        forms = sorted(self._by_form, key=len, reverse=True)
        self._pattern = re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, forms)) + r")(?![\w-])") if forms else None

    def term_for(self, form: str) -> Term:
        return self._by_form[form]

    def gloss(self, text: str) -> SafeString:
        """``text`` escaped, with every term in it marked up (see the module's docstring)."""
        text = "" if text is None else str(text)
        if self._pattern is None:
            return mark_safe(escape(text))
        out, last = [], 0
        for m in self._pattern.finditer(text):
            term = self._by_form[m.group(0)]
            out.append(escape(text[last:m.start()]))
            out.append(f'<a class="term" href="#gl-{term.key}" aria-describedby="gl-{term.key}">'
                       f'{escape(m.group(0))}<span class="term-tip" aria-hidden="true"><strong>{escape(term.name)}</strong> '
                       f'{escape(term.means)}</span></a>')
            last = m.end()
        out.append(escape(text[last:]))
        return mark_safe("".join(out))


def parse(path: Path) -> Glossary:
    """Read and check a glossary file; raise GlossaryError naming the file and the term."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise GlossaryError(f"{path}: {exc}") from exc
    terms, keys = [], set()
    for i, row in enumerate(data.get("term", [])):
        where = f"{path}: term {row.get('key', i)!r}"
        key, name, means, forms = row.get("key"), row.get("name"), row.get("means"), row.get("forms")
        if not isinstance(key, str) or not _KEY.match(key) or key in keys:
            raise GlossaryError(f"{where}: key must be a new lower-case id")
        if not (isinstance(name, str) and name and isinstance(means, str) and means):
            raise GlossaryError(f"{where}: name and means are required")
        if not (isinstance(forms, list) and forms and all(isinstance(f, str) and f.strip() == f and f for f in forms)):
            raise GlossaryError(f"{where}: forms must be a list of words")
        unknown = set(row) - {"key", "name", "means", "forms", "rules"}
        if unknown:
            raise GlossaryError(f"{where}: unknown fields {sorted(unknown)}")
        keys.add(key)
        terms.append(Term(key=key, name=name, means=means, forms=tuple(forms), rules=str(row.get("rules", ""))))
    try:
        return Glossary(terms)
    except GlossaryError as exc:
        raise GlossaryError(f"{path}: {exc}") from exc


@lru_cache(maxsize=None)
def glossary_in(folder: str) -> Glossary | None:
    """The glossary of the package in ``folder`` (read once), or None if it has none."""
    path = Path(folder) / FILE_NAME
    return parse(path) if path.is_file() else None
