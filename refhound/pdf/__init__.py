"""A PDF's text, as people read it: shared by the extractor agent (reference lists) and the quote checker
(the full text of a cited source).

    document   open a PDF safely (every user error an `InputError`), each page's lines, OCR for pages
               without a text layer
    layout     lines in reading order across columns, running headers and footers dropped, hyphenation,
               ligatures and TeX's separate accents repaired
"""
