"""`refhound bench ARGS…` whose verifier is slow after its first batch, for the Ctrl-C test.

    python -m tests.benchmark.interrupted_bench MARKER ARGS…

The fake verifier answers `verified` for every reference; when its second batch starts it creates MARKER
(so the test knows one batch is finished) and then takes long enough to be interrupted.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from refhound.benchmark import runner as runner_module
from refhound.benchmark.runner import Verifier
from refhound.models import ParsedFields, Reference, ReferenceResult, Verdict


def slow_verifier(marker: Path) -> Verifier:
    calls = 0

    def verify(references: list[Reference]) -> list[ReferenceResult]:
        nonlocal calls
        calls += 1
        if calls > 1:
            marker.touch()
            time.sleep(30)
        return [
            ReferenceResult(
                id=r.id,
                raw=r.raw,
                parsed=ParsedFields(),
                verdict=Verdict.VERIFIED,
                hallucinated=False,
                stage="index",
            )
            for r in references
        ]

    return verify


def main() -> None:
    marker = Path(sys.argv[1])
    runner_module.sop_verifier = lambda _runner: slow_verifier(marker)  # type: ignore[assignment]
    from refhound.cli import app

    app(sys.argv[2:])


if __name__ == "__main__":
    main()
