"""Records from each flavour of page metadata, as real sites write it (tests/web/pages.py)."""

from __future__ import annotations

import pytest

from refhound.models import Record
from refhound.net.decode import decode_html, looks_like_html
from refhound.web.crawl import page_address
from refhound.web.metadata import needs_javascript, records_from_html
from tests.web import pages

PAGE = "http://127.0.0.1:8000/page"


def only(url: str, html: str) -> Record:
    records = records_from_html(url, html)
    assert len(records) == 1, records
    return records[0]


def test_an_arxiv_abstract_page_is_the_preprint_itself() -> None:
    record = only(PAGE, pages.ARXIV_ABS)
    assert record.title == "Attention Is All You Need"
    # citation_author is "Family, Given" on arXiv.
    assert record.authors[:2] == ["Ashish Vaswani", "Noam Shazeer"]
    assert record.authors[5] == "Aidan N. Gomez"
    assert len(record.authors) == 8
    # citation_date is the first version's (2017), citation_online_date this version's (2023).
    assert (record.year, record.venue, record.entry_type) == (2017, "arXiv", "preprint")
    assert record.arxiv_id == "1706.03762"
    assert record.doi is None  # arXiv's own DataCite DOI is not the work's DOI
    assert (record.source, record.source_id) == ("web", "https://arxiv.org/abs/1706.03762v7")
    assert record.url == "https://arxiv.org/abs/1706.03762"


def test_an_arxiv_page_without_tags_is_read_from_its_structure() -> None:
    record = only(PAGE, pages.ARXIV_WITH_RELATED_DOI)
    assert record.title == "Deep Residual Learning for Image Recognition"
    assert record.authors == ["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"]
    assert (record.year, record.arxiv_id) == (2015, "1512.03385")
    assert record.doi == "10.1109/cvpr.2016.90"  # the "Related DOI", not 10.48550/arXiv.…


def test_an_acl_anthology_proceedings_paper() -> None:
    record = only(PAGE, pages.ACL_PAPER)
    assert record.title == "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding"
    assert record.authors == ["Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova"]
    assert record.venue is not None and record.venue.startswith(
        "Proceedings of the 2019 Conference of the North"
    )
    assert (record.year, record.doi, record.entry_type) == (2019, "10.18653/v1/n19-1423", "inproceedings")
    assert record.source_id == "https://aclanthology.org/N19-1423"


def test_an_acl_anthology_journal_paper_falls_back_on_the_details_list() -> None:
    record = only(PAGE, pages.ACL_JOURNAL)
    assert record.venue == "Transactions of the Association for Computational Linguistics"
    assert record.entry_type == "article"
    # No citation_publication_date or citation_doi: the <dl> gives them.
    assert (record.year, record.doi) == (2021, "10.1162/tacl_a_00001")
    assert record.url == "https://aclanthology.org/2021.tacl-1.1/"


def test_a_dblp_record_page_names_the_venue_in_full_and_drops_the_title_period() -> None:
    record = only(PAGE, pages.DBLP_RECORD)
    assert record.title == "Attention is All you Need"
    assert record.venue is not None and record.venue.startswith("Advances in Neural Information Processing")
    assert (record.year, record.entry_type) == (2017, "inproceedings")
    assert record.url == "https://dblp.org/rec/conf/nips/VaswaniSPUJGKP17.html"


def test_a_dblp_list_page_gives_one_record_per_entry() -> None:
    preprint, article = records_from_html(PAGE, pages.DBLP_PERSON)
    assert preprint.title == "Scaling Laws for Sparse Retrieval Models?"  # a question mark stays
    assert preprint.authors == ["Wei Wang", "Jian Li"]  # dblp's "0001" numbering dropped
    assert (preprint.venue, preprint.year, preprint.arxiv_id, preprint.entry_type) == (
        "CoRR",
        2020,
        "2001.08361",
        "preprint",
    )
    assert article.title == "Efficient Subgraph Matching on Large Graphs"
    assert (article.venue, article.doi, article.entry_type) == (
        "IEEE Trans. Knowl. Data Eng.",
        "10.1109/tkde.2018.2871234",
        "article",
    )
    assert article.url == "https://dblp.org/rec/journals/tkde/WangL19.html"


def test_a_publisher_page_with_highwire_prism_and_dublin_core_tags() -> None:
    record = only(PAGE, pages.PUBLISHER_CITATION)  # citation_reference entries are not records
    assert record.title == "Deep learning"
    assert record.authors == ["Yann LeCun", "Yoshua Bengio", "Geoffrey Hinton"]
    assert (record.venue, record.year, record.doi, record.entry_type) == (
        "Nature",
        2015,
        "10.1038/nature14539",
        "article",
    )
    assert record.source_id == "https://www.nature.com/articles/nature14539"


def test_json_ld_in_a_graph_with_a_venue_up_the_is_part_of_chain() -> None:
    record = only(PAGE, pages.JSON_LD_GRAPH)  # the cited work in "citation" is not a record
    assert record.title == "Revisiting Self-Supervised Visual Representation Learning"
    assert record.authors == ["Alexander Kolesnikov", "Xiaohua Zhai", "Lucas Beyer"]
    assert record.venue == "Proceedings of the 36th International Conference on Machine Learning"
    assert (record.year, record.doi, record.entry_type) == (2019, "10.5555/revisiting", "inproceedings")


