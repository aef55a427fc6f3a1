"""Runs on a queue (team mode): procrastinate jobs in the store's PostgreSQL database.

May import: `engine.run` and everything below it; never `engine.report` or the command line.

`enqueue_run` splits a recorded run into parts (ranges of prompts) and queues one job per
part; `run_worker` executes them (`blueprint worker`). Personal mode never imports this.
"""

from engine.queue.enqueue import enqueue_run, team_database_url
from engine.queue.worker import run_worker

__all__ = ["enqueue_run", "run_worker", "team_database_url"]
