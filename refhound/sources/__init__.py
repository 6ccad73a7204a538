"""Online scholarly sources: one module per service, one protocol, one aggregator, one shared client.

- `base`: the `Source` protocol (`async lookup(cited) -> list[Record]`; [] is "none", `Unreachable` is
  "no answer"), `DoiSource` for services that resolve DOIs, and the helpers the clients share;
- `http`: the shared `httpx.AsyncClient`, per-host rate limit and concurrency cap, retries; `cache`: the
  SQLite cache of the services' answers;
- the services: `crossref`, `openalex`, `dblp`, `arxiv`, `semantic_scholar`, `doi` (doi.org);
- `aggregate`: the sources asked tier by tier, stopping at the first tier that has the cited work;
- `probes`: each cited identifier asked of its authority (doi.org, arXiv, the cited page);
- `runtime`: `SourcesRuntime`, the synchronous face SOP agents use. It is not imported here: it builds
  the web fetcher for cited pages, and `refhound.web` itself uses this package's HTTP layer.
"""

from refhound.sources.aggregate import Aggregator, Answer, Lookup
from refhound.sources.base import DoiSource, Source

__all__ = ["Aggregator", "Answer", "DoiSource", "Lookup", "Source"]
