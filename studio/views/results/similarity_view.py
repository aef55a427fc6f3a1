"""The Results page's similarity section: how alike the answers are, and how close to the ideal."""

from __future__ import annotations

import streamlit as st

from studio.core.resultdata import Results
from studio.views.results import similarity

__all__ = ["similarity_section"]


def similarity_section(results: Results, page_ids: list[str]) -> None:
    """Render the section when the results have similarities (an `embeddingModel` run)."""
    matrix = similarity.matrix_table(results)
    if matrix is None:
        return
    st.subheader("Similarity of the answers")
    model = results.comparison.config.get("embeddingModel")
    by = f" by {model}" if isinstance(model, str) and model else ""
    st.caption(
        f"Cosine similarity of the answers' embeddings{by}, averaged over the prompts: 1 means "
        "the same meaning, 0 unrelated. A prompt's score is the coverage of its points "
        "whenever it has one, as in Weval; where it has none (its key points could not be "
        "extracted), Weval scores it by the similarity to the ideal answer, and the "
        "leaderboard then shows Weval's score beside the average."
    )
    st.dataframe(matrix, key="similarity-matrix")
    ideal = similarity.ideal_table(results, page_ids)
    if ideal is not None:
        st.markdown("**Similarity to the ideal answer**, per prompt of this page")
        st.dataframe(ideal, key="similarity-ideal", height=min(40 + 35 * len(page_ids), 760))
