#!/usr/bin/env python
"""The quote checker on a labelled perturbation set built from the real text of ../shared/data/pdfs.

    python scripts/eval_quotes.py [--data DIR] [--per-pdf N] [--seed S] [--json OUT] [--show KIND]

Every PDF's text is read as the checker reads a PDF source (the extractor's text layer). Passages of one or
two sentences (8–60 words, mostly words, unique in the text) are sampled with a fixed seed; each passage
yields items, labelled true or altered:

true (a faithful quotation: must be `verified`)
  verbatim       the passage as a reader copies it (line breaks joined, "resid-\\nual" made whole)
  typography     curly ↔ straight quotes and apostrophes, dashes changed, first letter's case, trailing stop
  ellipsis       2–6 words from the middle left out ("…"), none of them a negation or modal verb
  brackets       "[T]he" for "the", or "[sic]" inserted after a word
altered (must never be `verified`)
  number         a digit of a number changed            date       a month or year changed
  negation       "not" inserted after an auxiliary, or a "not"/"no"/"never" removed
  modal          a modal verb exchanged (may ↔ will, can ↔ cannot, should ↔ must, …)
  insertion      a word inserted ("only", "significantly", …)    deletion   a word removed
  substitution   a word exchanged for another word of the same text
  ellipsis_neg   an ellipsis that leaves out the passage's negation or modal verb
  ellipsis_order the two fragments of an elided quote swapped
  bracket_not    "[not]" inserted after an auxiliary     bracket_number   a number replaced by "[another]"
  bracket_prefix a negating prefix glued on with a bracket: "[un]" + a word ("[un]likely" for "likely")
  number_cut     the quote stops inside a number of the source: "… F1 of 85" for "… F1 of 85.3 …"
  compound_cut   the quote starts inside a hyphenated compound: "linear models …" for "non-linear models …"
  ocr            one to three OCR confusions in the quote (rn→m, l→1, O→0, e→c, …)
  fabricated     a passage of another PDF (real prose, not in this source), or this passage's words shuffled

Altered items whose text does occur in the source after all (a deleted word that leaves another true
passage, swapped fragments that the source has in that order too) are dropped and counted — but for the
kinds whose words are in the source by construction (an elided negation, a cut number: the alteration is
what the quote leaves out). Precision of
`verified` = true verified / all verified; recall = true verified / true items. A separate group puts OCR
noise into the source instead (true quote, damaged copy): reported, expected `near_match`. Timing is the
wall-clock time of `locate` per item.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from refhound.quotes.match import Haystack, fragments_of, locate
from refhound.quotes.normalize import find_word_aligned, normalize, normalize_needle
from refhound.quotes.textof import pdf_to_text
from refhound.settings import ExtractSettings, QuotesSettings

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "pdfs"
TRUE_KINDS = ("verbatim", "typography", "ellipsis", "brackets")
PRESENT_BY_CONSTRUCTION = ("ellipsis_neg", "number_cut")
_CUT_NUMBER = re.compile(r"(?<![\w.,])\d+(?=[.,]\d)")  # a number's part before its decimal point or comma
_COMPOUND = re.compile(r"\b[A-Za-z]{2,}-(?=[a-z]{3,}\b)")  # "non-" of "non-linear"
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?(?![\w])")
_YEAR = re.compile(r"\b(1[89]\d\d|20[0-2]\d)\b")
_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_AUXILIARIES = re.compile(
    r"\b(is|are|was|were|can|could|will|would|should|may|might|must|has|have|had|does|do|did)\b "
)
_NEGATION = re.compile(r"\b(not|no|never)\s", re.IGNORECASE)
_MODAL_SWAPS = {
    "may": "will", "will": "may", "can": "cannot", "cannot": "can", "should": "must", "must": "should",
    "might": "will", "could": "would", "would": "could", "shall": "may",
}  # fmt: skip
_GUARDED = re.compile(r"\b(?:not|no|never|none|nor|neither|nobody|nothing|nowhere|without|hardly|scarcely|"
                      r"barely|cannot|can|could|may|might|must|shall|should|will|would|ought|\w+n['’]t)\b",
                      re.IGNORECASE)  # fmt: skip
_INSERTS = ("only", "significantly", "always", "largely", "clearly", "never", "very", "also", "rarely")
_OCR = (("rn", "m"), ("m", "rn"), ("l", "1"), ("O", "0"), ("e", "c"), ("i", "l"), ("h", "b"), ("u", "v"))


@dataclass(frozen=True)
class Item:
    pdf: str
    kind: str
    true: bool
    quote: str


def typed(span: str) -> str:
    """A passage as a reader copies it from a PDF: hyphenated line ends joined, whitespace single."""
    span = re.sub(r"(?<=[a-z])-\n(?=[a-z])", "", span)
    return " ".join(span.split())


def passages(text: str, rng: random.Random, count: int, norm_text: str) -> list[str]:
    """Up to `count` passages of prose, unique in the text, sampled from its first 85 %."""
    body = text[: int(len(text) * 0.85)]
    sentences = [s for s in _SENTENCE.split(body) if s.strip()]
    candidates = []
    for index in range(len(sentences)):
        for width in (1, 2):
            chunk = typed(" ".join(sentences[index : index + width]))
            words = chunk.split()
            if not 8 <= len(words) <= 60:
                continue
            wordy = sum(1 for w in words if re.fullmatch(r"[A-Za-z][a-z'’-]*[.,;:]?", w))
            if wordy < 0.75 * len(words) or find_word_aligned(norm_text, normalize_needle(chunk)) < 0:
                continue
            needle = normalize_needle(chunk)
            if norm_text.count(needle) == 1:
                candidates.append(chunk)
    rng.shuffle(candidates)
    return candidates[:count]


def _swap_word(words: list[str], index: int, new: str) -> str:
    return " ".join([*words[:index], new, *words[index + 1 :]])


def true_items(pdf: str, passage: str, rng: random.Random) -> list[Item]:
    items = [Item(pdf, "verbatim", True, passage)]
    variant = passage.replace("'", "\u2019").replace('"', "\u201c").replace(" - ", " \u2014 ")
    variant = variant.replace("\u2013", "-")
    variant = (variant[0].swapcase() + variant[1:]).rstrip(".") if variant else variant
    items.append(Item(pdf, "typography", True, variant))
    words = passage.split()
    if len(words) >= 10:
        start = rng.randrange(2, len(words) - 6)
        size = rng.randint(2, min(6, len(words) - start - 2))
        left, gap, right = words[:start], words[start : start + size], words[start + size :]
        # A reader cuts between words, not inside one the PDF broke with a hyphen ("V- … measure").
        whole_words = not left[-1].endswith("-") and not gap[-1].endswith("-")
        if whole_words and not _GUARDED.search(" ".join(gap)):
            items.append(Item(pdf, "ellipsis", True, " ".join([*left, "\u2026", *right])))
    if words and words[0][:1].isalpha():
        first = words[0]
        flipped = "[" + first[0].swapcase() + "]" + first[1:]
        items.append(Item(pdf, "brackets", True, " ".join([flipped, *words[1:]])))
    # "[sic]" goes after a whole word, not after one the PDF broke with a hyphen ("classifica- [sic]").
    spots = [
        i
        for i in range(2, len(words) - 2)
        if "[" not in words[i] + words[i + 1] and not words[i].endswith("-")
    ]
    if len(words) > 6 and spots:
        at = rng.choice(spots)
        items.append(Item(pdf, "brackets", True, " ".join([*words[: at + 1], "[sic]", *words[at + 1 :]])))
    return items


def altered_items(
    pdf: str, passage: str, rng: random.Random, vocabulary: list[str], other: str
) -> list[Item]:
    items: list[Item] = []
    words = passage.split()

    def add(kind: str, quote: str | None) -> None:
        if quote and quote != passage:
            items.append(Item(pdf, kind, False, quote))

    if numbers := list(_NUMBER.finditer(passage)):
        match = rng.choice(numbers)
        digits = [i for i, c in enumerate(match.group()) if c.isdigit()]
        pos = rng.choice(digits)
        old = match.group()[pos]
        new = rng.choice([d for d in "0123456789" if d != old])
        changed = match.group()[:pos] + new + match.group()[pos + 1 :]
        add("number", passage[: match.start()] + changed + passage[match.end() :])
        add("bracket_number", passage[: match.start()] + f"[{changed}]" + passage[match.end() :])
    if years := list(_YEAR.finditer(passage)):
        match = rng.choice(years)
        year = str(int(match.group()) + rng.choice((-2, -1, 1, 2)))
        add("date", passage[: match.start()] + year + passage[match.end() :])
    months = [m for m in _MONTHS if re.search(rf"\b{m}\b", passage)]
    if months:
        month = months[0]
        add("date", re.sub(rf"\b{month}\b", rng.choice([m for m in _MONTHS if m != month]), passage, count=1))
    if auxiliary := _AUXILIARIES.search(passage):
        add("negation", passage[: auxiliary.end()] + "not " + passage[auxiliary.end() :])
        add("bracket_not", passage[: auxiliary.end()] + "[not] " + passage[auxiliary.end() :])
    if negation := _NEGATION.search(passage):
        add("negation", passage[: negation.start()] + passage[negation.end() :])
    modal_at = [i for i, w in enumerate(words) if w.lower() in _MODAL_SWAPS]
    if modal_at:
        index = rng.choice(modal_at)
        add("modal", _swap_word(words, index, _MODAL_SWAPS[words[index].lower()]))
    at = rng.randrange(1, len(words))
    add("insertion", " ".join([*words[:at], rng.choice(_INSERTS), *words[at:]]))
    at = rng.randrange(1, len(words) - 1)
    add("deletion", " ".join(words[:at] + words[at + 1 :]))
    content = [i for i, w in enumerate(words) if len(w) > 4 and w.isalpha()]
    if content and vocabulary:
        index = rng.choice(content)
        choice = rng.choice([v for v in vocabulary if v.lower() != words[index].lower()] or vocabulary)
        add("substitution", _swap_word(words, index, choice))
    guarded = [i for i, w in enumerate(words) if _GUARDED.fullmatch(w.strip(".,;:").lower())]
    if guarded and 1 < guarded[0] < len(words) - 2:
        index = guarded[0]
        add("ellipsis_neg", " ".join([*words[:index], "\u2026", *words[index + 1 :]]))
    if len(words) >= 10:
        middle = len(words) // 2
        add("ellipsis_order", " ".join([*words[middle:], "\u2026", *words[: middle - 1]]))
    if content:
        index = rng.choice(content)
        add("bracket_prefix", _swap_word(words, index, "[un]" + words[index]))
    cut = _CUT_NUMBER.search(passage)
    if cut and len(passage[: cut.end()].split()) >= 4:
        add("number_cut", passage[: cut.end()])
    compound = _COMPOUND.search(passage)
    if compound and compound.start() > 0 and len(passage[compound.end() :].split()) >= 4:
        add("compound_cut", passage[compound.end() :])
    noisy = passage
    for _ in range(rng.randint(1, 3)):
        options = [(a, b) for a, b in _OCR if a in noisy]
        if options:
            a, b = rng.choice(options)
            spots = [m.start() for m in re.finditer(re.escape(a), noisy)]
            spot = rng.choice(spots)
            noisy = noisy[:spot] + b + noisy[spot + len(a) :]
    add("ocr", noisy)
    add("fabricated", other)
    shuffled = words[:]
    rng.shuffle(shuffled)
    add("fabricated", " ".join(shuffled))
    return items


def ocr_source(text: str, span: tuple[int, int], rng: random.Random) -> str:
    """The source with one OCR confusion put into its copy of a passage (`span`)."""
    start, end = span
    window = text[start:end]
    options = [(a, b) for a, b in _OCR if a in window]
    if not options:
        return text
    a, b = rng.choice(options)
    position = start + rng.choice([m.start() for m in re.finditer(re.escape(a), window)])
    return text[:position] + b + text[position + len(a) :]


def evaluate(data: Path, per_pdf: int, seed: int, show: str | None) -> dict[str, object]:
    settings = QuotesSettings()
    extract = ExtractSettings(ocr=False)
    pdfs = sorted(data.rglob("*.pdf"))
    texts = {}
    for pdf in pdfs:
        text, _ = pdf_to_text(pdf, extract)
        if len(text) > 2000:
            texts[pdf.name] = text
    rng = random.Random(seed)
    names = list(texts)
    samples: dict[str, list[str]] = {}
    for name in names:
        samples[name] = passages(texts[name], rng, per_pdf, normalize(texts[name]).text)
    outcomes: dict[str, Counter[str]] = defaultdict(Counter)
    dropped: Counter[str] = Counter()
    timings: list[float] = []
    verified_altered: list[Item] = []
    missed_true: list[tuple[Item, str]] = []
    noisy_source: Counter[str] = Counter()
    for name in names:
        hay = Haystack(texts[name])
        norm_text = hay.norm.text
        vocabulary = sorted({w for p in samples[name] for w in p.split() if w.isalpha() and len(w) > 4})
        others = [p for n in names if n != name for p in samples[n]]
        for passage in samples[name]:
            other = rng.choice(others) if others else ""
            items = true_items(name, passage, rng) + altered_items(name, passage, rng, vocabulary, other)
            for item in items:
                # An elided negation or a cut number is in the source word for word: its alteration is what
                # it leaves out.
                present = item.kind not in PRESENT_BY_CONSTRUCTION and _present(
                    item.quote, norm_text, settings.ellipsis_max_gap_chars
                )
                if not item.true and present:
                    dropped[item.kind] += 1
                    continue
                began = time.perf_counter()
                outcome = locate(item.quote, hay, settings)
                timings.append(time.perf_counter() - began)
                outcomes[item.kind][outcome.status] += 1
                if outcome.status == "verified" and not item.true:
                    verified_altered.append(item)
                if item.true and outcome.status != "verified":
                    missed_true.append((item, outcome.note))
                if show and item.kind == show:
                    print(f"[{outcome.status}] {item.quote!r}\n    {outcome.note}", file=sys.stderr)
            needle = normalize_needle(passage)
            position = find_word_aligned(norm_text, needle)
            span = hay.norm.to_original(position, position + len(needle))
            damaged = ocr_source(texts[name], span, rng)
            if damaged != texts[name]:
                noisy_source[locate(passage, Haystack(damaged), settings).status] += 1
    true_total = sum(sum(outcomes[k].values()) for k in TRUE_KINDS)
    true_verified = sum(outcomes[k]["verified"] for k in TRUE_KINDS)
    all_verified = sum(c["verified"] for c in outcomes.values())
    return {
        "pdfs": len(names),
        "passages": sum(len(v) for v in samples.values()),
        "seed": seed,
        "per_kind": {kind: dict(counter) for kind, counter in sorted(outcomes.items())},
        "dropped_present_in_source": dict(dropped),
        "true_items": true_total,
        "altered_items": sum(sum(c.values()) for k, c in outcomes.items() if k not in TRUE_KINDS),
        "precision_verified": true_verified / all_verified if all_verified else 1.0,
        "recall_true": true_verified / true_total if true_total else 0.0,
        "altered_verified": [item.__dict__ for item in verified_altered],
        "true_missed": [{"item": item.__dict__, "note": note} for item, note in missed_true[:50]],
        "noisy_source": dict(noisy_source),
        "ms_per_item_median": statistics.median(timings) * 1000,
        "ms_per_item_p95": sorted(timings)[int(len(timings) * 0.95)] * 1000,
    }


def _present(quote: str, norm_text: str, max_gap: int) -> bool:
    """Whether an altered quote's words are in the source anyway, in order and close enough (then it is
    no alteration): brackets read as plain text, fragments of an elided quote found one after another."""
    position = -1
    for fragment in fragments_of(quote.replace("[", "").replace("]", "")):
        needle = normalize_needle(fragment)
        found = find_word_aligned(norm_text, needle, max(position, 0))
        if found < 0 or (position >= 0 and found - position > max_gap):
            return False
        position = found + len(needle)
    return True


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--per-pdf", type=int, default=20, help="passages sampled per PDF")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", type=Path, help="write the full result here")
    parser.add_argument("--show", help="print every item of this kind with its outcome (stderr)")
    args = parser.parse_args()
    if not args.data.exists():
        sys.exit(f"{args.data} not found: this evaluation reads the PDFs of ../shared/data/pdfs")
    result = evaluate(args.data, args.per_pdf, args.seed, args.show)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2, ensure_ascii=False), encoding="utf-8")
    print(f"{result['pdfs']} PDFs, {result['passages']} passages, seed {result['seed']}")
    print(f"{'kind':<16}{'label':<9}{'n':>6}{'verified':>10}{'near_match':>12}{'not_found':>11}")
    per_kind: dict[str, dict[str, int]] = result["per_kind"]  # type: ignore[assignment]
    for kind, counts in per_kind.items():
        label = "true" if kind in TRUE_KINDS else "altered"
        n = sum(counts.values())
        print(
            f"{kind:<16}{label:<9}{n:>6}{counts.get('verified', 0):>10}{counts.get('near_match', 0):>12}"
            f"{counts.get('not_found', 0):>11}"
        )
    print(f"dropped (altered text present in the source anyway): {result['dropped_present_in_source']}")
    print(f"precision of verified: {result['precision_verified']:.4f}")
    print(f"recall of true quotes: {result['recall_true']:.4f} ({result['true_items']} true items)")
    print(f"altered items: {result['altered_items']}, verified: {len(result['altered_verified'])}")  # type: ignore[arg-type]
    print(f"true quote, OCR-damaged source: {result['noisy_source']}")
    median, p95 = result["ms_per_item_median"], result["ms_per_item_p95"]
    print(f"locate: median {median:.2f} ms, p95 {p95:.2f} ms per item")
    for missed in result["true_missed"][:10]:  # type: ignore[index]
        print(f"missed: {missed}", file=sys.stderr)


if __name__ == "__main__":
    main()
