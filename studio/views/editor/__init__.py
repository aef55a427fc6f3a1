"""The Editor page and its parts.

The page (`editor`), the YAML editor (`yaml_editor`), the form view (`formview`, `form_*`),
the drafting and conversation panels, quick tries, trying one answer, versions, publishing and
the marks of the latest run (`review_marks`). `form_sync` is pure.
"""
