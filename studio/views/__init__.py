"""One folder per page: the page script and the modules only that page uses.

The page script is named for the page's url_path (`views/results/results.py`,
`views/team/admin.py`): before an `AppTest`'s first run, `switch_page` finds a page by its file
name. The scripts are listed in `studio.navigation`; `st.page_link` and `st.switch_page` name
them by their path from the entry script.
"""
