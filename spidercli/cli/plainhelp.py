"""Help and usage lines in the plain notation of Unix manuals, not Typer's own.

Typer 0.29 writes a command's usage as ``spidercli replay [OPTIONS] {log}`` and lists each value
with its Python type: ``log <str>``, ``PATH <list[str]>``, ``--jobs <int range>  [x>=1]``,
``--format <table|json|csv>``. ``PlainCommand`` writes ``spidercli replay [OPTIONS] LOG`` and
``spidercli verify [OPTIONS] PATH...``, each argument by its name in capitals (an optional one in
brackets), and each option with the word its help speaks of (``--jobs N``, ``--show WHICH``,
``--format FORMAT``): every option that takes a value names one (``metavar``), and the bounds of a
number are said by the sentence refusing a value out of them (``options.refused_value``), not in
the listing.

The usage line of an error (``Usage: ...`` above ``Error: ...``) is the same line. A typo in an
option or a command gets the same "did you mean" as every other name (``fix_usage_error``).
"""

from __future__ import annotations

import ast
import re
from typing import Any

from typer.core import TyperCommand

from spidercli.text.suggest import close_match

_RANGE_ALONE = re.compile(r"  \[(?:[0-9.]+<=?)?x(?:>=?|<=?)[0-9.]+\]")
_RANGE_AFTER = re.compile(r"; (?:[0-9.]+<=?)?x(?:>=?|<=?)[0-9.]+\]")


def argument_name(param: Any) -> str:
    """An argument as the usage line writes it: ``LOG``, ``PATH...``, ``[NAME]``."""
    name = param.metavar or param.name.upper()
    if param.nargs != 1:
        name += "..."
    return name if param.required else f"[{name}]"


def option_name(param: Any) -> str:
    """An option as the listing writes it: ``-j, --jobs N``, ``--json``, ``--color /
    --no-color``."""
    names = ", ".join(sorted(param.opts, key=len))
    if param.secondary_opts:
        names += " / " + ", ".join(sorted(param.secondary_opts, key=len))
    if not param.is_flag and not getattr(param, "count", False):
        names += " " + (param.metavar or param.name.upper())
    return names


def plain_help(text: str) -> str:
    """An option's help column without the range Typer appends (``[x>=1]``, ``; x>=0.01]``)."""
    return _RANGE_AFTER.sub("]", _RANGE_ALONE.sub("", text))


class PlainCommand(TyperCommand):
    """A Typer command whose usage line and listing use plain names (see the module)."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                pieces.append(argument_name(param))
        return pieces

    def format_options(self, ctx: Any, formatter: Any) -> None:
        arguments = []
        options = []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if param.param_type_name == "argument":
                name = param.metavar or param.name.upper()
                if param.nargs != 1:
                    name += "..."
                arguments.append((name, getattr(param, "help", None) or ""))
            else:
                options.append((option_name(param), plain_help(record[1])))
        if arguments:
            with formatter.section("Arguments"):
                formatter.write_dl(arguments)
        if options:
            with formatter.section("Options"):
                formatter.write_dl(options)


def fix_usage_error(err: Any) -> None:
    """Typer's message for an unknown option or command, with the closest name said as every
    other name is: ``No such option: --jsno (did you mean --json?)`` where Typer says ``(Possible
    options: --json, --show)``, and ``No such command 'replya' (did you mean 'replay'?)`` where
    it says ``No such command 'replya'. Did you mean 'replay'?``."""
    from typer._click.exceptions import NoSuchOption, UsageError  # on a usage error alone

    if isinstance(err, NoSuchOption):
        known: list[str] = []
        if err.ctx is not None:
            for param in err.ctx.command.get_params(err.ctx):
                known += [*param.opts, *param.secondary_opts]
        guess = close_match(err.option_name, [name for name in known if name.startswith("--")])
        err.possibilities = None  # Typer's "(Possible options: ...)"
        if guess is not None:
            err.message += f" (did you mean {guess}?)"
    elif isinstance(err, UsageError) and err.ctx is not None:
        found = _NO_SUCH_COMMAND.match(err.message)
        if found is None:
            return
        try:
            typed = ast.literal_eval(found[1])  # Typer writes the name as repr() does
        except (ValueError, SyntaxError):
            return
        group: Any = err.ctx.command
        guess = close_match(str(typed), group.list_commands(err.ctx))
        hint = f" (did you mean {guess!r}?)" if guess else "."
        err.message = f"No such command {found[1]}{hint}"


_NO_SUCH_COMMAND = re.compile(r"No such command (.+?)\.(?: Did you mean .*\?)?\Z", re.S)


__all__ = ["PlainCommand", "argument_name", "fix_usage_error", "option_name", "plain_help"]
