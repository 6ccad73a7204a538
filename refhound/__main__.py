"""`python -m refhound` is the `refhound` command."""

from refhound.cli import run

run()
