"""The Settings page: the providers' API keys in use and a test of each (`settings`)."""
