"""Text clean-up shared by every normalizer: LaTeX to Unicode, folding for comparison, whitespace."""

from __future__ import annotations

import html
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
    # Math that shows up in titles ("$\ell_1$", "$\alpha$-divergence").
    "ell": "ℓ",
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "Gamma": "Γ",
    "delta": "δ",
    "Delta": "Δ",
    "epsilon": "ε",
    "varepsilon": "ε",
    "zeta": "ζ",
    "eta": "η",
    "theta": "θ",
    "kappa": "κ",
    "lambda": "λ",
    "Lambda": "Λ",
    "mu": "μ",
    "nu": "ν",
    "xi": "ξ",
    "pi": "π",
    "Pi": "Π",
    "rho": "ρ",
    "sigma": "σ",
    "Sigma": "Σ",
    "tau": "τ",
    "phi": "φ",
    "varphi": "φ",
    "Phi": "Φ",
    "chi": "χ",
    "psi": "ψ",
    "Psi": "Ψ",
    "omega": "ω",
    "Omega": "Ω",
    "infty": "∞",
    "times": "×",
    "cdot": "·",
    "leq": "≤",
    "geq": "≥",
    "le": "≤",
    "ge": "≥",
    "neq": "≠",
    "approx": "≈",
    "pm": "±",
    "to": "→",
    "rightarrow": "→",
}
# Formatting commands whose argument is kept: \emph{x} -> x.
_KEEP_ARGUMENT = re.compile(
    r"\\(?:emph|textit|textbf|textsc|texttt|textrm|textsf|textup|textnormal|mathrm|mathbf|mathit|mathcal|"
    r"mathsf|mathtt|mbox|hbox|text|url|uppercase|lowercase|MakeUppercase|MakeLowercase|NoCaseChange|"
    r"textsubscript|textsuperscript|bm|boldsymbol|ensuremath)\s*\{([^{}]*)\}"
)
_ACCENT_CMD = re.compile(
    r"\\([`'^\"~=.])\s*(?:\{\\?([A-Za-z])\}|\\?([A-Za-z]))"
    r"|\\([uvHckrdb])(?:\s*\{\\?([A-Za-z])\}|\s+\\?([A-Za-z]))"
)
_SYMBOL_CMD = re.compile(
    r"\\(" + "|".join(sorted((re.escape(k) for k in _SYMBOLS), key=len, reverse=True)) + r")"
    # A word command ends before a non-letter and eats one space (\ss x -> ßx); \% or \& end at once.
    r"(?:(?<=[A-Za-z])(?![A-Za-z])\s?|(?<![A-Za-z]))"
)
_OTHER_CMD = re.compile(r"\\[A-Za-z]+\*?\s*")
# An accent left with nothing to mark ("Lu{\\'}s", "Lu\\'{}s", an export that lost the letter): no text.
_EMPTY_ACCENT = re.compile(r"\\[`'^\"~=.](?=\{\}|\})")
# Math operators LaTeX sets upright by name; the space after one separates it from its argument.
_OPERATOR = re.compile(
    r"\\(log|ln|lg|exp|sin|cos|tan|max|min|arg|argmax|argmin|lim|sup|inf|det|dim|ker|Pr|gcd|mod)(?![A-Za-z])"
)
_MATH = re.compile(r"(?<!\\)\$([^$]*)\$")
_SUB_SUPERSCRIPT = re.compile(r"(?<!\\)[_^]")
_DOLLAR = re.compile(r"(?<!\\)\$")
# A superscript mark left outside "$…$" ("{\mathcal{P}^2}"): no title prints a caret between a letter and
# what it raises.
_STRAY_SUPERSCRIPT = re.compile(r"(?<=[\w}])\^(?=[\w{])")
_ESCAPED_SPECIAL = re.compile(r"\{?\\([_&%#$])\}?")
# The letters of Chinese, Japanese and Korean script (Han, Hangul, kana), for a regex character class: such
# names are written without spaces ("王波", "김진섭") and have no romanisation the rules can see.
CJK_LETTERS = "\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\u3040-\u30ff"
# Typographic ligatures that PDF text extraction leaves in ("Grifﬁth"); "ﬅ" is a long s and a t.
LIGATURES = str.maketrans({"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"})
# Letters NFKD does not decompose but that should fold to ASCII for comparison.
_FOLD_EXTRA = str.maketrans(
    {"ß": "ss", "ø": "o", "Ø": "o", "ł": "l", "Ł": "l", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe",
     "ı": "i", "ȷ": "j", "ð": "d", "Ð": "d", "þ": "th", "Þ": "th", "đ": "d", "Đ": "d", "ŋ": "ng"}
)  # fmt: skip


