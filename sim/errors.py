"""Errors the CLI turns into one clear message and exit code 2."""

from __future__ import annotations


class ConfigError(Exception):
    """Bad input: names the file, the key (dotted path, or '' for the whole file) and the reason."""

    def __init__(self, file: str, key: str, reason: str):
        self.file = str(file)
        self.key = key
        self.reason = reason
        where = f"key '{key}': " if key else ""
        super().__init__(f"{self.file}: {where}{reason}")
