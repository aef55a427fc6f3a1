"""Form actions in the browser: click to settled page on a 30-prompt blueprint.

Run with `python -m bench.form_browser` (needs Debian's /usr/bin/chromium; never
`playwright install`).

What it does: stores a generated 30-prompt blueprint as a draft in a fresh BLUEPRINT_HOME,
starts `blueprint studio`, opens the draft in the Editor (`/editor?draft=<id>`, as a refresh
does) in headless Chromium, switches to the Form view and times each action from the click
(or the key that commits a typed field) to the settled page: the change is visible (a DOM
condition proving the effect, where there is one), a rerun was seen (Streamlit's running
indicator or stale elements) and the page is quiet again (no running indicator, nothing
stale). Actions that add something are followed by Undo, so every repeat starts from the
same blueprint. The one-click fixes are timed in the YAML view.

Baseline, in the same session: "Add a point" (and its Undo) on a 3-prompt blueprint.
Target: every action <= 0.5 s median and <= 1 s worst. Exit 1 when missed.
"""

from __future__ import annotations

import argparse
import re
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.common import generated_blueprint
from engine.store import open_store
from tests.studio.browser import CHROMIUM, CHROMIUM_ARGS, start_studio, stop_studio, wait_quiet

MEDIAN_TARGET_S = 0.5
WORST_TARGET_S = 1.0
FIXES = 8

WATCH = """() => {
  window.__busy = false;
  if (!window.__watch) {
    const busy = '[data-testid="stStatusWidget"], [data-stale="true"]';
    window.__watch = new MutationObserver(() => {
      if (document.querySelector(busy)) window.__busy = true;
    });
    window.__watch.observe(document.body,
      {subtree: true, childList: true, attributes: true, attributeFilter: ['data-stale']});
  }
}"""
SETTLED = """(effect) => window.__busy
  && !document.querySelector('[data-testid="stStatusWidget"], [data-stale="true"]')
  && (!effect || Function('return (' + effect + ')')())"""


def count(selector: str) -> str:
    """A JS expression: how many elements match `selector`."""
    return f"document.querySelectorAll({selector!r}).length"


CRITERIA = count('[aria-label="Criterion"]')
ARGUMENTS = count('input[aria-label="Argument"]')
UNGROUPED = count('[data-testid="stCheckbox"]')
RENAMES = (  # the problems listed are capped (60): count the misspelt keys' fixes only
    "[...document.querySelectorAll('button')].filter(b => b.innerText.includes('Rename to')).length"
)


def blueprint(prompts: int) -> str:
    """A generated blueprint; its first prompts carry a misspelt key (a one-click fix each)."""
    text = generated_blueprint(prompts)
    out: list[str] = []
    typos = 0
    for line in text.splitlines():
        out.append(line)
        if line.startswith("  ideal:") and typos < FIXES and prompts > 3:
            out.append("  citaton: A source.")
            typos += 1
    return "\n".join(out) + "\n"