def _accent(match: re.Match[str]) -> str:
    if match.group(1):
        mark, letter = _ACCENTS[match.group(1)], match.group(2) or match.group(3)
    else:
        mark, letter = _ACCENTS[match.group(4)], match.group(5) or match.group(6)
    return unicodedata.normalize("NFC", letter + mark)


# BibDesk's and arXiv exports' "K{\ifmmode\ddot{o}\else\"{o}\fi}the": the text-mode branch is the letter.
_IFMMODE = re.compile(r"\\ifmmode.*?\\else\s*(.*?)\\fi\b", re.DOTALL)


def latex_to_unicode(text: str) -> str:
    """Turn BibTeX/LaTeX markup into plain Unicode text: accents, symbols, formatting macros, braces.

    HTML entities are decoded too: dblp and benchmark exports leave some behind (``d&apos;Amore``).
    """
    if "&" in text and ";" in text:
        text = html.unescape(text)
    if "\\" not in text and "{" not in text and "~" not in text and "--" not in text and "$" not in text:
        return collapse_whitespace(text)
    out = _IFMMODE.sub(r"\1", text)
    for _ in range(3):  # nested formatting such as \emph{\textbf{x}}
        replaced = _KEEP_ARGUMENT.sub(r"\1", out)
        if replaced == out:
            break
        out = replaced
    out = _MATH.sub(_math_text, out)
    out = _DOLLAR.sub("", out)
    out = _STRAY_SUPERSCRIPT.sub("", out)
    out = _EMPTY_ACCENT.sub("", _letters(out))
    out = out.replace("\\\\", " ").replace("\\ ", " ")
    out = _OTHER_CMD.sub("", out)
    out = out.replace("{", "").replace("}", "")
    out = out.replace("---", "—").replace("--", "–").replace("~", " ").replace("``", "“").replace("''", "”")
    return collapse_whitespace(out)


def _math_text(math: re.Match[str]) -> str:
    r"""Inline math as text: sub- and superscript marks dropped, symbols read before the math ends, so that
    "$\lambda$Opt" is "λOpt" (read after, "\lambdaOpt" would be one unknown command) and "$\ell_1$" "ℓ1";
    operators by their names, as a title prints them ("$O(n \log n)$" is "O(n log n)")."""
    return _symbols(_OPERATOR.sub(r"\1", _SUB_SUPERSCRIPT.sub("", math.group(1))))


def _symbols(text: str) -> str:
    return _SYMBOL_CMD.sub(lambda m: _SYMBOLS[m.group(1)], text)


def _letters(text: str) -> str:
    """LaTeX's accented and special letters decoded: "Sch\\"olkopf", "{\\L}ukasz"."""
    return _symbols(_ACCENT_CMD.sub(_accent, text))


# Accents a PDF's text layer gives apart from their letters ("Sch ̈olkopf", "Vojtˇechov ́a", "G ̈ulc ̧ehre"):
# a mark above is drawn before its letter, a mark below after it. A combining mark counts only after a
# space (after a letter it is that letter's); a spacing mark (¨, ˇ, ¸) is never part of a word.
_SPACING_MARKS = {
    "¨": "\u0308",
    "´": "\u0301",
    "ˆ": "\u0302",
    "˜": "\u0303",
    "¯": "\u0304",
    "˘": "\u0306",
    "˙": "\u0307",
    "˚": "\u030a",
    "˝": "\u030b",
    "ˇ": "\u030c",
    "¸": "\u0327",
    "˛": "\u0328",
}
_LETTER = r"[^\W\d_]"
_MARK_ABOVE = re.compile(rf"(?: ([\u0300-\u0314])| ?([¨´ˆ˜¯˘˙˚˝ˇ])) ?({_LETTER})")
# Marks below: dot, diaeresis, ring, comma (Romanian "ș", "ț"), cedilla, ogonek.
_MARK_BELOW = re.compile(rf"({_LETTER})(?: ([\u0323-\u0328])| ?([¸˛]))( ?)")
_MISPLACED_BELOW = re.compile(rf"({_LETTER})({_LETTER})([\u0323-\u0328])")
_ANY_MARK = re.compile(r" [\u0300-\u0314\u0323-\u0328]|[¨´ˆ˜¯˘˙˚˝ˇ¸˛]|[^\W\d_][\u0323-\u0328]|[ȩȨ]")
# The same late cedilla, composed by the text layer with the vowel it fell on ("Tuğcȩ" for Tuğçe): no
# name writes an e with a cedilla after a letter that takes one.
_LATE_E_CEDILLA = re.compile(rf"({_LETTER})([ȩȨ])")


