"""Every lesson has its exercise and solution, and the book's table of contents lists all three."""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("notebooks", "exercises", "solutions")
LESSONS = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))


def toc_files() -> set[str]:
    return set(re.findall(r"- file: (\S+)", (ROOT / "_toc.yml").read_text()))


def test_lesson_names_follow_nn_slug():
    assert LESSONS, "no lessons found"
    for name in LESSONS:
        assert re.fullmatch(r"\d\d-[a-z0-9]+(-[a-z0-9]+)*", name), name


@pytest.mark.parametrize("lesson", LESSONS)
def test_lesson_has_exercise_and_solution_in_the_toc(lesson):
    listed = toc_files()
    for folder in FOLDERS:
        assert (ROOT / folder / f"{lesson}.ipynb").exists(), f"{folder}/{lesson}.ipynb is missing"
        assert f"{folder}/{lesson}" in listed, f"{folder}/{lesson} is not in _toc.yml"


def test_toc_lists_no_notebook_that_is_not_a_lesson():
    for entry in toc_files():
        folder = entry.split("/")[0]
        if folder in FOLDERS:
            assert entry.split("/")[1] in LESSONS, entry


@pytest.mark.parametrize("lesson", LESSONS)
def test_notebook_metadata_names_the_lesson(lesson):
    for folder, kind in zip(FOLDERS, ("lesson", "exercise", "solution")):
        nb = json.loads((ROOT / folder / f"{lesson}.ipynb").read_text(encoding="utf-8"))
        meta = nb["metadata"].get("embedlab", {})
        assert meta.get("lesson") == lesson, f"{folder}/{lesson}: metadata lesson {meta.get('lesson')!r}"
        assert meta.get("kind") == kind, f"{folder}/{lesson}: metadata kind {meta.get('kind')!r}"


def test_references_name_every_shipped_config_and_both_deepseek_readme_versions():
    """book/references.md says it lists the sources: every config embedlab ships names its repository
    there (Pythia's as the range 70m ... 12b), and DeepSeek-V3's README_WEIGHTS.md by both versions."""
    import json
    import re

    refs = (ROOT / "book" / "references.md").read_text(encoding="utf-8")
    missing = []
    for path in sorted((ROOT / "lib" / "embedlab" / "data").glob("*.json")):
        repo = re.search(r"config\.json of ([\w.-]+/[\w.-]+)", json.loads(path.read_text())["_source"]).group(1)
        name = repo.split("/")[-1].lower()
        in_range = name.startswith("pythia-") and "`EleutherAI/pythia-70m` … `EleutherAI/pythia-12b`" in refs
        if name not in refs.lower() and not in_range:
            missing.append(repo)
    assert not missing, f"book/references.md lacks {missing}"
    assert "README_WEIGHTS.md" in refs and "36.7B" in refs and "36.6B" in refs


# --------------------------------------------------------------------------
# Where a learner starts: the README's first screen, the guide and the glossary from every lesson

MAINTAINERS_WORDS = ("axe-core", "first paint", "AVX", "nbval", "headless")


def test_the_readme_starts_with_the_learner_then_instructors_then_contributors():
    """README's first screen (before the lesson table) is the learner's: the two commands, lesson 01,
    the learner's guide and the glossary; instructors come next, contributors last, each a short pointer
    to its own page (book/instructors.md, CONTRIBUTING.md), and the test and CI details a learner does not
    need live in CONTRIBUTING.md."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_screen = readme[:readme.index("\n## Lessons")]
    for needed in ("make lab", "make test", "](notebooks/01-toy-table.ipynb)", "](book/how-to-use.md)",
                   "](book/glossary.md)"):
        assert needed in first_screen, f"README's first screen lacks {needed!r}"
    assert len(first_screen.splitlines()) <= 45, "README's first screen runs past one screen"
    headings = [line for line in readme.splitlines() if line.startswith("## ")]
    order = [next(i for i, h in enumerate(headings) if h.startswith(f"## {name}"))
             for name in ("Start here", "Lessons", "Setting up", "For instructors", "For contributors")]
    assert order == sorted(order), headings
    learners = readme[:readme.index("\n## For instructors")]
    assert not [w for w in MAINTAINERS_WORDS if w in learners], "test and CI details before the instructors' part"
    contributing = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert all(w in contributing for w in ("axe-core", "first paint", "bubblewrap", "nbval"))
    # the instructors' and contributors' parts are short pointers: their commands and details live on
    # their own pages (book/instructors.md, in the book's "For instructors" part, and CONTRIBUTING.md)
    instructors = readme[readme.index("\n## For instructors"):readme.index("\n## For contributors")]
    for page in ("](book/instructors.md)", "](book/a-term.md)", "](book/grading.md)"):
        assert page in instructors, f"README's For instructors does not link {page[2:-1]}"
    assert "file: book/instructors" in (ROOT / "_toc.yml").read_text(encoding="utf-8")
    tail = readme[readme.index("\n## For instructors"):]
    assert len(tail.strip().splitlines()) <= 30, "README's instructors' and contributors' parts run long"
    assert "](CONTRIBUTING.md)" in tail
    for target in re.findall(r"\]\(((?:notebooks|book|exercises|solutions)/[^)#]*)", readme):
        assert (ROOT / target).exists(), f"README links {target}, which does not exist"


def notebook_title(path: Path) -> str:
    """A notebook's title: the first line of its first markdown cell."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    first = next(c for c in nb["cells"] if c["cell_type"] == "markdown")
    return "".join(first["source"]).splitlines()[0]


