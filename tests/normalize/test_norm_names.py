"""Person names as dblp, the ACL Anthology, BibTeX files and reference strings write them."""

from __future__ import annotations

import pytest

from refhound.normalize.names import (
    NameMatch,
    PersonName,
    is_et_al,
    name_key,
    name_words,
    names_match,
    parse_name,
)


@pytest.mark.parametrize(
    ("text", "given", "family"),
    [
        ("Kaiming He", "Kaiming", "He"),
        ("He, Kaiming", "Kaiming", "He"),
        ("Chenglong Li 0002", "Chenglong", "Li"),  # dblp disambiguation number
        ("van der Maaten, Laurens", "Laurens", "van der Maaten"),
        ("L. van der Maaten", "L.", "van der Maaten"),
        ("Laurens Van der Maaten", "Laurens", "Van der Maaten"),
        ("Ludwig van Beethoven", "Ludwig", "van Beethoven"),
        ("van der Waals, J. D.", "J. D.", "van der Waals"),
        ("de la Cruz, María", "María", "de la Cruz"),
        ("María de la Cruz", "María", "de la Cruz"),
        ("Jean-Baptiste d'Alembert", "Jean-Baptiste", "d'Alembert"),
        ("Jean-Christophe Gagnon-Audet", "Jean-Christophe", "Gagnon-Audet"),
        ("Blaise Agüera y Arcas", "Blaise", "Agüera y Arcas"),
        ("Marek Eliáš", "Marek", "Eliáš"),
        ("Ulrich Aïvodji", "Ulrich", "Aïvodji"),
        (r"J{\"u}rgen Schmidhuber", "Jürgen", "Schmidhuber"),
        (r"{\L}ukasz Kaiser", "Łukasz", "Kaiser"),
        ("Francesco d&apos;Amore", "Francesco", "d'Amore"),
        ("Smith JA", "J. A.", "Smith"),  # Vancouver / PubMed order
        ("Smith J.A.", "J.A.", "Smith"),
        ("Lapedriza À", "À.", "Lapedriza"),  # initials need not be ASCII
        ("van der Waals JD", "J. D.", "van der Waals"),
        ("F.M. Last", "F.M.", "Last"),
        ("J.-C. Gagnon", "J.-C.", "Gagnon"),
        ("Daniel M. Ziegler", "Daniel M.", "Ziegler"),
        ("Smith, Jr., John", "John", "Smith"),
        ("John Smith Jr.", "John", "Smith"),
        ("Renato Ferreira Pinto Junior", "Renato Ferreira", "Pinto"),
        ("Chang M-W", "M.-W.", "Chang"),  # Vancouver initials of a hyphenated given name
        ("Yih W-t", "W.-T.", "Yih"),
        ("Martin Luther King, Jr.", "Martin Luther", "King"),
        ("Henry Ford III", "Henry", "Ford"),
        ("Daumé III, Hal", "Hal", "Daumé"),  # Chicago and MLA invert before the suffix
        ("Pinto Jr., Renato Ferreira", "Renato Ferreira", "Pinto"),
        ("{OpenAI}", "", "OpenAI"),
        ("Le Song", "Le", "Song"),  # "Le" is a given name here, not a particle
        ("Plato", "", "Plato"),
        ("David Jones et al", "David", "Jones"),
        ("Mausam .", "", "Mausam"),  # the ACL Anthology's mononym
        ("Brian St. Thomas", "Brian", "St. Thomas"),  # "Saint" abbreviated opens the family name
    ],
)
def test_parse_name(text: str, given: str, family: str) -> None:
    assert parse_name(text) == PersonName(given, family)


def test_display() -> None:
    assert parse_name("van der Maaten, Laurens").display == "Laurens van der Maaten"
    assert parse_name("Smith JA").display == "J. A. Smith"
    assert parse_name("Plato").display == "Plato"


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("van der Maaten, Laurens", "vandermaaten"),
        ("L. van der Maaten", "vandermaaten"),
        ("Jean-Christophe Gagnon-Audet", "gagnonaudet"),
        ("Marek Eliáš", "elias"),
        ("Chenglong Li 0002", "li"),
        ("Matthias Nießner", "niessner"),
        ("Smith JA", "smith"),
    ],
)
def test_name_key(text: str, key: str) -> None:
    assert name_key(text) == key


