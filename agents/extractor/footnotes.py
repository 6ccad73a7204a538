"""Footnote-style references: papers (law, history, humanities) that cite in footnotes and have no list.

A page's footnotes are the lines under its last line of body text, set smaller than the body; a footnote
opens with its number (raised, or printed before the text). Only footnotes that read like references (a year
or an identifier, and several words) are kept, and the result says they came from footnotes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from refhound.agents.extractor.segment import Entry
from refhound.pdf.layout import Line, body_font_size

_FOOTNOTE_NUMBER = re.compile(r"^(\d{1,3})\s+(?=\S)")
_SMALLER_BY = 0.8  # points


def footnote_entries(pages: Sequence[Sequence[Line]]) -> list[Entry]:
    """The footnotes of every page, one entry each, in page order."""
    body_size = body_font_size(line for page in pages for line in page)
    entries: list[Entry] = []
    for lines in pages:
        by_y = sorted(lines, key=lambda line: (line.y0, line.x0))
        last_body = max(
            (i for i, line in enumerate(by_y) if line.size > body_size - _SMALLER_BY), default=None
        )
        if last_body is None:
            continue
        for line in by_y[last_body + 1 :]:
            number = line.marker or (match.group(1) if (match := _FOOTNOTE_NUMBER.match(line.text)) else "")
            if number:
                text = line.text if line.marker else _FOOTNOTE_NUMBER.sub("", line.text, count=1)
                entries.append(Entry([replace(line, text=text)], int(number)))
            elif entries and entries[-1].page == line.page:
                entries[-1].lines.append(line)
    return entries
