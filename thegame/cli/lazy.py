"""A click group whose commands are imported when they run, not at start-up
(``thegame --version`` stays fast)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping, MutableMapping
from typing import Any

import click


class PipeClosed(Exception):
    """Stdout's reader went away (``thegame ... | head -1``). Not an
    ``OSError``: click would catch that one itself and exit 1."""


class LazyGroup(click.Group):
    """A group of ``name -> "module:attribute"`` commands, imported on use.

    ``lazy`` module paths are relative to the ``thegame.cli`` package."""

    def __init__(self, *args: Any, lazy: Mapping[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    @property  # type: ignore[override]
    def commands(self) -> MutableMapping[str, click.Command]:
        """Every command, imported (for code that walks them all)."""
        for name in list(self.lazy):
            self._load(name)
        return self._commands

    @commands.setter
    def commands(self, value: MutableMapping[str, click.Command]) -> None:
        self._commands = value

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise PipeClosed from None

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self._commands, *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy:
            return self._load(cmd_name)
        return self._commands.get(cmd_name)

    def _load(self, name: str) -> click.Command:
        module, attr = self.lazy.pop(name).split(":")
        command = getattr(importlib.import_module(module, "thegame.cli"), attr)
        if not isinstance(command, click.Command):
            raise TypeError(f"{module}:{attr} is not a click command")
        self._commands[name] = command
        return command
