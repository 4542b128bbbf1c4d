"""Re-execute notebooks in place, the way the tests run them, and normalize them.

    python tools/run_notebooks.py                       # every notebook in notebooks/, exercises/, solutions/, book/
    python tools/run_notebooks.py notebooks/01-toy-table.ipynb solutions/

Each notebook runs top to bottom in a fresh kernel of *this* Python (the same
kernel nbval's --nbval-current-env starts), with its own folder as the working
directory. Then it is normalized so that diffs show only real changes:
execution counts 1..n, no timing or editor metadata, a fixed kernelspec and
language_info, and widget model ids renumbered in a stable order.
A cell that raises stops the run (tag it `raises-exception` if that is the point).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

import nbformat
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient
from nbval.kernel import CURRENT_ENV_KERNEL_NAME, NbvalKernelspecManager

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("notebooks", "exercises", "solutions", "book")  # book/: the recap after lesson 12
CELL_TIMEOUT = 600

KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
LANGUAGE_INFO = {
    "name": "python",
    "codemirror_mode": {"name": "ipython", "version": 3},
    "file_extension": ".py",
    "mimetype": "text/x-python",
    "nbconvert_exporter": "python",
    "pygments_lexer": "ipython3",
}
# mystnb: a figure's alt text and caption; jupyter (source_hidden) and cellView: the course cell's
# code folded in JupyterLab and on Colab (tools/import_guard.py)
KEEP_CELL_METADATA = ("tags", "mystnb", "jupyter", "cellView")
KEEP_NOTEBOOK_METADATA = ("embedlab", "widgets")
UUID = re.compile(r"(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])")  # also inside "IPY_MODEL_<id>"


def notebook_paths(args: list[str]) -> list[Path]:
    targets = [Path(a) for a in args] or [ROOT / f for f in FOLDERS]
    paths: list[Path] = []
    for target in targets:
        if target.is_dir():
            paths.extend(sorted(p for p in target.glob("*.ipynb")))
        elif target.suffix == ".ipynb" and target.exists():
            paths.append(target)
        else:
            raise SystemExit(f"not a notebook or folder: {target}")
    return paths


def execute(nb, cwd: Path):
    # The async manager lets nbclient notice a dead kernel or a cell timeout instead of hanging.
    km = AsyncKernelManager(kernel_name=CURRENT_ENV_KERNEL_NAME, kernel_spec_manager=NbvalKernelspecManager())
    client = NotebookClient(
        nb,
        km=km,
        timeout=CELL_TIMEOUT,
        record_timing=False,
        store_widget_state=True,
        resources={"metadata": {"path": str(cwd)}},
    )
    try:
        client.execute(cwd=str(cwd))
    finally:
        # nbclient shuts down only a kernel it started itself; this one it was handed, so stop it
        # here (or every notebook run leaves its kernel alive until this process exits)
        if client.km is not None:
            client._cleanup_kernel()
    return nb


def normalize(nb):
    """Strip what changes from run to run or editor to editor; keep what readers need."""
    nb.metadata = nbformat.from_dict(
        {k: v for k, v in nb.metadata.items() if k in KEEP_NOTEBOOK_METADATA}
        | {"kernelspec": KERNELSPEC, "language_info": LANGUAGE_INFO}
    )
    count = 0
    for index, cell in enumerate(nb.cells):
        cell.metadata = nbformat.from_dict({k: v for k, v in cell.metadata.items() if k in KEEP_CELL_METADATA})
        cell.setdefault("id", f"cell-{index}")
        if cell.cell_type != "code":
            cell.pop("outputs", None)
            cell.pop("execution_count", None)
            continue
        if cell.source.strip():
            count += 1
            cell.execution_count = count
        else:
            cell.execution_count = None
        cell.outputs = coalesce_streams(cell.outputs)
        for output in cell.outputs:
            if "execution_count" in output:
                output.execution_count = cell.execution_count
    return renumber_widget_ids(nb)


def coalesce_streams(outputs):
    """Join consecutive stdout (or stderr) chunks: how a print is split depends on timing."""
    merged = []
    for output in outputs:
        if (output.output_type == "stream" and merged and merged[-1].output_type == "stream"
                and merged[-1].name == output.name):
            merged[-1].text += output.text
        else:
            merged.append(output)
    return merged


def renumber_widget_ids(nb):
    """Widget model ids are random uuids; give them stable ids, numbered in the order a reader
    meets the models: the views in the cells' outputs, top to bottom, then each model's own
    references (children, layout, style), depth first, then any model nothing refers to, in the
    order of its content. (Numbering them in the order the saved state lists them, sorted by
    the random ids themselves, renumbered an unchanged widget lesson differently on every run:
    lesson 07's 422-line diff.)"""
    state = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    if not state:
        return nb
    order: list[str] = []

    def visit(model_id: str) -> None:
        if model_id in state and model_id not in order:
            order.append(model_id)
            for ref in UUID.findall(json.dumps(state[model_id], sort_keys=True)):
                visit(ref)

    for cell in nb.cells:
        for output in cell.get("outputs", []):
            for ref in UUID.findall(json.dumps(output.get("data", {}), sort_keys=True)):
                visit(ref)
    for model_id in sorted(state, key=lambda m: UUID.sub("", json.dumps(state[m], sort_keys=True))):
        visit(model_id)
    mapping = {model_id: f"{i + 1:032x}" for i, model_id in enumerate(order)}
    text = UUID.sub(lambda m: mapping.get(m.group(0), m.group(0)), nbformat.writes(nb))
    return nbformat.reads(text, as_version=4)


def run(path: Path) -> float:
    start = time.perf_counter()
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    execute(nb, path.parent)
    nb = normalize(nb)
    nbformat.validate(nb)
    path.write_text(nbformat.writes(nb) + "\n", encoding="utf-8")
    return time.perf_counter() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", help="notebooks or folders (default: all three folders)")
    args = parser.parse_args(argv)
    for path in notebook_paths(args.paths):
        seconds = run(path)
        print(f"{seconds:6.1f} s  {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
