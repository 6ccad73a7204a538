"""What every online source shares: one `httpx.AsyncClient`, and polite, bounded GET requests.

Per host, requests are spaced to at most `rate_per_s` a second and at most `concurrency` are open at once.
Only failures that say nothing about the work are retried, with exponential backoff: transport errors
(connection, timeout), HTTP 408, 429 and 5xx; a Retry-After header is honoured up to `max_wait_s`.
Anything else that is not a usable answer (another 4xx, an HTML page, malformed JSON, an oversized body)
raises `Unreachable` at once. A 404 is an answer only where the caller asks for one record and recognises
the body as the service's own "no such record": then it is `None`; any other 404 is `Unreachable`.
Redirects are followed hop by hop, each hop through its own host's gate, so a redirect is never a way
around a host's rate limit.

With an `HttpCache`, answers (2xx, and the recognised 404s) are stored and a fresh one is
served without a request. An offline pool answers from the cache alone, whatever the entries' age, and
raises `Unreachable` for anything it does not hold: its client's transport refuses every request, so no
code path can reach the network.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import email.utils
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import httpx
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception_type,
    retry_if_not_exception_type,
    stop_after_attempt,
)

from refhound.errors import Unreachable
from refhound.net.breaker import CircuitBreaker
from refhound.net.cache import HttpCache, cache_key
from refhound.net.guard import AddressPolicy, AddressRefused, GuardedTransport
from refhound.settings import Settings, SourceSettings, SourcesSettings

T = TypeVar("T")
_RETRY_STATUS = frozenset({408, 429, 500, 502, 503, 504})
_SNIPPET = 120
#: Redirects followed in one attempt (doi.org → agency → its API is two or three).
MAX_REDIRECTS = 10


@dataclass(frozen=True)
class Policy:
    """How one service is asked: its limits, patience and retries (from its `SourceSettings`)."""

    rate_per_s: float
    concurrency: int
    timeout_s: float
    retries: int
    backoff_s: float
    max_wait_s: float
    max_bytes: int

    @classmethod
    def of(cls, settings: SourceSettings) -> Policy:
        return cls(
            rate_per_s=settings.rate_per_s,
            concurrency=settings.concurrency,
            timeout_s=settings.timeout_s,
            retries=settings.retries,
            backoff_s=settings.backoff_s,
            max_wait_s=settings.max_wait_s,
            max_bytes=settings.max_response_bytes,
        )


def user_agent(settings: SourcesSettings) -> str:
    """The User-Agent; with a contact address, as Crossref and OpenAlex ask polite clients to send."""
    return f"{settings.user_agent} (mailto:{settings.mailto})" if settings.mailto else settings.user_agent


def make_client(settings: Settings, transport: httpx.AsyncBaseTransport | None = None) -> httpx.AsyncClient:
    """The one client every source shares. Its connections go through the address guard (`guard`: no
    loopback, private … address unless `net.allow` or a configured endpoint); tests may pass `transport`
    (e.g. `httpx.MockTransport`) instead."""
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=16)
    return httpx.AsyncClient(
        transport=transport or GuardedTransport(AddressPolicy.of(settings), limits),
        headers={"User-Agent": user_agent(settings.sources)},
        follow_redirects=True,
        timeout=httpx.Timeout(30.0),
    )


class OfflineTransport(httpx.AsyncBaseTransport):
    """The transport of an offline run: every request fails as a connection error, before any I/O."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError(
            f"offline: refhound sends no request ({request.method} {request.url.host})", request=request
        )


def host_of(url: httpx.URL) -> str:
    """What a rate limit is kept per: the host and its port ("api.crossref.org:" for the default port)."""
    return f"{url.host}:{url.port or ''}"


