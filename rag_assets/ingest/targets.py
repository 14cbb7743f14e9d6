"""What a batch is made of, without Dagster: the files to ingest (targets) and each one's outcome."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rag_assets.ingest.extraction import SUFFIX_TYPES


@dataclass(frozen=True)
class Target:
    path: Path
    organization_id: str
    rooftop_id: str
    source_path: str


@dataclass
class FileOutcome:
    target: Target
    state: str  # new | changed | retry | unchanged | failed
    document_id: str | None = None
    sha256: str | None = None
    message: str = ""
    pages: int = 0
    seconds: float = 0.0
    steps: dict[str, dict] = field(default_factory=dict)  # asset name -> its materialization metadata


@dataclass
class BatchResult:
    outcomes: list[FileOutcome] = field(default_factory=list)
    stopped: str | None = None  # why the batch ended before its last file

    def count(self, state: str) -> int:
        return sum(o.state == state for o in self.outcomes)

    @property
    def ingested(self) -> int:
        return sum(o.state in ("new", "changed", "retry") for o in self.outcomes)

    @property
    def pages(self) -> int:
        return sum(o.pages for o in self.outcomes if o.state != "failed")


def tenant_folder_targets(root: Path) -> list[Target]:
    """Every supported file under root/<organization>/<rooftop>/..., its source path relative to the rooftop folder."""
    targets = []
    if not root.is_dir():
        return targets
    for org_dir in sorted(p for p in root.iterdir() if p.is_dir()):
        for rooftop_dir in sorted(p for p in org_dir.iterdir() if p.is_dir()):
            for path in sorted(rooftop_dir.rglob("*")):
                if path.is_file() and path.suffix.lower() in SUFFIX_TYPES:
                    targets.append(Target(path, org_dir.name, rooftop_dir.name, path.relative_to(rooftop_dir).as_posix()))
    return targets


def path_targets(paths: list[Path], organization_id: str, rooftop_id: str) -> list[Target]:
    targets = []
    for path in paths:
        if path.is_dir():
            targets += [
                Target(p, organization_id, rooftop_id, p.relative_to(path).as_posix())
                for p in sorted(path.rglob("*"))
                if p.is_file() and p.suffix.lower() in SUFFIX_TYPES
            ]
        else:
            targets.append(Target(path, organization_id, rooftop_id, path.name))
    return targets


def label(i: int, total: int, t: Target) -> str:
    """How a file's outcome line starts: its place in the batch, tenant and source path."""
    return f"[{i:>{len(str(total))}}/{total}] {t.organization_id}/{t.rooftop_id} {t.source_path}"


def unchanged_line(label: str, sha256: str) -> str:
    return f"{label}: unchanged (sha256 {sha256[:12]} already live), skipped"
