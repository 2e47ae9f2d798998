"""A document's language is read from its running text; a table of figures has none."""

from __future__ import annotations

from citedesk_engine.languages import UNDETERMINED, detect_language, running_text
from citedesk_engine.retrieve.reformulate import search_languages

PROSE = (
    "The harbour authority reported that container traffic grew steadily through the year, while the "
    "number of cruise ships calling at the port fell after the new terminal was delayed. Most of the "
    "growth came from the northern quays, where two cranes were added in the spring."
)
GERMAN = (
    "Alle Menschen sind frei und gleich an Würde und Rechten geboren. Sie sind mit Vernunft und "
    "Gewissen begabt und sollen einander im Geist der Brüderlichkeit begegnen. Jeder hat Anspruch auf "
    "die in dieser Erklärung verkündeten Rechte und Freiheiten ohne irgendeinen Unterschied."
)


def _prices() -> str:
    months = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
    rows = ["symbol,date,price"]
    for symbol in ("MSFT", "AMZN", "IBM", "GOOG", "AAPL"):
        for year in range(2000, 2010):
            rows += [
                f"{symbol},{month} 1 {year},{(year * 7 + i * 13) % 300 + 0.25:.2f}"
                for i, month in enumerate(months)
            ]
    return "\n".join(rows)


def test_a_table_of_tickers_dates_and_prices_has_no_language() -> None:
    # vega's stocks.csv was read as Volapuk at 0.87, and every question was translated into it
    assert running_text(_prices()) == []
    assert detect_language(_prices()) == UNDETERMINED


def test_prose_is_read_by_its_language() -> None:
    assert detect_language(PROSE) == "en"
    assert detect_language(GERMAN) == "de"


def test_chinese_with_commas_inside_a_sentence_is_running_text() -> None:
    chinese = (
        "鉴于对人类家庭所有成员的固有尊严及其平等的和不移的权利的承认,乃是世界自由、正义与和平的基础,"
        "鉴于对人权的无视和侮蔑已发展为野蛮暴行,这些暴行玷污了人类的良心。"
    ) * 3
    assert detect_language(chinese) == "zh"


def test_a_manual_opening_with_its_contents_is_read_by_its_prose() -> None:
    contents = "\n".join(
        f"{i}.{j} Section {i} {j} . . . . . . . . {i * 10 + j}" for i in range(1, 40) for j in range(1, 9)
    )
    assert detect_language(contents + "\n" + PROSE * 8) == "en"


def test_a_table_with_a_column_of_sentences_is_read_by_them() -> None:
    rows = ["id,review,stars"] + [
        f"{i},{sentence},{i % 5 + 1}" for i, sentence in enumerate(PROSE.split(". "))
    ]
    assert detect_language("\n".join(rows * 4)) == "en"


def test_a_mixed_library_is_only_translated_into_languages_the_answer_model_writes() -> None:
    library = {"stocks.csv": "vo", "notes.txt": "en", "bericht.pdf": "de"}
    assert search_languages(["auto"], library) == ["de", "en"]  # not Volapuk, read from a table
    assert search_languages(["auto", "vo"], library) == ["de", "en", "vo"]  # unless asked for
