"""A run of 40 slow references with a checkpoint, for the kill-and-resume test.

    python -m tests.sop.interrupted_run INDEX RUNS_DB LOG RUN_ID [resume]

Each reference takes 50 ms in a fake index agent that logs its id, so the test can kill the process
after some references are done and resume the run from the checkpoint.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from refhound.index.store import IndexStore
from refhound.settings import Settings
from refhound.sop.definition import Sop
from refhound.sop.runner import SopRunner
from tests.sop.fakes import FakeAgent, reference

N = 40


def main(index: str, runs: str, log: str, run_id: str, mode: str = "run") -> None:
    settings = Settings()
    settings.sop.runs_path = Path(runs)
    settings.sop.concurrency = 2
    settings.memory.enabled = False
    settings.check.offline = True
    sop = Sop(name="slow", stages=("index", "judge"))
    agent = FakeAgent("index", knows={f"ref{i}" for i in range(0, N, 2)}, delay_s=0.05, log=Path(log))
    with IndexStore.open(Path(index)) as store:
        runner = SopRunner(settings, store, sop=sop, agents={"index": agent})
        if mode == "resume":
            outcome = runner.resume(run_id)
        else:
            outcome = runner.run([reference(i) for i in range(N)], inputs=["refs.bib"], run_id=run_id)
    print(json.dumps([[r.id, r.verdict.value] for r in outcome.results]))


if __name__ == "__main__":
    main(*sys.argv[1:])
