"""Settings: the providers' API keys in use (personal mode: paste one into the secrets file) and a test.

In team mode the page saves nothing: the studio's and each worker's keys come from their own
environment (docs/deploy.md), and a file written here would reach neither the workers nor a
read-only mounted secrets file.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from engine.errors import ConfigError
from engine.loop import run_to_end
from engine.providers import SECRETS_PATH, load_environ
from engine.providers.keyfile import KeyStatus, check_key, key_statuses, save_key
from studio import access
from studio.core.textsafe import safe_markdown
from studio.widgets.common import notice

access.guard("settings")  # before anything is drawn or read

FORM_KEY = "settings_key_form"
KEY_INPUT = "settings_api_key"
PROVIDER_INPUT = "settings_key_provider"
SAVED = "settings_saved"
TEST_MODELS = {
    "openai": "openai:gpt-4.1-mini",
    "anthropic": "anthropic:claude-haiku-4.5",
    "openrouter": "openrouter:openai/gpt-4.1-mini",
    "google": "google:gemini-2.5-flash",
    "mistral": "mistral:mistral-small-latest",
    "groq": "groq:llama-3.1-8b-instant",
    "deepseek": "deepseek:deepseek-chat",
    "together": "together:meta-llama/Llama-3.3-70B-Instruct-Turbo",
    "xai": "xai:grok-3-mini",
}


def _secrets_path() -> Path:
    return (Path.cwd() / SECRETS_PATH).resolve()


def _where(status: KeyStatus) -> str:
    if status.source is None:
        return "not set"
    if status.shadowed:
        return "environment (a key saved here is ignored while the environment sets one)"
    return status.source


def _key_table(statuses: list[KeyStatus]) -> None:
    st.dataframe(
        [
            {
                "Provider": s.provider,
                "Key": s.masked or "—",
                "From": _where(s),
                "Variable": s.variable,
            }
            for s in statuses
        ],
        hide_index=True,
        width="stretch",
    )


def _on_save(path: Path) -> None:
    """Save the pasted key, then empty the field: the key leaves the session with this request."""
    key = str(st.session_state.get(KEY_INPUT) or "")
    provider = str(st.session_state.get(PROVIDER_INPUT) or "")
    st.session_state[KEY_INPUT] = ""
    try:
        variable = save_key(path, provider, key)
    except ConfigError as exc:
        st.session_state[SAVED] = ("error", str(exc))
    else:
        st.session_state[SAVED] = ("success", f"Saved {variable}. It is used from the next run on.")


def _save_form(providers: list[str], path: Path) -> None:
    with st.form(FORM_KEY):
        st.selectbox("Provider", providers, key=PROVIDER_INPUT)
        st.text_input("API key", type="password", placeholder="Paste the key here", key=KEY_INPUT)
        st.form_submit_button("Save key", type="primary", on_click=_on_save, args=(path,))
    outcome = st.session_state.pop(SAVED, None)
    if outcome is not None:
        kind, message = outcome
        (st.success if kind == "success" else st.error)(message)


def _test_panel(providers: list[str]) -> None:
    st.subheader("Test a key")
    st.caption(
        "Sends one tiny request (one output token) to the model you name, with the key in use "
        "for its provider. It may cost a fraction of a cent."
    )
    provider = st.selectbox("Provider to test", providers, key="settings_test_provider")
    model = st.text_input(
        "Model",
        value=TEST_MODELS.get(str(provider), f"{provider}:"),
        key=f"settings_model_{provider}",
    )
    if st.button("Test this key", icon=":material/network_check:"):
        with st.spinner("Calling the provider…"):
            result = run_to_end(lambda: check_key(model.strip(), load_environ()))
        (st.success if result.ok else st.error)(result.message)


TEAM_KEYS = (
    "**Team mode: keys are set where the processes start, not here.** Each process reads its "
    "own keys: from its environment first (with Docker Compose: `blueprint.env`, passed to the "
    "studio and the workers), then from `.streamlit/secrets.toml` in the folder it starts in. "
    "The **workers'** keys make the runs' calls. The **studio** needs the same keys (below): "
    "a run or re-score plan checks the key of every model and judge before it may start, and "
    "the studio calls providers itself for drafting help, scoring a tried answer and the key "
    "test. Give every process the same keys, then restart them to use a new one. "
    "Prices and `$call` hosts are in each process's `settings.toml` "
    "(`$BLUEPRINT_HOME/settings.toml`). Keys are never stored with runs, shown in full or "
    "put in links."
)


def main() -> None:
    """Render the Settings page."""
    st.title("Settings")
    notice()
    path = _secrets_path()
    team = access.team_mode()
    if team:
        st.info(TEAM_KEYS)
    else:
        st.info(
            "API keys are read from the environment first, then from the secrets file "
            f"{safe_markdown(str(path))}. Keys are never stored with runs, shown in full or "
            "put in links."
        )
    st.subheader("API keys")
    try:
        statuses = key_statuses(path, load_environ(None))
    except ConfigError as exc:
        st.error(str(exc))
        return
    _key_table(statuses)
    providers = [s.provider for s in statuses]
    if not team:
        _save_form(providers, path)
    _test_panel(providers)


main()
