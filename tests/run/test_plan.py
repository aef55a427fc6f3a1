"""The run matrix and Weval's effective model ids (spec §1.4-§1.6), and run-time prompt checks."""

from __future__ import annotations

import os
import textwrap

import pytest

from engine.blueprint import parse_blueprint
from engine.run import plan_run, prompt_problems


def bp(text: str):
    return parse_blueprint(textwrap.dedent(text))


def test_plain_run_has_temp_zero_suffix_always():
    plan = plan_run(
        bp("models: [openai:a, anthropic:b]\n---\n- id: p\n  prompt: hi\n"), judge=False
    )
    assert sorted(c.model_id for c in plan.cells) == ["anthropic:b[temp:0]", "openai:a[temp:0]"]
    assert plan.generation_calls == 2
    assert plan.judge_calls == 0


def test_temperatures_and_systems_permute():
    plan = plan_run(
        bp("""
        models: [openai:a]
        temperatures: [0.0, 0.7]
        system: [Be a pirate, null]
        ---
        - id: p
          prompt: hi
    """),
        judge=False,
    )
    assert sorted(c.model_id for c in plan.cells) == [
        "openai:a[temp:0.7][sp_idx:0]",
        "openai:a[temp:0.7][sp_idx:1]",
        "openai:a[temp:0][sp_idx:0]",
        "openai:a[temp:0][sp_idx:1]",
    ]
    assert {c.system for c in plan.cells} == {"Be a pirate", None}


def test_single_system_list_has_no_sp_idx_and_prompt_temperature_quirk():
    plan = plan_run(
        bp("""
        models: [openai:a]
        systems: [only one]
        ---
        - id: p
          prompt: hi
          temperature: 0.5
        - id: q
          prompt: hi
    """),
        judge=False,
    )
    # no header temperature: a prompt's own temperature takes effect and shows in its id
    assert sorted(c.model_id for c in plan.cells) == ["openai:a[temp:0.5]", "openai:a[temp:0]"]
    assert all(c.system == "only one" for c in plan.cells)


def test_header_temperature_overrides_prompt_temperature_and_both_set_warns():
    plan = plan_run(
        bp(
            "models: [openai:a]\ntemperature: 0.3\ntemperatures: [1]\n---\n- {id: p, prompt: hi, temperature: 0.9}\n"
        ),
        judge=False,
    )
    assert [c.model_id for c in plan.cells] == ["openai:a[temp:1]"]
    assert any("temperature" in w for w in plan.warnings)


def test_multi_turn_counts_generated_turns():
    plan = plan_run(
        bp("""
        models: [openai:a]
        ---
        - id: p
          messages:
            - user: one
            - assistant: null
            - user: two
          should: [be kind, $contains: x]
    """)
    )
    (cell,) = plan.cells
    assert cell.turns == 2
    assert plan.judges is not None and len(plan.judges) == 3  # Weval's default judges
    assert plan.judge_calls == 3


@pytest.mark.parametrize(
    ("models", "needle"),
    [
        (["CROE"], "'CROE' is not a known model collection. Known collections: CLAUDES, CORE,"),
        (["gpt-4o"], "not a model id"),
    ],
)
def test_model_problems(models, needle):
    plan = plan_run(bp("- {id: p, prompt: hi}\n"), models=models)
    assert any(needle in p for p in plan.problems)


def test_systems_with_prompt_system_is_a_problem():
    plan = plan_run(
        bp("models: [openai:a]\nsystems: [a, b]\n---\n- {id: p, prompt: hi, system: own}\n")
    )
    assert any("own `system`" in p for p in plan.problems)


@pytest.mark.parametrize(
    ("messages", "needle"),
    [
        ("[{assistant: hi}, {user: x}]", "first message cannot be from the assistant"),
        ("[{user: a}, {user: b}]", "two 'user' messages in a row"),
        ("[{user: a}, {assistant: fixed}]", "nothing for the model to write"),
        ("[{user: ''}]", "content cannot be empty"),
    ],
)
def test_message_problems(messages, needle):
    prompt = bp(f"- id: p\n  messages: {messages}\n").prompts[0]
    assert any(needle in p for p in prompt_problems(prompt))


def test_custom_and_cli_judges_replace_defaults():
    b = bp("""
        models: [openai:a]
        evaluationConfig:
          llm-coverage:
            judges:
              - {id: j1, model: "openai:judge", approach: holistic}
        ---
        - {id: p, prompt: hi, should: [be kind]}
    """)
    plan = plan_run(b)
    assert plan.custom_judges and [j.label for j in plan.judges] == ["j1(openai:judge)"]
    plan = plan_run(b, judges=["openai:x", "openai:y"])
    assert [j.label for j in plan.judges] == ["standard(openai:x)", "standard(openai:y)"]
    assert plan_run(b, judge=False).judges is None


