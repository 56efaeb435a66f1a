"""Subjects and time that never lose a fact, and provenance (issue #16), through the real gate.

Each test saves through a started App on the memory and SQLite stores: another person's fact
never retires the person's own (D-117); a first-person update retires the fact it updates, in
seven languages (D-118); a statement about the past never retires the present (D-119); a
one-off request never replaces a standing preference (D-120); short identity claims are kept
(D-121); and an agent's inference is held to more than the user's word (D-122).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from jamgate_core import SaveRequest, Settings
from jamgate_core.app import App
from jamgate_stages._time import is_past


@pytest.fixture(params=["memory", "sqlite"])
def app(request: pytest.FixtureRequest, jamgate_home: Path) -> Iterator[App]:
    application = App(Settings(home=jamgate_home, store=request.param, embedder="none")).start()
    yield application
    application.close()


def save(app: App, text: str, **fields: Any) -> Any:
    fields.setdefault("source", "user-explicit")
    return app.save(SaveRequest(text=text, **fields))


def active(app: App, scope: str = "default") -> set[str]:
    return {m.text for m in app.list(scope=scope).memories}


def test_another_person_s_fact_never_retires_a_different_person_s(app: App) -> None:
    texts = [
        "I live in Athens", "My friend Anna lives in Oslo", "My friend Bob lives in Lima",
        "My sister Leda lives in Lyon", "Kenji (my manager) lives in Tokyo",
        "Mi amiga Ana vive en Madrid", "Jam's mother lives in Thessaloniki",
    ]
    verdicts = [save(app, text) for text in texts]
    assert [v.superseded_ids for v in verdicts] == [[]] * len(texts)
    assert active(app) == set(texts)
    subjects = {v.memory.text: v.memory.subject for v in verdicts}
    assert subjects["My friend Anna lives in Oslo"] == "friend-anna-location"
    assert subjects["My friend Bob lives in Lima"] == "friend-bob-location"
    assert subjects["Kenji (my manager) lives in Tokyo"] == "kenji-location"
    assert subjects["Mi amiga Ana vive en Madrid"] == "friend-ana-location"
    assert subjects["Jam's mother lives in Thessaloniki"] == "jam-mother-location"
    moved = save(app, "My friend Anna moved to Bergen")  # the same person's update does retire
    assert moved.superseded_ids == [verdicts[1].id]


# (present fact, the first-person update that replaces it), one pair per language.
UPDATES = [
    ("I live in Athens", "I moved to Thessaloniki in May"),
    ("I work at Initech", "I now work at Acme"),
    ("I work at Initech", "I started working at Hooli"),
    ("I live in Lisbon", "I'm now based in Porto"),
    ("I use Vim", "I switched to Neovim"),
    ("Ich wohne in Wien", "Ich bin nach Graz gezogen"),
    ("Ich arbeite bei Siemens", "Ich arbeite jetzt bei SAP"),
    ("J'habite à Paris", "J'ai déménagé à Lyon en mai"),
    ("Je travaille chez Renault", "Je travaille maintenant chez Airbus"),
    ("Vivo en Madrid", "Me mudé a Valencia en mayo"),
    ("Trabajo en Telefónica", "Empecé a trabajar en Globant"),
    ("Vivo a Roma", "Mi sono trasferita a Milano"),
    ("Moro em Lisboa", "Me mudei para o Porto"),
    ("Μένω στην Αθήνα", "Μετακόμισα στη Θεσσαλονίκη τον Μάιο"),
    ("Δουλεύω στην Intracom", "Ξεκίνησα να δουλεύω στη Vodafone"),
    # "new" dates the value, not the slot; a value may open with a sign (D-264)
    ("My phone number is +30 691 234 5678", "My new phone number is +30 697 765 4321"),
    ("My favorite color is blue", "My new favorite color is green"),
    ("My monthly rent is €950", "My current monthly rent is €1,020"),
]


# A wish, a plan or a feeling about living or working somewhere is no update (D-260).
NOT_AN_UPDATE = [
    ("I live in Athens", text) for text in (
        "I love living near the sea", "I'd like to live in Spain one day",
        "I want to live in Japan", "I miss living in Lisbon", "I enjoy living with my flatmates",
        "I hate living in the suburbs", "I could live in Paris forever",
        "I dream of moving to Porto one day")
] + [
    ("I work at Initech", text) for text in (
        "I'd love to work at Google", "I want to work for a startup",
        "I hope to start working at Hooli", "I applied to work at Stripe")
]


@pytest.mark.parametrize(("current", "wish"), NOT_AN_UPDATE)
def test_a_wish_keeps_the_present_fact(app: App, current: str, wish: str) -> None:
    present = save(app, current)
    verdict = save(app, wish)
    assert verdict.superseded_ids == [] and verdict.memory.subject != present.memory.subject
    assert active(app) == {current, wish}


@pytest.mark.parametrize("text", ["I'm living in Berlin now", "Living in Porto since 2020",
                                  "I've been living in Oslo for two years"])
def test_living_somewhere_now_is_a_home(app: App, text: str) -> None:
    home = save(app, "I live in Athens")
    assert save(app, text).superseded_ids == [home.id]


@pytest.mark.parametrize(("current", "update"), UPDATES)
def test_a_first_person_update_retires_the_fact_it_updates(app: App, current: str,
                                                           update: str) -> None:
    before = save(app, current)
    after = save(app, update)
    assert before.memory.subject is not None and after.memory.subject == before.memory.subject
    assert (after.decision, after.superseded_ids) == ("superseded", [before.id])
    assert active(app) == {update}


def test_recall_answers_the_new_home_and_never_the_old(app: App) -> None:
    save(app, "I live in Athens")
    save(app, "I moved to Thessaloniki in May")
    assert [m.text for m in app.recall("Thessaloniki").memories] == [
        "I moved to Thessaloniki in May"]
    assert app.recall("Athens").memories == []
    assert "I live in Athens" not in {m.text for m in app.recall("where do I live").memories}
    assert [m.text for m in app.list(status="superseded").memories] == ["I live in Athens"]


@pytest.mark.parametrize(("home", "friend", "moved", "question"), [
    ("I live in Athens", "My friend Anna lives in Oslo", "I moved to Thessaloniki in May",
     "where do I live"),
    ("Ich wohne in Wien", "Meine Freundin Anna wohnt in Oslo", "Ich bin nach Graz gezogen",
     "Wo wohne ich?"),
    ("Vivo en Madrid", "Mi amiga Ana vive en Lima", "Me mudé a Valencia en mayo", "¿Dónde vivo?"),
    ("Μένω στην Αθήνα", "Η φίλη μου η Άννα μένει στο Όσλο", "Μετακόμισα στη Θεσσαλονίκη τον Μάιο",
     "Πού μένω;"),
])
def test_where_do_i_live_answers_the_move_not_the_friend(app: App, home: str, friend: str,
                                                        moved: str, question: str) -> None:
    """The issue's example: after the move, the question answers the new home first, never
    the old one, and the friend's city only after it (D-261)."""
    for text in (home, friend, moved):
        save(app, text)
    answer = [m.text for m in app.recall(question).memories]
    assert answer[:1] == [moved] and home not in answer