class RateLimiter:
    """Spaces calls of `wait()` at least 1/rate seconds apart (on the running event loop's clock)."""

    def __init__(self, rate_per_s: float) -> None:
        self._interval = 1.0 / rate_per_s
        self._next = 0.0

    async def wait(self) -> None:
        now = asyncio.get_running_loop().time()
        start = max(now, self._next)
        self._next = start + self._interval  # claimed before sleeping: callers queue up in order
        if start > now:
            await asyncio.sleep(start - now)


@dataclass
class _Gate:
    rate: RateLimiter
    slots: asyncio.Semaphore


@dataclass(frozen=True)
class Fetched:
    """An answer as it came: a 2xx, or a 404 for the caller's `Missing` to recognise."""

    status: int
    content_type: str
    body: bytes


#: Whether a 404's body is the service's own "no such record" (and not a proxy's page, a wrong path …).
Missing = Callable[[Fetched], bool]


class _Retryable(Exception):
    def __init__(self, problem: str, retry_after: float | None = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.retry_after = retry_after


class _Unresolvable(_Retryable):
    """The host name does not resolve: no network, or a wrong base URL. Waiting does not help, so it is
    not retried; it still counts as a failure for the circuit breaker (a run without a network stops
    asking after a few references instead of waiting out every retry)."""


def _unresolvable(error: BaseException) -> bool:
    """Whether a connection failed because its host name could not be resolved (a DNS error)."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, socket.gaierror):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def transport_problem(url: str, error: BaseException) -> str:
    """A transport failure in words that name the host and the cause, e.g. "cannot reach dblp.org: its name
    does not resolve (no network, or a wrong host name)"."""
    host = httpx.URL(url).host or url
    if _unresolvable(error):
        cause = "its name does not resolve (no network, or a wrong host name)"
    elif isinstance(error, httpx.TimeoutException | TimeoutError):
        cause = "no answer in time"
    elif isinstance(error, httpx.ConnectError) and "refused" in str(error).lower():
        cause = "the connection was refused"
    else:
        cause = f"{type(error).__name__}: {error or 'transport error'}"
    return f"cannot reach {host}: {cause}"


class HttpPool:
    """The shared client, one gate (rate limit, concurrency cap) per host, and the answers' cache.

    Use on one event loop. `offline`: answer from `cache` only (see the module's docstring).
    """

    def __init__(
        self, client: httpx.AsyncClient, cache: HttpCache | None = None, *, offline: bool = False
    ) -> None:
        self.client = client
        self.cache = cache
        self.offline = offline
        self._gates: dict[str, _Gate] = {}

    def service(self, name: str, policy: Policy) -> ServiceHttp:
        """GET requests to the service `name` (its messages' prefix) under `policy`, through this pool."""
        return ServiceHttp(self, name, policy)

    def gate(self, url: httpx.URL, policy: Policy) -> _Gate:
        """The host's gate; the first service to use a host sets its limits."""
        host = host_of(url)
        gate = self._gates.get(host)
        if gate is None:
            gate = self._gates[host] = _Gate(
                RateLimiter(policy.rate_per_s), asyncio.Semaphore(policy.concurrency)
            )
        return gate

    async def aclose(self) -> None:
        await self.client.aclose()
        if self.cache is not None:
            self.cache.close()


class ServiceHttp:
    """GET requests to one service, under its policy; every failure is `Unreachable(name, reason)`."""

    def __init__(self, pool: HttpPool, name: str, policy: Policy) -> None:
        self.pool = pool
        self.name = name
        self.policy = policy
        # A service that keeps failing is not asked again for a while: a run without a network must not
        # wait out timeouts and retries for every reference.
        self.breaker = CircuitBreaker()

    async def get(
        self,
        url: str,
        params: dict[str, str] | None = None,
        *,
        headers: dict[str, str] | None = None,
        missing: Missing | None = None,
    ) -> Fetched | None:
        """The 2xx answer as it came; None for a 404 that `missing` recognises. See `read`."""
        return await self.read(url, params, _as_fetched, headers=headers, missing=missing)

    async def read(
        self,
        url: str,
        params: dict[str, str] | None,
        parse: Callable[[Fetched], T],
        *,
        headers: dict[str, str] | None = None,
        missing: Missing | None = None,
    ) -> T | None:
        """`parse` of the 2xx answer (from the cache when it holds a fresh one); retries as the module says.

        `parse` turns the body into what the caller needs and raises `Unreachable` for a body that is no
        usable answer (an HTML page where the API sends JSON, JSON of another shape). It runs before the
        answer is cached, so such a body never is: a captive portal's page must not outlive the run.

        A 404 is None only when `missing` recognises its body as the service's own "no such record"
        (Crossref's "Resource not found.", doi.org's `{"responseCode": 100}` …). Any other 404 — a proxy's
        page, a mirror or base URL without this endpoint — says nothing about the work: `Unreachable`.
        """
        cache, key = self.pool.cache, ""
        if cache is not None:
            request = self._request(url, params, headers)  # with the client's headers merged in
            key = cache_key(request.method, request.url, request.headers)
            cached = cache.get(key)
            if cached is not None and (self.pool.offline or cache.is_fresh(cached)):
                stored = Fetched(cached.status, cached.content_type, cached.body)
                if stored.status == 404:
                    if missing is not None and missing(stored):  # a 404 is only ever the caller's "none"
                        return None
                else:
                    try:
                        return parse(stored)
                    except Unreachable:
                        if self.pool.offline:
                            raise
                        # Kept by a version of refhound that read it otherwise: ask again.
        if self.pool.offline:
            raise Unreachable(self.name, "offline: not in the HTTP cache")
        fetched = await self._fetch(url, params, headers, missing)
        value = None if fetched.status == 404 else parse(fetched)  # raises for an unusable body
        if cache is not None:
            cache.put(key, fetched.status, fetched.content_type, fetched.body)
        return value

    async def _fetch(
        self,
        url: str,
        params: dict[str, str] | None,
        headers: dict[str, str] | None,
        missing: Missing | None,
    ) -> Fetched:
        if refusal := self.breaker.refusal():
            raise Unreachable(self.name, refusal)
        attempts = self.policy.retries + 1
        retrying = AsyncRetrying(
            stop=stop_after_attempt(attempts),
            wait=self._wait,
            retry=retry_if_exception_type(_Retryable) & retry_if_not_exception_type(_Unresolvable),
            reraise=True,
        )
        try:
            fetched: Fetched = await retrying(self._attempt, url, params, headers, missing)
        except _Unresolvable as error:
            self.breaker.record_failure()
            raise Unreachable(self.name, error.problem) from None
        except _Retryable as error:
            self.breaker.record_failure()
            tries = f"after {attempts} attempts" if attempts > 1 else "no retries configured"
            raise Unreachable(self.name, f"{error.problem} ({tries})") from None
        self.breaker.record_answer()
        return fetched

    def _wait(self, state: RetryCallState) -> float:
        error = state.outcome.exception() if state.outcome else None
        if isinstance(error, _Retryable) and error.retry_after is not None:
            return min(error.retry_after, self.policy.max_wait_s)
        backoff: float = self.policy.backoff_s * 2.0 ** (state.attempt_number - 1)
        return min(backoff, self.policy.max_wait_s)

    def _request(
        self, url: str, params: dict[str, str] | None, headers: dict[str, str] | None
    ) -> httpx.Request:
        try:
            return self.pool.client.build_request(
                "GET", url, params=params, headers=headers, timeout=self.policy.timeout_s
            )
        except (httpx.InvalidURL, ValueError) as error:
            raise Unreachable(self.name, f"bad URL {url!r}: {error}") from None

    async def _attempt(
        self,
        url: str,
        params: dict[str, str] | None,
        headers: dict[str, str] | None,
        missing: Missing | None,
    ) -> Fetched:
        """One attempt. Redirects are followed here, not by httpx, so each hop waits at its host's gate:
        doi.org sends every DOI on to its agency (api.crossref.org…), which must see our rate, too."""
        request = self._request(url, params, headers)
        for _ in range(MAX_REDIRECTS + 1):
            response = await self._hop(request)
            if isinstance(response, Fetched):
                return self._answer_of(response, missing)
            request = response
        raise Unreachable(self.name, f"more than {MAX_REDIRECTS} redirects (a redirect loop?)")

    async def _hop(self, request: httpx.Request) -> Fetched | httpx.Request:
        """The answer to `request` (any status), or the request its redirect asks for next."""
        policy = self.policy
        gate = self.pool.gate(request.url, policy)
        async with gate.slots:
            await gate.rate.wait()
            try:
                async with asyncio.timeout(policy.timeout_s):
                    response = await self.pool.client.send(request, stream=True, follow_redirects=False)
                    try:
                        if response.next_request is not None:
                            return response.next_request
                        content_type = response.headers.get("Content-Type", "")
                        body = await self._read(response)
                        self._retry_if_transient(response, body)
                        return Fetched(response.status_code, content_type, body)
                    finally:
                        await response.aclose()
            except (TimeoutError, httpx.TimeoutException):
                raise _Retryable(f"no answer within {policy.timeout_s:g} s") from None
            except AddressRefused as error:  # asking again gives the same answer
                raise Unreachable(self.name, str(error)) from None
            except httpx.TransportError as error:
                problem = f"{type(error).__name__}: {error or 'transport error'}"
                if _unresolvable(error):
                    raise _Unresolvable(f"{problem} (the host name does not resolve; not retried)") from None
                raise _Retryable(problem) from None
            except httpx.HTTPError as error:  # decoding errors, unusable redirects: no retry helps
                raise Unreachable(self.name, f"{type(error).__name__}: {error}") from None

    async def _read(self, response: httpx.Response) -> bytes:
        limit = self.policy.max_bytes
        declared = response.headers.get("Content-Length", "")
        if declared.isdecimal() and int(declared) > limit:
            raise Unreachable(self.name, f"the answer is too large ({declared} bytes, at most {limit})")
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > limit:
                raise Unreachable(self.name, f"the answer is too large (over {limit} bytes)")
            chunks.append(chunk)
        return b"".join(chunks)

    def _retry_if_transient(self, response: httpx.Response, body: bytes) -> None:
        """Raise `_Retryable` for HTTP 408, 429 and 5xx, with the Retry-After they ask for."""
        if response.status_code in _RETRY_STATUS:
            raise _Retryable(
                _problem(response.status_code, body), retry_after(response.headers.get("Retry-After"))
            )

    def _answer_of(self, fetched: Fetched, missing: Missing | None) -> Fetched:
        """A 2xx answer, or a 404 that `missing` recognises as "no such record"; anything else raises."""
        status = fetched.status
        if 200 <= status < 300:
            return fetched
        if status == 404 and missing is not None:
            if missing(fetched):
                return fetched
            raise Unreachable(
                self.name, f'{_problem(status, fetched.body)} (not the service\'s own "no such record")'
            )
        raise Unreachable(self.name, _problem(status, fetched.body))


def retry_after(value: str | None, now: dt.datetime | None = None) -> float | None:
    """Seconds a Retry-After header asks for (delta-seconds or an HTTP date); None if absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return max(0.0, (when - (now or dt.datetime.now(dt.UTC))).total_seconds())


def _problem(status: int, body: bytes) -> str:
    return f"HTTP {status}" + (f": {snippet(body)}" if body.strip() else "")


def _as_fetched(fetched: Fetched) -> Fetched:
    return fetched


def snippet(body: bytes) -> str:
    """The start of a body, on one line and quoted, for a message saying what came instead of an answer."""
    text = " ".join(body.decode("utf-8", "replace").split())
    return repr(text if len(text) <= _SNIPPET else text[:_SNIPPET] + "…")
