"""The Results page and its parts.

The results view and its parts (leaderboard, executive summary, key points, calibration, side
by side, similarity, variants), the preferences summary and the rescore panel. `similarity`
and `variantdata` are pure. The share page draws these views too.
"""
