"""Drafting help: a blueprint from a goal, points for a prompt; checked before it is shown.

May import: `engine.report`, `engine.run`, `engine.lint`, `engine.edit` and everything below them;
never the command line.
"""

from engine.drafting.check import Draft, DraftRefused, read_draft, read_points
from engine.drafting.prompts import goal_messages, points_messages
from engine.drafting.service import draft_from_goal, suggest_points

__all__ = [
    "Draft",
    "DraftRefused",
    "draft_from_goal",
    "goal_messages",
    "points_messages",
    "read_draft",
    "read_points",
    "suggest_points",
]
