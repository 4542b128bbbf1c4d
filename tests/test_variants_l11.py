"""Lesson 11 in class mode: the job's budget is the variant. Its space draws usable jobs, the
solution's design fits each one (and the book's design breaks it: its heads are 64 wide), every answer of the worked
solution moves away from the book's, and the solution computes what the module expects.

No kernel: the solution's code cells run in this process (its check cells left out).
"""


import pytest

from embedlab.grading.lessons import questions_for
from embedlab.grading.questions import l11
from embedlab.grading.variants import parameters_of, read_parameters, render_parameters
from embedlab.sizing import design_figures, over_budget

from solution_runner import run_solution, solution_parameters

LESSON = "11-size-a-model"
SECRETS = [b"test-secret-for-the-class-mode-tests", b"a-second-instructor-secret!", b"0123456789abcdef"]


def same(a, b):
    return a == b or (isinstance(a, float) and isinstance(b, float) and abs(a - b) <= 1e-9 * abs(b))


@pytest.mark.parametrize("secret", SECRETS)
def test_every_class_variant_is_usable_and_differs_from_the_book(secret):
    book = l11.answers(l11.DEFAULTS)
    book_design = book["design"]
    names = [q.name for q in questions_for(LESSON) if q.kind != "written"]  # the defence is marked by hand
    assert l11.SPACE.fixed == {}
    contexts, tokens = set(), set()
    for variant in range(1, 9):
        p = parameters_of(LESSON, variant, secret)
        assert p == parameters_of(LESSON, variant, secret)  # reproducible
        assert l11.problems(p) == []
        job = l11.budget(p)
        mine = l11.answers(p)
        assert sorted(mine) == sorted(names)
        assert over_budget(mine["design"], job) == []  # the solution's design does the job
        design_rule = {q.name: q for q in questions_for(LESSON, p)}["design"].rule
        assert design_rule({"design": book_design}) != []  # the book's design does not
        for name in names:
            assert not same(mine[name], book[name]), (variant, name)
        # the book's own figures, judged on this job, are not its design's figures here
        theirs = design_figures(book_design, job)
        assert not same(theirs.serving_gb, book["design_serving_gb"])
        assert not same(theirs.train_flops, book["design_train_flops"])
        assert p["context"] in l11.CONTEXTS
        contexts.add(p["context"])
        tokens.add(p["train_tokens"])
        assert all(len(line) <= 88 for line in render_parameters(p).splitlines())
        assert read_parameters(render_parameters(p)) == p
        assert f"train_tokens = {p['train_tokens']:_}\n" in render_parameters(p)  # written as the book writes it
    assert contexts == set(l11.CONTEXTS)  # picked without repeats, up to the pool's size
    assert tokens == {t * 1_000_000_000 for t in l11.TRAIN_TOKENS}
    # no two contexts a factor of 2 apart: context x KV bytes (1 or 2) differs between any two variants
    assert len({c * b for c in l11.CONTEXTS for b in (1, 2)}) == 2 * len(l11.CONTEXTS)


@pytest.mark.parametrize("secret", SECRETS)
def test_a_variants_design_fails_every_other_variants_job(secret):
    """Each variant's heads are their own width, so learner A's design handed in as learner B's
    loses question 1 (3 points) whatever B's limits are; the head widths are picked without repeats."""
    drawn = [parameters_of(LESSON, v, secret) for v in range(1, 9)]
    assert sorted(p["head_dim"] for p in drawn) == sorted(l11.HEAD_DIMS)
    designs = [l11.solution_design(p) for p in drawn]
    for j, p in enumerate(drawn):
        rule = {q.name: q for q in questions_for(LESSON, p)}["design"].rule
        for i, design in enumerate(designs):
            assert (rule({"design": design}) == []) == (i == j), (i, j)
    books = {q.name: q for q in questions_for(LESSON)}
    wide = l11.solution_design(dict(l11.DEFAULTS))
    narrow = {**wide, "num_attention_heads": 32, "num_key_value_heads": 8}  # same size, heads of 32
    assert books["design"].rule({"design": wide}) == []
    assert "head_dim = 64" in books["design"].rule({"design": narrow})[0]


def test_the_rules_close_over_their_variants_budget():
    """The book's design and figures: right on the book's job, wrong on a class job."""
    book = l11.answers(l11.DEFAULTS)
    for variant in (1, 2, 3):
        mine = {q.name: q for q in questions_for(LESSON, parameters_of(LESSON, variant, SECRETS[0]))}
        books = {q.name: q for q in questions_for(LESSON)}
        for name in ("design", "design_serving_gb", "design_train_flops"):
            answers = {name: book[name], "design": book["design"]}
            assert books[name].rule(answers) == []
            assert mine[name].rule(answers) != [], (variant, name)


def test_problems_rejects_the_book_and_degenerate_variants():
    assert any("equals the book's" in x for x in l11.problems(l11.DEFAULTS))
    p = parameters_of(LESSON, 1, SECRETS[0])
    assert any("serving memory here" in x for x in l11.problems(dict(p, context=16384, weights="int4", kv="int8")))
    assert any("FLOPs here" in x for x in l11.problems(dict(p, train_tokens=600_000_000_000, train_context=2048)))
    assert any("fewer than" in x for x in l11.problems(dict(p, max_params=150_000_000, min_vocab_size=96_000)))


@pytest.mark.parametrize("variant", [0, 1, 2, 3])
def test_the_solution_computes_the_modules_answers(variant, capsys):
    p = parameters_of(LESSON, variant, SECRETS[0])
    namespace = run_solution(LESSON, p)
    questions = {q.name: q for q in questions_for(LESSON, p)}
    for name, value in l11.answers(p).items():
        assert same(namespace[name], value), (variant, name, namespace[name], value)
        answers = {name: namespace[name], "design": namespace["design"]}
        assert questions[name].rule(answers) == [], (variant, name)
    assert all(len(line) <= 88 for line in capsys.readouterr().out.splitlines())


def test_the_solutions_parameters_cell_is_the_defaults():
    assert solution_parameters(LESSON) == l11.DEFAULTS
    assert l11.BUDGET == l11.budget(l11.DEFAULTS)


def test_the_rules_refuse_a_design_of_absurd_depth_without_counting_it():
    """A learner's design is counted in the grader's own process: 10**29 layers (with a Qwen3-MoE or
    Mixtral layout, walked layer by layer) must get a problem back, not hang the grader or fill its memory."""
    p = parameters_of(LESSON, 1, SECRETS[0])
    rules = {q.name: q.rule for q in questions_for(LESSON, p) if q.kind == "design"}
    base = l11.solution_design(p)
    for moe in ({"model_type": "qwen3_moe", "num_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 512,
                 "decoder_sparse_step": 10**29, "head_dim": p["head_dim"]},
                {"model_type": "mixtral", "num_local_experts": 8, "num_experts_per_tok": 2}):
        design = {**base, **moe, "num_hidden_layers": 10**29}
        for name, rule in rules.items():
            answers = {"design": design} if name == "design" else {name: 1, "design": design}
            problems = rule(answers)
            assert problems, name
            if name != "tightest_budget":  # that one asks for a budget's name first
                assert "more layers than any model has" in problems[0], (name, problems)
