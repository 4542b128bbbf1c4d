"""embedlab as a distribution (tools/check_wheel.py): the wheel holds every file of the package.

The lessons read data shipped inside embedlab (model configs, TinyLM runs, BPE merges,
tokenizer sizes, the prose sample and the licence, the answer keys): a wheel that left one
out would install and import, and fail a lesson only on Colab or Binder. This builds the
wheel as `pip wheel` does and compares its file list with lib/embedlab. CI also runs
`tools/check_wheel.py`, which installs the wheel into a bare venv and runs every notebook
against it (slow: not here).
"""

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tools_loader import load_tool

ROOT = Path(__file__).resolve().parent.parent
check_wheel = load_tool("check_wheel")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(ROOT)],
                   check=True, capture_output=True)
    found, = out.glob("embedlab-*.whl")
    return found


def test_the_wheel_holds_every_file_of_the_package_and_the_course_release(wheel):
    import embedlab
    assert wheel.name == f"embedlab-{embedlab.__version__}-py3-none-any.whl"
    assert check_wheel.wheel_problems(wheel) == []
    names = set(zipfile.ZipFile(wheel).namelist())
    # what the lessons read: the checks above hold them because they are files of lib/embedlab
    for shipped in ("embedlab/data/shipped/tinylm-runs.json", "embedlab/data/shipped/licence.txt",
                    "embedlab/data/gpt2.json", "embedlab/grading/answers/01-toy-table.key"):
        assert shipped in names


def test_a_wheel_missing_a_data_file_or_with_a_stray_one_is_named(wheel, tmp_path):
    doctored = tmp_path / wheel.name
    with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(doctored, "w") as dst:
        for item in src.infolist():
            if item.filename != "embedlab/data/shipped/bpe-merges.json":
                dst.writestr(item, src.read(item))
        dst.writestr("embedlab/notes.txt", "not in lib/")
    assert check_wheel.wheel_problems(doctored) == [
        "missing from the wheel: embedlab/data/shipped/bpe-merges.json",
        "in the wheel but not in lib/: embedlab/notes.txt"]
    assert check_wheel.wheel_problems(wheel, version="9.9") == [
        "no embedlab-9.9.dist-info/METADATA: the wheel's version is not the course's release 9.9",
        "missing from the wheel: embedlab-9.9.dist-info/licenses/LICENSE",
        "missing from the wheel: embedlab-9.9.dist-info/entry_points.txt"]


def test_the_shipped_licence_is_the_repository_licence():
    """Lesson 12 reads the licence from embedlab (licence_text), so a lesson opened alone runs."""
    from embedlab import licence_text
    assert licence_text() == (ROOT / "LICENSE").read_text(encoding="utf-8")


def test_the_hub_recipe_pins_the_release_and_its_link_is_the_one_the_book_builds():
    """book/a-term.md, "On a JupyterHub": the image installs this release, and the nbgitpuller link
    written by hand is the one the book's JupyterHub launch button builds (tools/check_launch.py)."""

    import embedlab
    check_launch = load_tool("check_launch")
    page = (ROOT / "book" / "a-term.md").read_text(encoding="utf-8")
    section = page[page.index("## On a JupyterHub"):]
    assert f"pip install embedlab=={embedlab.__version__}" in section
    link = re.search(r"https://HUB/\S+", section).group(0)
    repository = "https://github.com/example/embedding-lab"
    filled = (link.replace("https://HUB", "https://hub.example.org").replace("REPOSITORY", repository)
              .replace("NAME", "embedding-lab"))
    assert check_launch.jupyterhub_problems(filled, repository, "main", "https://hub.example.org",
                                            "notebooks/01-toy-table.ipynb") == []
    assert check_launch.jupyterhub_problems(filled, repository, "main", "https://hub.example.org",
                                            "notebooks/02-lookup-vs-matmul.ipynb")   # another notebook: named
    # what a learner's handout is written to on the hub: git ignores it, so nbgitpuller leaves it alone
    ignored = subprocess.run(["git", "check-ignore", "-q", "my-work/01-toy-table.ipynb"], cwd=ROOT)
    assert ignored.returncode == 0


