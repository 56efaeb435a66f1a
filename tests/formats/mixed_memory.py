"""A realistic mixed memory for round-trip tests, built through the live save path: facts in
six languages over several scopes, subjects restated (so records are superseded), facts
forgotten, states left to expire and re-saved, re-saves of known facts, a source upgrade."""

from __future__ import annotations

import random
from datetime import timedelta

from jamgate_core.app import App
from jamgate_core.models import SaveRequest, utcnow

SCOPES = ("default", "work", "work/greek", "family")
PEOPLE = ("Jam", "Mara", "Theo", "Ilse", "Kenji", "Olga", "Lucía", "Amadou")
PLACES = ("Athens", "Lisbon", "Kyoto", "Berlin", "Nairobi", "Lima", "Oslo", "Tbilisi", "Hanoi")
THINGS = ("ripgrep", "neovim", "tmux", "podman", "duckdb", "helix", "zellij", "fish",
          "sourdough", "oolong tea", "cold brew", "the cello", "bouldering", "Go", "Rust")
TEMPLATES = (
    "{p} lives in {c}",
    "{p} prefers {t} over everything else for daily work",
    "{p} is learning {t} on weekends",
    "{p}'s favourite city for holidays is {c}",
    "{p} moved to {c} for the {t} project",
    "Ο {p} μένει στην πόλη {c}",
    "{p} trinkt morgens gern {t}",
    "{p}さんは{c}に住んでいます",
    "{p} живёт в городе {c} и любит {t}",
    "{p} aime beaucoup {t} et voyage souvent à {c}",
    "The {t} service for {p} is deployed from {c}",
)


def fill_mixed(app: App, count: int, seed: int = 21) -> None:
    """About `count` saves (most stored) through `App.save` and a seed batch of older facts."""
    rng = random.Random(seed)
    now = utcnow()
    # Older facts first, as an import would bring them: some states long expired.
    app.save_batch([SaveRequest(
        text=f"{person} was on call in the week of {week} {rng.choice(PLACES)}",
        type="state", scope=rng.choice(SCOPES), created_at=now - timedelta(days=30 + week))
        for week, person in enumerate(PEOPLE * 3)])
    saved: list[tuple[str, str]] = []
    for n in range(count):
        scope = rng.choice(SCOPES)
        roll = rng.random()
        if roll < 0.12 and saved:  # restate a subject: the older record is superseded
            subject = f"home-of-{rng.choice(PEOPLE).lower()}"
            text = f"{subject.split('-')[-1].title()} now lives in {rng.choice(PLACES)} ({n})"
            app.save(SaveRequest(text=text, subject=subject, scope=scope,
                                 source=rng.choice(("user-explicit", "agent-inferred"))))
            continue
        if roll < 0.16 and saved:  # the same fact again, from a surer source
            text, scope = rng.choice(saved)
            app.save(SaveRequest(text=text, scope=scope, source="user-explicit"))
            continue
        if roll < 0.19 and saved:  # forgotten
            text, scope = saved.pop(rng.randrange(len(saved)))
            found = app.recall(text, scope=scope).memories
            if found and found[0].text == text:
                app.forget(found[0].id, scope=scope)
            continue
        template = rng.choice(TEMPLATES)
        text = template.format(p=rng.choice(PEOPLE), c=rng.choice(PLACES),
                               t=rng.choice(THINGS)) + f" (note {n})"
        kind = rng.choice(("identity", "project", "preference", "state", None))
        verdict = app.save(SaveRequest(text=text, scope=scope, type=kind,
                                       source=rng.choice(("user-explicit", "user-confirmed",
                                                          "agent-inferred"))))
        if verdict.stored:
            saved.append((text, scope))
