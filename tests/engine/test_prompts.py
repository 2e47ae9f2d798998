"""What the generator reads: table rows with their column names; other passages as written."""

from __future__ import annotations

from citedesk_engine.answer.prompts import best_blocks, build_messages, table_rows
from citedesk_engine.types import EvidenceUnit

RELEASES = (
    "version,codename,series,created,release,eol\n"
    "9,Stretch,stretch,2015-04-25,2017-06-17,2020-07-18\n"
    "10,Buster,buster,2017-06-17,2019-07-06,2022-09-10\n"
    '11,"Bullseye",bullseye,2019-07-06,2021-08-14,2024-08-14'
)


def unit(passage: str, context: str = "") -> EvidenceUnit:
    return EvidenceUnit("v-00000", "/docs/t", "v", 0, passage, 0, len(passage), context=context)


def test_a_csv_unit_is_read_row_by_row_with_its_column_names() -> None:
    table = unit(RELEASES, context=RELEASES.split("\n")[0])
    rows = table_rows(table)
    assert rows is not None and len(rows) == 3
    assert ("codename", "Bullseye") in rows[2]  # CSV quoting is undone
    prompt = build_messages("When was Debian 10 released?", [table], max_chars=120)[1]["content"]
    assert "version: 10; codename: Buster; series: buster; created: 2017-06-17; release: 2019-07-06" in prompt
    assert "Stretch" not in prompt  # the rows nearest the question fill the room first


def test_a_table_built_by_the_extractors_is_read_the_same_way() -> None:
    header = "Item | Amount | Owner"
    table = unit("Item 3 | 103 | Finance\nItem 4 | 104 | Legal", context=header)
    prompt = build_messages("Who owns item 4?", [table], max_chars=500)[1]["content"]
    assert "Item: Item 4; Amount: 104; Owner: Legal" in prompt


def test_a_passage_with_a_section_context_is_no_table() -> None:
    prose = unit(
        "The harbour handled 4.2 million containers, a record.\nIt grew again.", context="Annual report"
    )
    assert table_rows(prose) is None
    assert (
        "The harbour handled 4.2 million containers"
        in build_messages("How many?", [prose], max_chars=500)[1]["content"]
    )


def test_the_first_rows_of_a_table_carry_the_header_once_in_the_index_text() -> None:
    header = RELEASES.split("\n")[0]
    assert unit(RELEASES, context=header).index_text == RELEASES
    assert unit("10,Buster", context=header).index_text == f"{header}\n10,Buster"
    titled = EvidenceUnit(
        "v-00001", "/d/debian.csv", "v", 1, "10,Buster", 0, 9, section="debian.csv", context=header
    )
    assert titled.index_text == f"debian.csv\n{header}\n10,Buster"


def test_a_passage_in_another_language_is_cut_around_the_words_of_the_translated_question() -> None:
    filler = " ".join(f"Der Abschnitt {i} beschreibt die Verwaltung der Pakete." for i in range(40))
    text = f"{filler} Der Grundschulunterricht ist obligatorisch und unentgeltlich."
    unit = EvidenceUnit("v-0", "/docs/rechte.txt", "v", 0, text, 0, len(text))
    question = "Is elementary schooling free of charge?"
    plain = build_messages(question, [unit], max_chars=300)[1]["content"]
    assert "Grundschulunterricht" not in plain  # no English word to find it by: the start is kept
    translated = build_messages(
        question,
        [unit],
        max_chars=300,
        translated={"de": "Ist der Grundschulunterricht unentgeltlich?"},
        language_of={"/docs/rechte.txt": "de"}.__getitem__,
    )[1]["content"]
    assert "Der Grundschulunterricht ist obligatorisch und unentgeltlich." in translated
    assert translated.endswith(f"Question: {question}\nAnswer:")  # asked as the user asked


def test_the_one_row_a_question_names_is_shown_alone_and_an_ordering_question_sees_them_all() -> None:
    prices = "IBM,Jul 1 2009,116.34\nIBM,Aug 1 2009,117\nIBM,Dec 1 2009,130.32\nIBM,Jan 1 2010,121.85"
    table = unit(prices, context="symbol,date,price")
    prompt = build_messages("What was IBM's price on Dec 1 2009?", [table], max_chars=500)[1]["content"]
    assert "date: Dec 1 2009; price: 130.32" in prompt and "Jul 1 2009" not in prompt  # it took July's
    prompt = build_messages("Which month came after Dec 1 2009 for IBM?", [table], max_chars=500)[1][
        "content"
    ]
    assert prompt.index("Jul 1 2009") < prompt.index("Dec 1 2009") < prompt.index("Jan 1 2010")
    # no row shares more of the question's words than all others: all of them, in table order
    prompt = build_messages("What was IBM's price in 2009?", [table], max_chars=500)[1]["content"]
    assert prompt.index("Jul 1 2009") < prompt.index("Aug 1 2009") < prompt.index("Dec 1 2009")


