#!/usr/bin/env bash
# Fetch the bibliographies of machine-learning, NLP and vision papers that people wrote before 2022-11 (before
# chat assistants could write references), from public GitHub repositories at pinned commits, checked by
# sha256: real references, so every flag on them is a real error of the file or a false alarm.
# Usage: scripts/fetch_paper_bibs.sh DIR
#          [--held-out | --held-out-2 | --held-out-3 | --held-out-4 | --held-out-5 | --held-out-6 | --held-out-7
#           | --held-out-8 | --held-out-9 | --held-out-10 | --held-out-11 | --held-out-12 | --held-out-13
#           | --held-out-14]
#   (then: python scripts/bench_real_bibs.py DIR --index … --out …)
# Set A, without an option: 56 papers' bibliographies (scripts/paper-bibs.tsv), on which classes of false
# alarm were found. Set B, --held-out: 56 others (scripts/paper-bibs-held-out.tsv), held out until their flags
# were read for classes too; set C, --held-out-2 (scripts/paper-bibs-held-out-2.tsv), likewise after B. Set
# D, --held-out-3 (scripts/paper-bibs-held-out-3.tsv), likewise after C. Set E, --held-out-4: 56 more
# (scripts/paper-bibs-held-out-4.tsv, smaller files, many course reports), held out until its flags were read
# for classes too; set F, --held-out-5: 56 more (scripts/paper-bibs-held-out-5.tsv), never used to build
# anything. Set G, --held-out-6: 45 more (scripts/paper-bibs-held-out-6.tsv), never used to build anything.
# Set H, --held-out-7: 45 more (scripts/paper-bibs-held-out-7.tsv), never used to build anything.
# Set I, --held-out-8: 45 more (scripts/paper-bibs-held-out-8.tsv, paper sources, no thesis), never used to
# build anything. Set J, --held-out-9: 45 more (scripts/paper-bibs-held-out-9.tsv, paper sources, theses and
# proposals), never used to build anything. Set K, --held-out-10: 45 more (scripts/paper-bibs-held-out-10.tsv,
# mostly paper sources, some theses), never used to build anything. Set L, --held-out-11: 10 more
# (scripts/paper-bibs-held-out-11.tsv, paper sources and theses), never used to build anything. Set M,
# --held-out-12: 38 more (scripts/paper-bibs-held-out-12.tsv, theses, proposals and paper sources), never used to
# build anything. Set N, --held-out-13: 41 more (scripts/paper-bibs-held-out-13.tsv, theses, dissertations,
# proposals and reports of ML, NLP, vision and other CS fields), never used to build anything. Set O,
# --held-out-14: 38 more (scripts/paper-bibs-held-out-14.tsv, a third ML and vision, the rest systems, software
# engineering, security, programming languages and other CS), never used to build anything.
# Each pin: file, repository, commit, path, commit date, entries, sha256, what the paper is.
# Needs curl and sha256sum; with MIRROR=DIR it reads bare clones DIR/OWNER+NAME/repo instead of the network.
set -euo pipefail
USAGE="usage: scripts/fetch_paper_bibs.sh DIR"
USAGE+=" [--held-out | --held-out-2 | --held-out-3 | --held-out-4 | --held-out-5 | --held-out-6 | --held-out-7"
USAGE+=" | --held-out-8 | --held-out-9 | --held-out-10 | --held-out-11 | --held-out-12 | --held-out-13"
USAGE+=" | --held-out-14]"
OUT="${1:?$USAGE}"; mkdir -p "$OUT"
case "${2:-}" in
    "") PINS="$(dirname "$0")/paper-bibs.tsv";;
    --held-out) PINS="$(dirname "$0")/paper-bibs-held-out.tsv";;
    --held-out-2) PINS="$(dirname "$0")/paper-bibs-held-out-2.tsv";;
    --held-out-3) PINS="$(dirname "$0")/paper-bibs-held-out-3.tsv";;
    --held-out-4) PINS="$(dirname "$0")/paper-bibs-held-out-4.tsv";;
    --held-out-5) PINS="$(dirname "$0")/paper-bibs-held-out-5.tsv";;
    --held-out-6) PINS="$(dirname "$0")/paper-bibs-held-out-6.tsv";;
    --held-out-7) PINS="$(dirname "$0")/paper-bibs-held-out-7.tsv";;
    --held-out-8) PINS="$(dirname "$0")/paper-bibs-held-out-8.tsv";;
    --held-out-9) PINS="$(dirname "$0")/paper-bibs-held-out-9.tsv";;
    --held-out-10) PINS="$(dirname "$0")/paper-bibs-held-out-10.tsv";;
    --held-out-11) PINS="$(dirname "$0")/paper-bibs-held-out-11.tsv";;
    --held-out-12) PINS="$(dirname "$0")/paper-bibs-held-out-12.tsv";;
    --held-out-13) PINS="$(dirname "$0")/paper-bibs-held-out-13.tsv";;
    --held-out-14) PINS="$(dirname "$0")/paper-bibs-held-out-14.tsv";;
    *) echo "unknown option $2 ($USAGE)" >&2; exit 2;;
esac
failed=0
while IFS=$'\t' read -r file repo commit path _date _entries sha _what; do
    [[ -z "$file" || "$file" == \#* ]] && continue
    target="$OUT/$file"
    if [[ -n "${MIRROR:-}" ]]; then
        clone="$MIRROR/${repo/\//+}/repo"; [[ -d "$clone/.git" ]] && clone="$clone/.git"
        git --git-dir="$clone" show "$commit:$path" > "$target"
    else
        curl -fsSL "https://raw.githubusercontent.com/$repo/$commit/$path" -o "$target"
    fi
    if [[ "$(sha256sum "$target" | cut -d' ' -f1)" != "$sha" ]]; then
        echo "$file: sha256 differs from the pin ($repo@$commit:$path)" >&2
        rm -f "$target"; failed=1
    fi
done < "$PINS"
exit "$failed"
