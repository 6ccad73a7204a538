"""A LaTeX project's citations: which keys its `.tex` files cite, where, and which bibliography they name.

    scan_project(main) -> TexScan      the main file and every file it \\input's / \\include's

The cite commands of natbib (`\\citep`, `\\citet`, `\\citeauthor`, …) and biblatex (`\\parencite`,
`\\textcite`, `\\autocite`, multicites such as `\\parencites[a]{x}{y}`), with their optional arguments and
several keys, and `\\nocite{*}`. Comments are blanked before scanning (line numbers are kept), so a
commented-out `\\cite` is no citation. Sub-files are read only inside the project's folder: a source
tarball fetched from the internet must not make refhound read `/etc/passwd` through `\\input`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from refhound.errors import InputError
from refhound.inputs.files import load_text
from refhound.models import InputProblem

MAX_FILES = 500  # \input'ed files followed in one project; more is no manuscript
_MAX_DEPTH = 20
# A "%" that is not escaped starts a comment to the end of the line.
_COMMENT = re.compile(r"(?<!\\)((?:\\\\)*)%[^\n]*")
_COMMENT_ENV = re.compile(r"\\begin\s*\{comment\}.*?\\end\s*\{comment\}", re.DOTALL)
_NOT_NEWLINE = re.compile(r"[^\n]")
# Any command whose name holds "cite" (natbib, biblatex and the package variants: \citealp, \Textcite,
# \footcitetext, \supercite …), starred or not. Those below take text, not keys.
_CITE = re.compile(r"\\([A-Za-z]*[Cc]ite[A-Za-z]*)(\*?)")
_NOT_KEYS = {"citetext", "citestyle", "citesetup", "citereset", "citeindexfalse", "citeindextrue"}
_INPUT = re.compile(r"\\(input|include|subfile|includeonly)\s*\{([^{}]*)\}")
_IMPORT = re.compile(r"\\(?:sub)?(?:import|inputfrom|includefrom)\*?\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_BIBLIOGRAPHY = re.compile(r"\\bibliography\s*\{([^{}]*)\}")
_ADDBIB = re.compile(r"\\(?:addbibresource|addglobalbib|addsectionbib)\s*(?:\[[^\]]*\])?\s*\{([^{}]*)\}")
_DOCUMENT = re.compile(r"\\begin\s*\{document\}")
_DOCUMENTCLASS = re.compile(r"\\documentclass\b")
_MAIN_NAMES = ("main", "paper", "ms", "manuscript", "article")


@dataclass
class TexScan:
    """What a project's `.tex` files say about its citations."""

    root: Path
    main: Path
    files: list[Path] = field(default_factory=list)
    bibliographies: list[str] = field(default_factory=list)  # as named, relative to the root
    cites: dict[str, list[str]] = field(default_factory=dict)  # key -> ['file:line', …] in order
    cite_all: bool = False  # \nocite{*}
    problems: list[InputProblem] = field(default_factory=list)


def blank_comments(text: str) -> str:
    """`text` with its comments made spaces, newlines kept (so offsets and line numbers stay put)."""
    text = _COMMENT_ENV.sub(lambda m: _NOT_NEWLINE.sub(" ", m.group(0)), text)
    return _COMMENT.sub(lambda m: m.group(1) + " " * (len(m.group(0)) - len(m.group(1))), text)


def _group(text: str, start: int, opener: str, closer: str) -> tuple[str, int] | None:
    """The content of the group opening at `text[start]` (after spaces) and the index after it."""
    i = start
    while i < len(text) and text[i] in " \t\n":
        i += 1
    if i >= len(text) or text[i] != opener:
        return None
    depth = 0
    for j in range(i, len(text)):
        char = text[j]
        if char == opener:
            depth += 1
        elif char == closer:
            depth -= 1
            if depth == 0:
                return text[i + 1 : j], j + 1
    return None


_PARENS = (("(", ")"), ("(", ")"))  # a multicite's global pre- and postnote
_BRACKETS = (("[", "]"), ("[", "]"))  # a citation's pre- and postnote


def cite_keys(text: str) -> list[tuple[str, int]]:
    """Every key `text` cites, with its offset (that of its command), in order; '*' for `\\nocite{*}`."""
    found: list[tuple[str, int]] = []
    for match in _CITE.finditer(text):
        name = match.group(1)
        if name.lower() in _NOT_KEYS:
            continue
        multi = name.endswith("cites")  # biblatex multicite: (pre)(post)[pre][post]{keys}[pre][post]{keys}…
        pos = match.end()
        optionals = (_PARENS + _BRACKETS) if multi else _BRACKETS
        while True:
            for opener, closer in optionals:
                if (optional := _group(text, pos, opener, closer)) is not None:
                    pos = optional[1]
            optionals = _BRACKETS
            keys = _group(text, pos, "{", "}")
            if keys is None:
                break
            found += [(key.strip(), match.start()) for key in keys[0].split(",") if key.strip()]
            pos = keys[1]
            if not multi:
                break
    return found


