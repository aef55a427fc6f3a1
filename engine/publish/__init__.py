"""Publishing a blueprint as a proposal: a new branch of a git repository and a pull request.

May import: `engine.lint`, `engine.providers` and everything below them; never `engine.report` or
the command line.

`publish(content, name, to)` lints the blueprint (errors: `LintRefusal`, nothing pushed),
clones `to` with the system git, commits the file byte for byte under the blueprints folder
on a new branch, pushes it, and, with a forge configured (`load_publish_settings`), opens a
pull request on GitHub, GitLab or Gitea.
"""

from engine.publish.config import (
    DEFAULT_FOLDER,
    TOKEN_VARIABLE,
    Forge,
    ForgeKind,
    PublishSettings,
    load_publish_settings,
)
from engine.publish.forge import ForgeError, open_pull_request
from engine.publish.git import GitError
from engine.publish.push import LintRefusal, Published, branch_name, lint_errors, publish

__all__ = [
    "DEFAULT_FOLDER",
    "TOKEN_VARIABLE",
    "Forge",
    "ForgeError",
    "ForgeKind",
    "GitError",
    "LintRefusal",
    "PublishSettings",
    "Published",
    "branch_name",
    "lint_errors",
    "load_publish_settings",
    "open_pull_request",
    "publish",
]
