"""Streamlit widgets used by several pages.

`common` (small render helpers that take plain data and draw it) and `review_panel` (a
reviewer's verdicts on points, drawn on the Editor, Results, Compare answers and share pages).
"""
