"""A blueprint of three prompts (one a conversation) a person asks a chat app."""

CAPITALS_APP = """\
title: Capitals, asked in a chat app
---
- id: france
  prompt: What is the capital of France?
  should:
    - $icontains: paris
- id: spain
  prompt: What is the capital of Spain?
  should:
    - $icontains: madrid
- id: italy-trip
  messages:
    - user: I am planning a trip to Italy.
    - assistant: Lovely! Which cities would you like to see?
    - user: Only its capital. Which city is that?
  should:
    - $icontains: rome
    - $not_icontains: milan
"""
