"""The input size limit (a setting) and UTF-8 errors with a position, wherever text is read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.blueprint import load_blueprint, parse_blueprint
from engine.blueprint.inputs import check_input_size, max_input_bytes, read_blueprint_file
from engine.errors import BlueprintError, ConfigError
from engine.lint import lint
from engine.settings import DEFAULT_MAX_INPUT_MB, Settings, load_settings

SMALL = Settings(max_input_mb=0.001)  # 1,048 bytes
TEXT = "title: x\n---\n- prompt: hi\n  should: [a]\n  ideal: " + "y" * 2000 + "\n"


def test_default_limit_is_generous(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BLUEPRINT_MAX_INPUT_MB", raising=False)
    assert load_settings().max_input_mb == DEFAULT_MAX_INPUT_MB == 32
    assert max_input_bytes() == 32 * 1024 * 1024


def test_limit_from_settings_file_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    (Path(os.environ["BLUEPRINT_HOME"]) / "settings.toml").write_text("[input]\nmax_mb = 64\n")
    monkeypatch.delenv("BLUEPRINT_MAX_INPUT_MB", raising=False)
    assert load_settings().max_input_mb == 64
    monkeypatch.setenv("BLUEPRINT_MAX_INPUT_MB", "0.5")
    assert load_settings().max_input_mb == 0.5
    assert max_input_bytes() == 512 * 1024


@pytest.mark.parametrize("bad", ["0", "-3", "lots", "nan", "inf"])
def test_a_bad_limit_is_a_config_error(monkeypatch: pytest.MonkeyPatch, bad: str) -> None:
    monkeypatch.setenv("BLUEPRINT_MAX_INPUT_MB", bad)
    with pytest.raises(ConfigError, match="BLUEPRINT_MAX_INPUT_MB must be a number"):
        load_settings()
    assert max_input_bytes() == 32 * 1024 * 1024  # the library falls back to the default


def test_parse_refuses_text_over_the_limit_with_a_plain_message() -> None:
    with pytest.raises(BlueprintError) as info:
        parse_blueprint(TEXT, source="big.yml", settings=SMALL)
    message = str(info.value)
    assert message.startswith("big.yml:1:1: This blueprint is 0.00196 MB, more than the 0.001 MB")
    assert "BLUEPRINT_MAX_INPUT_MB" in message and "yyyy" not in message
    assert parse_blueprint(TEXT, settings=Settings()).prompts[0].id


def test_size_counts_utf8_bytes() -> None:
    check_input_size("é" * 500, 1000)
    with pytest.raises(BlueprintError):
        check_input_size("é" * 501, 1000)


def test_lint_reports_the_limit_as_one_diagnostic() -> None:
    found = lint(TEXT, settings=SMALL)
    assert [(d.line, d.column, d.severity) for d in found] == [(1, 1, "error")]
    assert "more than the 0.001 MB limit" in found[0].message


def test_reading_a_file_over_the_limit_reads_only_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "big.yml"
    path.write_text(TEXT)
    monkeypatch.setenv("BLUEPRINT_MAX_INPUT_MB", "0.001")
    with pytest.raises(BlueprintError) as info:
        load_blueprint(path)
    assert str(info.value).startswith(f"{path}:1:1: This blueprint is")
    with pytest.raises(BlueprintError):
        read_blueprint_file(path)
    monkeypatch.delenv("BLUEPRINT_MAX_INPUT_MB")
    assert load_blueprint(path).prompts


@pytest.mark.parametrize(
    ("data", "position"),
    [
        (b"title: caf\xe9\n", "1:11"),
        (b"title: x\n---\n- prompt: \xff\xfe\n", "3:11"),
        # U+2028 is no line break for js-yaml (YAML 1.2) nor for editors
        ("title: \u00e9\u2028x\n".encode() + b"\x80", "2:1"),
    ],
)
def test_invalid_utf8_is_reported_at_its_line_and_column(
    tmp_path: Path, data: bytes, position: str
) -> None:
    path = tmp_path / "bad.yml"
    path.write_bytes(data)
    with pytest.raises(BlueprintError) as info:
        load_blueprint(path)
    assert str(info.value).startswith(f"{path}:{position}: This byte (0x")


def test_nul_byte_in_a_file_is_positioned(tmp_path: Path) -> None:
    path = tmp_path / "nul.yml"
    path.write_bytes(b"title: x\n---\n- prompt: h\x00i\n")
    with pytest.raises(BlueprintError) as info:
        load_blueprint(path)
    assert str(info.value).startswith(f"{path}:3:12: ")
    found = lint(path.read_text())
    assert [(d.line, d.column) for d in found if d.severity == "error"] == [(3, 12)]
