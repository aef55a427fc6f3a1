"""The Compare answers page: two answers side by side, a reviewer picks the better one.

Its own folder because it is its own page; the summary of the preferences is drawn on the
Results page (`studio.views.results.preferences_view`).
"""