def test_the_first_generated_turn_is_asked_with_the_opening_key():
    import asyncio

    from engine.run.calls import CallResult, call_key
    from engine.run.cell import Conversation

    text = (
        "system: Be brief.\n---\n- id: a\n  messages:\n    - user: one\n    - assistant: null\n"
        "    - user: two\n- id: b\n  prompt: three\n"
    )
    plan = plan_run(bp(text), models=["openai:m"], judge=False)
    for cell in plan.cells:
        seen: list[str] = []

        async def answer(history, turn, cell=cell, seen=seen):
            request = cell.request(history, plan.blueprint.tools)
            seen.append(call_key("generate", request, cell.repeat))
            return CallResult("ok", None, 0, 0, 0.0, None, "provider")

        asyncio.run(Conversation(cell).generate(answer))
        assert seen[0] == plan.opening_key(cell)
        assert len(seen) == cell.turns


def test_collections_expand_in_place_and_duplicates_go():
    text = "models: [openai:x, QUICK, 'openrouter:openai/gpt-4o-mini', MINE]\n---\n- {id: p, prompt: hi}\n"
    plan = plan_run(
        bp(text),
        collections={"QUICK": ["openrouter:openai/gpt-4o-mini", "openai:y"], "MINE": ["openai:x"]},
        judge=False,
    )
    assert plan.problems == []
    assert plan.models == ["openai:x", "openrouter:openai/gpt-4o-mini", "openai:y"]


def test_shipped_collections_resolve_by_default():
    plan = plan_run(bp("models: [OPENAI_GPT4O_SNAPSHOTS]\n---\n- {id: p, prompt: hi}\n"))
    assert plan.models == [
        "openai:gpt-4o-2024-11-20",
        "openai:gpt-4o-2024-08-06",
        "openai:gpt-4o-2024-05-13",
    ]


def test_an_empty_collection_warns_and_a_bad_id_in_one_is_named():
    plan = plan_run(
        bp("models: [FRONTIER, MINE]\n---\n- {id: p, prompt: hi}\n"),
        collections={"FRONTIER": [], "MINE": ["gpt-4o"]},
    )
    assert "The model collection FRONTIER is empty; it adds no models." in plan.warnings
    assert plan.problems == [
        "'gpt-4o' (in the collection MINE) is not a model id; write provider:model, e.g. "
        "openai:gpt-4.1-mini."
    ]


def test_collections_in_settings_toml_replace_shipped_ones(tmp_path, monkeypatch):
    from engine.providers.collections import model_collections
    from engine.settings import load_settings

    (tmp_path / "settings.toml").write_text('[collections]\nQUICK = ["openai:mine"]\n')
    monkeypatch.setenv("BLUEPRINT_HOME", str(tmp_path))
    known = model_collections(load_settings())
    assert known["QUICK"] == ("openai:mine",) and len(known["CORE"]) == 33
    plan = plan_run(bp("models: [QUICK]\n---\n- {id: p, prompt: hi}\n"))
    assert plan.models == ["openai:mine"]


def test_a_collections_table_with_a_wrong_type_is_a_clear_error(tmp_path, monkeypatch):
    from engine.errors import ConfigError
    from engine.settings import load_settings

    (tmp_path / "settings.toml").write_text('[collections]\nQUICK = "openai:mine"\n')
    monkeypatch.setenv("BLUEPRINT_HOME", str(tmp_path))
    with pytest.raises(ConfigError, match=r"\[collections\] QUICK must be a list of model ids"):
        load_settings()


def test_the_collections_are_read_only_for_a_run_that_names_one(tmp_path):
    # Reading them (the shipped TOML file and its parser) costs a run's start; most name none.
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "from engine.run.outcome import RunOptions\n"
        "from engine.run.service import prepare_run\n"
        "from engine.store.sqlite import SQLiteStore\n"
        "store = SQLiteStore(sys.argv[1])\n"
        "for models in ('[openai:a, anthropic:b]', '[QUICK]'):\n"
        "    text = f'models: {models}\\n---\\n- {{id: p, prompt: hi}}\\n'\n"
        "    prepared = prepare_run(store, text, source=None, options=RunOptions(), record=False)\n"
        "    print(len(prepared.plan.models), 'tomllib' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path / "s.db")],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "BLUEPRINT_HOME": str(tmp_path)},
    )
    plain, collection = out.stdout.split("\n")[:2]
    assert plain == "2 False"
    count, read = collection.split()
    assert int(count) > 1 and read == "True"
