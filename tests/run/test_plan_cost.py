"""`blueprint plan` says "cost unknown" and how to set a price for an unpriced model."""

from __future__ import annotations

from tests.run.test_run import BLUEPRINT, cli, env  # noqa: F401  (env is a fixture)


def test_cli_plan_says_cost_unknown_with_how_to_set_a_price(env, tmp_path):  # noqa: F811
    bp = tmp_path / "bp.yml"
    bp.write_text(BLUEPRINT)
    out = cli("plan", str(bp), "--no-judge")
    assert out.returncode == 0, out.stderr
    line = next(x for x in out.stdout.splitlines() if x.startswith("Cost (estimate):"))
    assert line.startswith("Cost (estimate): cost unknown (no price known for ")
    assert "$0" not in line and "[prices] in $BLUEPRINT_HOME/settings.toml" in line