def test_of_a_tables_blocks_the_one_whose_row_the_question_names_is_shown_alone() -> None:
    # plotly's election.csv: each block was shown as its best row; the model cited district 141's
    # votes (4308) for district 101's, from the second block.
    header = "district,Coderre,Bergeron,Joly,total,winner,result,district_id"

    def block(number: int, rows: str, document: str = "/docs/election.csv") -> EvidenceUnit:
        return EvidenceUnit(f"e-{number}", document, "v", number, rows, 0, len(rows), context=header)

    first = block(
        0,
        "101-Bois-de-Liesse,2481,1829,3024,7334,Joly,plurality,101\n102-Cap,2525,1163,2675,6363,Joly,plurality,102",
    )
    second = block(
        1,
        "141-Côte-de-Liesse,4308,1320,3959,9587,Coderre,plurality,141\n142-Norman,4104,1459,2822,8385,Coderre,plurality,142",
    )
    prose = unit("Coderre won the 2013 election.")
    question = "How many votes did Coderre get in district 101-Bois-de-Liesse?"
    assert best_blocks([second, first, prose], question) == [first, prose]
    # a block none of whose rows shares a word is no better ("district 33-Snowdon" was answered with
    # district 101's figure from the table's first block)
    snowdon = "How many votes did Joly get in district 33-Snowdon?"
    third = block(
        3,
        "33-Snowdon,1548,1503,1636,4687,Joly,plurality,33\n34-Notre-Dame,1773,2653,3262,7688,Joly,plurality,34",
    )
    assert best_blocks([first, third], snowdon) == [third]
    # another table's block, and a question comparing rows, keep every block
    other = block(
        2, "141-Côte-de-Liesse,1,2,3,6,Joly,plurality,141\n9-X,1,2,3,6,Joly,plurality,9", "/docs/other.csv"
    )
    assert best_blocks([first, other], question) == [first, other]
    assert best_blocks([first, second], "Which district gave Coderre the most votes?") == [first, second]
    # the same document's prose, and its other tables, are not blocks of this table: prose beside a
    # table of the logging HOWTO failed with a KeyError
    same_prose = EvidenceUnit("e-9", "/docs/election.csv", "v", 9, "Coderre won.", 0, 12)
    totals = EvidenceUnit("e-8", "/docs/election.csv", "v", 8, "Joly,9", 0, 6, context="winner,districts")
    assert best_blocks([second, first, same_prose, totals], question) == [first, same_prose, totals]


# Python's venv tutorial (PSF-2.0), section 12.2, as the HTML extractor writes it.
VENV = (
    "12.2. Creating Virtual Environments\n\n"
    "The module used to create and manage virtual environments is called venv. If you have multiple "
    "versions of Python on your system, you can select a specific Python version by running python3.\n\n"
    "To create a virtual environment, decide upon a directory where you want to place it, and run the "
    "venv module as a script with the directory path:\n\n"
    "python3 -m venv tutorial-env\n\n"
    "This will create the tutorial-env directory if it doesn't exist, and also create directories inside "
    "it containing a copy of the Python interpreter and various supporting files.\n\n"
    "A common directory location for a virtual environment is .venv."
)


def test_a_passage_of_logical_lines_keeps_them_and_a_page_passage_is_joined() -> None:
    text = unit(VENV)
    prompt = build_messages("Which directory name is common?", [text], max_chars=2000)[1]["content"]
    assert "directory path:\npython3 -m venv tutorial-env\nThis will create" in prompt
    boxed = EvidenceUnit(
        "p-0", "/docs/a.pdf", "v", 0, VENV, 0, len(VENV), page=1, boxes=((1, 0.0, 0.0, 9.0, 9.0, 0, 9, -1.0),)
    )
    prompt = build_messages("Which directory name is common?", [boxed], max_chars=2000)[1]["content"]
    assert "directory path: python3 -m venv tutorial-env This will create" in prompt


def test_the_sentence_picked_holds_the_question_s_words_in_its_order_not_the_heading() -> None:
    question = "How do I create a virtual environment?"
    section = "12.2. Creating Virtual Environments"
    text = EvidenceUnit("h-0", "/docs/venv.html", "v", 0, VENV, 0, len(VENV), section=section)
    # "to create and manage virtual environments" holds the words, "To create a virtual environment"
    # holds them in order; the heading holds them too, and opens every passage of its section
    prompt = build_messages(question, [text], max_chars=200)[1]["content"]
    assert "To create a virtual environment" in prompt and "python3 -m venv tutorial-env" in prompt
    assert "Creating Virtual Environments" not in prompt