def glossary_anchors() -> set[str]:
    """The anchors of the glossary's entries and sections, as the book makes them (MyST's slugs)."""
    from myst_parser.mdit_to_docutils.base import default_slugify

    text = (ROOT / "book" / "glossary.md").read_text(encoding="utf-8")
    return {default_slugify(line.lstrip("#").strip()) for line in text.splitlines() if line.startswith("#")}


def markdown_of(path: Path) -> str:
    if path.suffix == ".ipynb":
        nb = json.loads(path.read_text(encoding="utf-8"))
        return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_lesson_links_the_learners_guide_and_glossary_entries(lesson):
    text = markdown_of(ROOT / "notebooks" / f"{lesson}.ipynb")
    assert "](../book/how-to-use.md)" in text, f"{lesson} does not link book/how-to-use.md"
    entries = re.findall(r"\]\(\.\./book/glossary\.md#([\w-]+)\)", text)
    assert entries, f"{lesson} links no glossary entry where it uses a term"


def test_the_glossary_reads_in_jupyterlab_and_every_link_to_an_entry_resolves():
    """The glossary is plain Markdown (headings and paragraphs): no MyST directive or role that
    JupyterLab would show as raw markup; every link to one of its entries, from a notebook, a book
    page or the glossary itself, names an anchor it has."""
    glossary = (ROOT / "book" / "glossary.md").read_text(encoding="utf-8")
    assert not re.search(r"```\{|\{term\}|\{doc\}|\{ref\}", glossary), "MyST markup in book/glossary.md"
    anchors = glossary_anchors()
    assert {"kv-cache", "non-embedding-parameters", "weight-tying"} <= anchors
    pages = [p for folder in ("notebooks", "exercises", "solutions", "book") for p in sorted((ROOT / folder).glob("*"))
             if p.suffix in (".ipynb", ".md")] + [ROOT / "README.md"]
    broken = []
    for page in pages:
        text = markdown_of(page)
        targets = re.findall(r"\]\((?:[./]*book/)?glossary\.md#([\w-]+)\)", text)
        if page.name == "glossary.md":
            targets += re.findall(r"\]\(#([\w-]+)\)", text)
        broken += [f"{page.relative_to(ROOT)}#{t}" for t in targets if t not in anchors]
    assert not broken, f"links to glossary entries that do not exist: {broken}"