def test_recall_where_do_i_live_answers_the_current_home_first(app: App) -> None:
    save(app, "I live in Athens")
    save(app, "I work at Initech")
    save(app, "I now live in Thessaloniki")
    assert [m.text for m in app.recall("where do I live").memories][:1] == [
        "I now live in Thessaloniki"]


@pytest.mark.parametrize(("present", "past"), [
    ("I work at Initech", "I worked at Acme from 2019 to 2023"),
    ("I work at Initech", "I used to work at Acme"),
    ("I live in Athens", "I lived in Lima until 2020"),
    ("Ich wohne in Wien", "Früher wohnte ich in Graz"),
    ("J'habite à Lyon", "Avant, j'habitais à Paris"),
    ("Vivo en Madrid", "Antes vivía en Lima"),
    ("Trabajo en Globant", "Trabajé en Acme de 2019 a 2023"),
    ("Lavoro per Fiat", "Ho lavorato alla Pirelli dal 2015 al 2019"),
    ("Moro em Lisboa", "Antigamente morava no Porto"),
    ("Δουλεύω στη Vodafone", "Δούλευα στην Intracom από το 2010 έως το 2015"),
])
def test_the_past_never_retires_the_present(app: App, present: str, past: str) -> None:
    save(app, present)
    history = save(app, past)
    assert history.superseded_ids == [] and history.memory.subject is None
    assert active(app) == {present, past}  # saved alongside, both recallable
    # With the subject given, the past is filed as history of the present, never over it.
    given = save(app, present, subject="slot", scope="given")
    filed = save(app, past, subject="slot", scope="given")
    assert (filed.reason_code, filed.superseded_ids) == ("supersede.past", [])
    assert active(app, "given") == {present} and given.id in {
        m.id for m in app.list(scope="given").memories}
    assert [m.text for m in app.list(scope="given", status="superseded").memories] == [past]


