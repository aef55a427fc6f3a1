"""Options that take an id also accept `--` before it (`blueprint run --resume -- <id>`)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import click

__all__ = ["IdCommand", "drop_double_dash_before_ids"]


def drop_double_dash_before_ids(args: list[str], options: Collection[str]) -> list[str]:
    """Turn `OPTION -- ID` into `OPTION ID` for each id-taking option.

    Shells and scripts put `--` before a value that may start with `-`; click would otherwise
    take `--` itself as the option's value. A `--` anywhere else keeps its usual meaning (the
    end of the options), and nothing after it is changed.
    """
    out: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            out.extend(args[i:])
            break
        out.append(arg)
        if arg in options and i + 2 < len(args) and args[i + 1] == "--":
            out.append(args[i + 2])
            i += 3
            continue
        i += 1
    return out


class IdCommand(click.Command):
    """A click command whose `id_options` accept `--` before their value.

    Args:
        id_options: The option names (e.g. `("--resume",)`) that take an id.
    """

    def __init__(self, *args: Any, id_options: Collection[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.id_options = tuple(id_options)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Drop the `--` between an id option and its id, then parse as usual."""
        return super().parse_args(ctx, drop_double_dash_before_ids(args, self.id_options))
