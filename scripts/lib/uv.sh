# shellcheck shell=bash
# uv_run ARGS...: run uv (the resolver and installer behind scripts/lock and scripts/test's
# --resolution): the one installed in this Python (the dev lock has it), else one kept in
# ~/.cache/blueprint-studio/uv, installed there from PyPI on first use.
uv_run() {
  if python -m uv --version >/dev/null 2>&1; then
    python -m uv "$@"
    return
  fi
  local home="${XDG_CACHE_HOME:-$HOME/.cache}/blueprint-studio/uv"
  if [ ! -x "$home/bin/uv" ]; then
    echo "== installing uv into $home (once)" >&2
    python -m venv "$home"
    "$home/bin/python" -m pip install -q --disable-pip-version-check "uv>=0.5,<1"
  fi
  "$home/bin/uv" "$@"
}
