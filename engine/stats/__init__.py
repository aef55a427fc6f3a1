"""How sure a score or a comparison is: intervals over prompts, paired differences, power.

May import: `engine.scoring` and everything below it; never the comparison, runs or reports.
"""

from engine.stats.intervals import (
    CONFIDENCE,
    POWER_FACTOR,
    Estimate,
    estimate,
    minimum_detectable,
    paired,
    prompts_needed,
    t_cdf,
    t_quantile,
)
from engine.stats.uncertainty import (
    DETECT,
    ModelUncertainty,
    PairUncertainty,
    ScoredCell,
    Uncertainty,
    cluster_id,
    uncertainty_of,
)
from engine.stats.words import (
    interval_words,
    neighbour_pairs,
    pair_words,
    power_line,
    power_words,
    summary_lines,
    tied_ranks,
)

__all__ = [
    "CONFIDENCE",
    "DETECT",
    "POWER_FACTOR",
    "Estimate",
    "ModelUncertainty",
    "PairUncertainty",
    "ScoredCell",
    "Uncertainty",
    "cluster_id",
    "estimate",
    "interval_words",
    "minimum_detectable",
    "neighbour_pairs",
    "pair_words",
    "paired",
    "power_line",
    "power_words",
    "prompts_needed",
    "summary_lines",
    "t_cdf",
    "t_quantile",
    "tied_ranks",
    "uncertainty_of",
]
