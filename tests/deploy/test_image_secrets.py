"""The compose image holds no secret: `.dockerignore` keeps them out of the build context.

docs/deploy.md puts `secrets.toml`, `blueprint.env` and `settings.toml` beside compose.yaml,
and the image is built with `COPY . /src`: whatever the build context holds can end in an
image layer (a later `rm` does not remove it from the layer). These tests lay out a checkout
as an operator's would look (the repository's files, a `.git`, the secrets, caches, a venv),
compute the context Docker would send by its `.dockerignore` rules, and look for the secrets
in it, by name and by content.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.deploy.dockerignore import build_context, excluded, read_patterns

ROOT = Path(__file__).resolve().parents[2]
SECRET = "sk-fake-secret-8c1f0e2a9b7d"
"""A marker in every fake secret: found in no file of the context."""

SECRET_FILES = {
    ".streamlit/secrets.toml": f'[auth]\ncookie_secret = "{SECRET}"\nclient_secret = "{SECRET}"\n',
    "secrets.toml": f'OPENAI_API_KEY = "{SECRET}"\n',
    "blueprint.env": f"POSTGRES_PASSWORD={SECRET}\nOPENROUTER_API_KEY={SECRET}\n",
    "production.env": f"OPENAI_API_KEY={SECRET}\n",
    ".env": f"OPENAI_API_KEY={SECRET}\n",
    "settings.toml": f'[factcheck]\ntoken = "{SECRET}"\n',
    "home/settings.toml": f'[factcheck]\ntoken = "{SECRET}"\n',
    "studio/.streamlit/secrets.toml": f'[auth]\ncookie_secret = "{SECRET}"\n',
    "engine/blueprint.env": f"OPENAI_API_KEY={SECRET}\n",
    "studio.db": f"runs and {SECRET}\n",
    ".git/config": f"[remote]\n\turl = https://user:{SECRET}@example.org/repo.git\n",
    ".git/objects/ab/cdef": SECRET,
}
LEFTOVERS = [
    ".venv/lib/python3.11/site-packages/x.py",
    "engine/__pycache__/settings.cpython-311.pyc",
    ".mypy_cache/3.11/engine.json",
    ".pytest_cache/v/cache/nodeids",
    "tests/artifacts/shot.png",
    "bench/out/result.json",
    "build/lib/engine/__init__.py",
    "blueprint_studio.egg-info/PKG-INFO",
]


def _tracked() -> list[str]:
    """The repository's files (what a fresh clone holds)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("git is not here to list the repository's files")
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return [p for p in out.split("\0") if p and (ROOT / p).is_file()]


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the repository as an operator's folder: secrets, `.git`, caches and all."""
    root = tmp_path_factory.mktemp("checkout")
    for name in _tracked():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, root / name)
    for name, text in SECRET_FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    for name in LEFTOVERS:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("leftover\n")
    return root


def test_the_build_context_holds_no_secret(checkout: Path):
    sent = build_context(checkout)
    for name in SECRET_FILES:
        assert name not in sent, f"{name} would be sent to docker build"
    assert not [p for p in sent if p == ".git" or p.startswith(".git/")]
    leaked = [p for p in sent if SECRET.encode() in (checkout / p).read_bytes()]
    assert leaked == [], f"files of the build context hold a secret: {leaked}"


def test_caches_venvs_and_test_data_stay_out(checkout: Path):
    sent = build_context(checkout)
    for name in LEFTOVERS:
        assert name not in sent, f"{name} would be sent to docker build"
    assert not [p for p in sent if "__pycache__" in p or p.startswith("tests/")]


def test_the_context_still_builds_the_package(checkout: Path):
    sent = set(build_context(checkout))
    # what `pip install /src` reads: the project file, its readme, both packages and their data
    for name in (
        "pyproject.toml",
        "README.md",
        "engine/__init__.py",
        "engine/cli/__init__.py",
        "engine/providers/collections.toml",
        "studio/app.py",
        "studio/streamlit_config.toml",
        "studio/assets/studio.css",
        "studio/examples/or-paths.yml",
    ):
        assert name in sent, f"{name} is missing from the build context"
    packaged = {p for p in _tracked() if p.startswith(("engine/", "studio/"))}
    assert packaged <= sent, f"package files left out: {sorted(packaged - sent)[:5]}"


def test_compose_copies_no_secret_and_mounts_them_at_run_time():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    build = compose["x-blueprint"]["build"]
    assert build["context"] == "."
    lines = [line.strip() for line in build["dockerfile_inline"].splitlines()]
    copies = [line for line in lines if line.startswith(("COPY", "ADD"))]
    assert copies == ["COPY . /src"]  # the context, which .dockerignore has emptied of secrets
    assert not any("secrets" in line or ".env" in line for line in lines)
    services = compose["services"]
    assert compose["x-blueprint"]["env_file"] == "blueprint.env"  # environment at run time
    assert (
        "./.streamlit/secrets.toml:/app/.streamlit/secrets.toml:ro" in services["studio"]["volumes"]
    )
    for name in ("studio", "worker"):
        assert "./settings.toml:/app/home/settings.toml:ro" in services[name]["volumes"]
        assert services[name]["environment"]["BLUEPRINT_HOME"] == "/app/home"


@pytest.mark.parametrize(
    ("path", "out"),
    [
        ("secrets.toml", True),
        ("a/b/secrets.toml", True),
        ("engine/x.env", True),
        ("engine/settings.py", False),
        ("engine/__pycache__/x.pyc", True),
        ("docs/deploy.md", True),
        (".git/HEAD", True),
        ("studio/app.py", False),
        ("README.md", False),
    ],
)
def test_the_repositorys_dockerignore_by_docker_rules(path: str, out: bool):
    patterns = read_patterns((ROOT / ".dockerignore").read_text())
    assert excluded(path, patterns) is out


def test_docker_pattern_rules():
    """The matcher follows Docker's documented examples (docs.docker.com, .dockerignore)."""
    rules = read_patterns("*/temp*\n*/*/temp*\ntemp?\n**/*.go\n!keep.go\n/abs/x\n# comment\n")
    assert excluded("somedir/temporary.txt", rules)
    assert excluded("somedir/temp", rules)
    assert not excluded("temporary.txt", rules)  # `*/temp*` needs one folder above
    assert excluded("somedir/subdir/temp.txt", rules)
    assert excluded("tempa", rules) and not excluded("tempab", rules)
    assert excluded("a/b/c.go", rules) and excluded("c.go", rules)
    assert not excluded("keep.go", rules)  # the later exception wins
    assert excluded("abs/x", rules) and excluded("abs/x/inside", rules)  # a parent matches
    only = read_patterns("*\n!README*.md\nREADME-secret.md\n")
    assert not excluded("README.md", only)
    assert excluded("README-secret.md", only)
    assert excluded("any/thing", only)
    root_only = read_patterns("secrets.toml\n")
    assert excluded("secrets.toml", root_only) and not excluded("a/secrets.toml", root_only)