def test_the_readmes_lesson_times_hold():
    """The README's first screen gives a learner one line to plan by: about an hour a lesson with its
    exercise, two for the capstone, which it names; that lesson is the capstone (its title says so) and
    the longest to read. How the times are measured is in CONTRIBUTING.md ("How long a lesson takes"),
    which promises each lesson (with its exercise) under a number of minutes of reading, at the words
    per minute it names, and every notebook under a number of seconds to run: both recomputed from the
    lessons' words (tools/book_theme.lesson_times, what the book's introduction lists) and the measured
    seconds in book/lesson_times.json.
    The README line's checks seen red with lesson 10 named as the capstone."""
    from tools_loader import load_tool

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_screen = readme[:readme.index("\n## Lessons")]
    plan = re.search(r"^\*\*How long:\*\* plan about an hour a lesson with its exercise, two for the capstone "
                     r"\(lesson (\d\d)\)\.$", first_screen, re.M)
    assert plan, "README's first screen no longer gives the one line to plan by"
    capstone = sorted((ROOT / "notebooks").glob(f"{plan.group(1)}-*.ipynb"))
    assert len(capstone) == 1, f"README names lesson {plan.group(1)} as the capstone: no such lesson"
    title = notebook_title(capstone[0])
    assert "capstone" in title.lower(), f"README's capstone is {capstone[0].name}, titled {title!r}"
    contributing = " ".join((ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8").split())
    # the words counted are the markdown cells' (book_theme.lesson_words): the promise says so
    minutes = re.search(r"under (\d+) minutes of reading \(only the text is counted, at (\d+) words a minute; "
                        r"running the code and answering take longer\)", contributing)
    # the seconds measured by benchmarks/lesson_times.py into book/lesson_times.json (read below)
    seconds = re.search(r"every notebook runs in under (\d+) s\.", contributing)
    assert minutes and seconds, "CONTRIBUTING.md no longer states the lessons' measured times"
    theme = load_tool("book_theme")
    assert int(minutes.group(2)) == theme.WORDS_PER_MINUTE
    intro = " ".join((ROOT / "book" / "intro.md").read_text(encoding="utf-8").split())
    intro_rate = re.search(r"Reading time counts prose only, the words of the lesson's and its exercise's "
                           r"markdown cells, at (\d+) words a minute; the code cells add to it\.", intro)
    assert intro_rate and int(intro_rate.group(1)) == theme.WORDS_PER_MINUTE, \
        "book/intro.md no longer says reading time counts the markdown words at WORDS_PER_MINUTE"
    rows = theme.lesson_times(ROOT)
    assert len(rows) == 12
    longest = max(row["read_minutes"] for row in rows)
    assert longest < int(minutes.group(1)), f"a lesson takes {longest} minutes to read"
    # the capstone, planned at two hours, is the longest read of the twelve
    assert max(rows, key=lambda row: row["read_minutes"])["slug"] == capstone[0].stem
    measured = json.loads((ROOT / "book" / "lesson_times.json").read_text(encoding="utf-8"))["seconds"]
    assert all(f"notebooks/{row['slug']}" in measured for row in rows), "a lesson has no measured time"
    slowest = max(measured.values())
    assert slowest < int(seconds.group(1)), f"a notebook takes {slowest} s to run"


def test_the_readme_names_every_answer_marked_by_hand_and_every_symbol_a_check_shows():
    """README says every exercise is autograded, except the written answers: each exercise with a
    Written question is named with those questions' points out of the exercise's total, who marks
    them (the instructor, or the learner against its rubric, as book/how-to-use.md says), and no
    other exercise is; step 2's list of what a check shows holds every symbol how-to-use.md
    defines (✅, ❌, ⏳ and 📝).
    Seen red on the README as it was ("every exercise is autograded", step 2 without 📝).
    "autograded, except" replaced "autograded but", which a newcomer read as "but" (issue 48)."""
    import importlib
    import pkgutil

    from embedlab.grading import questions
    from embedlab.grading.kinds import Written

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_screen = " ".join(readme[:readme.index("\n## Lessons")].split())
    by_hand = {}
    for module in pkgutil.iter_modules(questions.__path__):
        m = importlib.import_module(f"{questions.__name__}.{module.name}")
        written = sum(q.points for q in m.QUESTIONS if isinstance(q, Written))
        if written:
            by_hand[m.LESSON[:2]] = (written, sum(q.points for q in m.QUESTIONS))
    assert by_hand, "no exercise has a written answer: the README's exception is moot"
    named = re.findall(r"exercise (\d\d)'s written \w+ \((\d+) of its (\d+) points\)", first_screen)
    assert {nn: (float(w), float(t)) for nn, w, t in named} == by_hand, named
    assert "autograded, except" in first_screen and "instructor marks it" in first_screen
    guide = (ROOT / "book" / "how-to-use.md").read_text(encoding="utf-8")
    assert "mark it yourself" in guide           # the learner's own marking, as README says
    symbols = re.findall(r"^- (\S+) \*\*", guide, flags=re.M)
    assert len(symbols) >= 4, symbols
    step_2 = next(line for line in first_screen.split(" 3. ") if "2. **Read [how to use" in line)
    step_2 = step_2[step_2.index("2. **Read [how to use"):]
    assert [s for s in symbols if s not in step_2] == [], (symbols, step_2)


def test_the_readme_says_what_a_learner_needs_and_where_their_work_goes(tmp_path):
    """README's "Start here" (newcomer of session 9): the software `make lab` needs
    comes before the command (the Pythons the lock serves, make, git, macOS's command
    line tools); Windows is told `py -3`, not one hard-coded minor version; the
    contributor's `future` detail is not in the learner's part; the folder it tells a
    learner to keep exercise work in is one git ignores (a `git pull` leaves it alone),
    and an exercise run from there is judged as in exercises/ (solution 01 in a
    my-work/ folder with no course beside it: 7 / 7)."""
    import shutil
    import subprocess

    from nbclient import NotebookClient
    from tools_loader import load_tool

    import nbformat

    pythons = load_tool("check_wheels").PYTHONS
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme[readme.index("## Start here"):readme.index("\n## Lessons")]
    need = re.search(r"^\*\*You need\*\* (.+?)\n\n", start, re.M | re.S)
    assert need, "no You need line"
    assert start.index(need[0]) < start.index("make lab    #"), "after make lab"
    need = " ".join(need[1].split())
    span = f"Python {pythons[0]} to {pythons[-1]}"
    for word in (span, "`make`", "`git`", "xcode-select --install"):
        assert word in need, (word, need)
    for page in (ROOT / "README.md", ROOT / "book" / "how-to-use.md"):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"py -3\.\d+ -m venv", text), f"{page.name}: one Python"
    learners = readme[:readme.index("\n## For instructors")]
    assert "`future`" not in learners and "source archive" not in learners
    folder = re.search(r"copy it into `([\w-]+)/`", start)[1]
    assert subprocess.run(["git", "check-ignore", "-q", f"{folder}/01-toy-table.ipynb"],
                          cwd=ROOT).returncode == 0, f"git does not ignore {folder}/"
    work = tmp_path / folder
    work.mkdir()
    shutil.copy(ROOT / "solutions" / "01-toy-table.ipynb", work / "01-toy-table.ipynb")
    nb = nbformat.read(work / "01-toy-table.ipynb", as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(work)}}).execute()
    summary = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    assert summary.rstrip().endswith("7 / 7 points"), summary


