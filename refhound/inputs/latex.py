"""A LaTeX project's citations: which keys its `.tex` files cite, where, and which bibliography they name.

    scan_project(main) -> TexScan      the main file and every file it \\input's / \\include's

The cite commands of natbib (`\\citep`, `\\citet`, `\\citeauthor`, …) and biblatex (`\\parencite`,
`\\textcite`, `\\autocite`, multicites such as `\\parencites[a]{x}{y}`), with their optional arguments and
several keys, and `\\nocite{*}`. The commands of those packages that configure citing rather than cite
(`\\setcitestyle`, `\\defcitealias`, `\\DeclareCiteCommand`, `\\AtEveryCitekey`, `\\ifciteseen`,
`\\multicitedelim`, …) give no keys, and neither does a macro definition's body: a key there is cited where
the macro is used (`\\newcommand{\\ours}{\\cite{a}}`), and a parameter (`\\citep{#1}`) is no key. Comments
are blanked before scanning (line numbers are kept), so a commented-out `\\cite` is no citation. Sub-files
are read only inside the project's folder: a source tarball fetched from the internet must not make
refhound read `/etc/passwd` through `\\input`.
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
# \footcitetext, \supercite, ACL's \newcite …), starred or not.
_CITE = re.compile(r"\\([A-Za-z]*[Cc]ite[A-Za-z]*)(\*?)")
# Those of natbib's and biblatex's manuals that configure citing and cite nothing: settings and aliases
# (\setcitestyle, \defcitealias, \shortcites), hooks (\AtEveryCitekey), definitions (\DeclareCiteCommand),
# tests (\ifciteseen), delimiters, fonts, counters and switches (\multicitedelim, \citenumfont,
# \thecitecount, \citeindextrue), free text (\citetext), the .aux's \bibcite and biblatex's \mancite.
_CONFIGURES = re.compile(
    r"(?:if|at|declare|def|set|the|blx)[a-z]*cite[a-z]*"
    r"|[a-z]*cite[a-z]*(?:delim|style|setup|reset|font|type|cmd|punct|position|order|count|total|counter"
    r"|true|false|starts|ends)"
    r"|citetext|shortcites|bibcite|mancite",
    re.IGNORECASE,
)
# A parameter (#1), a command or a space cannot stand in a key: such a "key" is TeX code.
_NOT_A_KEY = re.compile(r"[#\\\s]")
_NAME = r"(?:\{\s*\\([A-Za-z@]+)\s*\}|\\([A-Za-z@]+))"  # {\name} or \name
# Macro definitions, up to their parameters: \newcommand{\name}[2][default]{body}, \NewDocumentCommand{\name}
# {spec}{body}, \def\name#1#2{body}.
_NEWCOMMAND = re.compile(
    r"\\(?:(?:new|renew|provide)(?:command|robustcmd)|DeclareRobustCommand)\*?\s*" + _NAME
)
_DOCUMENTCOMMAND = re.compile(r"\\(?:New|Renew|Provide|Declare)(?:Expandable)?DocumentCommand\s*" + _NAME)
_DEF = re.compile(r"\\[gex]?def\s*\\([A-Za-z@]+)([^{}]{0,80})")
_PARAMETER = re.compile(r"#([1-9])")
_BRACED = re.compile(r"\{[^{}]*\}")
_INPUT = re.compile(r"\\(input|include|subfile|includeonly)\s*\{([^{}]*)\}")
# TeX's own `\input file` (LaTeX's \include takes one argument and needs braces).
_BARE_INPUT = re.compile(r"\\(input)(?![A-Za-z@])[ \t]*(?:\n[ \t]*)?([^\s{}\\%]+)")
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
    macros: dict[str, Macro] = field(default_factory=dict)  # the user's macros that cite, by name


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


def _commands_keys(text: str) -> list[tuple[str, int, str]]:
    """Every key a cite command in `text` names, with the command's offset and name, definitions' bodies
    included."""
    found: list[tuple[str, int, str]] = []
    for match in _CITE.finditer(text):
        name = match.group(1)
        if _CONFIGURES.fullmatch(name):
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
            found += [(key.strip(), match.start(), name) for key in keys[0].split(",") if key.strip()]
            pos = keys[1]
            if not multi:
                break
    return found


@dataclass
class Macro:
    """A user's macro whose body cites: its parameters ('m' braced, 'o' optional in brackets) and the keys
    of its body, '#2' standing for its second argument's keys (`\\newcommand{\\mycite}[1]{\\citep{#1}}`)."""

    parameters: list[str]
    keys: list[str] = field(default_factory=list)


@dataclass
class _Definition:
    start: int  # of the defining command
    body: int  # where the body's braces open
    end: int
    name: str
    parameters: list[str]