def reattach_accents(text: str) -> str:
    """Accents the text layer of a PDF set apart from their letters, put back: "Sch ̈olkopf" -> "Schölkopf",
    "C ̧ aglar" -> "Çaglar". Text without such marks is returned as it is."""
    if not _ANY_MARK.search(text):
        return text

    def joined(letter: str, mark: str) -> str:
        return unicodedata.normalize("NFC", letter + _SPACING_MARKS.get(mark, mark))

    def below(match: re.Match[str]) -> str:
        # A space after the mark is the text layer's inside a word ("C ̧ aglar"), a word's end before a
        # capital or anything but a letter in lower case ("Gunes ̧ Erkan", "Ionut ̦ Hulub").
        following = match.string[match.end() : match.end() + 1]
        space = "" if following.islower() else match.group(4)
        return joined(match.group(1), match.group(2) or match.group(3)) + space

    def misplaced(match: re.Match[str]) -> str:
        # A mark below that no letter before it takes ("Franco̧is", "Ayca̧": the text layer wrote the
        # cedilla one letter late) belongs to the letter before that where that one takes it, and is
        # dropped where neither does: a mark left alone breaks the word for every reader after.
        first, second, mark = match.groups()
        if len(unicodedata.normalize("NFC", second + mark)) == 1:
            return match.group(0)
        moved = unicodedata.normalize("NFC", first + mark)
        return (moved if len(moved) == 1 else first) + second

    def late_e_cedilla(match: re.Match[str]) -> str:
        moved = unicodedata.normalize("NFC", match.group(1) + "\u0327")
        return match.group(0) if len(moved) > 1 else moved + ("e" if match.group(2) == "ȩ" else "E")

    out = _MARK_ABOVE.sub(lambda m: joined(m.group(3), m.group(1) or m.group(2)), text)
    out = _LATE_E_CEDILLA.sub(late_e_cedilla, out)
    return _MISPLACED_BELOW.sub(misplaced, _MARK_BELOW.sub(below, out))


# A braced letter, unless it is a command's argument ("\mathcal{P}" keeps its braces for latex_to_unicode).
_BRACED_LETTER = re.compile(r"(\\[A-Za-z]+\s*)?\{([^\W\d_])\}")


def decode_latex_letters(text: str) -> str:
    r"""Only LaTeX's accented and special letters decoded ("{\L}ukasz", "{\"O}zlem", "Sch\"olkopf"), for
    plain text that keeps a few: braces, tildes and dashes elsewhere (a URL's "~") are left as they are."""
    if "\\" not in text:
        return text
    return _BRACED_LETTER.sub(lambda m: m.group(0) if m.group(1) else m.group(2), _letters(text))


def unescape_latex_specials(text: str) -> str:
    """Identifiers and URLs from BibTeX (dblp's among them) escape LaTeX specials: "3-540-44581-1\\_23"."""
    return _ESCAPED_SPECIAL.sub(r"\1", text) if "\\" in text else text


def collapse_whitespace(text: str) -> str:
    # str.split() splits at exactly the characters the regex \s matches, four times faster.
    return " ".join(text.split())


def strip_accents(text: str) -> str:
    if text.isascii():  # the common case: nothing to decompose (this runs for every indexed record)
        return text
    decomposed = unicodedata.normalize("NFKD", text.translate(LIGATURES))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).translate(_FOLD_EXTRA)


def fold(text: str) -> str:
    """Comparison form: Unicode-compatible, ligatures split, accents stripped, case folded."""
    return strip_accents(text).casefold()
