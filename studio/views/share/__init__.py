"""Share links: the share page and the parts that make and answer links.

The share page (`share`), the plain page answering `/share?token=...` (`share_route`,
`share_answer`, drawn by the pure `share_view` and `share_html`), and the panel that makes and
revokes links on the Results page (`share_panel`).
"""
