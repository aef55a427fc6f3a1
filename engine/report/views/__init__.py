"""The studio's result views as static HTML and inline SVG, for the share page and the report."""
