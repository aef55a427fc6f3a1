"""The Compare runs page and its parts.

Its view (`compare_view`) over pure data (`compare_data`), drawn as static tables and line
charts (`statictable`, `linechart`, pure).
"""
