"""The author block of a formatted reference string: where it ends, which names it holds, "et al.".

The block is read on a *shape string*: one character per token (W capitalised word, I initial, V run of
bare capitals, p name particle, punctuation as itself, …), matched against a small name grammar.
Backtracking in the regex engine then finds the longest name list that ends where a block can end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from refhound.normalize.text import CJK_LETTERS

# Character classes and the year pattern that the rest of the reference-string parser shares: Latin, Greek
# and Cyrillic letters (Russian references cite "Шаститко А. Е.").
_ALPHABETS = (*range(0x41, 0x250), *range(0x370, 0x530))
UPPER = re.escape("".join(c for c in map(chr, _ALPHABETS) if c.isupper()))
LOWER = re.escape("".join(c for c in map(chr, _ALPHABETS) if c.islower()))
YEAR = r"(?:18|19|20)\d\d"
# Glyphs a PDF's font maps to no character: U+FFFD, or a symbol font's private-use code (its bullets).
NO_CHARACTER = "\ufffd\ue000-\uf8ff"
_PLACEHOLDER = re.compile(r"^[_\-—–]{2,}\s*[.,]?\s*")  # "———." repeats the previous entry's authors
# Names in Chinese, Japanese or Korean script, family and given name written together
# ("周兵", "김진섭", "小林行雄"), between commas or "、", perhaps ending in "et al."
# ("等", "외", "ほか"), then a full stop, a comma, a colon, a year or nothing more:
# "王波, 陈诚, 李华, 等. 基于…[J]. 软件学报, 2023", "김진섭, 고덕우 (2019). …".
_CJK_NAME = f"[{CJK_LETTERS}]{{2,4}}"
_CJK_BLOCK = re.compile(
    rf"^({_CJK_NAME}(?:\s*[,，、]\s*{_CJK_NAME})*)(?:\s*[,，、]\s*(等|외|ほか))?"
    r"\s*(?:([.。,，:：])|(?=[(（]?(?:19|20)\d\d)|$)"
)

_ET_AL = re.compile(r"(?i:et\.?\s+al\b\.?|and\s+(?:\d+\s+)?others\b)")  # "ET AL."; ACL's "and 1 others"
_TOKEN = re.compile(rf"{_ET_AL.pattern}|\.\.\.|…|[,;:&()\[\]“”\"«»„‘/]|[^\s,;:&()\[\]“”\"«»„‘/]+")
# An initial: a capital, a digraph that abbreviates one sound ("Ch." Charles, "Yu." Yuri), a given name's
# customary abbreviation ("Md." and "Mohd." Mohammad, "Kr." Kumar, "Wm." William, "Fco." Francisco) or a
# title ("Dr.", "St."), never a short family name ("Lu.", "Xu.", "Ma." end a name before the title);
# "H.-y." abbreviates "Hung-yi".
_INITIAL = rf"(?:Ch|Th|Ph|Sh|Zh|Kh|Gh|Yu|Ya|Yo|Ts|Md|Mohd|Muhd|Kr|Wm|Fco|Dr|Mr|Ms|St|[{UPPER}])\."
# A run of initials may lose its last period where a bibliography was typed by hand ("T.M Therneau", "E.J
# Atkinson"): a capital alone after a dotted initial still ends the run.
_INITIALS = re.compile(rf"{_INITIAL}(?:-?{_INITIAL}|-[a-z]\.)*(?:-?[{UPPER}])?")
_CAPITALS_DOT = re.compile(rf"[{UPPER}]{{2,3}}\.")  # "WC." in "Abraham WC. Metaplasticity"
_BARE_INITIALS = re.compile(rf"[{UPPER}]{{1,3}}")
_CAPWORD = re.compile(
    # "Devlin", "deHart", "d'Alembert"
    rf"(?:[{UPPER}]|(?:de|da|di|du|van|von)(?=[{UPPER}][{LOWER}])|d['’](?=[{UPPER}]))"
    rf"(?:[{UPPER}{LOWER}]|['’\-](?=[{UPPER}{LOWER}]))+"
    rf"|[{UPPER}]\.-[{UPPER}][{LOWER}]+"  # "E.-Jürgen"
)
_PARTICLES = {
    "de", "da", "di", "du", "del", "della", "der", "den", "des", "van", "von", "la", "le", "ten", "ter",
    "dos", "das", "do", "bin", "al", "el", "las", "los",
}  # fmt: skip
_CAPITAL_PARTICLES = {
    "De", "Di", "Da", "Du", "Del", "Della", "Der", "Den", "Des", "Van", "Von", "Le", "La", "El", "Al", "Mc",
    "Mac", "St", "Ten", "Ter", "Dos", "Das", "Do", "Las", "Los",
}  # fmt: skip
_CONNECTORS = {"and", "And", "AND", "und", "et", "&"}
_SUFFIXES = {"Jr.", "Sr.", "Jr", "Sr", "II", "III", "IV"}
# Capitalised words that start titles, never names: they stop an author list running into a title.
_NOT_NAMES = {
    "The", "An", "On", "In", "Of", "For", "From", "Toward", "Towards", "With", "Is", "Are", "How", "Why",
    "What", "When", "Where", "Using", "Introduction", "Proceedings", "Journal", "Review", "Report",
    "Handbook", "Studies", "Study", "Analysis", "Theory", "Trans", "IEEE", "ACM",
}  # fmt: skip
# A whole word: "Edge-Labeling …" after the names is a title, not "Ed." and "ge-Labeling …".
_EDITORS_MARK = re.compile(
    r"^,?\s*\(?(?:eds?|editors?|Eds?|Editors?|EDS?|Hrsg|Hg|éds?|dir|ред|сост)(?!\w)\.?\)?[.,:]?\s*"
)
# "/" separates names in German styles: "Bick, Wolfgang/Mann, Reinhard/Müller, Paul J.".
_PUNCT_SHAPES = {
    ",": ",", ";": ";", "/": ";", ":": ":", ".": ".", "(": "(", "[": "(", ")": ")", "…": "z", "...": "z",
}  # fmt: skip
_YEAR_TOKEN = re.compile(rf"{YEAR}[a-z]?")
_OPENING_QUOTES = set('“"«„‘―')

# The name grammar over shapes: W capitalised word, I initial ("J.", "M.-W."), K capitals with a period
# ("WC."), V bare capitals ("JA"), p/P lower/capitalised particle ("de", "Van"), j suffix ("Jr."),
# e "et al.", z "…", & "and", q opening quote, y year, x anything else.
_FAMILY = r"[pP]*[WP]"
# Devlin, J. / d'Alembert, J. le R. A given name may end in a full word after initials ("Rowe, C. Eugene.")
# unless that word starts the next inverted name ("Keri, S. Kiss, I.").
# A family name that a capitalised particle begins may be a given name and a family name in natural order
# ("Di Jin", "Le Song", "Van Jacobson"): read inverted, it takes initials, one given name that no name
# follows unseparated, or more names before ";". "De Cao, Nicola, Wilker Aziz" and "Van Noorden, R." are
# inverted; "Di Jin, Eileen Pan" and "Miao Zhang, Di Jin, Philip S. Yu" are two names in natural order.
_INV = (
    r"(?:(?:p[pP]*)?[WP]j?,(?:W{1,4}[IVK]*|[IVK]+(?:p[IVK]+)?)(?:W(?=[.;:&y]|,(?![WIVK])|$))?p*(?:,?j)?"
    r"|P[pP]*[WP]j?,(?:W[IVK]*(?![WPIVK])|[IVK]+(?:p[IVK]+)?|W{2,4}[IVK]*(?=;))p*(?:,?j)?)"
)
# A family name of two or three words, or with a particle inside, before initials, or before full given
# names in a ";" list: "Campanella Bracken, C.", "Tjong Kim Sang, E. F.", "Schroeder de Witt, C.",
# "Arránz Becker, Oliver;". (Not before a full given name after a comma: "Aäron van den Oord, Sander
# Dieleman" are two names.)
_INV2 = r"(?:W{1,2}|Wp+)[WP]j?,(?:[IVK]+(?=[.,;:&(qy]|$)|W{1,3}(?=;))"
# A family name of two words after a lower-case particle, before initials, wherever the list ends: "da
# Silva Matos, E. E. Descrição …" (Nature's style prints the title right after the last initials).
_INV_PARTICLE = r"p+W[WP]j?,[IVK]+"
_INV_PAREN = rf"{_FAMILY}\((?:W{{1,3}}[IV]*|[IV]+)\)"  # FERRIERES (Madeleine)
# Chicago's and MLA's first name, inverted, the person going by a middle name, before names in natural
# order: "Midgley, T. Daniel, Shelly Harrison, and …", "Scott, A. Carlisle, William J. Clancey, and …".
# Only first: later, "Church, K. W. Complexity, Two-Level Morphology" is a name and a title.
_INV_FIRST = rf"{_FAMILY}j?,[IVK]+W(?=,W[IV]*p*W)"
# The same first name with a family name of two or three words, where nothing else can be meant: given
# names that end in initials with periods ("Tjong Kim Sang, Erik F., and Fien De Meulder": a name in
# natural order ends in its family name, and "Gerritzen HMJA, Goor-Lambo G" is Vancouver's), or a family
# name that begins with a particle ("del Carmen Cabeza-Pereiro, María, et al."). A separator, "et al." or
# the block's end follows, so that "Jacob Devlin, Ming W. Chang" stays two names. "Lopez de Lacalle, Oier,
# and Eneko Agirre" reads like "Andrey Kolobov, Mausam, and Daniel S. Weld" (two names, one a person known
# by one name): the judge cuts such a list where the record's names are (`read_as_the_record` in
# `agents/field_rules.py`).
_INV_LONG_FIRST = r"(?:(?:[pP]*W){2,3}j?,W{0,2}I+|p[pP]*W(?:[pP]*W){1,2}j?,W)(?=[,;]|&|e|[.:qy(]|$)"
# J. Devlin / J. Christian Gerdes / C Lawrence Zitnick / E. F. Tjong Kim Sang
_NAT_I = rf"[IV]+W{{0,2}}{_FAMILY}(?:,?j)?"
# Jacob Devlin / Jill G. de Villiers / Tin Hoi Mok / Erik F. Tjong Kim Sang: after initials, a family name
# may have three words.
_NAT = rf"(?:[WP](?:p?W){{0,2}}(?:[IV]+W{{0,2}})?{_FAMILY}(?:,?j)?|{_NAT_I})"
# Smith JA / Roe C. / Neal R. M. / Abraham WC. / Bocchini JA Jr / Tjong Kim Sang EF / Le QV / Garreau de
# Loubresse N. Initials that spell a suffix ("Serban IV", Iulian Vlad) are initials before another
# Vancouver name.
_VAN_FAMILY = r"[pP]*(?:W(?:p{0,2}W){0,2}|P)"
_VAN = rf"{_VAN_FAMILY}(?:[IVK]+j?|j(?=[,;]+{_VAN_FAMILY}[IVK]))"
_NAME = rf"(?:{_INV}|{_INV_PAREN}|{_INV2}|{_INV_PARTICLE}|{_NAT}|{_VAN})"
# Between names: punctuation, "and", or nothing after initials before an inverted name ("Keri, S. Kiss, I.").
_SEP = rf"(?:[,;]+&?|&|,?z|(?<=[IVK])(?={_FAMILY}j?,))"
# A list that starts "J. Devlin" keeps that form unless an "and" follows: "R. H. Bube, Photovoltaic
# Materials" has one author, "F. Jahanian and Al Mok" two, "J Ganesh, Manish Gupta, and Vijay K. Varma" three.
# A Vancouver list ("Smith JA, Doe B") is read as one first, so that "Демсетц Г. Производство" is a name and
# the title's first word, not "Jill G. de Villiers"; it must not run on into other name forms.
_VAN_LIST = rf"{_VAN}(?:{_SEP}(?:{_VAN}|(?<=[,;])W(?=[,;]+{_VAN})))+(?:,?&{_VAN})?(?![,;&IVK])"
# Nor does a list go from "Mehta L." to a natural-order name: "Mehta L., Displaced By Development: …" has
# one author and a title.
_VAN_THEN_NAT = rf"{_VAN},[WP]W?{_FAMILY}(?![,;&]*[WPpIVK])"
# A person known by one name ("Mausam"), inside a list: after a comma or "and", before a short name (a
# title's words are no name: "J. D. Anderson, Hypersonic and High Temperature Gas Dynamics"), or last
# after ", and" before the period that ends the list.
_SHORT_NAT = rf"(?:[WP][IV]+W?{_FAMILY}|[WP]{_FAMILY}|{_NAT_I})(?:,?j)?"
_LAST_MONO = r"(?<=,&)W(?=\.)"  # ", and Mausam." (a title may end "… and Finnish.")
_MONO = rf"(?:(?<=[,;&])W(?=(?:[,;]+&?|&)(?:{_INV}|{_VAN}|{_SHORT_NAT})(?![WIVKpPj]))|{_LAST_MONO})"
_MONO_I = rf"(?<=[,;&])W(?=(?:[,;]+&?|&){_NAT_I}(?![WIVKpPj]))"  # in a list of initials-first names
_LIST = (
    rf"(?:{_VAN_LIST}|{_NAT_I}(?:{_SEP}(?:{_NAT_I}|{_MONO_I}))*(?:(?:{_SEP}{_NAT})*,?&(?:{_NAME}|{_LAST_MONO}))?"
    rf"|(?![IV])(?!{_VAN_THEN_NAT})(?:{_INV_FIRST}|{_INV_LONG_FIRST}|{_NAME})(?:{_SEP}(?:{_NAME}|{_MONO}))*"
    rf"|{_VAN}|{_FAMILY}(?=[,;]*&?e))"  # a family name alone before "et al.": "Devlin et al."
    r"(?:[,;]*&?e)?"  # "…, and et al." is a slip for "et al."
)
_BLOCK = re.compile(rf"({_LIST}|W(?=\.|,?y|\(y))(?:([.,:;])|(?=[(qy])|$|(?<=[IeK]))")
_BLOCK_ENDS = frozenset("xqy:.")  # symbols that no name or separator contains
# Within a block the grammar took, a lone capitalised word between separators is a one-name person.
_IN_BLOCK = rf"(?:{_NAME}|W)"
_NEXT_NAME = re.compile(
    rf"(?:{_NAME}(?=(?:{_SEP}{_IN_BLOCK})*(?:[,;]*&?e)?$)|W(?=(?:{_SEP}{_IN_BLOCK})+(?:[,;]*&?e)?$|$)"
    rf"|{_FAMILY}(?=[,;]*&?e$))"
)
# In a Vancouver list a one-name person comes before a family name and initials ("Rathore V, Mausam,
# Chakrabarti S"), not a family name before given names ("Mausam, Chakrabarti S").
_WHOLE_VAN_LIST = re.compile(rf"{_VAN_LIST}(?:[,;]*&?e)?")
_NEXT_VAN_NAME = re.compile(rf"(?:{_VAN}|W)(?=(?:{_SEP}(?:{_VAN}|W))*(?:,?&{_VAN})?(?:[,;]*&?e)?$)")
_FIRST_INVERTED = re.compile(
    rf"{_INV_FIRST}(?=(?:{_SEP}{_IN_BLOCK})+(?:[,;]*&?e)?$)|{_INV_LONG_FIRST}(?=(?:{_SEP}{_IN_BLOCK})*(?:[,;]*&?e)?$)"
)
_NEXT_SEP = re.compile(rf"[,;]*&?e|{_SEP}")


@dataclass(frozen=True)
class _Token:
    shape: str
    start: int
    end: int


@lru_cache(maxsize=1 << 16)
def _shape(word: str) -> str:
    """The grammar symbol of one token."""
    if word in _PUNCT_SHAPES:
        return _PUNCT_SHAPES[word]
    if word in _OPENING_QUOTES:
        return "q"
    if _ET_AL.fullmatch(word):
        return "e"
    if word in _CONNECTORS:
        return "&"
    if word in _SUFFIXES:
        return "j"
    if word in _NOT_NAMES:
        return "x"
    if _YEAR_TOKEN.fullmatch(word):
        return "y"
    if word in _PARTICLES:
        return "p"
    if word in _CAPITAL_PARTICLES:
        return "P"
    if _INITIALS.fullmatch(word):
        return "I"
    if _CAPITALS_DOT.fullmatch(word):
        return "K"
    if _BARE_INITIALS.fullmatch(word):
        return "V"
    return "W" if _CAPWORD.fullmatch(word) else "x"


_NAME_ENDS = re.compile(r"\s*(?:[,.;&]|and\s)")
_INITIALS_FOLLOW = re.compile(rf",\s*[{UPPER}]\.")
_VANCOUVER_INITIALS_FOLLOW = re.compile(rf"\s+[{UPPER}]{{1,3}}\.?(?=\s*(?:[,;.&]|and\s|$))")


# Words that only a title has, as capitals spell them ("LEARNING FOR IMAGE", "ATTENTION IS ALL YOU NEED").
# Not "An", "Can", "You", "Do": family names too; not "A": an initial.
_FUNCTION_WORDS = frozenset({
    "the", "of", "for", "in", "on", "to", "by", "at", "as", "or", "is", "are", "all", "via", "into",
    "not", "its", "our", "we", "with", "from", "over", "under", "without", "through", "between", "using",
    "towards", "toward", "what", "how", "why", "when", "where", "which", "beyond", "about",
})  # fmt: skip
_SHOUTED_NEXT_WORD = re.compile(r"\s+[^\W\d_]")
# What may follow a name's last word: punctuation, "AND", "ET AL." ("M. QIU ET AL."), the end.
_SHOUTED_SEPARATOR = re.compile(rf"\s*(?:[,.;:&(]|(?i:and)\s|{_ET_AL.pattern}|$)")
# A short capitalised word is a family name, not initials, when initials follow it ("HE, K.", "LEE K,").
_SHOUTED_INITIALS_NEXT = re.compile(
    rf",\s*[{UPPER}](?:\.|[{UPPER}]{{0,2}}(?![\w.]))|\s+[{UPPER}]{{1,3}}\.?(?=\s*(?:[,;.&]|(?i:and)\s|$))"
)


# The next name in natural order, in capitals: a given name, then initials with periods and a family name,
# or a family name of four letters or more, then a punctuation mark ("KEVIN D. DONOHUE.", "MARY SMITH,");
# not a Vancouver name, whose initials have no periods or end the list before the title ("PINEAU J.
# BUILDING …", "MOITRA A. EXTENSIONS AND LIMITS …").
_SHOUTED_WORD = rf"[{UPPER}][{UPPER}'’-]"
_SHOUTED_NATURAL_NEXT = re.compile(
    rf"\s*,?\s*(?:(?i:and)\s+|&\s*)?{_SHOUTED_WORD}+\s+"
    rf"(?:(?:[{UPPER}]\.\s*)+{_SHOUTED_WORD}+|{_SHOUTED_WORD}{{3,}})(?=\s*[,.;])"
)
_SHOUTED_NAME_ENDS = re.compile(rf"\s*(?:[,;&]|(?i:and)\s|{_ET_AL.pattern})")
# Another word of a given name, then a separator: "WEE" in "SOON, WEE MENG, …".
_SHOUTED_GIVEN_AFTER = re.compile(rf"\s+[{UPPER}]{{2,}}(?=\s*[,;])")
# A comma and a given name in full after a word: that word is a family name.
_SHOUTED_GIVEN_NEXT = re.compile(r",\s*[^\W\d_]{2,}(?![.\w])")


def _after_initials(before: list[_Token]) -> bool:
    """Whether the last tokens are initials with periods, or initials and a capitalised particle."""
    shapes = "".join(token.shape for token in before[-2:])
    return shapes[-1:] in ("I", "K") or shapes in ("IP", "KP")


def _shouted_shape(word: str, shape: str, before: list[_Token], text: str, end: int) -> str:
    """The shape of a word in capitals (a reference, or its names, set in capitals): particles
    ("VAN DER MAATEN"), title words after the first ("LEARNING FOR IMAGE", not Vancouver initials "SMITH
    IN,"; "THE GUARDIAN" may be an author) and short family names ("HE, K.", "LEE K,", "K. LEE,", not the
    initials "JA" of "SMITH JA"). Not suffixes: "JR" is the initials of "Cryan JR" as often as "Junior"."""
    title = word.title()
    name_start = not before or before[-1].shape in ",;&("
    initials_position = bool(before) and before[-1].shape == "W" and _SHOUTED_SEPARATOR.match(text, end)
    # Right after an inverted family name ("SOON, …"), where its given names stand.
    given_position = len(before) >= 2 and before[-2].shape == "W" and before[-1].shape == ","
    # After initials, or initials and a particle, before the next name, a short word ends a name: "B. AN,",
    # "T. DE BIE,". (A particle first is a Vancouver family name: "LE NT", "DO QT".)
    after_initials = _after_initials(before)
    family_position = after_initials and _SHOUTED_NAME_ENDS.match(text, end)
    if title in _CAPITAL_PARTICLES and _SHOUTED_NEXT_WORD.match(text, end):
        return "P"
    if before and (title in _NOT_NAMES or word.lower() in _FUNCTION_WORDS):
        # A given name after an inverted family name, ending the name: "HONOVICH, OR, ET AL." (Or Honovich).
        if family_position or (given_position and _SHOUTED_NAME_ENDS.match(text, end)):
            return "W"
        if not initials_position:
            return "x"
    if shape == "V" and len(word) > 1 and _short_family_name(word, before, text, end, name_start):
        return "W"
    # After an inverted family name, a short word with a vowel before another word and a separator is a
    # given name ("SOON, WEE MENG, HWEE TOU NG"): bare initials are not followed by a word in a name.
    if (
        shape == "V"
        and given_position
        and re.search("[AEIOUY]", word)
        and _SHOUTED_GIVEN_AFTER.match(text, end)
    ):
        return "W"
    # After initials with periods and before a separator, a short word is the family name they belong to
    # ("K. HE,", "K. LEE, AND …", "T. DE BIE,"): no style puts bare initials after initials.
    if shape == "V" and after_initials and _SHOUTED_SEPARATOR.match(text, end):
        return "W"
    # After a given name, before a name in natural order, it is a family name too ("BIN LU AND BENJAMIN K.
    # TSOU"); before a Vancouver name it stays initials ("SMITH JA, DOE B").
    if shape == "V" and before and before[-1].shape == "W" and _SHOUTED_NATURAL_NEXT.match(text, end):
        return "W"
    return shape


def _short_family_name(word: str, before: list[_Token], text: str, end: int, name_start: bool) -> bool:
    """Whether a short word in capitals that could be bare initials is a family name: at a name's start,
    before initials ("HE, K.") or a given name in full ("LIU, JENNY, AND …": initials never start a
    name); after a particle that starts a name, with a vowel ("DEL BUE, A.", "VAN ERP, MARIEKE"), as
    without one it is Vancouver's initials ("LE QV, MIKOLOV T")."""
    vowel = re.search("[AEIOUY]", word) is not None
    initials_next = vowel and _SHOUTED_INITIALS_NEXT.match(text, end) is not None
    if name_start:
        return initials_next or _SHOUTED_GIVEN_NEXT.match(text, end) is not None
    after_particle = (
        bool(before) and before[-1].shape == "P" and (len(before) == 1 or before[-2].shape in ",;&(")
    )
    return after_particle and vowel and (initials_next or _SHOUTED_GIVEN_NEXT.match(text, end) is not None)


