"""The History page: every run in the store with its status and scores (`history`)."""
