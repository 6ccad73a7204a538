"""How a `refhound` process starts and ends: `refhound --version` without the parser, start-up without the
cyclic garbage collector, and an exit without the interpreter's teardown.

Start-up imports some 1,500 modules (LangGraph's and pydantic's among them) whose modules, classes and
schemas live as long as the process. The collector, set off every 700 allocations, walked them again and
again while they were made; and at exit the interpreter freed them one by one and collected them once
more, after the output was written and the exit code known. Both were a large share of an offline check of
a few references (measured in docs/benchmarks/new-user.md). So the process pauses the collector until the
command's own set-up is done (`resume_collection`, after which what set-up made is frozen: never walked
again), and ends with `os._exit` once everything registered with `atexit` has run and the standard streams
are flushed. Only the process entry `run` does this: `main` and the app, as tests and other programs call
them, leave the collector and the exit alone. `refhound --version` alone on the command line is answered
before the parser is imported (typer is most of what the version would otherwise cost), with the text and
exit code the parser's `--version` gives.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys

_paused = False
_status: int | None = None  # the exit status of the command, once it has ended with one


def resume_collection() -> None:
    """End the start-up pause: freeze what start-up made, then collect as usual. A no-op when `run` did
    not pause the collector (tests, a program that calls `main`)."""
    global _paused
    if _paused:
        gc.freeze()
        gc.enable()
        _paused = False


def run() -> None:
    """The `refhound` process (`python -m refhound`, the installed script): the command line of
    `sys.argv`, whose `SystemExit` ends the process."""
    global _paused, _status
    if sys.argv[1:] == ["--version"]:
        from refhound import __version__

        print(f"refhound {__version__}")
        return
    atexit.register(_end)  # registered before anything else, so it runs after every other exit handler
    if gc.isenabled():
        gc.disable()
        _paused = True
    from refhound.cli.commands import main

    try:
        main()
    except SystemExit as exc:
        code = exc.code
        if code is None or isinstance(code, int):  # a message as the code is printed by the interpreter
            _status = code or 0
        raise


def _end() -> None:
    if _status is None:  # an uncaught exception, or a message to print: the interpreter's usual exit
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe or stream: the interpreter reports it as it always does
        return
    os._exit(_status)
