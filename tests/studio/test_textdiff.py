"""Line differences between two versions, as plain text (`studio.core.textdiff`)."""

from __future__ import annotations

from studio.core.textdiff import MAX_DIFF_LINES, line_diff

OLD = "title: t\n---\n- prompt: a\n  should:\n    - Is kind.\n"


def test_an_edited_line_is_one_removed_and_one_added():
    new = OLD.replace("Is kind.", "Is kind and brief.")
    diff = line_diff(OLD, new, "version 1", "version 2")
    assert (diff.added, diff.removed, diff.same) == (1, 1, False)
    lines = diff.text.splitlines()
    assert lines[:2] == ["--- version 1", "+++ version 2"]
    assert "-    - Is kind." in lines and "+    - Is kind and brief." in lines


def test_the_same_text_has_no_difference():
    diff = line_diff(OLD, OLD, "version 1", "version 2")
    assert diff.same and diff.text == ""


def test_markup_in_the_text_stays_text():
    new = OLD + "# <script>alert(1)</script> **bold**\n"
    diff = line_diff(OLD, new, "a", "b")
    assert "+# <script>alert(1)</script> **bold**" in diff.text.splitlines()


def test_texts_too_long_are_not_compared_line_by_line():
    long = "x\n" * (MAX_DIFF_LINES + 1)
    diff = line_diff(OLD, long, "a", "b")
    assert diff.too_long and not diff.same and diff.text == ""