@pytest.mark.parametrize(
    ("cited", "found", "expected"),
    [
        # Same name, formatting aside.
        ("He, Kaiming", "Kaiming He", NameMatch.EXACT),
        ("Marek Elias", "Marek Eliáš", NameMatch.EXACT),
        ("Chenglong Li", "Chenglong Li 0002", NameMatch.EXACT),
        ("Laurens Van der Maaten", "van der Maaten, Laurens", NameMatch.EXACT),
        # A capital particle that may be a given name ("Le") read into the family name as well.
        ("Ronan Le Bras", "Ronan LeBras", NameMatch.EXACT),
        ("LeBras, Ronan", "Ronan Le Bras", NameMatch.EXACT),
        ("Thanh Le Nguyen", "Thanh Nguyen", NameMatch.COMPATIBLE),
        ("Jean Christophe Gagnon-Audet", "Jean-Christophe Gagnon-Audet", NameMatch.EXACT),
        ("Jean-Christophe Gagnon Audet", "Jean-Christophe Gagnon-Audet", NameMatch.EXACT),
        ("Cheng-Long Li", "Chenglong Li", NameMatch.EXACT),
        ("Muñoz Garza, Andrés", "Andrés Muñoz Garza", NameMatch.EXACT),
        ("J. Smith", "J Smith", NameMatch.EXACT),
        (r"J{\"u}rgen Schmidhuber", "Jürgen Schmidhuber", NameMatch.EXACT),
        ("ULRICH AÏVODJI", "Ulrich Aïvodji", NameMatch.EXACT),
        ("Mausam .", "Mausam", NameMatch.EXACT),
        # In capitals a short family name is not Vancouver initials; Vancouver initials in capitals are.
        ("TE-LIN WU", "Te-Lin Wu", NameMatch.EXACT),
        ("JOHN S. Y. LEE", "John S. Y. Lee", NameMatch.EXACT),
        ("SMITH JA", "John A. Smith", NameMatch.COMPATIBLE),
        ("Jean DUPONT", "Jean Dupont", NameMatch.EXACT),  # the family name in capitals
        ("Paul LEE", "Paul Lee", NameMatch.COMPATIBLE),
        ("Karim AHMR", "A H M Rezaul Karim", NameMatch.COMPATIBLE),  # four Vancouver initials
        # A Vancouver name set in capitals, the family name four letters or fewer.
        ("BACH FR", "Francis R. Bach", NameMatch.COMPATIBLE),
        ("NG HT", "Hwee Tou Ng", NameMatch.COMPATIBLE),
        ("LEE WC", "Wang-Chien Lee", NameMatch.COMPATIBLE),
        # more Vancouver initials than a name usually has, when the record's given names spell them
        ("Batista GEAPA", "Gustavo E. A. P. A. Batista", NameMatch.COMPATIBLE),
        # a given name's customary contraction ("Md." Mohammad, "Kr." Kumar, "Wm." William)
        ("Md. Saiful Islam", "Mohammad Saiful Islam", NameMatch.COMPATIBLE),
        ("Plaban Kr. Bhowmick", "Plaban Kumar Bhowmick", NameMatch.COMPATIBLE),
        ("Wm. Smith", "William Smith", NameMatch.COMPATIBLE),
        # The same person, written more or less fully.
        ("J. Smith", "John Smith", NameMatch.COMPATIBLE),
        ("L. van der Maaten", "Laurens van der Maaten", NameMatch.COMPATIBLE),
        ("Maaten, L.", "Laurens van der Maaten", NameMatch.COMPATIBLE),
        ("J.-C. Gagnon", "Jean-Christophe Gagnon", NameMatch.COMPATIBLE),
        ("J.-C. Gagnon-Audet", "Jean-Christophe Gagnon-Audet", NameMatch.COMPATIBLE),
        ("Daniel M Ziegler", "Daniel Ziegler", NameMatch.COMPATIBLE),
        ("Daniel M. Ziegler", "Daniel Ziegler", NameMatch.COMPATIBLE),
        ("D. M. Ziegler", "Daniel M. Ziegler", NameMatch.COMPATIBLE),
        ("Smith JA", "John A. Smith", NameMatch.COMPATIBLE),
        ("Smith", "John Smith", NameMatch.COMPATIBLE),
        ("Li Chenglong", "Chenglong Li", NameMatch.COMPATIBLE),  # East-Asian order
        ("Trung Quoc Luong", "Luong Trung", NameMatch.COMPATIBLE),  # swapped, middle name on one side
        ("Will Hamilton", "William L. Hamilton", NameMatch.COMPATIBLE),  # a short form of the given name
        ("Christopher Wilhelm", "Chris Wilhelm", NameMatch.COMPATIBLE),
        ("Kaiming HE", "Kaiming He", NameMatch.COMPATIBLE),
        ("A. Muñoz Garza", "Muñoz Garza, Andrés", NameMatch.COMPATIBLE),
        ("José Hernández-Lobato", "José Miguel Hernández-Lobato", NameMatch.COMPATIBLE),
        ("Ch. Manning", "Christopher D. Manning", NameMatch.COMPATIBLE),
        ("St. Thomas, B.", "Brian St. Thomas", NameMatch.COMPATIBLE),
        ("Zico Kolter", "J. Zico Kolter", NameMatch.COMPATIBLE),  # going by the second given name
        ("Brendan McMahan", "H. Brendan McMahan", NameMatch.COMPATIBLE),
        ("Ricky T.Q. Chen", "Tian Qi Chen", NameMatch.COMPATIBLE),  # an adopted name before the initials
        # BibTeX reads "Ronan Le Bras" as given names "Ronan Le": a record writing the particle joined
        ("R. L. Bras", "Ronan LeBras", NameMatch.COMPATIBLE),
        ("Jessica DeSouza", "J. D. Souza", NameMatch.COMPATIBLE),
        # Different people.
        ("John Smith", "Jane Smith", NameMatch.NONE),
        ("J. Smith", "A. Smith", NameMatch.NONE),
        ("John A. Smith", "John B. Smith", NameMatch.NONE),
        ("John Smith", "John Smyth", NameMatch.NONE),
        ("Kaiming He", "Kaiming Li", NameMatch.NONE),
        ("Yann LeCun", "Yoshua Bengio", NameMatch.NONE),
        ("Li Chenglong", "Li Wei", NameMatch.NONE),
        ("TE-LIN WU", "Te-Lin Xu", NameMatch.NONE),
        ("Paul LEE", "Paul Li", NameMatch.NONE),
        ("BACH FR", "Francis R. Bech", NameMatch.NONE),
        ("NG HT", "Kevin T. Ng", NameMatch.NONE),
        ("Batista GEAPA", "Gustavo E. A. P. B. Batista", NameMatch.NONE),
        ("Md. Islam", "Mark Islam", NameMatch.NONE),  # letters of another name, or not in order
        ("Dr. Smith", "David Smith", NameMatch.NONE),
        ("Wei SMITH", "Wei Smith Jones", NameMatch.NONE),
        ("Trung Quoc Luong", "Luong Wei", NameMatch.NONE),
        ("Wi Hamilton", "William Hamilton", NameMatch.NONE),  # too short to be a short form
        ("Zico Kolter", "J. Marco Kolter", NameMatch.NONE),
        ("Ricky T. Chen", "Tian Chen", NameMatch.NONE),  # one initial names too little
        ("R. K. Bras", "Ronan LeBras", NameMatch.NONE),  # the initial is not the particle's
        ("A. L. Bras", "Ronan LeBras", NameMatch.NONE),
        ("Willa Hamilton", "William Hamilton", NameMatch.NONE),
        ("et al.", "John Smith", NameMatch.NONE),
        ("Chang M-W", "Ming-Wei Chang", NameMatch.COMPATIBLE),
        ("Renato Ferreira Pinto Jr.", "Renato Ferreira Pinto Junior", NameMatch.EXACT),
        ("", "John Smith", NameMatch.NONE),
    ],
)
def test_names_match(cited: str, found: str, expected: NameMatch) -> None:
    assert names_match(cited, found) is expected
    assert names_match(found, cited) is expected


@pytest.mark.parametrize(
    "text",
    [
        "et al.",
        "et al",
        "et. al.",
        "Et Al.",
        "and others",
        "others",
        "et alii",
        " et al.,",
        "and 1 others",
        "8 others",
    ],
)
def test_is_et_al(text: str) -> None:
    assert is_et_al(text)


@pytest.mark.parametrize(
    "text", ["Al Smith", "Alan Turing", "Others, Jane", "Ethan Allen", "1999 others were"]
)
def test_is_not_et_al(text: str) -> None:
    assert not is_et_al(text)


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("Chee Wee (Ben) Leong", ["chee", "wee", "ben", "leong"]),
        ("M.-W. Chang", ["m", "w", "chang"]),
        ("Wei Wang 0001", ["wei", "wang"]),  # dblp's number for namesakes is no word of the name
        ("Jürgen Schmidhuber", ["jurgen", "schmidhuber"]),
    ],
)
def test_name_words(name: str, words: list[str]) -> None:
    assert name_words(name) == tuple(words)
