"""Pure logic shared by several pages: no module here imports `streamlit`, even indirectly.

Result data (`resultdata`), runs (`runs`, `run_files`), drafts, share tokens (`share`),
reviewers' verdicts (`reviewing`), figures, editor marks (`markers`), the example gallery,
text diffs and text safety (`textdiff`, `textsafe`).
"""
