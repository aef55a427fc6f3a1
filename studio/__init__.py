"""Blueprint Studio: the Streamlit app over the engine (started by `blueprint studio`).

Layout:

- `studio/app.py` (entry script, navigation and access), `serve.py` (what `blueprint studio`
  serves), `navigation.py` (the list of pages), `page_errors.py`, `access.py` (who may open
  what), `services.py` (cached engine calls) and `state.py` (session-state keys): the app's
  shell, used by every page.
- `studio/core/`: pure logic shared by several pages (result data, runs, drafts, share
  tokens, figures, text safety, ...).
- `studio/widgets/`: Streamlit widgets shared by several pages (`common`, `review_panel`).
- `studio/views/<page>/`: one folder per page: the page script given to `st.navigation`
  (named for its url_path: `views/results/results.py`, `views/team/admin.py`) and the views
  and pure logic only that page uses. A page may draw another page's views: the share page
  draws the Results page's views, read-only, and the Results page holds the share panel of
  `views/share/`.

The folder is `views/`, not `pages/`: Streamlit takes a `pages/` folder next to the main
script for its old multipage mode and runs the first script of a server through it.

Pure modules never import `streamlit`, neither directly nor through another studio module,
so they are tested as plain functions: every module of `studio/core/`, `navigation.py`, and
the page modules named in `tests/studio/test_layout.py` (`PURE`). The test fails when one of
them draws on Streamlit, and when a new module imports neither it nor any view but is not
listed as pure.
"""
