"""The web: search providers, a polite crawler (httpx first, Chromium when a page needs JavaScript), and
candidate records from the metadata scholarly pages carry. Pages are fetched by `refhound.net.fetch`.

- `providers`: `SearchProvider` and its SearXNG, Brave, Google Programmable Search and SerpApi clients;
- `metadata`: `records_from_html(url, html)`, from `citation_*`, Dublin Core, JSON-LD and site markup;
- `crawl`: `Crawler`, search results → records within a page budget; `browser`: the lazy Chromium;
- `runtime`: `WebRuntime`, the synchronous face the SOP's web stage uses.
"""

from __future__ import annotations

from refhound.web.metadata import records_from_html
from refhound.web.providers import SearchHit, SearchProvider

__all__ = ["SearchHit", "SearchProvider", "records_from_html"]