class Bench:
    """Times actions on one page; keeps every figure by action name."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.times: dict[str, list[float]] = {}

    def value(self, expr: str) -> Any:
        return self.page.evaluate(f"() => {expr}")

    def timed(self, name: str, act: Callable[[], None], effect: str = "") -> float:
        """Run `act` on a quiet page and wait for the settled page; record the seconds."""
        page = self.page
        wait_quiet(page)
        page.evaluate(WATCH)
        started = time.perf_counter()
        act()
        page.wait_for_function(SETTLED, arg=effect, polling=10, timeout=20_000)
        took = time.perf_counter() - started
        print(f"    {name}: {took:.2f} s", flush=True)
        self.times.setdefault(name, []).append(took)
        return took

    def click(self, name: str, locator: Any, effect: str = "") -> float:
        locator.wait_for()
        return self.timed(name, locator.click, effect)

    def type_in(self, name: str, locator: Any, text: str, effect: str = "") -> float:
        """Type `text` into a field, then time the Tab that commits it (blur)."""
        wait_quiet(self.page)
        locator.fill(text)
        return self.timed(name, lambda: locator.press("Tab"), effect)


def button(page: Any, name: str, nth: int = 0) -> Any:
    return page.get_by_role("button", name=name, exact=True).nth(nth)


def open_form(page: Any, url: str, draft: str) -> None:
    page.goto(f"{url}/editor?draft={draft}")
    page.get_by_role("heading", name="Problems").wait_for(timeout=60_000)
    wait_quiet(page)
    page.get_by_test_id("stRadio").get_by_text("Form", exact=True).click()
    page.get_by_role("heading", name="Blueprint", exact=True).wait_for(timeout=60_000)
    wait_quiet(page)


def undo(b: Bench, grown: str) -> None:
    before = b.value(grown)
    b.click("Undo", button(b.page, "Undo"), f"{grown} < {before}")


def add_and_undo(b: Bench, name: str, label: str, grown: str, nth: int = 0) -> None:
    before = b.value(grown)
    b.click(name, button(b.page, label, nth), f"{grown} > {before}")
    undo(b, grown)


def form_actions(b: Bench, repeats: int) -> None:
    page = b.page
    for i in range(repeats):
        add_and_undo(b, "Add a point", "Add a point", CRITERIA)
        add_and_undo(b, "Add a check", "Add a check", ARGUMENTS)
        add_and_undo(b, "Add an alternative", "Add an alternative", CRITERIA)
        ident, title = f"first-{i}", f"Bench title {i}"
        typed = (  # (action, field label, text typed, JS proving the effect or "")
            (
                "Edit a prompt id (type + blur)",
                "Id",
                ident,
                f"document.body.innerText.includes('Prompt 1 · {ident}')",
            ),
            (
                "Edit the title (type + blur)",
                "Title",
                title,
                f"[...document.querySelectorAll('h3')].some(h => h.innerText.includes({title!r}))",
            ),
            ("Edit a question (type + blur)", "Question", f"Explain concept 1 ({i}).", ""),
            ("Edit a function argument", "Argument", f"concept {i} or so", ""),
            ("Change a weight", "Weight", str(2 + i % 2), ""),
        )
        for name, label, text, effect in typed:
            b.type_in(name, page.get_by_label(label, exact=True).nth(0), text, effect)
        delete = page.locator('[class*="st-key-form-p0-should-0-delete"] button').first
        before = b.value(ARGUMENTS)
        b.click("Delete a point", delete, f"{ARGUMENTS} < {before}")
        undo(b, f"-{ARGUMENTS}")
        for nth in (0, 1):
            b.click("Tick select to group", page.get_by_text("Select to group").nth(nth))
        before = b.value(UNGROUPED)
        b.click("Make a block", button(page, "Make a block"), f"{UNGROUPED} < {before}")
        undo(b, f"-{UNGROUPED}")


def yaml_fixes(b: Bench, repeats: int) -> None:
    page = b.page
    page.get_by_test_id("stRadio").get_by_text("YAML", exact=True).click()
    page.get_by_role("heading", name="Problems").wait_for()
    wait_quiet(page)
    for _ in range(min(repeats, FIXES)):
        before = b.value(RENAMES)
        fix = page.get_by_role("button", name=re.compile("^Apply fix: Rename to")).first
        b.click("YAML view: Apply fix", fix, f"{RENAMES} < {before}")


def baseline(b: Bench, repeats: int) -> None:
    for _ in range(repeats):
        add_and_undo(b, "Add a point", "Add a point", CRITERIA)


def table(title: str, times: dict[str, list[float]]) -> list[tuple[str, float, float]]:
    print(title)
    rows = []
    for name, seen in times.items():
        med, worst = statistics.median(seen), max(seen)
        rows.append((name, med, worst))
        print(f"  {name:34s} median {med:5.2f} s  worst {worst:5.2f} s  (n={len(seen)})")
    return rows


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.form_browser")
    parser.add_argument("--prompts", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", choices=["all", "form", "fixes"], default="all")
    args = parser.parse_args(argv)
    if not CHROMIUM.exists():
        print(f"{CHROMIUM} is missing: install Debian's chromium to run this benchmark.")
        return 2
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        store = open_store(home / "studio.db")
        big, small = secrets.token_urlsafe(12), secrets.token_urlsafe(12)
        store.save_draft(big, blueprint(args.prompts), "Bench")
        store.save_draft(small, blueprint(3), "Bench small")
        studio = start_studio(home, {}, home / "studio.log")
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                context = browser.new_context(viewport={"width": 1400, "height": 1600})
                page = context.new_page()
                page.set_default_timeout(60_000)
                open_form(page, studio.url, small)
                base = Bench(page)
                baseline(base, args.repeats)
                page.close()
                page = context.new_page()
                page.set_default_timeout(60_000)
                open_form(page, studio.url, big)
                bench = Bench(page)
                if args.only != "fixes":
                    form_actions(bench, args.repeats)
                if args.only != "form":
                    yaml_fixes(bench, args.repeats)
                browser.close()
        finally:
            stop_studio(studio)
    base_rows = table("baseline: 3-prompt blueprint", base.times)
    base_med = statistics.median(t for _, t, _ in base_rows)
    rows = table(f"{args.prompts}-prompt blueprint (click to settled page)", bench.times)
    print("ratios to the baseline's median action:")
    for name, med, _ in rows:
        print(f"  {name:34s} x{med / base_med:4.1f}")
    ok = all(med <= MEDIAN_TARGET_S and worst <= WORST_TARGET_S for _, med, worst in rows)
    print(
        f"targets (median <= {MEDIAN_TARGET_S} s, worst <= {WORST_TARGET_S} s): "
        + ("targets met" if ok else "TARGETS MISSED")
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
