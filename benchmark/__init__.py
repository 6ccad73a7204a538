"""Benchmarks for verifiers (`refhound bench`): load labelled citations, run a verifier, score it honestly.

    items      what a loader returns (labelled items that know their line) and the strict input error
    loaders    CiteAudit benchmark.json, HALLMARK .jsonl, labelled BibTeX
    runner     items → references (fields or the raw string), batches, timing, Ctrl-C
    metrics    confusion counts and rates, per-type detection, coverage
    results    the refhound.bench/1 JSON and the Markdown summary
    plot       the PNG (confusion matrix, per-type detection)
    export     items → BibTeX (an index of a split's VALID entries; labelled .bib files)
    generate   `refhound bench generate`: the plan and the JSONL writer, built on
    sample     a seeded walk over an index's records, pools, and the "equal to a real record" check
    styles     ACL, IEEE, APA and Springer-like reference strings
    perturb_title, perturb_fields   the CiteAudit taxonomy of errors (docs/benchmark-generator.md)

Positive = hallucinated throughout.
"""
