"""Output files: written whole or not at all, plain messages for a full disk or a locked folder."""

from __future__ import annotations

import errno
import json
from typing import IO

import pytest

from engine.blueprint import load_blueprint
from engine.checks import CheckEnv
from engine.comparison.build import build_comparison
from engine.output import OutputError, json_text, well_formed, write_atomic, write_json_atomic
from engine.report import comparison_csv, render_html
from engine.responses import ResponseRow
from engine.scoring.offline import score_rows
from engine.settings import Settings
from tests.conftest import EXAMPLES


def failing(code: int, after: int = 10):
    """A writer that writes `after` bytes, then fails as the system would with `code`."""

    def write(handle: IO[bytes], data: bytes) -> None:
        handle.write(data[:after])
        handle.flush()
        raise OSError(code, "simulated")

    return write


@pytest.mark.parametrize(
    ("code", "words"),
    [
        (errno.ENOSPC, "the disk is full"),
        (errno.EDQUOT, "the disk is full"),
        (errno.EROFS, "read-only"),
        (errno.EACCES, "read-only"),
        (errno.EIO, "simulated. Choose another place"),
    ],
)
def test_a_failed_write_leaves_no_file_and_says_why(tmp_path, code, words):
    target = tmp_path / "out" / "result.json"
    with pytest.raises(OutputError) as info:
        write_atomic(target, '{"a": 1}' * 100, write=failing(code))
    message = str(info.value)
    assert message.startswith(f"{target}: cannot write the file: ")
    assert words in message
    assert "Errno" not in message and "Traceback" not in message
    assert list((tmp_path / "out").iterdir()) == []  # neither the file nor a temporary one


def test_a_failed_write_keeps_the_previous_file_whole(tmp_path):
    target = tmp_path / "result.json"
    target.write_text("previous")
    with pytest.raises(OutputError):
        write_atomic(target, "new content", write=failing(errno.ENOSPC, after=3))
    assert target.read_text() == "previous"
    assert [p.name for p in tmp_path.iterdir()] == ["result.json"]


def test_a_file_in_the_folder_path_is_a_plain_error(tmp_path):
    (tmp_path / "afile").write_text("x")
    with pytest.raises(OutputError, match="is not a folder"):
        write_atomic(tmp_path / "afile" / "out.json", "{}")


def test_written_files_are_whole_and_readable_by_others(tmp_path):
    target = tmp_path / "deep" / "out.json"
    write_atomic(target, '{"a": "\u00e9"}')
    assert target.read_text(encoding="utf-8") == '{"a": "\u00e9"}'
    assert target.stat().st_mode & 0o777 == 0o644


def test_lone_surrogates_are_escaped_as_json_stringify_does():
    text = json_text({"r": "a\ud800b", "k\udc00": ["\U0001f600"]})
    assert text == '{"r":"a\\ud800b","k\\udc00":["\U0001f600"]}'
    assert json.loads(text) == {"r": "a\ud800b", "k\udc00": ["\U0001f600"]}
    text.encode("utf-8")
    assert well_formed("plain é") == "plain é"


@pytest.mark.parametrize(
    "value",
    [
        {"score": 0.8333333333333334, "tiny": 1e-05, "big": 1e16, "text": 'é \u2028 \x00 "q"'},
        {"beyond 64 bits": 2**70, "negative": -(2**64)},
        {1: "a key that is not a string", None: True, 2.5: False},
        [{"nested": [[], {}, "", 0, -0.0, None]}],
    ],
)
def test_json_output_reads_back_as_the_value_the_json_module_writes(tmp_path, value):
    expected = json.loads(json.dumps(value, ensure_ascii=False))
    assert json.loads(json_text(value)) == expected
    path = tmp_path / "out.json"
    write_json_atomic(path, value)
    assert json.loads(path.read_bytes()) == expected
    assert " " not in json_text([1, {"a": 2}])  # compact


def test_json_output_writes_nan_as_json_stringify_does():
    assert json_text({"a": float("nan"), "b": [float("inf")]}) == '{"a":null,"b":[null]}'


def test_reports_with_a_lone_surrogate_encode_as_utf8():
    bp = load_blueprint(EXAMPLES / "functions.yml")
    rows = [ResponseRow(1, "france", "m\udc00", "Paris \ud800 is the capital.")]
    cells = score_rows(bp, rows, CheckEnv(settings=Settings()))
    comparison = build_comparison(
        bp, cells, responses={"france": {"m\udc00": "Paris \ud800 is the capital."}}
    )
    html = render_html(comparison)
    assert "Paris \ufffd is the capital." in html
    html.encode("utf-8")
    table = comparison_csv(comparison)
    assert "m\ufffd" in table
    table.encode("utf-8")
    answers = json.loads(comparison.to_json())["allFinalAssistantResponses"]["france"]
    assert answers["m\udc00"] == "Paris \ud800 is the capital."
