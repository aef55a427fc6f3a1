"""A draft's conversation (build by conversation): the typed row, the queries, the contract.

Each message is a row of `draft_messages`, numbered 1, 2, 3… per draft. An assistant message
may carry a proposal (the whole revised blueprint, already checked); its status says whether
the author accepted or discarded it. Messages are deleted with their draft, never otherwise.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from engine.errors import StoreError
from engine.store.migrations import now

__all__ = [
    "ConversationQueries",
    "ConversationStore",
    "DraftMessage",
    "MessageRole",
    "ProposalStatus",
]

MessageRole = Literal["user", "assistant"]
"""Who wrote a message: the author, or the assistant (a model)."""

ProposalStatus = Literal["proposed", "accepted", "discarded"]
"""What became of a proposal."""

_COLUMNS = "draft_id, number, role, content, proposal, status, author, created_at"
_ADD = (
    f"INSERT INTO draft_messages({_COLUMNS}) SELECT ?, COALESCE(MAX(number), 0) + 1, ?, ?, ?, "
    "?, ?, ? FROM draft_messages WHERE draft_id=? ON CONFLICT (draft_id, number) DO NOTHING "
    "RETURNING number"
)
_TRIES = 40


@dataclass(frozen=True)
class DraftMessage:
    """One message of a draft's conversation.

    Attributes:
        draft_id: The draft.
        number: 1, 2, 3… in the order the messages were written.
        role: `user` (the author) or `assistant` (a model: untrusted text).
        content: The words (plain text, never markup).
        proposal: The revised blueprint the assistant proposed (checked YAML), or None.
        status: For a proposal: `proposed`, `accepted` or `discarded`; None otherwise.
        author: Who wrote it (an e-mail in team mode) or asked for it, if known.
        created_at: When it was written (ISO-8601, UTC).
    """

    draft_id: str
    number: int
    role: MessageRole
    content: str
    proposal: str | None
    status: ProposalStatus | None
    author: str | None
    created_at: str


class ConversationStore(Protocol):
    """The conversations part of `engine.store.base.Store`."""

    def add_draft_message(
        self,
        draft_id: str,
        role: MessageRole,
        content: str,
        *,
        proposal: str | None = None,
        author: str | None = None,
    ) -> int:
        """Append a message to a draft's conversation; return its number.

        Raises:
            StoreError: The draft is not in the store, or the store cannot be written.
        """
        ...

    def draft_messages(self, draft_id: str) -> list[DraftMessage]:
        """A draft's conversation, oldest first."""
        ...

    def set_proposal_status(self, draft_id: str, number: int, status: ProposalStatus) -> bool:
        """Mark a proposal accepted or discarded; False when there is no such proposal."""
        ...


class ConversationQueries(ABC):
    """Conversations over a backend's `_query` (see `engine.store.base.Store`)."""

    @abstractmethod
    def _query(
        self, sql: str, params: tuple[Any, ...] = (), *, writing: bool = False
    ) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Run one statement in its own transaction; return the column names and the rows."""

    def add_draft_message(
        self,
        draft_id: str,
        role: MessageRole,
        content: str,
        *,
        proposal: str | None = None,
        author: str | None = None,
    ) -> int:
        """Append a message to a draft's conversation; return its number.

        Raises:
            StoreError: The draft is not in the store, or the store cannot be written.
        """
        if not self._query("SELECT 1 FROM drafts WHERE id=?", (draft_id,))[1]:
            raise StoreError(f"The draft {draft_id} is not in the store; open it again.")
        status = "proposed" if proposal is not None else None
        params = (draft_id, role, content, proposal, status, author, now(), draft_id)
        for _ in range(_TRIES):  # two writers racing for a number: one wins, the other retries
            rows = self._query(_ADD, params, writing=True)[1]
            if rows:
                return int(rows[0][0])
        raise StoreError("The conversation could not be saved (too many writers); try again.")

    def draft_messages(self, draft_id: str) -> list[DraftMessage]:
        """A draft's conversation, oldest first."""
        rows = self._query(
            f"SELECT {_COLUMNS} FROM draft_messages WHERE draft_id=? ORDER BY number", (draft_id,)
        )[1]
        return [
            DraftMessage(str(r[0]), int(r[1]), r[2], str(r[3]), r[4], r[5], r[6], str(r[7]))
            for r in rows
        ]

    def set_proposal_status(self, draft_id: str, number: int, status: ProposalStatus) -> bool:
        """Mark a proposal accepted or discarded; False when there is no such proposal."""
        rows = self._query(
            "UPDATE draft_messages SET status=? WHERE draft_id=? AND number=? "
            "AND proposal IS NOT NULL RETURNING number",
            (status, draft_id, number),
            writing=True,
        )[1]
        return bool(rows)
