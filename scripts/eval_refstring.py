#!/usr/bin/env python
"""Field-level precision/recall/F1 of `parse_reference_string` on hand-labelled reference strings.

    python scripts/eval_refstring.py [GOLD] [--corpus anystyle|excite|grobid] [--half A|B] [--show FIELD]
        [--confidence]

Three corpora:

* anystyle (default): GOLD defaults to ../shared/data/reference-strings/anystyle-gold.xml.gz, 1,669
  `<sequence>` elements whose children's text, joined by spaces, is the raw string. The container is the
  first `journal` or `container-title`; authors are the first `author` segment, split into names by the same
  name grammar the parser uses, so the author score measures where the parser puts the author block, not how
  names are split.
* excite: GOLD defaults to ../shared/data/pdfs/excite-ssoar-dev/gold-segmented, a directory of `*.xml` files
  holding one tagged reference per line, as printed in social-science PDFs (the tags are not always
  balanced, so they are read with a regex, not an XML parser). The raw string is the line without its tags;
  authors are the `surname`s inside `author` tags (editors do not count), the container is the first
  `source`, the DOI the first `identifier` that holds one.
* grobid: GOLD is GROBID's citation training corpus, `grobid-trainer/resources/dataset/citation/corpus` of
  a kermitt2/grobid checkout (not in ../shared; no default): TEI files of `<bibl>` elements, whose text is
  the raw string, from physics, biomedicine, engineering, mathematics and social science, some in Chinese,
  Japanese or Korean, many with the spacing of GROBID's PDF tokens (",Phys .Rev"). The title is the first
  article-level `title` (else a monograph's), the container the first journal-level one (else a
  monograph's under an article), authors the `author` segments split by the name grammar, the DOI an
  `idno` of type DOI. The files are read with lxml's recovering parser, since many carry `xml:id="0"`.
  `--half A|B` keeps the references whose raw string's CRC-32 is even (A) or odd (B): one file,
  `citations.xml`, holds 3,515 of the 8,288 from many sources, so halves of files would be lopsided.

Matching, per field and reference: a field is exact when gold and parse agree after trimming whitespace and
punctuation at the ends (and a leading "In:" on containers); soft when their folded, punctuation-free forms
have a rapidfuzz `ratio` of at least 90. Both sides have typographic ligatures ("ﬁ") split first, and
letter-spaced small-capital gold surnames ("C RO N I N") are joined. Dates compare the first year
(1500–2099) in the gold date with the parsed year. Authors compare the sets of family names: exact when the
case-folded sets are equal, soft when every gold name is similar to a parsed one and vice versa. A match is
a true positive; otherwise a parsed value is a false positive and a gold value a false negative (a wrong
value is both). The micro row sums these counts over the five fields.

--confidence adds, per field, how often a parsed value soft-matches at each level of
`refstring_confidence.field_confidence`, and how many references `is_low_confidence` flags.
"""

from __future__ import annotations

import argparse
import gzip
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree
from rapidfuzz import fuzz

from refhound.models import ParsedFields
from refhound.normalize.identifiers import normalize_doi
from refhound.normalize.names import parse_name
from refhound.normalize.text import LIGATURES, collapse_whitespace, fold
from refhound.refstring import parse_author_list, parse_reference_string_detailed
from refhound.refstring.confidence import field_confidence, is_low_confidence

_SHARED = Path(__file__).resolve().parents[2] / "shared/data"
DEFAULT_GOLD = {
    "anystyle": _SHARED / "reference-strings/anystyle-gold.xml.gz",
    "excite": _SHARED / "pdfs/excite-ssoar-dev/gold-segmented",
}
FIELDS = ("title", "author", "container", "date", "doi")
_ATTRIBUTES = {"title": "title", "author": "authors", "container": "venue", "date": "year", "doi": "doi"}
_CONFIDENCE_KEYS = {"title": "title", "author": "authors", "container": "venue", "date": "year", "doi": "doi"}
_EDGE_PUNCT = " \t.,;:()[]\"'“”‘’«»"
_LETTER_SPACED = re.compile(r"[A-Z]{1,3}(?: [A-Z]{1,3})+")  # small capitals as extracted: "C RO N I N"


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, gold: bool, predicted: bool, match: bool) -> None:
        if match:
            self.tp += 1
            return
        self.fp += predicted
        self.fn += gold

    def prf(self) -> tuple[float, float, float]:
        precision = self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0
        recall = self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return precision, recall, f1