# Title words that are given names too, and what must follow one that opens a reference for it to be a
# name: a capitalised word ending that name, then another name, "and" or "et al." ("An Yang, Baosong
# Yang", "An Yang et al."; not "An Introduction to …").
_GIVEN_NAMES_AND_TITLE_WORDS = frozenset({"An"})
_GIVEN_NAME_OPENS = re.compile(
    rf"\s+[{UPPER}][{LOWER}]+(?:-[{UPPER}]?[{LOWER}]+)?(?=,\s*[{UPPER}][{LOWER}]|\s+and\s+[{UPPER}]|\s+et\.?\s+al\b)"
)
# A colon right after a word: what stands before it is a title's first words ("GRACE: …", "LoX : …").
_COLON_FOLLOWS = re.compile(r"\s?:(?:\s|$)")


def _word_shape(word: str, before: list[_Token], text: str, end: int) -> str:
    """`_shape`, but a word is a family name where only a name can end: a title word after a given name
    or initials and before a separator ("Yuan An, and Sadid Hasan", "Xiangdong An and …", "B. An,"), or
    before initials ("Wang, J., An, N., …", Vancouver's "Feng L, An B."); a lower-case word after a
    capitalised particle and before a separator ("Hugo Van hamme."). A word in capitals is read by
    `_shouted_shape`, as its case tells nothing."""
    shape = _shape(word)
    if shape in "VWP" and before and before[-1].shape in "IK" and _COLON_FOLLOWS.match(text, end):
        return "x"  # "Duan, N. GRACE: Gradient …": a name ends with its initials, a title starts there
    if shape in "VWP" and len(word) > 1 and word.isupper():
        shape = _shouted_shape(word, shape, before, text, end)
    # Between a given name and a family name that ends a name, capitals with a period are initials or a
    # contraction ("PLABAN KR. BHOWMICK,"), not Vancouver's initials, which end a name themselves.
    if shape == "K" and before and before[-1].shape == "W" and _SHOUTED_GIVEN_AFTER.match(text, end):
        return "I"
    if not before and word in _GIVEN_NAMES_AND_TITLE_WORDS and _GIVEN_NAME_OPENS.match(text, end):
        return "W"  # "An Yang, Baosong Yang, …": a given name, where a title would go on with lower case
    if shape != "x" or not before:
        return shape
    ends_a_name = _NAME_ENDS.match(text, end) is not None
    if word in _NOT_NAMES and (
        (before[-1].shape in "WIK" and ends_a_name)  # "Yuan An," / "B. An,"
        or _INITIALS_FOLLOW.match(text, end)  # "An, B."
        or (before[-1].shape in ",;&" and _VANCOUVER_INITIALS_FOLLOW.match(text, end))  # "Feng L, An B."
    ):
        return "W"
    if before[-1].shape == "P" and word.isalpha() and word.islower() and ends_a_name:
        return "W"
    return shape


