"""Online scholarly sources: one module per service, one protocol, one aggregator, one shared client.

- `base`: the `Source` protocol (`async lookup(cited) -> list[Record]`; [] is "none", `Unreachable` is
  "no answer") and `DoiSource` for services that resolve DOIs.
- `http`: the shared `httpx.AsyncClient`, per-host rate limit and concurrency cap, retries.
- `crossref`: Crossref's REST API.
- `aggregate`: the sources asked tier by tier, stopping at the first tier that has the cited work.
- `runtime`: `SourcesRuntime`, the synchronous face SOP agents use.
"""

from refhound.sources.aggregate import Aggregator, Answer, Lookup
from refhound.sources.base import DoiSource, Source
from refhound.sources.runtime import SourcesRuntime, unavailable_reason

__all__ = ["Aggregator", "Answer", "DoiSource", "Lookup", "Source", "SourcesRuntime", "unavailable_reason"]
