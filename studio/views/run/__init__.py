"""The Run page and its parts.

Model picker, pasted answers, remembered choices (`run_memory`, over the pure `prefs`) and the
live progress of a run (`live_run`, pure).
"""
