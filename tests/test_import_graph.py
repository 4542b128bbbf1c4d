"""embedlab's imports run one way (tools/import_guard.py --imports):

- no import circle anywhere in `embedlab`, counting imports inside functions too (a circle
  hidden in a function is the same circle, waiting to be run);
- no import from a lower layer of `embedlab.grading` to a higher one, the layers read from
  the one map in the package docstring (embedlab/grading/__init__.py), which must place
  every module of the package.

The guard is proved on small packages built here: a circle closed inside a function, a
relative import, an import up a layer, a module the map leaves out.
"""

import importlib
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


from tools_loader import load_tool  # noqa: E402

guard = load_tool("import_guard")


def test_embedlab_has_no_import_circle():
    graph = guard.import_graph()
    assert "embedlab.grading.cli" in graph and "embedlab.grading.kinds" in graph["embedlab.grading.exercise"]
    assert [guard.describe_cycle(graph, c) for c in guard.import_cycles(graph)] == []


def test_no_grading_import_runs_up_a_layer_and_the_map_places_every_module():
    graph = guard.import_graph()
    doc = importlib.import_module("embedlab.grading").__doc__
    layers = guard.grading_layers(doc)
    assert guard.unmapped(graph, layers) == []
    assert guard.upward_imports(graph, layers) == []
    assert guard.import_problems() == []
    # the map is the package's own docstring, and every layer of it holds a module
    assert len({rank for rank, _ in layers.values()}) == max(rank for rank, _ in layers.values()) + 1
    # its first layer is the shared leaf: it imports nothing of embedlab (but the packages it is in)
    leaf = [module for module, (rank, _) in layers.items() if rank == 0]
    assert leaf and all(set(graph[m]) <= {"embedlab", "embedlab.grading"} for m in leaf), leaf


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    lib = tmp_path / "lib"
    for name, text in files.items():
        path = lib / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return lib


def test_a_circle_closed_inside_a_function_or_by_a_relative_import_is_found(tmp_path):
    lib = _package(tmp_path, {
        "embedlab/__init__.py": "",
        "embedlab/a.py": "from embedlab import b\n",
        "embedlab/b.py": "def late():\n    from embedlab.a import x  # here: a imports this module\n",
        "embedlab/sub/__init__.py": "",
        "embedlab/sub/c.py": "from . import d\n",
        "embedlab/sub/d.py": "import embedlab.sub.c\n",
        "embedlab/e.py": "def heavy():\n    from embedlab import a  # lazy, and no circle\n",
    })
    graph = guard.import_graph(lib)
    assert graph["embedlab.b"] == {"embedlab": 2, "embedlab.a": 2}
    assert guard.import_cycles(graph) == [["embedlab.a", "embedlab.b"], ["embedlab.sub.c", "embedlab.sub.d"]]
    assert "embedlab.b -> embedlab.a (line 2)" in guard.describe_cycle(graph, ["embedlab.a", "embedlab.b"])


def test_an_import_up_a_layer_and_a_module_out_of_the_map_are_found(tmp_path):
    lib = _package(tmp_path, {
        "embedlab/__init__.py": "",
        "embedlab/grading/__init__.py": '''\
            """Layers.

            Low:
                low       the bottom
                pkg       a package: its modules are in its layer

            High (uses Low):
                high      the top
            """
            ''',
        "embedlab/grading/low.py": "def f():\n    from embedlab.grading.high import g\n",
        "embedlab/grading/high.py": "from embedlab.grading import low\n",
        "embedlab/grading/pkg/__init__.py": "",
        "embedlab/grading/pkg/one.py": "from embedlab.grading.low import f\n",
        "embedlab/grading/stray.py": "",
    })
    graph = guard.import_graph(lib)
    layers = guard.grading_layers(guard.ast.get_docstring(guard.ast.parse(
        (lib / "embedlab/grading/__init__.py").read_text())))
    assert layers["embedlab.grading.high"] == (1, "High")
    assert guard.upward_imports(graph, layers) == [
        "embedlab.grading.low (Low) imports embedlab.grading.high (High), a higher layer (line 2)"]
    assert guard.unmapped(graph, layers) == ["embedlab.grading.stray is in no layer of the map"]
    problems = guard.import_problems(lib)
    assert any(p.startswith("import circle: ") for p in problems) and len(problems) == 3