@dataclass
class Scores:
    exact: dict[str, Counts] = field(default_factory=lambda: {f: Counts() for f in FIELDS})
    soft: dict[str, Counts] = field(default_factory=lambda: {f: Counts() for f in FIELDS})
    n: int = 0
    # Per field, (confidence, soft match) of every parsed value; per reference, (flagged low, title and
    # authors both soft-match).
    calibration: dict[str, list[tuple[float, bool]]] = field(default_factory=lambda: {f: [] for f in FIELDS})
    flagged: list[tuple[bool, bool]] = field(default_factory=list)

    def micro(self, kind: str) -> Counts:
        """The counts of all five fields summed: each field decision weighs the same."""
        table = self.exact if kind == "exact" else self.soft
        return Counts(*(sum(getattr(table[f], part) for f in FIELDS) for part in ("tp", "fp", "fn")))


@dataclass
class GoldItem:
    raw: str
    fields: dict[str, str]  # title, container, date, doi: the gold text, when labelled
    authors: set[str]  # gold family names


def load_gold(path: Path) -> list[GoldItem]:
    """anystyle's sequences; containers are journal or container-title."""
    with gzip.open(path) as handle:
        root = etree.parse(handle).getroot()
    items: list[GoldItem] = []
    for sequence in root.iter("sequence"):
        parts = [(child.tag, collapse_whitespace(child.text or "")) for child in sequence]
        item: dict[str, str] = {}
        for tag, text in parts:
            item.setdefault("container" if tag in ("journal", "container-title") else tag, text)
        authors = _families(parse_author_list(item["author"])[0]) if "author" in item else set()
        items.append(GoldItem(" ".join(text for _, text in parts if text), item, authors))
    return items


_TAG = re.compile(r"<(/?)([a-z-]+)>")
_EXCITE_TAGS = {"title": "title", "source": "container", "year": "date"}


def _excite_item(line: str) -> GoldItem:
    """One tagged EXCITE line. The tags can be unbalanced ("<author> <author>…"), so each field is the text
    from its opening tag to the next closing tag of the same name."""
    fields: dict[str, str] = {}
    authors: set[str] = set()
    open_authors = 0
    for match in _TAG.finditer(line):
        closing, tag = match.groups()
        if tag == "author":
            open_authors = max(0, open_authors + (-1 if closing else 1))
        if closing:
            continue
        end = line.find(f"</{tag}>", match.end())
        text = collapse_whitespace(_TAG.sub("", line[match.end() : end if end >= 0 else None]))
        if tag == "surname" and open_authors and any(c.isalpha() for c in text):
            authors.add(_trim(text.replace(" ", "") if _LETTER_SPACED.fullmatch(text) else text))
        elif tag == "identifier" and "doi" not in fields and re.search(r"10\.\d{4}", text):
            fields["doi"] = re.sub(r"\s+", "", text)  # "10.4054/ DemRes…": a line break in the PDF
        elif tag in _EXCITE_TAGS and text:
            fields.setdefault(_EXCITE_TAGS[tag], text)
    return GoldItem(collapse_whitespace(_TAG.sub("", line)), fields, authors)


