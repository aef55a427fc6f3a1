"""Run the CLI with `python -m engine`."""

from engine.cli import entry

entry()
