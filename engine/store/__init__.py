"""The durable store (SQLite in `$BLUEPRINT_HOME`): runs, cells, calls, judgments, caches."""

from engine.store.migrations import MIGRATIONS, migrate
from engine.store.store import RunRecord, Store, StoreWriter, new_run_id

__all__ = ["MIGRATIONS", "RunRecord", "Store", "StoreWriter", "migrate", "new_run_id"]
