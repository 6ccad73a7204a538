"""Plans → the corrected `.bib` text: each change spliced into the file where the field stands, in the
entry's own style (delimiters, `=` spacing, field-name case, indentation); every other byte is kept."""

from __future__ import annotations

import re
import unicodedata

from refhound.fix.bibtext import EntrySpan, FieldSpan, Style, cased, entry_spans, style_of
from refhound.fix.plan import Change, EntryPlan

COMMENT_PREFIX = "% refhound: "
_SPECIAL = re.compile(r"(?<!\\)([&%$#_])")
_PARTICLES = {"van", "von", "de", "der", "den", "di", "da", "du", "dos", "das", "del", "della", "la", "le"}
_DOUBLE_BRACED = re.compile(r"^\{\{.*\}\}$", re.DOTALL)


def latex_value(value: str) -> str:
    """A record's value as BibTeX text: LaTeX's special characters escaped, braces kept balanced."""
    value = _SPECIAL.sub(r"\\\1", value)
    depth = 0
    for char in value:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            break
    if depth != 0:
        value = value.replace("{", r"\{").replace("}", r"\}")
    return value


# Combining marks and the LaTeX accent commands that write them; letters that have no decomposition.
_ACCENTS = {
    "\u0301": "'", "\u0300": "`", "\u0302": "^", "\u0308": '"', "\u0303": "~", "\u0304": "=",
    "\u0307": ".", "\u0327": "c", "\u030c": "v", "\u0306": "u", "\u030a": "r", "\u030b": "H",
    "\u0328": "k",
}  # fmt: skip
_LETTERS = {
    "ø": "{\\o}", "Ø": "{\\O}", "ß": "{\\ss}", "ł": "{\\l}", "Ł": "{\\L}", "æ": "{\\ae}",
    "Æ": "{\\AE}", "œ": "{\\oe}", "Œ": "{\\OE}", "å": "{\\aa}", "Å": "{\\AA}", "ı": "{\\i}",
}  # fmt: skip


def ascii_latex(value: str) -> str:
    """Non-ASCII letters as LaTeX accents ('é' -> "{\\'e}"), for a file written in ASCII; a character
    with no LaTeX form stays as it is."""
    out: list[str] = []
    for char in value:
        if char.isascii():
            out.append(char)
        elif char in _LETTERS:
            out.append(_LETTERS[char])
        else:
            decomposed = unicodedata.normalize("NFD", char)
            base, marks = decomposed[0], decomposed[1:]
            if len(marks) == 1 and base.isascii() and marks[0] in _ACCENTS:
                command = _ACCENTS[marks[0]]
                # A letter command takes its argument braced ({\c{C}}); a symbol one does not ({\'e}).
                braced = f"{{{base}}}" if command.isalpha() else base
                out.append(f"{{\\{command}{braced}}}")
            else:
                out.append(char)
    return "".join(out)


def comma_name(name: str) -> str:
    """'Ludwig van Beethoven' -> 'van Beethoven, Ludwig' (the form an author list with commas uses)."""
    words = name.split()
    if len(words) < 2:
        return name
    cut = len(words) - 1
    while cut > 1 and words[cut - 1].lower() in _PARTICLES:
        cut -= 1
    return f"{' '.join(words[cut:])}, {' '.join(words[:cut])}"


def _delimited(value: str, delimiter: str) -> str:
    if delimiter == "" and value.isdigit():
        return value
    if delimiter == '"':
        return '"' + value.replace('"', '{"}') + '"'
    return "{" + value + "}"


def _rendered(change: Change, span: FieldSpan | None, text: str, style: Style) -> str:
    value = change.new
    old_text = text[span.value_start : span.value_end] if span else ""
    if change.field == "author" and "," in old_text:
        value = " and ".join(comma_name(name) for name in change.new.split(" and "))
    value = latex_value(value)
    if text.isascii():  # a file kept in ASCII writes its accents in LaTeX: so do its corrections
        value = ascii_latex(value)
    if change.field == "title" and _DOUBLE_BRACED.match(old_text):
        value = "{" + value + "}"  # the user protects the title's case: keep doing so
    delimiter = span.delimiter if span and span.delimiter else style.delimiter
    if span and span.delimiter == "" and value.isdigit():
        delimiter = ""
    if change.field == "year" and span is None and style.delimiter == "{":
        delimiter = "{"
    return _delimited(value, delimiter)


def _type_case(new: str, old: str) -> str:
    return new.upper() if old.isupper() else new.title() if old[:1].isupper() else new


def _edits(text: str, span: EntrySpan, plan: EntryPlan) -> list[tuple[int, int, str]]:
    style = style_of(text, span)
    edits: list[tuple[int, int, str]] = []
    if plan.new_type:
        end = span.type_start + len(span.entry_type)
        edits.append((span.type_start, end, _type_case(plan.new_type, span.entry_type)))
    added: list[str] = []
    for change in plan.changes:
        target = span.find(change.replaces or change.field)
        if target is None:
            added.append(f"{cased(change.field, style)}{style.equals}{_rendered(change, None, text, style)}")
            continue
        value = _rendered(change, target, text, style)
        if change.replaces:
            name = cased(change.field, style)
            edits.append((target.start, target.start + len(target.name), name))
        edits.append((target.value_start, target.value_end, value))
    for name in plan.drop:
        if (target := span.find(name)) is not None:
            edits.append(_removal(span, target))
    if added and span.fields:
        last = span.fields[-1]
        one_line = "\n" not in text[span.start : span.end]
        separator = " " if one_line else "\n" + style.indent
        comma = re.compile(r"\s*,").match(text, last.value_end)
        if comma:
            edits.append((comma.end(), comma.end(), "".join(f"{separator}{field}," for field in added)))
        else:
            edits.append((last.value_end, last.value_end, "".join(f",{separator}{field}" for field in added)))
    return edits


def _removal(span: EntrySpan, target: FieldSpan) -> tuple[int, int, str]:
    index = span.fields.index(target)
    if index + 1 < len(span.fields):
        return target.start, span.fields[index + 1].start, ""
    if index > 0:
        return span.fields[index - 1].value_end, target.value_end, ""
    return target.start, target.value_end, ""


def _comment_edit(text: str, span: EntrySpan, comment: str) -> tuple[int, int, str]:
    line_start = text.rfind("\n", 0, span.start) + 1
    # One line, and no "@" that a BibTeX reader could take for an entry.
    line = COMMENT_PREFIX + " ".join(comment.replace("@", " at ").split()) + "\n"
    previous_start = text.rfind("\n", 0, max(line_start - 1, 0)) + 1 if line_start else 0
    if line_start and text[previous_start:line_start].startswith(COMMENT_PREFIX):
        return previous_start, line_start, line  # a second run replaces its own comment
    return line_start, line_start, line


def apply_plans(text: str, plans: list[EntryPlan]) -> str:
    """`text` with every plan's changes and comments made; entries without a plan are untouched."""
    spans = entry_spans(text)
    edits: list[tuple[int, int, str]] = []
    for plan in plans:
        span = spans.get(plan.key)
        if span is None:
            continue
        if plan.comment:
            edits.append(_comment_edit(text, span, plan.comment))
        edits += _edits(text, span, plan)
    for start, end, replacement in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        text = text[:start] + replacement + text[end:]
    return text
