"""The household facts generator (issue #21's harder set): fixed per seed, one answer per
question, and no question that names its fact's value."""

from jamgate_commands import household_facts


def test_a_seed_gives_one_stream_whose_prefix_is_the_smaller_store() -> None:
    large = household_facts.facts(1, 3_000)
    assert household_facts.facts(1, 1_000) == large[:1_000]
    assert household_facts.facts(2, 1_000) != large[:1_000]


def test_every_fact_and_every_question_is_stated_once() -> None:
    stream = household_facts.facts(3, 30_000)
    assert len({f.text for f in stream}) == len(stream)
    assert len({f.question for f in stream}) == len(stream)


def test_a_question_holds_none_of_its_facts_value_words() -> None:
    stream = household_facts.facts(4, 2_000)
    for fact in stream:
        value = set(fact.text.rstrip(".").split()) - set(fact.question.rstrip("?").split())
        assert value, fact  # the fact says something the question asks for
        for city in ("Graz", "Porto", "Lyon"):
            assert city not in fact.question


def test_probes_point_at_their_facts() -> None:
    stream = household_facts.facts(2, 1_000)
    for question, n in household_facts.probes(2, 1_000, 50):
        assert stream[n].question == question
