"""Human review of judged points and judge calibration; people's picks between two answers.

May import: `engine.report` and everything below it; never the command line.
"""

from engine.report.reviews import JudgedPoint, PointReviews, judged_points, match_reviews
from engine.review.calibration import (
    DISAGREE_LIMIT,
    GAP,
    SPREAD_LIMIT,
    CriterionCalibration,
    RunCalibration,
    calibrate,
)

__all__ = [
    "DISAGREE_LIMIT",
    "GAP",
    "SPREAD_LIMIT",
    "CriterionCalibration",
    "JudgedPoint",
    "PointReviews",
    "RunCalibration",
    "calibrate",
    "judged_points",
    "match_reviews",
]