def load_excite(directory: Path) -> list[GoldItem]:
    """EXCITE's segmented references, one per non-blank line of each `*.xml` file."""
    return [
        _excite_item(line)
        for path in sorted(directory.glob("*.xml"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


_TEI = "{http://www.tei-c.org/ns/1.0}"


def _tei_text(element: etree._Element) -> str:
    return collapse_whitespace("".join(element.itertext()))


def _grobid_item(bibl: etree._Element) -> GoldItem:
    """One `<bibl>`: its text is the raw string, its tagged parts the gold fields."""
    titles: dict[str, str] = {}
    for title in bibl.iter(f"{_TEI}title"):
        titles.setdefault(title.get("level") or "", _tei_text(title))
    fields = {}
    if title := titles.get("a") or titles.get("m"):
        fields["title"] = title
    if container := titles.get("j") or (titles.get("m") if "a" in titles else None):
        fields["container"] = container
    if (date := bibl.find(f".//{_TEI}date")) is not None:
        fields["date"] = _tei_text(date)
    for idno in bibl.iter(f"{_TEI}idno"):
        if (idno.get("type") or "").lower() == "doi":
            fields["doi"] = _tei_text(idno)
    authors = [_tei_text(author) for author in bibl.iter(f"{_TEI}author")]
    names = [name for author in authors for name in parse_author_list(author)[0]]
    return GoldItem(_tei_text(bibl), {k: v for k, v in fields.items() if v}, _families(names))


def load_grobid(directory: Path, half: str | None = None) -> list[GoldItem]:
    """GROBID's labelled `<bibl>`s; with `half`, those of one half."""
    parser = etree.XMLParser(recover=True)
    items: list[GoldItem] = []
    for path in sorted(directory.glob("*.xml")):
        try:
            root = etree.parse(str(path), parser).getroot()
        except etree.XMLSyntaxError as error:  # an empty file
            print(f"skipped {path.name}: {error}")
            continue
        items.extend(_grobid_item(bibl) for bibl in root.iter(f"{_TEI}bibl") if _tei_text(bibl))
    if half:
        items = [item for item in items if "AB"[zlib.crc32(item.raw.encode()) % 2] == half]
    return items


def load_corpus(path: Path, corpus: str, half: str | None = None) -> list[GoldItem]:
    if corpus == "grobid":
        return load_grobid(path, half)
    return load_excite(path) if corpus == "excite" else load_gold(path)


def _trim(text: str) -> str:
    return collapse_whitespace(text.translate(LIGATURES)).strip(_EDGE_PUNCT)


def _soft_form(text: str) -> str:
    return collapse_whitespace(re.sub(r"[^\w\s]", " ", fold(text)))


def _similar(a: str, b: str) -> bool:
    return fuzz.ratio(_soft_form(a), _soft_form(b)) >= 90


def _families(names: list[str]) -> set[str]:
    return {f for f in (_trim(parse_name(n).family) for n in names) if any(c.isalpha() for c in f)}


def _year(text: str | None) -> int | None:
    match = re.search(r"(?<!\d)(?:1[5-9]|20)\d\d(?!\d)", text or "")  # 1500–2099
    return int(match.group(0)) if match else None


def _container(text: str) -> str:
    return re.sub(r"^in:?\s+", "", _trim(text), flags=re.IGNORECASE)


def _compare_text(
    gold: str | None, predicted: str | None, counts: tuple[Counts, Counts], form: Callable[[str], str] = _trim
) -> tuple[bool, bool]:
    g, p = (form(gold) if gold else ""), (form(predicted) if predicted else "")
    exact = bool(g and p and g == p)
    soft = bool(g and p and _similar(g, p))
    counts[0].add(bool(g), bool(p), exact)
    counts[1].add(bool(g), bool(p), soft)
    return exact, soft


def _compare_authors(gold: set[str], predicted: set[str], counts: tuple[Counts, Counts]) -> tuple[bool, bool]:
    exact = bool(gold) and {fold(f) for f in gold} == {fold(f) for f in predicted}
    soft = (
        bool(gold and predicted)
        and all(any(_similar(g, p) for p in predicted) for g in gold)
        and all(any(_similar(p, g) for g in gold) for p in predicted)
    )
    counts[0].add(bool(gold), bool(predicted), exact)
    counts[1].add(bool(gold), bool(predicted), soft)
    return exact, soft


def evaluate(
    path: Path, show: str | None = None, corpus: str = "anystyle", half: str | None = None
) -> Scores:
    scores = Scores()
    for item in load_corpus(path, corpus, half):
        detailed = parse_reference_string_detailed(item.raw)
        parsed: ParsedFields = detailed.fields
        scores.n += 1
        pairs = {f: (scores.exact[f], scores.soft[f]) for f in FIELDS}
        gold = item.fields
        results = {
            "title": _compare_text(gold.get("title"), parsed.title, pairs["title"]),
            "author": _compare_authors(item.authors, _families(parsed.authors), pairs["author"]),
            "container": _compare_text(gold.get("container"), parsed.venue, pairs["container"], _container),
            "date": _compare_text(str(_year(gold.get("date")) or ""), str(parsed.year or ""), pairs["date"]),
            "doi": _compare_text(normalize_doi(gold.get("doi", "")), parsed.doi, pairs["doi"]),
        }
        confidence = field_confidence(item.raw, parsed, provenance=detailed.provenance)
        for name, attribute in _ATTRIBUTES.items():
            if getattr(parsed, attribute):
                scores.calibration[name].append((confidence[_CONFIDENCE_KEYS[name]], results[name][1]))
        scores.flagged.append((is_low_confidence(confidence), results["title"][1] and results["author"][1]))
        labelled = bool(item.authors) if show == "author" else show in gold
        if show and not results[show][1] and (labelled or getattr(parsed, _ATTRIBUTES[show])):
            expected = sorted(item.authors) if show == "author" else gold.get(show)
            got = parsed.model_dump(exclude_defaults=True)
            print(f"{item.raw}\n    gold: {expected!r}\n    got:  {got}")
    return scores


def _row(name: str, exact: Counts, soft: Counts) -> str:
    def cells(counts: Counts) -> str:
        return " ".join(f"{value:6.3f}" for value in counts.prf())

    return f"{name:<10} {cells(exact)}   {cells(soft)}"


_BUCKETS = ((0.0, 0.5), (0.5, 0.7), (0.7, 0.85), (0.85, 1.01))


def print_calibration(scores: Scores) -> None:
    """How often a parsed value soft-matches the gold at each confidence level."""
    print("\nconfidence  " + "  ".join(f"{f'{lo:.2f}-{min(hi, 1):.2f}':>15}" for lo, hi in _BUCKETS))
    for name in FIELDS:
        cells = []
        for lo, hi in _BUCKETS:
            hits = [ok for conf, ok in scores.calibration[name] if lo <= conf < hi]
            cells.append(f"{sum(hits) / len(hits):6.3f} (n={len(hits):4d})" if hits else f"{'-':>15}")
        print(f"{name:<10}  " + "  ".join(cells))
    low = [ok for flagged, ok in scores.flagged if flagged]
    high = [ok for flagged, ok in scores.flagged if not flagged]
    print(
        f"low confidence: {len(low)} of {len(scores.flagged)} references; title and authors both right in "
        f"{sum(low) / max(len(low), 1):.3f} of them, {sum(high) / max(len(high), 1):.3f} of the rest"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("gold", nargs="?", type=Path, help="the corpus file or directory")
    parser.add_argument("--corpus", choices=["anystyle", "excite", "grobid"], default="anystyle")
    parser.add_argument("--half", choices=["A", "B"], help="grobid: one half of the files")
    parser.add_argument("--show", choices=FIELDS, help="print the references whose FIELD does not soft-match")
    parser.add_argument("--confidence", action="store_true", help="also print how confidence tracks accuracy")
    args = parser.parse_args()
    gold = args.gold or DEFAULT_GOLD.get(args.corpus)
    if gold is None:
        parser.error(
            "--corpus grobid needs GOLD: a grobid checkout's grobid-trainer/resources/dataset/citation/corpus"
        )
    scores = evaluate(gold, args.show, args.corpus, args.half)
    half = f", half {args.half}" if args.half else ""
    print(f"{scores.n} reference strings from {gold.name} ({args.corpus}{half})")
    print(f"{'field':<10} {'exact P':>7} {'R':>6} {'F1':>6}   {'soft P':>6} {'R':>6} {'F1':>6}")
    for name in FIELDS:
        print(_row(name, scores.exact[name], scores.soft[name]))
    print(_row("micro", scores.micro("exact"), scores.micro("soft")))
    if args.confidence:
        print_calibration(scores)


if __name__ == "__main__":
    main()
