"""The SOP orchestrator: a LangGraph graph that takes every reference through the evidence stages in order.

definition   SOP files (`default.yaml`, `citeaudit.yaml`, or a user's): the stages and their order
stages       which agent runs each stage, and which stages are left out of this run and why
graph        the wiring: a node per stage and the judge, fanned out from START in batches
routes       where a branch goes after a stage; batch sizes per stage
nodes        a stage's step on a batch of branches, the judge's step, and the finished result
state        the run's state and a branch's
runner       `SopRunner`: chunks, concurrency, checkpoints, resume, progress
runs         the SQLite file that keeps runs resumable
"""
