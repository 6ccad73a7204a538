"""How a `refhound` process starts and ends: start-up without the cyclic garbage collector, and an exit
without the interpreter's teardown.

Start-up imports some 1,500 modules (LangGraph's and pydantic's among them) whose modules, classes and
schemas live as long as the process. The collector, set off every 700 allocations, walked them again and
again while they were made; and at exit the interpreter freed them one by one and collected them once
more, after the output was written and the exit code known. Both were a large share of an offline check of
a few references (measured in docs/benchmarks/new-user.md). So the process pauses the collector until the
command's own set-up is done (`resume_collection`, after which what set-up made is frozen: never walked
again), and ends with `os._exit` once everything registered with `atexit` has run and the standard streams
are flushed. Only the process entry `run` does this: `main` and the app, as tests and other programs call
them, leave the collector and the exit alone.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
from collections.abc import Callable

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


def run(entry: Callable[[], object]) -> None:
    """Run `entry`, the whole command line, as the process: its `SystemExit` ends the process."""
    global _paused, _status
    atexit.register(_end)  # registered before anything else, so it runs after every other exit handler
    if gc.isenabled():
        gc.disable()
        _paused = True
    try:
        entry()
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
