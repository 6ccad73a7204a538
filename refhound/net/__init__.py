"""The network plumbing every online part shares: the scholarly sources, the web stage, the quote
checker's fetches and the index's dump downloads.

    http          the shared `httpx.AsyncClient`: per-host rate limit and concurrency cap, retries,
                  Retry-After, the circuit breaker (`breaker`) and the answers' cache (`cache`)
    json_api      a JSON API's answer: its object, its error text, a refused API key said as such
    fetch         `PageFetcher`: one web page as text (robots.txt, per-host limits, body cap, redirects)
    hops, robots, decode    redirects one hop at a time, robots.txt rules, charsets
    loop_thread   the event loop thread behind the synchronous faces the SOP's agents use
"""
