"""Typer's parameter coercion without importing pydantic for the common cases.

Typer 0.29 turns every command-line value into its Python type with a pydantic ``TypeAdapter``,
built the first time the parameter is processed; importing pydantic alone costs a command such as
``spidercli replay LOG`` about as much time as the rest of its start-up. The values our commands
take are plain: strings (alone or a list of them, as verify's paths), small integers, numbers of
seconds, booleans and choices. For those, the value that pydantic would return is known without
it: a string is returned as it is, a list of strings as a list, ``"12"`` is 12, ``"0.5"`` is 0.5,
a flag is already a bool, and a choice is matched by Typer's own function (the one pydantic
calls).

Every value outside that narrow path (a string that is not valid UTF-8, a number in any other
spelling or out of its range, an unknown choice, any other type) goes to Typer's own coercion,
built on first use, so each accepted spelling stays exactly Typer's. The tests compare both paths
value for value (tests/test_quickparams.py). A value that path refuses too is refused in a plain
sentence (``options.refused_value``: ``'0' is not a whole number of 1 or more``, ``'jsno' is not
one of table, json, ... (did you mean 'json'?)``) instead of pydantic's (``Input should be
greater than or equal to 1``, ``Value error, 'jsno' is not one of ...``).

This leans on two names inside Typer (``typer.core.build_runtime_param`` and
``typer._coercion.RuntimeParam``); pyproject.toml pins Typer's minor version. Where either is
missing, :func:`install` does nothing and Typer works as it always does.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from typer import BadParameter

from spidercli.cli.options import refused_value

_PLAIN_INT = re.compile(r"-?(?:0|[1-9][0-9]{0,17})")
_PLAIN_FLOAT = re.compile(r"-?(?:0|[1-9][0-9]{0,17})(?:\.[0-9]{1,17})?")
_NOT_QUICK = object()


def quick_value(annotation: Any, info: Any, value: Any, ctx: Any) -> Any:
    """``value`` coerced as Typer would, or ``_NOT_QUICK`` to leave it to Typer's own path."""
    if annotation is str:
        if type(value) is str:
            try:
                value.encode("utf-8")  # pydantic refuses lone surrogates (undecodable argv)
            except UnicodeEncodeError:
                return _NOT_QUICK
            return value
        return _NOT_QUICK
    if annotation is bool:
        return value if type(value) is bool else _NOT_QUICK
    if annotation is int:
        if info.clamp:
            return _NOT_QUICK
        if type(value) is int:
            number = value
        elif type(value) is str and _PLAIN_INT.fullmatch(value):
            number = int(value)
        else:
            return _NOT_QUICK
        if (info.min is not None and number < info.min) or (
            info.max is not None and number > info.max
        ):
            return _NOT_QUICK
        return number
    if annotation is float:
        if info.clamp:
            return _NOT_QUICK
        if type(value) is float and math.isfinite(value):
            real = value
        elif type(value) is int or (type(value) is str and _PLAIN_FLOAT.fullmatch(value)):
            real = float(value)
        else:
            return _NOT_QUICK
        if (info.min is not None and real < info.min) or (info.max is not None and real > info.max):
            return _NOT_QUICK
        return real
    if annotation == list[str]:  # a command's paths: each item as a ``str`` above
        if type(value) not in (tuple, list):
            return _NOT_QUICK
        items = [quick_value(str, info, item, ctx) for item in value]
        return _NOT_QUICK if any(item is _NOT_QUICK for item in items) else items
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        if isinstance(value, annotation):
            return value
        if type(value) is not str:
            return _NOT_QUICK
        from typer._param_types import coerce_cli_choice  # a choice given: its module then

        try:
            return coerce_cli_choice(
                value, choices=tuple(annotation), case_sensitive=info.case_sensitive, ctx=ctx
            )
        except ValueError:
            return _NOT_QUICK
    return _NOT_QUICK


def quick_annotation(annotation: Any, info: Any) -> bool:
    """Whether :func:`quick_value` knows ``annotation`` (and no custom parser is set)."""
    if getattr(info, "parser", None) is not None:
        return False
    if annotation in (str, bool, int, float) or annotation == list[str]:
        return True
    return isinstance(annotation, type) and issubclass(annotation, Enum)


def install() -> None:
    """Make Typer coerce plain values without pydantic (idempotent; a no-op on another Typer)."""
    try:  # Typer's inside, which another Typer may not have
        from typer import _coercion, core
    except ImportError:  # pragma: no cover - another Typer layout
        return
    original = getattr(core, "build_runtime_param", None)
    base = getattr(_coercion, "RuntimeParam", None)
    if original is None or base is None or getattr(original, "_spidercli_quick", False):
        return
    typers: Callable[[Any], Any] = original

    @dataclass(frozen=True)
    class QuickParam(base):  # type: ignore[misc, valid-type]
        descriptor: Any = None
        full: list[Any] = field(default_factory=list)  # Typer's own, built on first need

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            quick = quick_value(self.annotation, self.parameter_info, value, ctx)
            if quick is not _NOT_QUICK:
                return quick
            if not self.full:
                self.full.append(typers(self.descriptor))
            try:
                return self.full[0]._coerce_value(value, param=param, ctx=ctx)
            except BadParameter as err:  # said plainly, not in pydantic's words
                info = self.parameter_info
                plain = refused_value(self.annotation, value, info.min, info.max)
                if plain is not None:
                    err.message = plain
                raise

    def build_runtime_param(descriptor: Any) -> Any:
        if descriptor.file_annotation is None and quick_annotation(
            descriptor.annotation, descriptor.parameter_info
        ):
            return QuickParam(
                parameter_info=descriptor.parameter_info,
                annotation=descriptor.annotation,
                descriptor=descriptor,
            )
        return typers(descriptor)

    build_runtime_param._spidercli_quick = True  # type: ignore[attr-defined]
    setattr(core, "build_runtime_param", build_runtime_param)  # noqa: B010 (not exported)
