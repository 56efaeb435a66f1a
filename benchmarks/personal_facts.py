"""The near-template personal facts generator, for the scripts here: it lives in the package
(`jamgate_commands.personal_facts`), where `jamgate bench speed` uses it too."""

from jamgate_commands.personal_facts import (
    REPORTED_SEED,
    TEMPLATES,
    TUNING_SEEDS,
    Fact,
    facts,
    probes,
)

__all__ = ["REPORTED_SEED", "TEMPLATES", "TUNING_SEEDS", "Fact", "facts", "probes"]
