"""A LaTeX project in (a `.tex` file or its folder) → the cited entries of its bibliography out.

    is_latex_project(path) -> bool
    read_latex_project(path) -> InputRead

The bibliography is the `.bib` files `\\bibliography` / `\\addbibresource` name; when none is in the project,
the `.bbl` LaTeX made from it (`main.bbl` beside `main.tex`, else the only `.bbl` in the folder). Only cited
entries are returned (all of them after `\\nocite{*}`), each with where it is cited (`cited_at`). A cited
key with no entry is a `missing_key` problem; an entry no `\\cite` names is an `uncited_key` note.
"""

from __future__ import annotations

from pathlib import Path

from refhound.errors import InputError
from refhound.inputs.base import InputRead
from refhound.inputs.files import DEFAULT_MAX_BYTES
from refhound.inputs.latex import TexScan, find_main, scan_project
from refhound.models import InputProblem, ProblemKind, Reference

_TEX_SUFFIXES = {".tex", ".ltx", ".latex"}


def is_latex_project(path: Path) -> bool:
    """A folder, or a file with a LaTeX extension."""
    return path.is_dir() or path.suffix.lower() in _TEX_SUFFIXES


def _bibliography_files(scan: TexScan) -> tuple[list[Path], list[InputProblem]]:
    found: list[Path] = []
    problems: list[InputProblem] = []
    for name in scan.bibliographies:
        path = scan.root / name
        if path.suffix.lower() != ".bib" and not path.is_file():
            path = path.with_name(path.name + ".bib")
        if path.is_file() and path not in found:
            found.append(path)
        elif not path.is_file():
            message = f"bibliography {name!r} is not in the project"
            problems.append(InputProblem(input=str(scan.main), message=message))
    if found:
        return found, problems
    # No .bib in the project (an arXiv source tarball ships the .bbl only): the .bbl LaTeX used.
    beside = scan.main.with_suffix(".bbl")
    others = sorted(scan.root.glob("*.bbl"))
    bbl = beside if beside.is_file() else (others[0] if len(others) == 1 else None)
    if bbl is None:
        named = ", ".join(scan.bibliographies) or "none named"
        raise InputError(scan.main, f"no .bib ({named}) or .bbl bibliography found in the project")
    return [bbl], []


def read_latex_project(path: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> InputRead:
    """The cited entries of a LaTeX project, with their citation sites, and its key problems."""
    from refhound.inputs import read_input  # the package's dispatcher imports this module's neighbours

    if not path.exists():
        raise InputError(path, "no such file or folder")
    main = find_main(path) if path.is_dir() else path
    scan = scan_project(main, max_bytes)
    files, problems = _bibliography_files(scan)
    entries = InputRead(problems=[*scan.problems, *problems])
    for file in files:
        entries.extend(read_input(file, max_bytes))
    return _cited(scan, entries, files)


def _cited(scan: TexScan, entries: InputRead, files: list[Path]) -> InputRead:
    read = InputRead(problems=entries.problems)
    by_key: dict[str, Reference] = {}
    for reference in entries.references:
        by_key.setdefault(reference.id, reference)
    folded = {key.casefold(): key for key in by_key}
    used: set[str] = set()
    for key, sites in scan.cites.items():
        # BibTeX matches keys regardless of case (and warns); biber does not. Exact first.
        entry_key = key if key in by_key else folded.get(key.casefold())
        if entry_key is None:
            shown = ", ".join(sites[:5]) + (f" and {len(sites) - 5} more" if len(sites) > 5 else "")
            bibliography = ", ".join(f.name for f in files)
            read.problems.append(
                InputProblem(
                    input=str(scan.main),
                    location=sites[0],
                    message=f"\\cite key {key!r} (at {shown}) has no entry in {bibliography}",
                    kind=ProblemKind.MISSING_KEY,
                    key=key,
                    cited_at=sites,
                )
            )
            continue
        by_key[entry_key].cited_at.extend(sites)
        used.add(entry_key)
    for reference in entries.references:
        if by_key[reference.id] is not reference:
            continue  # a second entry with the same key: BibTeX uses the first
        if reference.id in used or scan.cite_all:
            read.references.append(reference)
        else:
            read.problems.append(
                InputProblem(
                    input=reference.input or str(scan.main),
                    location=reference.id,
                    message=f"entry {reference.id!r} is never cited; not checked",
                    kind=ProblemKind.UNCITED_KEY,
                    key=reference.id,
                )
            )
    return read