def test_json_ld_with_an_iri_type_and_loose_json_next_to_a_broken_script() -> None:
    record = only(PAGE, pages.JSON_LD_SINGLE)
    assert record.title == "Adam: A Method for Stochastic Optimization"
    assert (record.year, record.arxiv_id, record.venue) == (2015, "1412.6980", "ICLR 2015")


def test_dublin_core_only() -> None:
    record = only(PAGE, pages.DUBLIN_CORE)
    assert record.title == "Deep Residual Learning for Image Recognition"
    assert record.authors == ["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"]
    assert record.venue == "2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)"
    assert (record.year, record.doi) == (2016, "10.1109/cvpr.2016.90")
    assert record.source_id == PAGE  # no canonical link: the address fetched


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "\x00\x01\x02 binary \x00",
        "just some words, no markup",
        "<?xml version='1.0'?><html><head><meta name='citation_title' content='X'></head></html>",
        "<html><head><meta name=citation_title content=''></head></html>",
        "<html><head><meta name='citation_title'></head></html>",
        '<script type="application/ld+json">[1, "x", {"@type": 5}, {"@graph": "no"}]</script>',
        "<" * 10000,
    ],
)
def test_malformed_pages_never_raise(text: str) -> None:
    records = records_from_html(PAGE, text)
    assert all(r.title for r in records)


def test_an_xml_declared_page_is_still_read() -> None:
    text = "<?xml version='1.0' encoding='utf-8'?><html><head><meta name='citation_title' content='X Y'>"
    assert [r.title for r in records_from_html(PAGE, text)] == ["X Y"]


def test_script_built_pages_are_told_apart() -> None:
    assert needs_javascript(pages.SCRIPT_BUILT)
    assert records_from_html(PAGE, pages.SCRIPT_BUILT) == []
    for served in (pages.ARXIV_ABS, pages.NO_METADATA, pages.JSON_LD_GRAPH, pages.ACL_PAPER):
        assert not needs_javascript(served)


@pytest.mark.parametrize(
    ("url", "address"),
    [
        ("https://arxiv.org/pdf/1706.03762v7", "https://arxiv.org/abs/1706.03762v7"),
        ("https://arxiv.org/pdf/1706.03762.pdf", "https://arxiv.org/abs/1706.03762"),
        ("http://export.arxiv.org/pdf/hep-th/9901001v1", "https://arxiv.org/abs/hep-th/9901001v1"),
        ("https://aclanthology.org/N19-1423.pdf", "https://aclanthology.org/N19-1423/"),
        ("https://example.org/paper#section-2", "https://example.org/paper"),
    ],
)
def test_pdf_links_are_crawled_at_their_landing_page(url: str, address: str) -> None:
    assert page_address(url) == address


@pytest.mark.parametrize(
    ("body", "content_type", "expected", "encoding"),
    [
        ("Müller".encode("latin-1"), "text/html; charset=ISO-8859-1", "Müller", "windows-1252"),
        ("Müller".encode("cp1252") + b"\x80", "text/html", "Müller€", "windows-1252"),
        (
            '<meta charset="shift_jis">東京'.encode("shift_jis"),
            "text/html",
            '<meta charset="shift_jis">東京',
            "shift_jis",
        ),
        ("Gödel".encode(), "text/html; charset=bogus-charset", "Gödel", "utf-8"),
        (b"\xef\xbb\xbfbom", "text/html; charset=latin-1", "bom", "utf-8"),
        ("naïve".encode() + b"\xff", "text/html; charset=utf-8", "naïve\ufffd", "utf-8"),
        # Codecs Python has but no page is in: bytes-to-bytes, text-to-text, UTF-7 (never a crash).
        ("Gödel".encode(), "text/html; charset=hex", "Gödel", "utf-8"),
        (
            b'<meta charset="rot13">Caf\xe9 noir',
            "text/html",
            '<meta charset="rot13">Café noir',
            "windows-1252",
        ),
        (b'<meta charset="utf-7">+AGQ-', "text/html", '<meta charset="utf-7">+AGQ-', "utf-8"),
        (b'<meta charset="unicode_escape">\\x41', "", '<meta charset="unicode_escape">\\x41', "utf-8"),
    ],
)
def test_charsets(body: bytes, content_type: str, expected: str, encoding: str) -> None:
    assert decode_html(body, content_type) == (expected, encoding)


def test_html_is_sniffed_only_where_the_type_says_little() -> None:
    assert looks_like_html(b"  <!DOCTYPE html><html>")
    assert looks_like_html(b"<?xml version='1.0'?>\n<!-- x --><html xmlns='http://www.w3.org/1999/xhtml'>")
    assert not looks_like_html(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3")
    assert not looks_like_html(b"\x89PNG\r\n\x1a\n\x00\x00")
    assert not looks_like_html(b'{"json": true}')