def ci_steps(ci: str) -> list[str]:
    """The `step NAME COMMAND` lines .ci/run runs, in order: those at the top level, and those of each
    lane function a top-level `side_by_side LANE...` line runs (a lane never run adds nothing)."""
    lines = ci.replace("\\\n", " ").splitlines()
    bodies, current = {}, None
    for line in lines:
        opened = re.match(r"^(\w+)\(\) \{", line)
        if opened:
            current = bodies.setdefault(opened[1], [])
        elif line.startswith("}"):
            current = None
        elif current is not None and line.strip().startswith("step "):
            current.append(line.strip().rstrip("&").strip())
    run = []
    for line in lines:
        if line.startswith("step "):
            run.append(line)
        elif line.startswith("side_by_side "):
            run += [step for lane in line.split()[1:] for step in bodies[lane]]
    return run


def test_ci_runs_every_lane_it_defines():
    """Every step a lane function of .ci/run holds is run (its lane is named on a side_by_side line),
    and no step is run twice."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    run = ci_steps(ci)
    defined = [line.strip().rstrip("&").strip() for line in ci.replace("\\\n", " ").splitlines()
               if line.startswith((" ", "\t")) and line.strip().startswith("step ") and "apt-get" not in line]
    assert set(defined) <= set(run), set(defined) - set(run)
    names = [re.match(r'step "([^"]+)"', line)[1] for line in run]
    assert len(names) == len(set(names)) and {"make test", "under_load", "other_pythons"} <= set(names)


def test_readme_says_what_ci_runs_on_other_pythons_cpus_and_kernels():
    """README's "Setting up" points to CONTRIBUTING.md's "What CI runs the course on", which names the
    Pythons, CPUs and kernels CI runs the course on; .ci/run runs the tools that do it, and they are the
    ones the paragraph names."""

    from embedlab import numerics
    check_wheels = load_tool("check_wheels")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    contributing = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    # the learner's "Setting up" points to the contributors' "What CI runs the course on", which says it
    pointer = readme[readme.index("## Setting up"):readme.index("The first call of")]
    assert 'CONTRIBUTING.md, "What CI runs the course on"' in pointer
    paragraph = contributing[contributing.index("### What CI runs the course on"):
                             contributing.index("### Building the book")]
    first, last = check_wheels.PYTHONS[0], check_wheels.PYTHONS[-1]
    assert f"CPython {first} to {last}" in paragraph
    others = re.search(r"on Debian's CPython ([\d., and]+)\s*\(", paragraph).group(1)
    other_pythons = load_tool("other_pythons")
    assert other_pythons.host_python() == first                      # make test's Python: the oldest
    named = re.findall(r"3\.\d+", others)
    untested = re.search(r"(3\.\d+) only by its wheels", paragraph).group(1)
    assert sorted(named + [first, untested]) == sorted(check_wheels.PYTHONS)
    kernels = {"Haswell": "Haswell", "Sandybridge": "Sandy Bridge", "Nehalem": "Nehalem"}
    assert set(numerics.OPENBLAS_KERNELS.values()) == set(kernels)
    assert all(f"({name})" in paragraph for name in kernels.values())
    steps = " ".join(ci_steps(ci))
    for tool in ("check_wheels", "other_pythons", "check_wheel", "check_colab", "check_binder"):
        assert f"tools/{tool}.py" in steps, f".ci/run does not run tools/{tool}.py"
    # the older CPUs run inside other_pythons.py, every one of them (its --cpus default), as said
    assert "--cpus" not in steps.split("tools/other_pythons.py", 1)[1].split("step ", 1)[0]
    default_cpus = re.search(r'"--cpus", default=",".join\(sorted\(OLDER_CPUS\)\)',
                             (ROOT / "tools" / "other_pythons.py").read_text(encoding="utf-8"))
    assert default_cpus, "other_pythons.py's --cpus default is not every older CPU"
    assert "every Python and every CPU is run once" in " ".join(paragraph.split())


@pytest.mark.parametrize("pythons", [["3.13", "3.14", "3.15"], ["3.13", "3.14"], ["3.13"],
                                     ["3.12", "3.13", "3.14", "3.15"]])
@pytest.mark.parametrize("cpus", [["avx", "avx2", "sse"], ["sse"], []])
def test_other_pythons_runs_every_python_and_every_older_cpu(pythons, cpus):
    """tools/other_pythons.py's pairs: every Python runs once at least, every older CPU exactly once
    (none dropped when Debian ships fewer Pythons than there are CPUs), and no pair twice."""
    other_pythons = load_tool("other_pythons")
    pairs = other_pythons.runs(pythons, cpus)
    assert {python for python, _ in pairs} == set(pythons)
    assert sorted(cpu for _, cpu in pairs if cpu) == sorted(cpus)
    assert len(set(pairs)) == len(pairs) == max(len(pythons), len(cpus))
    assert other_pythons.runs([], cpus) == []


def test_other_pythons_sets_the_kernels_of_the_cpu_it_stands_in_for():
    """A run as an older CPU enters the root with that CPU's numpy features off and its OpenBLAS kernel
    (what tools/other_cpus.py sets), and a run as this CPU with neither."""
    from embedlab import numerics
    other_pythons = load_tool("other_pythons")
    assert other_pythons.cpu_env(None) == {}
    for cpu in numerics.OLDER_CPUS:
        assert other_pythons.cpu_env(cpu) == {"NPY_DISABLE_CPU_FEATURES": numerics.disable_features(cpu),
                                              "OPENBLAS_CORETYPE": numerics.OPENBLAS_KERNELS[cpu]}


def test_the_learners_guide_names_what_colab_and_binder_run():
    """book/how-to-use.md, "Without a clone", names the Python binder/runtime.txt pins and leaves how Colab is
    checked to CONTRIBUTING.md's "What Colab runs", whose versions are the ones tools/check_colab.py runs every
    lesson with (Colab's) and whose lessons are the ones CI opens."""
    check_colab = load_tool("check_colab")
    check_binder = load_tool("check_binder")
    page = (ROOT / "book" / "how-to-use.md").read_text(encoding="utf-8")
    learner = " ".join(page[page.index("## Without a clone"):page.index("## In a class")].split())
    assert f"Python {check_binder.runtime_python()}, the pinned numpy" in learner
    assert not [w for w in ("check_colab", "CI ", "COLAB", "numpy 2.") if w in learner], "contributor detail"
    guide = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    start = guide.index("### What Colab runs")
    section = " ".join(guide[start:guide.index("\n#", start + 1)].split())
    pins = dict(p.split("==") for p in check_colab.COLAB)
    assert (f"Colab's Python {check_colab.COLAB_PYTHON}, numpy {pins['numpy']}, matplotlib {pins['matplotlib']} "
            f"and ipywidgets {pins['ipywidgets']}") in section
    # the lessons it says CI opens are the ones .ci/run passes to tools/check_colab.py
    ci_line = next(line for line in ci_steps((ROOT / ".ci" / "run").read_text()) if "tools/check_colab.py" in line)
    in_ci = re.findall(r"\b(\d\d)\b", ci_line.split("tools/check_colab.py", 1)[1])
    said = re.search(r"CI does the same with lessons ([\d, and]+) on every change", section)
    assert said and re.findall(r"\d\d", said[1]) == in_ci, (said and said[1], in_ci)


def test_the_colab_check_lists_a_changed_output_and_not_a_stream_split_in_two():
    """tools/check_colab.py's comparison: a stream the kernel split in two chunks is the same output;
    a changed digit, a missing figure's text and a timing cell's numbers (nbval-ignore-output) are
    told apart."""
    import nbformat
    check_colab = load_tool("check_colab")

    def nb(*cells):
        return nbformat.v4.new_notebook(cells=list(cells))

    def cell(*texts, tags=()):
        c = nbformat.v4.new_code_cell("x")
        c.outputs = [nbformat.v4.new_output("stream", name="stdout", text=t) for t in texts]
        c.metadata["tags"] = list(tags)
        return c

    stored = nb(cell("a = 1.0\nb = 2\n"), cell("3.14159\n"), cell("took 1.2 s\n", tags=["nbval-ignore-output"]))
    same = nb(cell("a = 1.0\n", "b = 2\n"), cell("3.14159\n"), cell("took 9.9 s\n"))
    assert check_colab.differences(stored, same) == []
    moved = nb(cell("a = 1.0\nb = 2\n"), cell("3.14160\n"), cell("took 1.2 s\n"))
    assert check_colab.differences(stored, moved) == ["code cell 1: '-3.14159' | '+3.14160'"]
