"""Executive summaries: one LLM call that writes Weval's `executiveSummary` of a finished run.

May import: `engine.comparison` and everything below it (providers, scoring); never `engine.run`,
`engine.report` or the command line.
"""

from engine.summary.anonymize import Anonymizer
from engine.summary.parse import parse_summary
from engine.summary.prompts import DEFAULT_SUMMARY_MODEL, GRADING_DIMENSIONS, summary_messages
from engine.summary.service import SummaryError, summarize_comparison

__all__ = [
    "DEFAULT_SUMMARY_MODEL",
    "GRADING_DIMENSIONS",
    "Anonymizer",
    "SummaryError",
    "parse_summary",
    "summarize_comparison",
    "summary_messages",
]
