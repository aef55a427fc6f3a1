"""The durable store: runs, cells, calls, judgments, caches and drafts, behind one typed interface.

May import: the leaf modules (`engine.errors`, `engine.records`, `engine.settings`, ...); nothing
above them (no blueprint, run or report).
"""

from engine.store.base import RunWriter, Store, new_run_id, open_store
from engine.store.conversations import DraftMessage, MessageRole, ProposalStatus
from engine.store.migrations import MIGRATIONS, migrate
from engine.store.preferences import Choice, PreferenceRow
from engine.store.reviews import (
    MAX_COMMENT_CHARS,
    ReviewRow,
    Verdict,
    answer_hash,
    criterion_hash,
)
from engine.store.rows import (
    ACTIVE_STATUSES,
    RESUMABLE_STATUSES,
    CacheEntry,
    CallCost,
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
from engine.store.users import ROLES, Role, UserRow
from engine.store.versions import DraftVersion

__all__ = [
    "ACTIVE_STATUSES",
    "MAX_COMMENT_CHARS",
    "MIGRATIONS",
    "RESUMABLE_STATUSES",
    "ROLES",
    "Audience",
    "CacheEntry",
    "CallCost",
    "CallRow",
    "CellRow",
    "CellStatus",
    "Choice",
    "DraftMessage",
    "DraftRow",
    "DraftVersion",
    "JudgmentRow",
    "LinkState",
    "LiveStatus",
    "MessageRole",
    "ModelTotals",
    "PreferenceRow",
    "ProposalStatus",
    "ReviewRow",
    "Role",
    "RunRecord",
    "RunStatus",
    "RunTotals",
    "RunWriter",
    "ShareLink",
    "Store",
    "UserRow",
    "Verdict",
    "answer_hash",
    "criterion_hash",
    "migrate",
    "new_run_id",
    "new_share_token",
    "open_store",
]