def _tokens(text: str, limit: int = 250) -> list[_Token]:
    """Tokens of the start of `text`, up to the first that no name list can run past.

    A word's final period becomes its own token unless it is part of an initial or "et al.".
    """
    out: list[_Token] = []
    for match in _TOKEN.finditer(text):
        word, start, end = match.group(0), match.start(), match.end()
        if out and out[-1].shape == "I" and _PARTICLE_INITIALS.fullmatch(word):
            out.append(_Token("I", start, end))  # "Goot, R. v. d.": a particle abbreviated after the initials
        elif word in _SAINT and _SAINT[word].match(text, end):
            out.append(_Token("P", start, end))  # "St. Thomas": the period abbreviates, it ends no name
        elif len(word) > 1 and word.endswith(".") and word != "..." and _ends_word(word, out, text, end):
            out.append(_Token(_word_shape(word[:-1], out, text, end - 1), start, end - 1))
            out.append(_Token(".", end - 1, end))
        else:
            out.append(_Token(_word_shape(word, out, text, end), start, end))
        if out[-1].shape in _BLOCK_ENDS or len(out) >= limit:
            break
    return out


def _ends_word(word: str, before: list[_Token], text: str, end: int) -> bool:
    """Whether a word's final period ends the word, not an initial or "et al."; after an initial, capitals
    with a period are a family name in capitals ("J. SUN."), not Vancouver's initials ("Abraham WC."), and
    a digraph initial that is a family name too ends a name that opened with an initial and a given name:
    "F. Richard Yu." has no other family name, while "A. Yu. Kitaev" and "Kitaev A. Yu." are Yuri's. A
    suffix's period ends the list where a capitalised word follows it with nothing between: "James J Heckman
    and Richard Robb Jr. Alternative methods …" ("Robb, Jr., Richard" and "Robb Jr. and" keep it)."""
    shape = _shape(word)
    if shape == "I" and word in _FAMILY_NAME_INITIALS:
        return len(before) >= 2 and before[-1].shape == "W" and before[-2].shape in "IV"
    if shape == "j":
        return _CAPITAL_NEXT.match(text, end) is not None
    return shape not in "IKej" or (shape == "K" and bool(before) and before[-1].shape == "I")


