"""Fakes for tests and benchmarks: a local fake LLM server speaking OpenAI, Anthropic and Ollama."""
