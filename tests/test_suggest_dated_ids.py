"""Review → Suggested fixes offered "take the date out of 'TVA 2025/114'", rewriting a report number to "TVA /114"
(walk24 finding 9): a year inside an identifier or reference number is no date in a predicate. New text: a water
board's permit register, on a real graph (Milvus Lite)."""

from __future__ import annotations

import json

import pytest

from vgrag.editing.suggest import date_in

PERMITS = [  # written for this test
    ("Permit register", "The Ostvale Water Board issued permit WB 2019/0457 to Kessler Dairies. The plant is certified "
     "to ISO 14001:2015. The inspector filed report HX-2021-88 on the outfall. Kessler Dairies was fined in 2022.",
     [["Ostvale Water Board", "issued permit WB 2019/0457 to", "Kessler Dairies"],
      ["Kessler Dairies plant", "certified to ISO 14001:2015", "ISO"],
      ["inspector", "filed report HX-2021-88 on", "outfall"],
      ["inspector", "filed under WB 2020", "outfall report"],
      ["Kessler Dairies", "fined in 2022 by", "Ostvale Water Board"]]),
]  # fmt: skip


@pytest.fixture
def g(ws):
    ws.drop("permits")
    docs = [{"title": t, "text": x, "extracted_triples": ts, "extracted_entities": []} for t, x, ts in PERMITS]
    ws.import_triples(("permits.json", json.dumps({"docs": docs}).encode()), graph="permits")
    yield "permits"
    ws.drop("permits")


def test_a_year_inside_a_reference_number_is_never_offered_as_a_date(ws, g):
    titles = [s.title for s in ws.suggestions(g, "dated")]
    assert titles == ["take the date out of 'fined in 2022 by'"], titles  # the real date only


@pytest.mark.parametrize("text, date", [
    ("TVA 2025/114", None), ("WM/23/2019", None), ("ISO 9001:2015", None), ("report 2019-07-03", None),
    ("code AB 2024", None), ("published in, in 2012", "in 2012"), ("born 12 March 1990 in", "12 March 1990"),
    ("ref 2019/3, renewed in 2021", "in 2021"), ("active in the 1990s", "in the 1990s"),
])  # fmt: skip
def test_date_in_skips_years_that_belong_to_an_identifier(text, date):
    m = date_in(text)
    assert (m.group() if m else None) == date
