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


class OutputError(Exception):
    """An output cannot be written where asked (unwritable, below a file, read-only, full,
    a name too long, an existing folder or file that is not sim's): names the path and the
    reason. The CLI prints it on one line and exits 2; nothing is left behind."""

    def __init__(self, path: str, reason: str):
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")
