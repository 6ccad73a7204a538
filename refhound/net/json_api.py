"""A JSON API's answers: the object a service answered, its error text, and a refused API key said as such.

Shared by the scholarly sources and the web search providers, which both speak JSON APIs through the
`ServiceHttp` client of `refhound.net.http`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, TypeVar

from refhound.errors import Unreachable
from refhound.net.http import Fetched, Missing, ServiceHttp, snippet

T = TypeVar("T")
_REFUSED = re.compile(r"\bHTTP 40[13]\b")


async def fetch_json(
    http: ServiceHttp,
    url: str,
    params: dict[str, str] | None,
    shape: Callable[[dict[str, Any]], T],
    *,
    headers: dict[str, str] | None = None,
    missing: Missing | None = None,
    key_setting: str | None = None,
) -> T | None:
    """`shape` of the JSON object a service answered; None for a 404 that `missing` recognises.

    `shape` picks out what the caller needs and raises `Unreachable` when the object lacks it. It runs
    before the answer is cached, so an answer that is JSON but not the API's shape is never kept in the
    HTTP cache: a service's passing hiccup must not outlive the run. `key_setting` names the setting of
    the API key the request carries, if any: a refusal (HTTP 401, 403) says to check it.
    """
    try:
        return await http.read(
            url,
            params,
            lambda fetched: shape(json_object(http.name, fetched)),
            headers=headers,
            missing=missing,
        )
    except Unreachable as error:
        if key_setting is None:
            raise
        raise key_refused(error, key_setting) from None


def json_object(service: str, fetched: Fetched) -> dict[str, Any]:
    """The JSON object of an answer; Unreachable, saying what came instead, when it is none."""
    try:
        data = json.loads(fetched.body)
    except ValueError as error:  # JSONDecodeError, UnicodeDecodeError
        kind = fetched.content_type or "no content type"
        raise Unreachable(
            service,
            f"the answer is not JSON (HTTP {fetched.status}, {kind}): {snippet(fetched.body)} [{error}]",
        ) from None
    if not isinstance(data, dict):
        raise Unreachable(service, f"the answer is JSON but not an object: {snippet(fetched.body)}")
    return data


def json_error(fetched: Fetched) -> str | None:
    """The `"error"` text of a JSON error object (OpenAlex's and Semantic Scholar's 404s); None for any
    other body. For telling a service's own "no such record" from a 404 that is someone else's page."""
    try:
        data = json.loads(fetched.body)
    except ValueError:
        return None
    error = data.get("error") if isinstance(data, dict) else None
    return error if isinstance(error, str) else None


def key_refused(error: Unreachable, setting: str) -> Unreachable:
    """`error`, naming the setting that holds the API key when the service refused it (HTTP 401, 403)."""
    if _REFUSED.search(error.problem):
        return Unreachable(error.source, f"the API key was refused ({setting}): {error.problem}")
    return error