# A capitalised word next, not "And" in a list set in capitals: after a suffix's period, the title.
_CAPITAL_NEXT = re.compile(rf"\s+(?!(?:And|AND|Und|UND)\b)[{UPPER}]")

# Digraph initials (`_INITIAL`) that are common family names as well.
_FAMILY_NAME_INITIALS = frozenset({"Yu."})


# "Saint" abbreviated at the start of a family name ("Brian St. Thomas"), with what must follow it. In
# capitals, Vancouver's initials look the same ("FONSECA ST. APLICAÇÃO …"), so there the family name must
# end where a name does.
_SAINT_NEXT = re.compile(rf"\s*[{UPPER}]")
_SAINT_NEXT_SHOUTED = re.compile(rf"\s*[{UPPER}][{UPPER}'’-]+(?=\s*(?:[,;.&(]|(?i:and)\s))")
_SAINT = {"St.": _SAINT_NEXT, "Ste.": _SAINT_NEXT, "ST.": _SAINT_NEXT_SHOUTED, "STE.": _SAINT_NEXT_SHOUTED}
# A family name's particle abbreviated in lower case among the initials, as some styles write "R. v. d. Goot"
# inverted: "Goot, R. v. d.", "Maaten, L. v. d.".
_PARTICLE_INITIALS = re.compile(r"(?:v|d|vd|v\.d|de|da|di|do|du|dos|van|von|der|den|ter)\.")
_VANCOUVER_END = re.compile(rf"^([^,]*\s[{UPPER}]{{1,3}})\.$")  # "Roe C." ends a Vancouver list: "Roe C"


