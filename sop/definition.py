"""SOP files: which stages a reference passes through, in which order.

An SOP is a small YAML file (`name`, optional `description`, `stages`). The packaged ones sit beside
this module (`default.yaml`, `citeaudit.yaml`); a user may name one of those or give a path. It is
validated on load, so a typo in a stage name stops the run before any reference is checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from refhound.errors import SopInvalid
from refhound.models import Stage

#: Every stage an SOP may name; each maps to one agent (see `refhound.sop.stages`).
STAGE_NAMES = tuple(Stage)
PACKAGED_DIR = Path(__file__).parent


@dataclass(frozen=True)
class Sop:
    name: str
    stages: tuple[str, ...]  # evidence stages in order, then "judge"
    description: str = ""
    source: str = ""  # the file it was read from

    @property
    def evidence_stages(self) -> tuple[str, ...]:
        return self.stages[:-1]


def packaged_sops() -> list[str]:
    return sorted(p.stem for p in PACKAGED_DIR.glob("*.yaml"))


def load_sop(name_or_path: str) -> Sop:
    """The SOP named (a packaged one) or stored at a path; a clear `SopInvalid` for anything else."""
    path = Path(name_or_path)
    if path.suffix not in (".yaml", ".yml"):
        if name_or_path not in packaged_sops():
            raise SopInvalid(
                name_or_path,
                f"no packaged SOP of that name (choose {', '.join(packaged_sops())}, or give a .yaml path)",
            )
        path = PACKAGED_DIR / f"{name_or_path}.yaml"
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SopInvalid(str(path), f"cannot be read ({exc})") from exc
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise SopInvalid(str(path), f"is not valid YAML ({str(exc).splitlines()[0]})") from exc
    return parse_sop(data, str(path))


def parse_sop(data: object, source: str) -> Sop:
    if not isinstance(data, dict):
        raise SopInvalid(source, "must be a mapping with `name` and `stages`")
    unknown_keys = set(data) - {"name", "description", "stages"}
    if unknown_keys:
        raise SopInvalid(source, f"unknown key(s) {', '.join(sorted(map(str, unknown_keys)))}")
    stages = data.get("stages")
    if not isinstance(stages, list) or not stages or not all(isinstance(s, str) for s in stages):
        raise SopInvalid(source, "`stages` must be a non-empty list of stage names")
    for stage in stages:
        if stage not in STAGE_NAMES:
            raise SopInvalid(source, f"unknown stage {stage!r} (known: {', '.join(STAGE_NAMES)})")
    if len(set(stages)) != len(stages):
        raise SopInvalid(source, "a stage is listed twice")
    if stages[-1] != Stage.JUDGE or stages.count(Stage.JUDGE) != 1:
        raise SopInvalid(source, "the last stage must be `judge` (it gives every verdict), and only the last")
    name = data.get("name", Path(source).stem)
    description = data.get("description", "")
    if not isinstance(name, str) or not isinstance(description, str):
        raise SopInvalid(source, "`name` and `description` must be strings")
    return Sop(name=name, stages=tuple(stages), description=description, source=source)
