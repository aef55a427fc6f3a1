"""The durable store: runs, cells, calls, judgments, caches and drafts, behind one typed interface."""

from engine.store.base import RunWriter, Store, new_run_id, open_store
from engine.store.migrations import MIGRATIONS, migrate
from engine.store.rows import (
    ACTIVE_STATUSES,
    RESUMABLE_STATUSES,
    CacheEntry,
    CallRow,
    CellRow,
    CellStatus,
    DraftRow,
    JudgmentRow,
    LiveStatus,
    ModelTotals,
    RunRecord,
    RunStatus,
    RunTotals,
)
from engine.store.share_links import Audience, LinkState, ShareLink, new_share_token

__all__ = [
    "ACTIVE_STATUSES",
    "MIGRATIONS",
    "RESUMABLE_STATUSES",
    "Audience",
    "CacheEntry",
    "CallRow",
    "CellRow",
    "CellStatus",
    "DraftRow",
    "JudgmentRow",
    "LinkState",
    "LiveStatus",
    "ModelTotals",
    "RunRecord",
    "RunStatus",
    "RunTotals",
    "RunWriter",
    "ShareLink",
    "Store",
    "migrate",
    "new_run_id",
    "new_share_token",
    "open_store",
]