def _definitions(text: str) -> list[_Definition]:
    found: list[_Definition] = []

    def add(start: int, pos: int, name: str, parameters: list[str]) -> None:
        if (body := _group(text, pos, "{", "}")) is not None:
            found.append(_Definition(start, body[1] - len(body[0]) - 2, body[1], name, parameters))

    for match in _NEWCOMMAND.finditer(text):
        pos, count, default = match.end(), 0, False
        if (number := _group(text, pos, "[", "]")) is not None:
            count, pos = int(number[0].strip()) if number[0].strip().isdigit() else 0, number[1]
            if (optional := _group(text, pos, "[", "]")) is not None:
                default, pos = True, optional[1]
        parameters = ["o"] * default + ["m"] * (count - default)
        add(match.start(), pos, match.group(1) or match.group(2), parameters)
    for match in _DOCUMENTCOMMAND.finditer(text):
        if (spec := _group(text, match.end(), "{", "}")) is not None:
            # Each argument type is a letter ('m' mandatory; o, O{…}, s, d… optional), defaults braced.
            letters = [c for c in _BRACED.sub("", spec[0]) if c.isalpha()]
            parameters = ["m" if c == "m" else "o" for c in letters]
            add(match.start(), spec[1], match.group(1) or match.group(2), parameters)
    for match in _DEF.finditer(text):
        add(match.start(), match.end(), match.group(1), ["m"] * len(_PARAMETER.findall(match.group(2))))
    return found


def _arguments(text: str, pos: int, parameters: list[str]) -> list[str | None]:
    """The arguments of a macro used at `pos` (just after its name); None for an optional one left out."""
    values: list[str | None] = []
    for kind in parameters:
        group = _group(text, pos, *(("[", "]") if kind == "o" else ("{", "}")))
        values.append(None if group is None else group[0])
        if group is None and kind == "m":
            break  # a single-token argument (`\\mycite x`) holds no key list
        pos = group[1] if group is not None else pos
    return values


def cite_keys(text: str, macros: dict[str, Macro] | None = None) -> list[tuple[str, int]]:
    """Every key `text` cites, with its offset (that of its command, or of the macro that cites it), in
    order; '*' for `\\nocite{*}`. `macros` (the user's macros that cite) takes in the text's own definitions,
    so that a macro defined in one file cites where another uses it."""
    macros = {} if macros is None else macros
    definitions = _definitions(text)
    outside: list[tuple[str, int, str]] = []
    defined: dict[str, Macro] = {}
    for key, offset, command in _commands_keys(text):
        inside = next((d for d in definitions if d.body <= offset < d.end), None)
        if inside is None:
            outside.append((key, offset, command))
        else:
            defined.setdefault(inside.name, Macro(inside.parameters)).keys.append(key)
    macros.update(defined)  # a redefinition replaces; reading a text twice adds nothing
    # A macro of the user's that cites (`\\mycite`, a redefined `\\cite`) is read as its definition says.
    found = [(key, offset) for key, offset, command in outside if command not in macros]
    spans = [(d.start, d.end) for d in definitions]
    for name, macro in macros.items():
        for use in re.finditer(rf"\\{re.escape(name)}(?![A-Za-z@])", text):
            if any(start <= use.start() < end for start, end in spans):
                continue
            arguments = _arguments(text, use.end(), macro.parameters)
            for key in macro.keys:
                parameter = _PARAMETER.fullmatch(key)
                if parameter is None:
                    found.append((key, use.start()))
                elif int(parameter.group(1)) <= len(arguments):
                    value = arguments[int(parameter.group(1)) - 1] or ""
                    found += [(k.strip(), use.start()) for k in value.split(",") if k.strip()]
    return sorted(
        ((key, offset) for key, offset in found if not _NOT_A_KEY.search(key)), key=lambda item: item[1]
    )


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
    if not scan.macros:
        return scan
    # A macro that cites may be defined in a file \input after the main file's text was read: read again,
    # knowing them all (as LaTeX knows a preamble's definitions before the text uses them).
    again = TexScan(root=root, main=main, macros=scan.macros)
    _scan_file(again, main, max_bytes, depth=0, seen=set())
    return again


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
    events = [(offset, "cite", key) for key, offset in cite_keys(text, scan.macros)]
    events += [(m.start(), "bib", m.group(1)) for m in _BIBLIOGRAPHY.finditer(text)]
    events += [(m.start(), "addbib", m.group(1)) for m in _ADDBIB.finditer(text)]
    inputs = [*_INPUT.finditer(text), *_BARE_INPUT.finditer(text)]
    events += [(m.start(), "input", m.group(2)) for m in inputs if m.group(1) != "includeonly"]
    events += [(m.start(), "input", m.group(1) + m.group(2)) for m in _IMPORT.finditer(text)]
    for offset, kind, value in sorted(events):
        if kind != "cite" and "#" in value:
            continue  # a macro's parameter (`\input{#1}` in a definition) names no file
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
