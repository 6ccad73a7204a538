"""The quote checker's exceptions, under refhound's tree (`refhound.errors`).

RefhoundError
└── QuotesError            the quote checker cannot go on (a triples file that is not one, say)
    └── SourceUnreadable   a source's bytes hold no text to check quotes against (empty, binary, no text
                           layer); the quotes citing it are `citation_unresolved` with this reason
"""

from __future__ import annotations

from refhound.errors import RefhoundError


class QuotesError(RefhoundError):
    """The message is for the user, on one line."""


class SourceUnreadable(QuotesError):
    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)
