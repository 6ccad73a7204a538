"""Reviewer triage: many submissions checked, ranked most suspicious first, with a static dashboard.

inputs.py      PATHs → papers: folders, archives (safely), reference lists; bad input as error rows
keys.py        resume keys (bytes, version, index, verdict settings) and output names
worker.py      one paper: read, check through the SOP, render; atomic outputs and done-markers
pool.py        worker processes that survive each other's death (`--workers N`)
ray_backend.py papers as Ray tasks, one rate-limit actor per service host (`--ray ADDRESS`)
reuse.py       cross-paper reuse of look-ups (the judge still judges each paper's own fields)
ratelimit.py   the online services' polite rates for the whole run, not per worker
rows.py        a row per paper, the ranking, the CSV (`refhound.triage/1`)
dashboard.py   index.html
run.py         the run: collect, resume, check, write
"""