def _names(text: str, tokens: list[_Token], shapes: str) -> list[str]:
    """Cut a matched author block into names, the way the grammar parsed it."""
    names: list[str] = []
    next_name = _NEXT_VAN_NAME if _WHOLE_VAN_LIST.fullmatch(shapes) else _NEXT_NAME
    pos = 0
    while pos < len(shapes):
        name = (pos == 0 and _FIRST_INVERTED.match(shapes)) or next_name.match(shapes, pos)
        if not name:  # a single-word block ("COLLECTIF.")
            return [text[tokens[0].start : tokens[-1].end]]
        names.append(_VANCOUVER_END.sub(r"\1", text[tokens[pos].start : tokens[name.end() - 1].end]))
        sep = _NEXT_SEP.match(shapes, name.end())
        pos = sep.end() if sep else len(shapes)
    return names


@dataclass(frozen=True)
class AuthorBlock:
    names: list[str]
    truncated: bool
    rest: str
    delimiter: str = ""  # the punctuation that closed the block (".", ":", ",", ";"), "" if none did
    placeholder: bool = False  # "———." stood for the previous entry's authors


def take_authors(text: str) -> AuthorBlock:
    """The author block at the start of `text`, as cited names, and the text after it."""
    placeholder = _PLACEHOLDER.match(text)
    if placeholder:
        return AuthorBlock([], False, text[placeholder.end() :], placeholder=True)
    cjk = _CJK_BLOCK.match(text)
    if cjk:
        names = re.split(r"\s*[,，、]\s*", cjk.group(1))
        delimiter = {"。": ".", "，": ",", "：": ":"}.get(cjk.group(3) or "", cjk.group(3) or "")
        return AuthorBlock(names, cjk.group(2) is not None, text[cjk.end() :].lstrip(), delimiter)
    tokens = _tokens(text)
    shapes = "".join(t.shape for t in tokens)
    match = _BLOCK.match(shapes)
    if not match:
        return AuthorBlock([], False, text)
    count, delimiter = len(match.group(1)), match.group(2) or ""
    end = tokens[count].end if delimiter else tokens[count - 1].end
    cut = _semicolon_list_end(shapes[:count])
    if cut is not None:  # the block ends on its last initial, whose period is the initial's own
        count, delimiter = cut, "."
        end = tokens[count - 1].end
    truncated = any(t.shape in "ez" for t in tokens[:count])
    rest = _EDITORS_MARK.sub("", text[end:].lstrip(), count=1)
    names = _names(text, tokens[:count], shapes[:count])
    return AuthorBlock(names, truncated, rest, delimiter)