def test_the_glossary_notation_gives_one_meaning_a_row_and_bpe_counts_n_tok():
    """The notation table (newcomer of session 9): a symbol used for several things
    ($k$, $n$) has one row per meaning, each row's label names which, and no two rows
    share a label; the BPE entry counts the tokenizer's tokens, n_tok, as the table's V
    row says ($V$ is the table's rows, V >= n_tok), not $V$. Seen red on the glossary as
    it was (one $k$ row of five meanings; BPE "until the vocabulary has $V$
    entries")."""
    glossary = (ROOT / "book" / "glossary.md").read_text(encoding="utf-8")
    table = glossary[glossary.index("## Notation"):glossary.index("## Terms")]
    labels = [line.split("|")[1].strip() for line in table.splitlines()
              if line.startswith("| ") and not line.startswith("| symbol")]
    assert len(labels) == len(set(labels)), labels
    for symbol in ("$k$", "$n$"):
        rows = [label for label in labels
                if label.startswith(symbol) or f", {symbol}" in label]
        assert len(rows) >= 2 and all(re.search(r"\(.+\)$", row) for row in rows), rows
    assert "say which" not in table.replace("number of parameters; say which", "")
    bpe = glossary[glossary.index("### BPE"):]
    bpe = bpe[:bpe.index("\n### ", 1)]
    assert "n_tok" in bpe and "$V$" not in bpe, bpe


def gfm_slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as
    hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_a_terms_links_work_in_the_book_and_on_github():
    """book/a-term.md links other pages as relative .md files, each anchor a heading of
    the target that the book (MyST's heading anchors) and GitHub (its own slugs) both
    name: a bare MyST label, `](lms-round-trip)`, works only in the built book and is a
    dead link on GitHub and in JupyterLab (newcomer of session 9). Seen red on the page
    as it was."""
    from myst_parser.mdit_to_docutils.base import default_slugify

    page = ROOT / "book" / "a-term.md"
    links = re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8"))
    local = [link for link in links if not re.match(r"[a-z]+:", link)]
    assert local, "a-term.md links no other page"
    for link in local:
        path, _, anchor = link.partition("#")
        assert path.endswith((".md", ".ipynb")), f"{link}: not a relative file link"
        target = (page.parent / path).resolve()
        assert target.exists(), link
        if anchor:
            headings = [line.lstrip("#").strip()
                        for line in target.read_text(encoding="utf-8").splitlines()
                        if re.match(r"#{1,3} ", line)]
            in_book = {default_slugify(h) for h in headings}
            assert anchor in in_book, f"{link}: not in the book"
            assert anchor in {gfm_slug(h) for h in headings}, f"{link}: not on GitHub"


def test_the_recap_reads_sizes_through_model_shape():
    """The recap reads V, d, L and the other sizes by model_shape's names, as lesson 01
    and the glossary tell a learner to (newcomer of session 9: `gpt2["n_embd"]`): no
    code cell indexes a config with any family's spelling of a size. Seen red on the
    recap as it was."""
    from embedlab.params import _COMMON_KEYS, FAMILY_TABLE

    spellings = {key for keys in _COMMON_KEYS.values() for key in keys}
    for family in FAMILY_TABLE.values():
        spellings |= {key for keys in family.keys.values() for key in keys}
    nb = json.loads((ROOT / "book" / "recap.ipynb").read_text(encoding="utf-8"))
    code = "\n".join("".join(c["source"]) for c in nb["cells"]
                     if c["cell_type"] == "code")
    keys = re.findall(r"\[[\"'](\w+)[\"']\]", code)
    read = sorted({key for key in keys if key in spellings})
    assert read == [], f"the recap reads {read} from a config, not through model_shape"
