"""The heatmap's colour-blind-safe palette (ColorBrewer RdBu), shared by studio and reports."""

from __future__ import annotations

__all__ = ["NO_SCORE", "SCORE_STOPS", "palette_css", "score_class", "score_colour"]

SCORE_STOPS = ((0.0, (0xD6, 0x60, 0x4D)), (0.5, (0xF7, 0xF7, 0xF7)), (1.0, (0x43, 0x93, 0xC3)))
"""The heatmap's colours: ColorBrewer's RdBu (red, white, blue), safe for colour-blind readers;
every stop keeps dark text readable (contrast of at least 4.5:1 with #111111)."""

NO_SCORE = "#eeeeee"
"""The background of a cell with no score."""


def score_colour(value: float | None) -> str:
    """The background of a heatmap cell: red (0) through white (0.5) to blue (1); grey if none.

    The cell also shows the score as a number, so colour is never the only way to read it.
    """
    if value is None:
        return NO_SCORE
    v = max(0.0, min(1.0, value))
    (x0, c0), (x1, c1) = (SCORE_STOPS[0], SCORE_STOPS[1]) if v <= 0.5 else SCORE_STOPS[1:]
    t = (v - x0) / (x1 - x0)
    r, g, b = (round(a + (b - a) * t) for a, b in zip(c0, c1, strict=True))
    return f"#{r:02x}{g:02x}{b:02x}"


def score_class(value: float | None) -> str:
    """The CSS class of a score's colour on a static page: `s0`…`s100` by its two decimals.

    A page draws many cells, so each carries a short class, not its own style; the class is
    the colour of the score as shown (`palette_css` defines all 101), `na` for no score.
    """
    if value is None:
        return "na"
    return f"s{round(max(0.0, min(1.0, value)) * 100)}"


def palette_css() -> str:
    """The rules of `score_class`: each two-decimal score's background, dark text on it."""
    rules = "".join(f".s{n}{{background:{score_colour(n / 100)}}}" for n in range(101))
    return rules + f".na{{background:{NO_SCORE}}}"