# ACS's and MDPI's lists: "Family, I. I.;" names, ";" between them. There every name ends on its initials,
# so a word after the last one's initials opens the title ("Yu, B. Definitions, methods, and …", "Er, S.
# AqSolDB, a curated …"), not a given name after initials ("Rowe, C. Eugene.") or a name unseparated
# ("Keri, S. Kiss, I.").
_INITIALS_NAME = re.compile(r"[pP]*[WP](?:[pP]*[WP]){0,2}j?,[IVK]+(?:p[IVK]+)?(?:,?j)?")


def _semicolon_list_end(shapes: str) -> int | None:
    """Where a ";" list of names with initials ends, where the grammar ran past the last initials into a
    word."""
    pieces = shapes.split(";")
    if len(pieces) < 2 or not all(_INITIALS_NAME.fullmatch(piece.lstrip("&")) for piece in pieces[:-1]):
        return None
    last = pieces[-1].lstrip("&")
    name = _INITIALS_NAME.match(last)
    if not name or name.end() == len(last) or last[name.end()] not in "WPx":
        return None
    return len(shapes) - len(last) + name.end()


_LIST_SEPARATOR = re.compile(r"\s*(?:,\s*(?:(?i:and)|&)\s+|\s+(?i:and)\s+|\s*&\s*|;\s*|,\s*)")
_INITIAL_WORD = rf"(?:[{UPPER}]\.-?)+[{UPPER}]?|[{UPPER}]\.?(?:-[{UPPER}a-z]\.?)+"
# "C.-L.", "H.-y", "W. Y.", "JA": every word initials, or one group of bare capitals. Not a short family
# name such as "Fu", nor "JASON J. S. CHANG" or "T. DE BIE" in capitals.
_INITIALS_ONLY = re.compile(rf"(?:{_INITIAL_WORD})(?:\s+(?:{_INITIAL_WORD}))*|[{UPPER}]{{1,3}}")


