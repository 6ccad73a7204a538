"""A loopback OpenReview API (v2), as openreview-py's `OpenReviewClient` reads it: `GET /notes` selected by
`content.venueid` or `invitation`, sorted by id, paged by `limit` and `after`, answering
`{"notes": [...], "count": N}` (the count when asked); `GET /attachment?id=&name=pdf` answering the PDF, or
OpenReview's JSON error (`{"name": "ForbiddenError", "message": …}`, 403) for a note only a token may read.
Its notes are either v2 notes as given, or refchecker's reshaped copies of real notes (`../shared`) wrapped
back into v2's `{"value": …}` fields (`v2_note`)."""

from __future__ import annotations

import json
from typing import Any

import pymupdf as fitz

from tests.sources.fake_service import FakeService, Reply, Request, json_reply


def v2_note(reshaped: dict[str, Any]) -> dict[str, Any]:
    """A note of refchecker's reshaped form (flat title, authors, venue, venueid, pdf_url) in the v2 shape."""
    content = {
        name: {"value": reshaped[key]}
        for name, key in (
            ("title", "title"),
            ("authors", "authors"),
            ("venue", "venue"),
            ("venueid", "venueid"),
            ("pdf", "pdf_url"),
        )
        if reshaped.get(key) is not None
    }
    return {"id": reshaped["id"], "forum": reshaped["id"], "content": content}


def paper_pdf(title: str) -> bytes:
    """A one-page PDF with the title and a two-item reference list (real works)."""
    document = fitz.open()
    page = document.new_page()
    text = (
        f"{title}\n\nAbstract. An example.\n\nReferences\n\n"
        "[1] Kaiming He, Xiangyu Zhang, Shaoqing Ren, and Jian Sun. Deep residual learning for image "
        "recognition. In CVPR, 2016.\n"
        "[2] Sarthak Jain and Byron C. Wallace. Attention is not explanation. In NAACL-HLT, 2019.\n"
    )
    page.insert_textbox(fitz.Rect(50, 50, 550, 800), text, fontsize=10)
    data: bytes = document.tobytes()
    document.close()
    return data


class OpenReviewServer(FakeService):
    name = "openreview"

    def __init__(
        self, notes: list[dict[str, Any]], private: frozenset[str] = frozenset(), token: str = ""
    ) -> None:
        self.notes = sorted(notes, key=lambda note: note["id"])
        self.private = private  # note ids whose PDF only the token may read
        self.token = token
        self.pdfs = {note["id"]: paper_pdf(_title(note)) for note in notes}
        super().__init__()

    def answer(self, request: Request) -> Reply:
        if request.path == "/notes":
            return self._notes(request.params)
        if request.path == "/attachment" and request.params.get("name") == "pdf":
            note_id = request.params.get("id", "")
            if note_id not in self.pdfs:
                return _error(404, "NotFoundError", f"The Note {note_id} was not found")
            if note_id in self.private and request.headers.get("authorization") != f"Bearer {self.token}":
                return _error(403, "ForbiddenError", "You don't have permission to read this attachment")
            return Reply(200, self.pdfs[note_id], "application/pdf")
        return _error(404, "NotFoundError", f"no route {request.path}")

    def _notes(self, params: dict[str, str]) -> Reply:
        if "content.venueid" in params:
            selected = [n for n in self.notes if _value(n, "venueid") == params["content.venueid"]]
        elif "invitation" in params:
            selected = [n for n in self.notes if params["invitation"] in n.get("invitations", [])]
        else:
            return _error(400, "ValidationError", "a filter is required")
        after = params.get("after")
        page = [n for n in selected if after is None or n["id"] > after][: int(params.get("limit", 1000))]
        body: dict[str, Any] = {"notes": page}
        if params.get("count") == "true":
            body["count"] = len(selected)
        return json_reply(body)


def _value(note: dict[str, Any], name: str) -> Any:
    field = note.get("content", {}).get(name)
    return field.get("value") if isinstance(field, dict) else None


def _title(note: dict[str, Any]) -> str:
    return str(_value(note, "title") or note["id"])


def _error(status: int, name: str, message: str) -> Reply:
    return Reply(
        status, json.dumps({"name": name, "message": message, "status": status}).encode(), "application/json"
    )