def test_is_past_reads_closed_periods_and_markers() -> None:
    now = datetime(2026, 6, 1, tzinfo=UTC)
    assert is_past("I worked at Acme from 2019 to 2023", now)
    assert is_past("J'ai habité à Lyon jusqu'en 2020", now)
    assert is_past("I lived in Lima 5 years ago", now)
    assert not is_past("I live here until 2030", now)
    assert not is_past("I moved to Thessaloniki in May", now)
    assert not is_past("The Luhn algorithm is a checksum used to validate card numbers", now)


ONE_OFFS = [
    "Bu seferlik ayrıntılı anlat", "just this once, explain in detail",
    "for this answer, use bullet points", "Erklär mir das diesmal ganz ausführlich.",
    "Pour cette réponse, explique en détail.", "Solo esta vez, explícamelo con detalle.",
    "Αυτή τη φορά απάντησε αναλυτικά.", "这次请详细解释一下。", "今回だけ詳しく説明してください。",
]


@pytest.mark.parametrize("request_text", ONE_OFFS)
def test_a_one_off_request_never_replaces_a_standing_preference(app: App,
                                                                request_text: str) -> None:
    standing = save(app, "Always keep your answers short", type="preference",
                    subject="answer-length")
    verdict = save(app, request_text, type="preference", subject="answer-length")
    assert (verdict.decision, verdict.reason_code) == ("rejected", "junk.one_off")
    assert "standing" in verdict.message
    assert {m.id for m in app.list().memories} == {standing.id}


@pytest.mark.parametrize("text", ["I'm vegan", "I'm vegetarian", "Ich bin Veganerin",
                                  "Soy celíaca", "我吃素"])
def test_short_durable_facts_are_kept(app: App, text: str) -> None:
    assert save(app, text).decision == "saved"


@pytest.mark.parametrize("text", ["ok", "test", "asdf"])
def test_junk_is_still_refused(app: App, text: str) -> None:
    assert save(app, text).decision == "rejected"


# Kept as the user's own words, refused as an agent's inference.
PROVENANCE = [
    ("You prefer dark mode in every editor.", "source.second_person"),
    ("A 503 status code means the service is temporarily unavailable.",
     "source.general_knowledge"),
]
# Refused as an agent's inference by the rules; the classifier refuses them from anyone.
AGENT_ONLY = [
    ("Based on your background, you might enjoy learning Elixir.", "source.second_person"),
    ("Self-knowledge: I tend to over-explain short questions.", "source.assistant_self"),
    ("I (the assistant) tend to over-explain.", "source.assistant_self"),
    ("Der Nutzer ist vermutlich Frontend-Entwickler.", "source.speculative"),
]


@pytest.mark.parametrize(("text", "code"), PROVENANCE)
def test_source_changes_the_decision_on_the_same_text(app: App, text: str, code: str) -> None:
    inferred = save(app, text, source="agent-inferred")
    assert (inferred.decision, inferred.reason_code) == ("rejected", code)
    assert save(app, text, source="user-explicit").decision == "saved"


@pytest.mark.parametrize(("text", "code"), AGENT_ONLY)
def test_an_agents_self_talk_and_guesses_are_refused_by_rule(app: App, text: str,
                                                              code: str) -> None:
    inferred = save(app, text, source="agent-inferred")
    assert (inferred.decision, inferred.reason_code) == ("rejected", code)
