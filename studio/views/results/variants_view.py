"""Results: one view per base model over its temperatures and system prompts (Weval's merge)."""

from __future__ import annotations

import streamlit as st

from studio.core.resultdata import Results
from studio.core.textsafe import safe_markdown
from studio.views.results.variantdata import variant_groups

__all__ = ["VARIANT_KEY", "variants_view"]

VARIANT_KEY = "res_variant"


def variants_view(results: Results) -> None:
    """Show each base model's variants merged (nothing when the run has no variants)."""
    groups = variant_groups(results)
    if not groups:
        return
    with st.expander("Per base model: temperatures and system prompts together"):
        st.caption(
            "Each base model's answers at its different temperatures (and with the same "
            "system prompt) merged as Weval's site does: the mean score per prompt, and how "
            "far the variants spread around it (population standard deviation)."
        )
        by_bucket = {g.bucket: g for g in groups}
        if st.session_state.get(VARIANT_KEY) not in by_bucket:
            st.session_state[VARIANT_KEY] = groups[0].bucket
        bucket = str(st.selectbox("Base model", list(by_bucket), key=VARIANT_KEY))
        group = by_bucket[bucket]
        st.caption("Variants: " + safe_markdown(", ".join(group.models)))
        st.dataframe(
            group.rows,
            hide_index=True,
            width="stretch",
            column_config={
                "Mean score": st.column_config.NumberColumn(format="%.2f"),
                "Spread (std-dev)": st.column_config.NumberColumn(format="%.2f"),
            },
        )