def _line_at(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _inside(root: Path, path: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True


def _tex_file(root: Path, base: Path, name: str) -> Path | None:
    """The file `\\input{name}` means: relative to the root (LaTeX's working folder), else to `base`."""
    name = name.strip()
    for folder in (root, base):
        candidate = folder / name
        for path in (candidate, candidate.with_name(candidate.name + ".tex")):
            if path.is_file():
                return path
    return None


def find_main(folder: Path) -> Path:
    """The main `.tex` file of a project folder: one with `\\documentclass` and `\\begin{document}`;
    among several, the one naming a bibliography, then a conventional name, then the largest."""
    candidates: list[tuple[tuple[int, int, int], Path]] = []
    for path in sorted(folder.glob("*.tex")):
        try:
            text = blank_comments(path.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
        if _DOCUMENTCLASS.search(text) and _DOCUMENT.search(text):
            names_bib = bool(_BIBLIOGRAPHY.search(text) or _ADDBIB.search(text))
            rank = (int(names_bib), int(path.stem.lower() in _MAIN_NAMES), len(text))
            candidates.append((rank, path))
    if not candidates:
        wanted = "no main .tex file (with \\documentclass and \\begin{document}) in the folder"
        raise InputError(folder, wanted)
    return max(candidates, key=lambda item: item[0])[1]


def scan_project(main: Path, max_bytes: int) -> TexScan:
    """The citations of the project whose main file is `main`, following its sub-files."""
    root = main.parent
    scan = TexScan(root=root, main=main)
    _scan_file(scan, main, max_bytes, depth=0, seen=set())
    return scan


def _relative(scan: TexScan, path: Path) -> str:
    try:
        return path.resolve().relative_to(scan.root.resolve()).as_posix()
    except ValueError:
        return path.name


def _scan_file(scan: TexScan, path: Path, max_bytes: int, depth: int, seen: set[Path]) -> None:
    resolved = path.resolve()
    if resolved in seen:
        return
    seen.add(resolved)
    if len(scan.files) >= MAX_FILES or depth > _MAX_DEPTH:
        where = _relative(scan, path)
        scan.problems.append(InputProblem(input=where, message="too many nested \\input files; not read"))
        return
    text, problems = load_text(path, max_bytes)
    scan.problems.extend(problems)
    scan.files.append(path)
    name = _relative(scan, path)
    text = blank_comments(text)
    # Citations, bibliographies and sub-files in the order they stand, so a sub-file's citations come
    # where it is included.
    events: list[tuple[int, str, str]] = [(offset, "cite", key) for key, offset in cite_keys(text)]
    events += [(m.start(), "bib", m.group(1)) for m in _BIBLIOGRAPHY.finditer(text)]
    events += [(m.start(), "addbib", m.group(1)) for m in _ADDBIB.finditer(text)]
    events += [(m.start(), "input", m.group(2)) for m in _INPUT.finditer(text) if m.group(1) != "includeonly"]
    events += [(m.start(), "input", m.group(1) + m.group(2)) for m in _IMPORT.finditer(text)]
    for offset, kind, value in sorted(events):
        line = _line_at(text, offset)
        if kind == "cite":
            if value == "*":
                scan.cite_all = True
            else:
                scan.cites.setdefault(value, []).append(f"{name}:{line}")
        elif kind == "bib":
            scan.bibliographies += [part.strip() for part in value.split(",") if part.strip()]
        elif kind == "addbib":
            scan.bibliographies.append(value.strip())
        else:
            _follow(scan, path, value, f"{name}:{line}", max_bytes, depth, seen)


def _follow(
    scan: TexScan, path: Path, name: str, where: str, max_bytes: int, depth: int, seen: set[Path]
) -> None:
    sub = _tex_file(scan.root, path.parent, name)
    if sub is None:
        message = f"\\input file {name!r} not found in the project"
        scan.problems.append(InputProblem(input=str(scan.main), location=where, message=message))
    elif not _inside(scan.root, sub):
        message = f"\\input file {name!r} is outside the project folder; not read"
        scan.problems.append(InputProblem(input=str(scan.main), location=where, message=message))
    else:
        try:
            _scan_file(scan, sub, max_bytes, depth + 1, seen)
        except InputError as exc:
            scan.problems.append(InputProblem(input=str(scan.main), location=where, message=exc.problem))
