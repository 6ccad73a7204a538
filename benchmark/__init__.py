"""Benchmarks for verifiers (`refhound bench`): load labelled citations, run a verifier, score it honestly.

    items      what a loader returns (labelled items that know their line), the input modes, the strict
               input error
    loaders    CiteAudit benchmark.json, HALLMARK .jsonl, labelled BibTeX
    runner     items → references (fields or the raw string), batches, timing, Ctrl-C
    metrics    confusion counts and rates, per-type detection, coverage
    results    the refhound.bench/1 JSON and the Markdown summary
    plot       the PNG (confusion matrix, per-type detection)
    export     items → BibTeX (an index of a split's VALID entries; labelled .bib files)

The generator (`refhound bench generate`, docs/benchmark-generator.md):

    generate   the plan of slots and the JSONL writer
    sample     a seeded walk over an index's records, the pools, and the "equal to a real record" check
    perturb_title, perturb_fields   the CiteAudit taxonomy of errors
    styles     ACL, IEEE, APA and Springer-like reference strings

Positive = hallucinated throughout.
"""
