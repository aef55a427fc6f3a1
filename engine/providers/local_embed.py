"""`local:` embedding models computed in this process, from weights a PyPI package ships.

`local:wordllama` is WordLlama's `l2_supercat` model (256 dimensions, MIT licence), whose
weights and tokenizer are inside the `wordllama` wheel: it needs no key and no network, and
nothing is downloaded at run time. It is an optional extra: `pip install
'blueprint-studio[local-embeddings]'`. WordLlama's own loader looks for the tokenizer in a
folder the wheel does not have (and would then download it), so the packaged files are opened
here directly.
"""

from __future__ import annotations

import threading
from importlib import import_module
from importlib.resources import files
from typing import Any

from engine.errors import ConfigError

__all__ = ["LOCAL_MODELS", "LocalEmbeddings"]

LOCAL_MODELS = {"wordllama": ("l2_supercat_256.safetensors", "l2_supercat_tokenizer_config.json")}
"""`local:<name>` -> (weights file, tokenizer file) inside the `wordllama` package."""

_INSTALL = "pip install 'blueprint-studio[local-embeddings]'"


class LocalEmbeddings:
    """Embeds texts with a packaged model; each model is loaded once, on first use."""

    def __init__(self) -> None:
        self._models: dict[str, Any] = {}
        self._lock = threading.Lock()

    def check(self, model_id: str) -> str | None:
        """None if `model_id` can be embedded here, else why not."""
        name = model_id.partition(":")[2].strip()
        if name not in LOCAL_MODELS:
            known = ", ".join(f"local:{n}" for n in sorted(LOCAL_MODELS))
            return f"Unknown local embedding model '{model_id}'. Known: {known}."
        try:
            import_module("wordllama")
        except ImportError:
            return f"'{model_id}' needs the package wordllama: {_INSTALL}."
        return None

    def _model(self, name: str) -> Any:
        with self._lock:
            model = self._models.get(name)
            if model is None:
                model = self._models[name] = _load(name)
            return model

    def embed(self, model_id: str, text: str) -> list[float]:
        """Return the embedding of `text` (not normalized; cosine does not need it).

        Raises:
            ConfigError: The model is unknown or its package is not installed.
        """
        why = self.check(model_id)
        if why is not None:
            raise ConfigError(why)
        model = self._model(model_id.partition(":")[2].strip())
        vector = model.embed([text])[0]
        return [float(x) for x in vector]


def _load(name: str) -> Any:
    from safetensors import safe_open
    from tokenizers import Tokenizer
    from wordllama.inference import WordLlamaInference

    weights, tokenizer = LOCAL_MODELS[name]
    root = files("wordllama")
    weights_path, tokenizer_path = root / "weights" / weights, root / "tokenizers" / tokenizer
    if not weights_path.is_file() or not tokenizer_path.is_file():
        raise ConfigError(
            f"local:{name}: the installed wordllama package does not ship {weights} and "
            f"{tokenizer}; reinstall it ({_INSTALL})."
        )
    with safe_open(str(weights_path), framework="np", device="cpu") as handle:
        embedding = handle.get_tensor("embedding.weight")
    return WordLlamaInference(embedding, Tokenizer.from_file(str(tokenizer_path)))
