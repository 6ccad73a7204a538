"""The LLM reference-string parser: the request it sends, and what survives of the model's reply."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from refhound.agents.extractor.llm_backend import (
    SCHEMA_NAME,
    LLMReferenceParser,
    ReferenceFields,
    fields_from_reply,
)
from refhound.errors import LLMInvalidReply, LLMUnavailable
from refhound.llm import LLMClient, unbounded_strings
from refhound.models import ParsedFields
from refhound.settings import LLMSettings
from tests.llm_server import FakeLLMServer, error

VASWANI = (
    "Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones, Aidan N. Gomez, Łukasz Kaiser, "
    "and Illia Polosukhin. 2017. Attention is all you need. In Advances in Neural Information Processing "
    "Systems 30, pages 5998–6008. arXiv:1706.03762v5"
)
DEVLIN = (
    "J. Devlin, M.-W. Chang, K. Lee, and K. Toutanova, “BERT: Pre-training of deep bidirectional "
    "transformers for language understanding,” in Proc. NAACL-HLT, 2019, pp. 4171–4186, "
    "doi: 10.18653/V1/N19-1423."
)
VASWANI_AUTHORS = [
    "Ashish Vaswani",
    "Noam Shazeer",
    "Niki Parmar",
    "Jakob Uszkoreit",
    "Llion Jones",
    "Aidan N. Gomez",
    "Łukasz Kaiser",
    "Illia Polosukhin",
]


def reply(**fields: Any) -> dict[str, Any]:
    """A complete model reply: every key present, null unless given."""
    keys = ("title", "venue", "year", "doi", "arxiv_id", "url", "volume", "pages")
    return {"authors": []} | dict.fromkeys(keys) | fields


def convert(raw: str, **fields: Any) -> ParsedFields:
    return fields_from_reply(ReferenceFields.model_validate(reply(**fields)), raw)


@pytest.fixture()
def parser(llm_server: FakeLLMServer) -> Iterator[LLMReferenceParser]:
    with LLMClient(LLMSettings(base_url=llm_server.url, max_retries=0, timeout_s=5.0)) as client:
        yield LLMReferenceParser(client)


# --- the schema -----------------------------------------------------------------------------------------


def test_schema_bounds_every_field() -> None:
    schema = ReferenceFields.model_json_schema()
    assert unbounded_strings(schema) == []
    properties = schema["properties"]
    assert set(schema["required"]) == set(properties) == {
        "title", "authors", "venue", "year", "doi", "arxiv_id", "url", "volume", "pages",
    }  # fmt: skip
    assert schema["additionalProperties"] is False
    assert properties["title"]["anyOf"][0]["maxLength"] == 500
    assert properties["venue"]["anyOf"][0]["maxLength"] == 300
    assert properties["authors"]["items"]["maxLength"] == 200
    assert properties["authors"]["maxItems"] == 100
    assert properties["year"]["anyOf"][0] | {} == {"type": "integer", "minimum": 1500, "maximum": 2100}


# --- through the server ---------------------------------------------------------------------------------


def test_parse_sends_the_reference_and_converts_the_reply(
    llm_server: FakeLLMServer, parser: LLMReferenceParser
) -> None:
    llm_server.script(
        reply(
            title="Attention is all you need",
            authors=VASWANI_AUTHORS,
            venue="Advances in Neural Information Processing Systems 30",
            year=2017,
            arxiv_id="arXiv:1706.03762v5",
            volume="30",
            pages="5998–6008",
        )
    )
    parsed = parser.parse(VASWANI)
    assert parsed == ParsedFields(
        title="Attention is all you need",
        authors=VASWANI_AUTHORS,
        venue="Advances in Neural Information Processing Systems 30",
        year=2017,
        arxiv_id="1706.03762",
        volume="30",
        pages="5998–6008",
    )
    (body,) = llm_server.requests
    assert body["temperature"] == 0
    assert body["response_format"]["json_schema"]["name"] == SCHEMA_NAME
    assert body["response_format"]["json_schema"]["schema"] == ReferenceFields.model_json_schema()
    system, user = body["messages"]
    assert "exactly as printed" in system["content"]
    assert "Never invent" in system["content"]
    assert VASWANI in user["content"]


def test_replies_over_the_length_limits_are_invalid(
    llm_server: FakeLLMServer, parser: LLMReferenceParser
) -> None:
    llm_server.script(
        reply(title="A" * 501),
        reply(authors=["Smith, J."] * 101),
        reply(authors=["x" * 201]),
        reply(year=1066),
    )
    for _ in range(4):
        with pytest.raises(LLMInvalidReply):
            parser.parse(VASWANI)
    assert len(llm_server.requests) == 4


def test_an_unavailable_server_is_reported(llm_server: FakeLLMServer, parser: LLMReferenceParser) -> None:
    llm_server.script(error(503, "loading model", "vllm"))
    with pytest.raises(LLMUnavailable):
        parser.parse(VASWANI)


def test_very_long_strings_are_cut(llm_server: FakeLLMServer, parser: LLMReferenceParser) -> None:
    llm_server.script(reply())
    parser.parse(VASWANI + " x" * 5000)
    assert len(llm_server.requests[0]["messages"][1]["content"]) < 4100


# --- the conversion -------------------------------------------------------------------------------------


def test_identifiers_are_normalized() -> None:
    parsed = convert(DEVLIN, doi="doi: 10.18653/V1/N19-1423", year=2019, pages="4171–4186")
    assert parsed.doi == "10.18653/v1/n19-1423"
    assert parsed.year == 2019
    assert parsed.pages == "4171–4186"


def test_an_invented_doi_is_dropped() -> None:
    assert convert(VASWANI, doi="10.5555/3295222.3295349").doi is None


def test_a_truncated_doi_is_dropped_and_the_printed_one_kept() -> None:
    assert convert(DEVLIN, doi="10.18653/v1/N19-142").doi == "10.18653/v1/n19-1423"


def test_printed_identifiers_the_model_missed_are_filled_in() -> None:
    assert convert(DEVLIN).doi == "10.18653/v1/n19-1423"
    assert convert(VASWANI).arxiv_id == "1706.03762"


def test_an_invented_arxiv_id_is_dropped() -> None:
    assert convert(DEVLIN, arxiv_id="1810.04805").arxiv_id is None


def test_an_old_style_arxiv_id_as_printed_is_kept() -> None:
    raw = "W. Thurston. Three-manifolds, foliations and circles, I. arXiv:math.GT/9712268, 1997."
    assert convert(raw, arxiv_id="math.GT/9712268").arxiv_id == "math/9712268"


def test_an_invented_title_is_dropped() -> None:
    assert convert(VASWANI, title="Attention Is All You Need for Translation").title is None


def test_a_title_is_matched_on_folded_text() -> None:
    parsed = convert(
        DEVLIN, title="BERT: pre-training of deep bidirectional transformers for language understanding."
    )
    assert parsed.title == "BERT: pre-training of deep bidirectional transformers for language understanding"


def test_other_invented_fields_are_dropped() -> None:
    parsed = convert(
        VASWANI,
        venue="NeurIPS",
        year=2018,
        url="https://papers.nips.cc/paper/7181",
        volume="3",
        pages="1-11",
    )
    assert parsed == ParsedFields(arxiv_id="1706.03762")  # the printed id, filled in


def test_reformatted_authors_are_kept_and_invented_ones_dropped() -> None:
    parsed = convert(DEVLIN, authors=["Jacob Devlin", "M.-W. Chang", "Kenton Lee", "Geoffrey Hinton"])
    assert parsed.authors == ["Jacob Devlin", "M.-W. Chang", "Kenton Lee"]


def test_et_al_marks_the_list_truncated() -> None:
    raw = "T. Brown et al. Language models are few-shot learners. In NeurIPS, 2020."
    parsed = convert(raw, authors=["T. Brown", "et al."], venue="NeurIPS", year=2020)
    assert parsed.authors == ["T. Brown"]
    assert parsed.authors_truncated
    assert parsed.venue == "NeurIPS"
    assert not convert(VASWANI, authors=VASWANI_AUTHORS).authors_truncated


def test_a_printed_url_is_kept() -> None:
    raw = "OpenAI. GPT-4 technical report. 2023. https://cdn.openai.com/papers/gpt-4.pdf"
    assert convert(raw, url="https://cdn.openai.com/papers/gpt-4.pdf").url == (
        "https://cdn.openai.com/papers/gpt-4.pdf"
    )
