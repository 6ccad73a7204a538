"""refhound's exceptions.

RefhoundError                 anything refhound raises on purpose; `str()` is a one-line message
├── InputError                an input file cannot be used at all (missing, binary, empty, too large)
│   └── EntryError            one entry of an input is malformed; the others are still read
├── IndexError_               the embedded index cannot be used
│   ├── IndexMissing          no index file where one was expected
│   └── IndexCorrupt          the file is not a readable refhound index
│       └── IndexStale        an index of an older schema: rebuild it (the default one rebuilds itself)
├── IngestError               a dump cannot be ingested (unknown format, unreadable file)
├── SopInvalid                an SOP file cannot be used (unreadable, not YAML, unknown stage)
├── RunNotFound               `--resume` names a run the checkpoint file does not hold
├── ModelInvalid              the likelihood model file is missing, unreadable or of another format
├── RunMismatch               a run would be resumed with other settings or another index than it started with
├── MemoryUnavailable         the verified-citation memory cannot be used (not a memory directory, corrupt,
│                             unreadable, or its embedding model is not installed)
├── SourceError               an evidence source gave no usable answer
│   └── Unreachable           no answer at all (network, timeout, server error); a definite "no such
│                             work" is not an error: the sources answer it with None or []
└── LLMError                  the LLM server gave no usable answer; callers report "could not check"
    ├── LLMUnavailable        no answer (timeout, connection, HTTP 5xx/408/429, circuit breaker open)
    ├── LLMRejected           the server refused the request (HTTP 4xx); carries the server's message
    ├── LLMInvalidReply       still not valid JSON for the schema after every retry
    └── LLMRequestsBlocked    REFHOUND_ALLOW_MODEL_REQUESTS=0 and the server is not on this machine
"""

from __future__ import annotations

from pathlib import Path


class RefhoundError(Exception):
    """Base class; the message is meant for the user, on one line."""


class InputError(RefhoundError):
    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


class EntryError(InputError):
    def __init__(self, path: str | Path, location: str, problem: str) -> None:
        self.location = location
        super().__init__(path, problem)
        self.args = (f"{self.path} ({location}): {problem}",)


class IndexError_(RefhoundError):
    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        super().__init__(f"index {self.path}: {problem}")


class IndexMissing(IndexError_):
    pass


class IndexCorrupt(IndexError_):
    pass


class IndexStale(IndexCorrupt):
    pass


class IngestError(RefhoundError):
    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        super().__init__(f"{self.path}: {problem}")


class ConfigInvalid(RefhoundError):
    def __init__(self, source: str | Path, problem: str) -> None:
        self.source = str(source)
        super().__init__(f"settings from {self.source}: {problem}")


class SopInvalid(RefhoundError):
    def __init__(self, source: str, problem: str) -> None:
        self.source = source
        super().__init__(f"SOP {source}: {problem}")


class RunNotFound(RefhoundError):
    def __init__(self, run_id: str, where: str | Path) -> None:
        self.run_id = run_id
        super().__init__(
            f"no run {run_id!r} in {where}: `refhound runs` lists the runs it holds (a run is forgotten once "
            "its report is out, or when pruned)"
        )


class RunMismatch(RefhoundError):
    def __init__(self, run_id: str, problem: str) -> None:
        self.run_id = run_id
        super().__init__(f"run {run_id!r} {problem}")


class ModelInvalid(RefhoundError):
    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        super().__init__(f"likelihood model {self.path}: {problem}")


class MemoryUnavailable(RefhoundError):
    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"memory {self.path}: {problem}")


class SourceError(RefhoundError):
    def __init__(self, source: str, problem: str) -> None:
        self.source = source
        self.problem = problem
        super().__init__(f"{source}: {problem}")


class Unreachable(SourceError):
    pass


class LLMError(RefhoundError):
    def __init__(self, problem: str) -> None:
        self.problem = problem
        super().__init__(f"LLM: {problem}")


class LLMUnavailable(LLMError):
    pass


class LLMRejected(LLMError):
    def __init__(self, status_code: int, message: str) -> None:
        self.status_code = status_code
        self.server_message = message
        super().__init__(f"the server refused the request (HTTP {status_code}): {message}")


class LLMInvalidReply(LLMError):
    def __init__(self, name: str, attempts: int, problem: str) -> None:
        self.name = name
        self.attempts = attempts
        super().__init__(f"no valid {name!r} reply in {attempts} attempt(s); last problem: {problem}")


class LLMRequestsBlocked(LLMError):
    pass
