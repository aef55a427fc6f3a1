"""`blueprint worker`: execute queued runs (team mode) from the store's PostgreSQL database."""

from __future__ import annotations

import logging
import re
import sys

import click

__all__ = ["parse_rate", "worker_cmd"]

_RATE = re.compile(r"^([a-z0-9_-]+)=([0-9]+(?:\.[0-9]+)?)(?:/([0-9]+))?$")


def parse_rate(text: str) -> tuple[str, float, int]:
    """`PROVIDER=CALLS_PER_SECOND[/BURST]` as (provider, calls per second, burst).

    Raises:
        click.BadParameter: The text is not of that form.
    """
    match = _RATE.match(text.strip().lower())
    if match is None or float(match.group(2)) <= 0:
        raise click.BadParameter(
            f"{text!r}: write PROVIDER=CALLS_PER_SECOND or PROVIDER=CALLS_PER_SECOND/BURST, "
            "e.g. openrouter=50 or openai=20/5."
        )
    return match.group(1), float(match.group(2)), int(match.group(3) or 1)


@click.command("worker")
@click.option(
    "--concurrency",
    type=click.IntRange(1, 512),
    default=32,
    show_default=True,
    help="Calls in flight at once in this worker, over every run it executes.",
)
@click.option(
    "--rate",
    "rates",
    multiple=True,
    metavar="PROVIDER=N[/BURST]",
    help="Limit PROVIDER to N calls per second over all workers (repeatable).",
)
@click.option("--name", help="This worker's name in the queue's tables (default: worker).")
def worker_cmd(concurrency: int, rates: tuple[str, ...], name: str | None) -> None:
    """Execute queued runs (team mode) until stopped: Ctrl-C or SIGTERM ends it cleanly.

    Reads BLUEPRINT_DATABASE_URL (postgresql://...). Start as many workers as you like, on
    any machines that reach the database: a run's parts are shared among them, and a worker
    that dies has its parts taken over by another within about 10 seconds. The first Ctrl-C
    (or SIGTERM) finishes the parts in hand, a second quits at once (the parts are taken
    over). Provider keys are read as for `blueprint run`. Exit 2 when the store is unusable.
    """
    from engine.errors import EngineError
    from engine.queue.enqueue import team_database_url
    from engine.queue.worker import Rate, run_worker

    parsed = {}
    for text in rates:
        provider, per_second, burst = parse_rate(text)
        parsed[provider] = Rate(per_second, burst)
    logging.basicConfig(format="%(asctime)s %(message)s", level=logging.WARNING)
    logging.getLogger("engine.queue").setLevel(logging.INFO)
    try:
        url = team_database_url()
        click.echo(f"worker: concurrency {concurrency}, waiting for runs", err=True)
        run_worker(url, concurrency=concurrency, rates=parsed, name=name)
    except EngineError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
