"""Text clean-up shared by every normalizer: LaTeX to Unicode, folding for comparison, whitespace."""

from __future__ import annotations

import re
import unicodedata

# Combining marks for LaTeX accent commands: \'e, \"{u}, \c{c}, \v{s}, …
_ACCENTS = {
    "'": "\u0301",
    "`": "\u0300",
    "^": "\u0302",
    '"': "\u0308",
    "~": "\u0303",
    "=": "\u0304",
    ".": "\u0307",
    "u": "\u0306",
    "v": "\u030c",
    "H": "\u030b",
    "c": "\u0327",
    "k": "\u0328",
    "r": "\u030a",
    "d": "\u0323",
    "b": "\u0331",
}
# Commands that stand for a letter or symbol on their own.
_SYMBOLS = {
    "ss": "ß",
    "o": "ø",
    "O": "Ø",
    "l": "ł",
    "L": "Ł",
    "ae": "æ",
    "AE": "Æ",
    "oe": "œ",
    "OE": "Œ",
    "aa": "å",
    "AA": "Å",
    "i": "ı",
    "j": "ȷ",
    "dh": "ð",
    "DH": "Ð",
    "th": "þ",
    "TH": "Þ",
    "ng": "ŋ",
    "NG": "Ŋ",
    "&": "&",
    "%": "%",
    "$": "$",
    "#": "#",
    "_": "_",
    "{": "{",
    "}": "}",
    "textendash": "–",
    "textemdash": "—",
    "textquoteright": "’",
    "textquoteleft": "‘",
    "ldots": "…",
    "dots": "…",
    "textregistered": "®",
    "texttrademark": "™",
    "copyright": "©",
    "textasciitilde": "~",
    "LaTeX": "LaTeX",
    "TeX": "TeX",
}
# Formatting commands whose argument is kept: \emph{x} -> x.
_KEEP_ARGUMENT = re.compile(
    r"\\(?:emph|textit|textbf|textsc|texttt|textrm|textsf|textup|textnormal|mathrm|mathbf|mathit|mathcal|"
    r"mathsf|mathtt|mbox|hbox|text|url|uppercase|lowercase|MakeUppercase|MakeLowercase|NoCaseChange|"
    r"textsubscript|textsuperscript|bm|boldsymbol|ensuremath)\s*\{([^{}]*)\}"
)
_ACCENT_CMD = re.compile(r"\\([`'^\"~=.])\s*(?:\{\\?([A-Za-z])\}|\\?([A-Za-z]))|\\([uvHckrdb])(?:\s*\{\\?([A-Za-z])\}|\s+\\?([A-Za-z]))")
_SYMBOL_CMD = re.compile(
    r"\\(" + "|".join(sorted((re.escape(k) for k in _SYMBOLS), key=len, reverse=True)) + r")(?![A-Za-z])"
    r"(?:(?<=[A-Za-z])\s)?"  # the space ending a word command belongs to it (\ss x -> ßx), not so after \%
)
_OTHER_CMD = re.compile(r"\\[A-Za-z]+\*?\s*")
_WHITESPACE = re.compile(r"\s+")
_LIGATURES = str.maketrans({"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "ft", "ﬆ": "st"})
# Letters NFKD does not decompose but that should fold to ASCII for comparison.
_FOLD_EXTRA = str.maketrans(
    {"ß": "ss", "ø": "o", "Ø": "o", "ł": "l", "Ł": "l", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe",
     "ı": "i", "ȷ": "j", "ð": "d", "Ð": "d", "þ": "th", "Þ": "th", "đ": "d", "Đ": "d", "ŋ": "ng"}
)


def _accent(match: re.Match[str]) -> str:
    if match.group(1):
        mark, letter = _ACCENTS[match.group(1)], match.group(2) or match.group(3)
    else:
        mark, letter = _ACCENTS[match.group(4)], match.group(5) or match.group(6)
    return unicodedata.normalize("NFC", letter + mark)


def latex_to_unicode(text: str) -> str:
    """Turn BibTeX/LaTeX markup into plain Unicode text: accents, symbols, formatting macros, braces."""
    if "\\" not in text and "{" not in text and "~" not in text and "--" not in text:
        return collapse_whitespace(text)
    out = text
    for _ in range(3):  # nested formatting such as \emph{\textbf{x}}
        replaced = _KEEP_ARGUMENT.sub(r"\1", out)
        if replaced == out:
            break
        out = replaced
    out = _ACCENT_CMD.sub(_accent, out)
    out = _SYMBOL_CMD.sub(lambda m: _SYMBOLS[m.group(1)], out)
    out = out.replace("\\\\", " ").replace("\\ ", " ")
    out = _OTHER_CMD.sub("", out)
    out = out.replace("{", "").replace("}", "")
    out = out.replace("---", "—").replace("--", "–").replace("~", " ").replace("``", "“").replace("''", "”")
    out = out.replace("$", "")
    return collapse_whitespace(out)


def collapse_whitespace(text: str) -> str:
    return _WHITESPACE.sub(" ", text).strip()


def strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.translate(_LIGATURES))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).translate(_FOLD_EXTRA)


def fold(text: str) -> str:
    """Comparison form: Unicode-compatible, ligatures split, accents stripped, case folded."""
    return strip_accents(text).casefold()
