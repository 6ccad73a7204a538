"""A page's `<meta>` tags as a small multimap, with the spellings different vocabularies use folded together.

Names are case-insensitive (`DC.Title`, `dc.title`), come as `name=`, `property=` or `itemprop=`, and
Dublin Core has three prefixes (`DC.`, `dc:`, `dcterms.`/`dcterms:`): `dublin_core()` folds them to `dc.`.
"""

from __future__ import annotations

from dataclasses import dataclass

import lxml.html

_DC_PREFIXES = ("dcterms.", "dcterms:", "dc:", "dc.")
MAX_TAGS = 5000  # a page with more meta tags than this is not a bibliographic page worth reading further


@dataclass(frozen=True)
class Meta:
    pairs: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, doc: lxml.html.HtmlElement) -> Meta:
        pairs = []
        for element in doc.iter("meta"):
            name = element.get("name") or element.get("property") or element.get("itemprop")
            content = element.get("content")
            if name and content is not None and content.strip():
                pairs.append((name.strip().lower(), content.strip()))
                if len(pairs) >= MAX_TAGS:
                    break
        return cls(tuple(pairs))

    def all(self, name: str) -> list[str]:
        return [content for key, content in self.pairs if key == name]

    def first(self, *names: str) -> str | None:
        """The first tag's content under the first of `names` that the page has."""
        for name in names:
            for key, content in self.pairs:
                if key == name:
                    return content
        return None

    def dublin_core(self) -> Meta:
        """Only the Dublin Core tags, every prefix spelled `dc.`."""
        pairs = []
        for key, content in self.pairs:
            for prefix in _DC_PREFIXES:
                if key.startswith(prefix):
                    pairs.append(("dc." + key[len(prefix) :], content))
                    break
        return Meta(tuple(pairs))
