"""Whether the online stages would ask anything with some settings: the scholarly sources
(`refhound.sources.runtime`) and the web search (`refhound.web.runtime`). Known from the settings alone,
before and without importing their HTTP stack, which an offline check never loads."""

from __future__ import annotations

from refhound.settings import Settings, WebSettings


def sources_unavailable(settings: Settings) -> str | None:
    """Why no online source would be asked with these settings; None when some would."""
    if settings.check.offline and not cache_only(settings):
        return "offline (check.offline is set)"
    if not enabled_tiers(settings) and not probe_services(settings):
        return "no online source enabled"
    return None


def probe_services(settings: Settings) -> list[str]:
    """The identifier authorities enabled: doi.org for DOIs, arXiv for arXiv ids."""
    return [name for name in ("doi", "arxiv") if getattr(settings.sources, name).enabled]


def cache_only(settings: Settings) -> bool:
    """Whether the sources answer from the HTTP cache alone: offline, with a cache file to answer from."""
    cache = settings.sources.cache
    return settings.check.offline and cache.enabled and cache.path.is_file()


def enabled_tiers(settings: Settings) -> list[list[str]]:
    tiers: list[list[str]] = []
    for tier in settings.sources.tiers:
        names = [str(n) for n in dict.fromkeys(tier) if getattr(settings.sources, n).enabled]
        if names:
            tiers.append(names)
    return tiers


def web_unavailable(settings: Settings) -> str | None:
    """Why the web stage cannot run with these settings (no provider, offline, a missing key); or None."""
    if settings.web.provider == "none":
        return "no web search provider is configured (web.provider = none)"
    if settings.check.offline:
        return "offline (check.offline is set)"
    return configuration_problem(settings.web)


def configuration_problem(settings: WebSettings) -> str | None:
    """What the chosen provider lacks (e.g. "web.brave_api_key is not set"); None when it can run."""
    needed = {
        "none": (),
        "searxng": ("searxng_url",),
        "brave": ("brave_api_key",),
        "google": ("google_api_key", "google_cx"),
        "serpapi": ("serpapi_key",),
    }[settings.provider]
    missing = [f"web.{name}" for name in needed if not getattr(settings, name)]
    if not missing:
        return None
    verb = "is" if len(missing) == 1 else "are"
    return f"{' and '.join(missing)} {verb} not set (needed by web.provider = {settings.provider})"