def split_name_list(text: str) -> AuthorBlock:
    """The names of a text known to be nothing but an author list, where the name grammar may not know
    every name ("B. Uygar Oztekin", "Fatemeh Pesaran zadeh"): the grammar's reading when it takes the whole
    text, else a split at commas and "and", a family name joined to the initials that follow it."""
    text = text.strip(" .,;:")
    block = take_authors(text)
    if block.names and not block.rest.strip(" .,;:"):
        return block
    truncated = _ET_AL.search(text) is not None
    pieces = [p for p in _LIST_SEPARATOR.split(_ET_AL.sub("", text).strip(" .,;:")) if p]
    names: list[str] = []
    if _inverted_first_only(text, pieces):
        pieces[:2] = [f"{pieces[0]}, {pieces[1]}"]
    while pieces:
        piece = pieces.pop(0)
        if pieces and _INITIALS_ONLY.fullmatch(pieces[0]) and not _INITIALS_ONLY.fullmatch(piece):
            piece = f"{piece}, {pieces.pop(0)}"  # "Fu, C.-L."
        names.append(piece)
    return AuthorBlock(names, truncated, "")


_FIRST_SEPARATOR = re.compile(r"^[^,;&]*?(?:\s+(?i:and)\s+|,\s*(?:(?i:and)\s+|&\s*)?|[;&])")


def _inverted_first_only(text: str, pieces: list[str]) -> bool:
    """Chicago's and MLA's list: the first name inverted, the others in natural order ("Lin, Di, Dingguo
    Shen, and Hui Huang"; "Groot, Tobias, and Matias Valdenegro-Toro"). The first two pieces are one name
    when a comma alone parts them, the first is one word (a family name), the second is given names, not
    initials, and every later piece is a whole name of two words or more. After ", and" the first piece is
    a whole name of one word ("Chandrahas, and Partha Talukdar")."""
    first = _FIRST_SEPARATOR.match(text)
    return (
        len(pieces) >= 2
        and first is not None
        and first.group(0).rstrip().endswith(",")
        and len(pieces[0].split()) == 1
        and 1 <= len(pieces[1].split()) <= 3
        and not _INITIALS_ONLY.fullmatch(pieces[1])
        and all(len(piece.split()) >= 2 for piece in pieces[2:])
    )
