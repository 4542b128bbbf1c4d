"""Explaining a wrong number from the answer's named parts and the learner's own code.

Called by the question kinds (`Question._number_hint`) after a typed, rounded
number and before the general words of embedlab.grading.diagnose:

* `code_first`: what the answer cell reads (the wrong input, a rounded input
  typed by hand), from its source (embedlab.grading.code): a cause, whatever
  the value;
* `number`: the nearby expressions over the answer's named parts that give the
  learner's value (embedlab.grading.parts), then what the code does that fits
  the value (`//` for `/`, `* 100`, `round`, a number typed in).

One implementation for the notebook check and the grader: both judge with
`Question.judge`, the source set on the question (`with_source`).
"""

from __future__ import annotations

import dataclasses
import math
import re
from typing import Callable

from embedlab.grading import code, parts
from embedlab.grading.values import written_in


def with_source(question, source, others: dict | None = None, elsewhere=None):
    """The question, judged with the answer cell's source (a str, cut), or as it is; with `others`, the
    exercise's answers (its key), a wrong value equal to another of them is named as that answer; with
    `elsewhere`, what the learner's lines gave on the question's other inputs (embedlab.grading.elsewhere)."""
    if isinstance(elsewhere, list) and elsewhere:
        # the other inputs' cases (8 at most), then the learner's code with one slip undone (embedlab.grading.undo)
        undone = [c for c in elsewhere if isinstance(c, dict) and "undone" in c]
        rest = [c for c in elsewhere if not (isinstance(c, dict) and "undone" in c)]
        question = dataclasses.replace(question, elsewhere=tuple(rest[:8] + undone[:24]))
    if isinstance(others, dict) and others:
        question = dataclasses.replace(question, others={k: v for k, v in others.items()
                                                         if k != question.name and isinstance(v, (int, float))})
    if not isinstance(source, str) or not source.strip():
        return question
    return dataclasses.replace(question, source=source[:code.SOURCE_LIMIT])


def _call(func, question):
    if func is None:
        return None
    try:
        return func(*question.case) if question.case is not None else func()
    except Exception:  # noqa: BLE001 - a hint that cannot be built says nothing
        return None


def typed_by_hand(question) -> bool:
    """Is the answer a number typed in (or is its cell unknown)? A computed answer that happens to be
    right to a few digits is not a typed, rounded number: other hints come first for it."""
    if not question.source:
        return True
    reading = code.read(code.own_part(question.source), question.name)
    return not reading.parsed or reading.hard_coded or not (reading.names or reading.calls)


def typed_constants(question) -> set | None:
    """The constants the learner's own lines type (and "float" when they divide with / or type a
    float), for the general words to guess a unit only from what was typed; None when the cell is
    unknown or does not parse."""
    if not question.source:
        return None
    own = code.read(code.own_part(question.source), question.name)
    if not own.parsed:
        return None
    out = {n for n in own.numbers if isinstance(n, (int, float)) and math.isfinite(n)}
    out |= {v for v in code.constant_values(code.own_part(question.source))}
    if own.truediv or any(isinstance(n, float) for n in own.numbers) or own.calls & {"float", "mean", "sqrt", "norm"}:
        out.add("float")
    return out


def code_first(question, got, want) -> str | None:
    """What the learner's code reads that explains any wrong value: the wrong input, a rounded one."""
    if not question.source:
        return None
    reading = code.read(question.source, question.name)
    if not reading.parsed:
        return None
    own = code.read(code.own_part(question.source), question.name)
    rounded = typed_rounded_answer(code.own_part(question.source), got, want)
    if rounded:
        return rounded  # the answer itself typed rounded: no input, no part of it, is the story
    wrong = (code.wrong_reads(own, tuple(question.reads), dict(question.not_reads))
             or code.wrong_reads(reading, tuple(question.reads), dict(question.not_reads))
             or _other_model(question, reading))
    if wrong:
        return wrong
    typed = _typed_names(question, reading)
    if typed:
        return typed
    missing = _missing_needs(question, got, want)
    if missing and _backed(question, missing, got, want):
        return missing  # the reading's part proved by the question's own rule: before any other slip
    inputs = dict(_call(question.inputs, question) or {}) if question.inputs else {}
    config = config_inputs(question)
    answer = _call(question.parts, question) if question.parts else None
    named = {k: v for k, v in inputs.items()}
    for one in (answer if isinstance(answer, (list, tuple)) else [answer] if answer is not None else []):
        for name, value in one.siblings().items():
            named.setdefault(name, value)
        for name, value in one.leaves().items():
            inputs.setdefault(name, value)
    shadowed = _shadowed(question, named, config)
    if shadowed:
        return shadowed
    inputs.update({words: value for words, (_, value) in config.items()})
    if inputs:
        typed = code.typed_input(code.read(code.own_part(question.source), question.name), inputs)
        if typed and answer is not None:
            more = _and_then(question, answer, got, want, inputs)
            if more:
                return f"{typed}; and {more}"
            # the typed number put back as the exact value of what it stands for, in the learner's own value:
            # where that gives the answer (or the answer × a named factor) for another input or part than
            # the nearest (1.5e9: the rest is nearer, the total is what the cell divides by), that one is said
            stands = _typed_stands_for(question, got, want, {**_groups(answer), **named, **inputs})
            if stands and not typed.startswith(stands[0]):
                return stands[0] + stands[1]
        exact = _with_exact_value(question, got, want, inputs) if typed else None
        if exact is not None and _exact_number(exact, got):
            return None  # with the exact value in, the cell gives the same value: the typed number is not the slip
        if exact is not None and not _exact_number(exact, want):
            return (f"{typed}; with the exact value in, your code still does not give the answer: one slip more "
                    "to find")
        return typed
    return None


def _with_exact_value(question, got, want, inputs: dict):
    """The counterfactual of a typed input's story (code.typed_input): the learner's own lines, read as arithmetic
    on the book's inputs (cell_readings: they give the learner's value there), with each typed number that is a
    rounded input put back to the input's exact value: the value they give then, or None when the cell cannot be
    read so (nothing proven, nothing refuted)."""
    import ast

    read = cell_readings(question, got, want)
    if read is None:
        return None
    head, source, book, _ = read
    tree = _parse_or_none(source)
    if tree is None:
        return None
    changed = False
    for node in ast.walk(tree):
        typed = node.value if isinstance(node, ast.Constant) else None
        if type(typed) not in (int, float) or not typed:
            continue
        for value in inputs.values():
            if type(value) in (int, float) and value and typed != value \
                    and code.typed_input(code.Reading(numbers=[typed], parsed=True), {"x": value}):
                node.value = value
                changed = True
                break
    if not changed:
        return None
    value = code.evaluate(head + "\n" + ast.unparse(tree), question.name, book)
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _groups(answer) -> dict:
    """{name: value} of the answer's groups of parts (a ratio's "the total"), as the answer counts them."""
    out = {}
    for one in answer if isinstance(answer, (list, tuple)) else [answer]:
        for node in one.tree.nodes():
            if getattr(node, "children", None) and node.name:
                try:
                    value = node.value({})
                except (ArithmeticError, TypeError, ValueError, KeyError):
                    continue
                if isinstance(value, (int, float)) and math.isfinite(value):
                    out.setdefault(node.name, value)
    return out


def _typed_stands_for(question, got, want, candidates: dict) -> tuple | None:
    """(words, more) for a number the learner's own lines type (100 or more) that is a rounded or retyped
    value of one of `candidates` ({words: exact value}: the inputs, the answer's named parts), where the
    learner's value with the exact one in its place (as a factor, or as a divisor) is the answer, or the
    answer × a factor of diagnose.FACTORS (`more`: that factor's words); None when none is."""
    from embedlab.grading import diagnose

    try:
        got, want = float(got), float(want)
    except (TypeError, ValueError):
        return None
    if not (math.isfinite(got) and math.isfinite(want)) or want == 0:
        return None
    reading = code.read(code.own_part(question.source), question.name)
    for typed in list(reading.numbers) + list(reading.constants):
        if isinstance(typed, bool) or not isinstance(typed, (int, float)) or abs(typed) < 100:
            continue
        for words, value in candidates.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value or value == typed \
                    or abs(typed - value) > 0.05 * abs(value) or not (
                        code._rounded_of(typed, value) or code._mistyped(typed, value)):
                continue
            for fixed in (got * value / typed, got * typed / value):
                said = (f"you typed {code._fmt(typed)} where {words} is {code._fmt(value)}: use the exact value "
                        "(read it from the parameters or the config), not a rounded or retyped one")
                if math.isclose(fixed, want, rel_tol=1e-9):
                    return said, ""
                for factor, message in diagnose.FACTORS:
                    if factor != -1 and math.isclose(fixed, factor * want, rel_tol=1e-9):
                        return said, f"; and with it in place, yours is {message}"
    return None


def typed_rounded_answer(source, got, want) -> str | None:
    """The learner's value is a number their own lines type (`int(4.2e6)`, `x = 7.5e9`) and it is the
    answer rounded or cut to a few digits: the answer typed from a rounded figure, named as that (it may
    also round an input or a part of the answer: those stories are not proven, the rounding is)."""
    from embedlab.grading import diagnose

    try:
        got, want = float(got), float(want)
    except (TypeError, ValueError):
        return None
    if not (math.isfinite(got) and math.isfinite(want)) or got == want:
        return None
    if not any(math.isclose(float(n), got, rel_tol=1e-12) for n in _plain_numbers(source)):
        return None  # a number the cell computes from typed factors (8e9 * 0.5 / 1e9) is no answer typed
    return diagnose.precision_hint(got, want, True)


def _plain_numbers(source) -> list:
    """The numbers a cell types as such (`4.2e6`, `-3`), not those it folds from several (`8e9 * 0.5`)."""
    import ast

    tree = _parsed(source) if isinstance(source, str) else None
    out = []
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            node = node.operand
            sign = -1
        else:
            sign = 1
        if isinstance(node, ast.Constant) and type(node.value) in (int, float) and math.isfinite(node.value):
            out.append(sign * node.value)
    return out


def _and_then(question, answer, got, want, inputs) -> str | None:
    """Two slips: a rounded input typed AND a part mistaken. The learner's number with the typed
    input put right (it enters a count as a factor), searched for the second slip."""
    reading = code.read(code.own_part(question.source), question.name)
    for typed in list(reading.numbers) + list(reading.constants):
        for key, value in inputs.items():
            if isinstance(value, (int, float)) and value and typed and typed != value \
                    and code.typed_input(code.Reading(numbers=[typed], parsed=True), {"x": value}):
                try:
                    fixed, other_way = float(got) * value / typed, float(got) * typed / value
                except (ArithmeticError, TypeError, ValueError):
                    continue
                if math.isclose(fixed, float(want), rel_tol=1e-9) or math.isclose(other_way, float(want), rel_tol=1e-9):
                    return None  # the typed input (a factor, or a divisor) is the only slip
                found = parts.search(answer, fixed, want)
                found = _not_of_typed(found, key)
                if found and not _reveals(found, want) and not _units_only(answer, found):
                    return found
    return None


def _not_of_typed(found: str | None, key: str) -> str | None:
    """Two slips' words (`parts.either`) after a typed input: the code's own factor for that input is the typed
    number, so an alternative that names another size standing for it ("you used d for tokens (n_tokens)")
    contradicts the first clause and is dropped; the other alternative stands alone."""
    pair = parts.alternatives(found)
    if not pair:
        return found
    key = str(key)  # the learner's name of the input (`n_tokens`), or a config's words: "V (vocab_size) of gpt2"
    names = set(re.findall(r"\(([A-Za-z_][A-Za-z_0-9]*)\)", key)) | ({key} if key.isidentifier() else set())
    kept = [a for a in pair if not any(re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", a)
                                       for n in names if len(n) > 1)]
    return kept[0] if len(kept) == 1 else (found if len(kept) == 2 else None)


# A model config's sizes, under the names a learner gives them: (words, the ModelShape field).
CONFIG_NAMES = {
    "V": ("V (vocab_size)", "vocab_size"), "vocab_size": ("V (vocab_size)", "vocab_size"),
    "d": ("d (hidden_size)", "hidden_size"), "hidden_size": ("d (hidden_size)", "hidden_size"),
    "n_embd": ("d (hidden_size)", "hidden_size"), "d_model": ("d (hidden_size)", "hidden_size"),
    "L": ("L (num_layers)", "num_layers"), "num_layers": ("L (num_layers)", "num_layers"),
    "n_layer": ("L (num_layers)", "num_layers"), "layers": ("L (num_layers)", "num_layers"),
    "h": ("h (num_heads)", "num_heads"), "num_heads": ("h (num_heads)", "num_heads"), "n_head": ("h (num_heads)", "num_heads"),
    "h_kv": ("h_kv (num_kv_heads)", "num_kv_heads"), "num_kv_heads": ("h_kv (num_kv_heads)", "num_kv_heads"),
    "d_ff": ("d_ff (intermediate_size)", "intermediate_size"),
    "intermediate_size": ("d_ff (intermediate_size)", "intermediate_size"),
    "head_dim": ("head_dim", "head_dim"),
}


def _units_only(answer, words: str) -> bool:
    """Is an explanation made of unit scales alone (no part named)? Too weak to add to another slip."""
    answers = answer if isinstance(answer, (list, tuple)) else [answer]
    says = {s.says for one in answers for s in one.all_scales()}
    for lead in (parts.EITHER_LEAD, "two slips give exactly your number: either "):
        words = words.replace(lead, "")
    pieces = words.split("; and ")
    return all(p.strip().rstrip(",") in says for p in pieces)


def config_inputs(question) -> dict:
    """{learner's name: (words, value)} of the sizes of the model the question reads (its `reads`
    is (the `parameters` name, a shipped model)): a learner may type one, or set it by hand."""
    if len(question.reads) != 2 or not isinstance(question.reads[1], str):
        return {}
    try:
        from embedlab.params import load_config, model_shape

        shape = model_shape(load_config(question.reads[1]))
    except Exception:  # noqa: BLE001 - not a shipped model: nothing to read
        return {}
    out = {}
    for name, (words, fieldname) in CONFIG_NAMES.items():
        value = getattr(shape, fieldname, None)
        if isinstance(value, int) and value >= 2:
            out[name] = (f"{words} of {question.reads[1]}", value)
    return out


def _shadowed(question, named: dict, config: dict) -> str | None:
    """`d = 768` in the learner's own lines where the question's d (an input, a part named d, or its
    model's width) is another number: the value set by hand is another model's, or a slip."""
    assigned = code.assigned_constants(code.own_part(question.source))
    for name, value in assigned.items():
        if name == question.name or isinstance(value, bool):
            continue
        if name in config:
            words, right = config[name]
        elif name in named and isinstance(named[name], (int, float)) and not isinstance(named[name], bool):
            words, right = f"{name} here", named[name]
        else:
            continue
        if right != value and abs(right) >= 2:
            where = (f"read it from the config (load_config({question.reads[0]}))" if name in config
                     else "use the question's own inputs")
            return f"your code sets {name} = {code._fmt(value)} by hand, but {words} is {code._fmt(right)}: {where}"
    return None


def model_reads(p: dict, questions_of: dict) -> Callable:
    """`reads`/`not_reads` for a lesson whose questions each read one model of the parameters cell:
    `questions_of` is {parameter name: (question names)}. Returns name -> {"reads": …, "not_reads": …},
    to pass as `Integer(name, ..., **reads(name))`: reading (or loading by name) another question's
    model is then named in the hint."""
    def reads(name: str) -> dict:
        own = next((k for k, v in questions_of.items() if name in v), None)
        if own is None:
            return {}
        others = {k: f"your code reads `{k}` ({p[k]}), the model of another question: this one is about "
                     f"`{own}` ({p[own]})" for k in questions_of if k != own and p[k] != p[own]}
        others.update({p[k]: f"your code loads {p[k]!r}: this question is about `{own}` ({p[own]})"
                       for k in questions_of if k != own and p[k] != p[own] and isinstance(p[k], str)})
        return {"reads": (own, p[own]), "not_reads": others}
    return reads


def needs_and_avoids(question) -> str | None:
    """`needs` and `avoids` alone (a function's cell, judged call by call)."""
    return _missing_needs(question) if question.source else None


def _missing_needs(question, got=None, want=None) -> str | None:
    """What a right answer's own lines use (`needs`: one of `a|b`) and these do not, or what they
    use that a right answer never does (`avoids`), in code.features' tokens."""
    if not (question.needs or question.avoids):
        return None
    own = code.read(code.own_part(question.source), question.name)
    if not own.parsed or own.hard_coded:
        return None
    if got is not None and _proven_hint_holds(question, got, want):
        return None  # the value is a slip a hint computes exactly: that hint speaks, not what the code lacks
    used = code.features(own)
    for alternatives, says in question.avoids.items():
        if any(token in used for token in alternatives.split("|")) and not _refuted(question, says, got, want) \
                and not _pattern_undone_wrong(question, alternatives.split("|"), used, want):
            return quote_written(says, alternatives.split("|"), used)
    for alternatives, says in question.needs.items():
        if not any(token in used for token in alternatives.split("|")) and not _refuted(question, says, got, want):
            return says
    return None


def _pattern_undone_wrong(question, tokens, used, want) -> bool:
    """Is a pattern of the learner's code that an `avoids` entry names (a comprehension's `if` filter) refuted by
    its own undoing: the learner's lines, run in their kernel with the pattern taken out (embedlab.grading.undo,
    reported in `elsewhere`), give another value than the answer? Then the pattern is not the slip (a count-weighted
    share written with a filter is wrong for its weights, not for its filter), and its words are not shown. False
    where no such run was reported: the pattern is then weighed as before."""
    if "filter" not in tokens or "filter" not in used or want is None:
        return False
    from embedlab.grading import undo

    runs = [c for c in (question.elsewhere if isinstance(question.elsewhere, (list, tuple)) else ())
            if isinstance(c, dict) and str(c.get(undo.UNDONE, "")).startswith(undo.FILTER_LEAD) and "got" in c
            and c.get(undo.CONTROL) is None]
    if not runs:
        return False
    for case in runs:
        try:
            got = case["got"]
            got = got.get("float", got.get("int", got)) if isinstance(got, dict) else got
            if isinstance(got, (int, float)) and math.isclose(float(got), float(want), rel_tol=1e-9, abs_tol=0):
                return False  # without the filter the lines give the answer: the filter is the slip
        except (TypeError, ValueError, AttributeError):
            return False
    return True


def _token_forms(token: str) -> list[str]:
    """How words may quote a code token of code.features: `errors=ignore` as errors='ignore', errors="ignore"
    or errors=ignore; `axis=0` as axis=0."""
    if "=" in token and not token.startswith("=") and not token.endswith("="):
        key, value = token.split("=", 1)
        return [f"{key}='{value}'", f'{key}="{value}"', token]
    return [token]


def quote_written(says: str, alternatives: list[str], used: set) -> str:
    """The words of an `avoids` entry with each of its alternatives they quote but the cell does not write
    replaced by the one the cell writes (errors='ignore' quoted to a cell that wrote errors='replace'): a hint
    names what the learner wrote, or the family in general words, never a value of the family nobody wrote."""
    written = [t for t in alternatives if t in used]
    if not written:
        return says
    mine = written[0]
    for token in alternatives:
        if token in used:
            continue
        for form, theirs in zip(_token_forms(token), _token_forms(mine)):
            if form in says:
                says = says.replace(form, theirs)
    return says


def _a_rule_holds(hints, got, want) -> bool:
    """Does the rule (the slip's counterfactual) of one of `hints` give the learner's value? A rule that cannot
    weigh this value proves nothing."""
    for hint in hints:
        try:
            if hint.when(got, want):
                return True
        except Exception:  # noqa: BLE001
            continue
    return False


def _backed(question, says: str, got, want) -> bool:
    """Is a code reading's words proved by the value: a hint of the question's own with those words, whose rule
    (the slip's counterfactual) gives the learner's value?"""
    return _a_rule_holds([h for h in question.hints if h.message == says and not h.args], got, want)


def _proven_hint_holds(question, got, want) -> bool:
    """Does one of the question's own `proven` hints (its rule computes the slip's value exactly) hold?"""
    return _a_rule_holds([h for h in question.hints if getattr(h, "proven", False) and not h.args], got, want)


def unproved_needs(question, got, want) -> list[str]:
    """A code reading's words (`needs`, `avoids`) no rule of the question proves: what the cell lacks or uses is
    true of the code, but the part it names is not proved by the value, so it comes after the slips the value
    proves (kinds.Question._number_hint), never before."""
    if not question.source:
        return []
    missing = _missing_needs(question, got, want)
    return [missing] if missing and not _backed(question, missing, got, want) else []


def _refuted(question, says: str, got, want) -> bool:
    """Is a code reading's words refuted by the value? When the question's own hints say the same words, their
    rule is the slip's counterfactual (the diagonal kept in gives (n + n(n − 1)·c) / n²): a value it does not
    give is not that slip, whatever the code lacks (a cell that left the diagonal out another way)."""
    if got is None:
        return False
    rules = [h for h in question.hints if h.message == says and not h.args]
    if not rules:
        return False
    for hint in rules:
        try:
            if hint.when(got, want):
                return False
        except Exception:  # noqa: BLE001 - a rule that cannot weigh this value refutes nothing
            return False
    return True


def _typed_names(question, reading) -> str | None:
    """The question's input is a `parameters` name the cell never reads, and the learner's own
    lines type names (words, models) of their own: 'cat' and 'dog' where `pair` is asked."""
    if not question.reads or any(r in reading.names or r in reading.strings for r in question.reads):
        return None
    own = code.read(code.own_part(question.source), question.name)
    names = [s for s in own.strings if s.strip() and s not in ("utf-8",)]
    if not names:
        return None
    shown = ", ".join(repr(n) for n in dict.fromkeys(names[:3]))
    return (f"your code types its own names ({shown}) instead of reading `{question.reads[0]}`: use the "
            f"inputs the question gives (`{question.reads[0]}`)")


def _other_model(question, reading) -> str | None:
    """A shipped model's name typed in the cell where the question's own model is another:
    `reads` is (the `parameters` name, its model)."""
    if len(question.reads) != 2 or not isinstance(question.reads[1], str):
        return None
    param, model = question.reads
    if param in reading.names or model in reading.strings:
        return None
    from embedlab.params import available_models

    known = set(available_models())
    typed = [s for s in reading.strings if s in known and s != model]
    if typed:
        return f"your code loads {typed[0]!r}: this question is about `{param}` ({model}); read it from `{param}`"
    return None


def number(question, got, want) -> str | None:
    """The parts that explain `got`, else what the code does that fits it."""
    try:
        got, want = float(got), float(want)
    except (TypeError, ValueError):
        return None
    if not math.isfinite(got):
        return None
    other = other_model_value(question, got, want)
    if other:
        return other
    answer = searched_answer(question, want)
    if answer is not None:
        found = parts.search(answer, got, want)
        if found and not _reveals(found, want):
            return found
    return code_features(question, got, want)


def other_model_value(question, got, want) -> str | None:
    """The same quantity for another model of the lesson, typed in (numbers only, no input read): the question rebuilt with
    each other shipped model in its model's place (its `reads`), its answer's parts evaluated there; named only
    when that value is the learner's EXACTLY and this model's answer is not it (a ratio between two models is no
    slip of a part: a Llama-3-8B head is twice a Llama 3.2 1B head, and not because of a tied table)."""
    reads = getattr(question, "reads", ())
    lesson = getattr(question, "lesson", "")
    if len(reads) != 2 or not isinstance(reads[1], str) or not lesson or not question.parts \
            or _exact(got, want) or getattr(question, "case", None) is not None or not typed_by_hand(question):
        return None  # a cell that computes from its inputs and meets another model's value does so by coincidence
    param, model = reads
    try:
        import importlib

        from embedlab.params import available_models

        # the lesson's question module itself (as embedlab.grading.lessons loads it): its variant space and
        # its questions(params), without importing lessons, which sits above this module
        module = importlib.import_module(f"embedlab.grading.questions.l{lesson[:2]}")
        defaults = dict(module.SPACE.defaults)
    except Exception:  # noqa: BLE001 - a lesson without a variant space: nothing to rebuild
        return None
    if defaults.get(param) != model:
        return None  # a class variant: the questions are rebuilt from the book's parameters only
    for name in available_models():
        if name == model:
            continue
        try:
            rebuilt = next(q for q in module.questions({**defaults, param: name}) if q.name == question.name)
            answer = rebuilt.parts()
            value = parts._eval(answer.tree, {})
            if answer.floor:
                value = math.floor(value)
        except Exception:  # noqa: BLE001 - a model this question cannot be built for
            continue
        if _exact(got, value) and not _exact(value, want):
            return (f"that is the same quantity for {name}, another model, not for {model}: this question is about "
                    f"`{param}` ({model}); read its sizes from `{param}`")
    return None


def loaded_model_figure(question, got, want) -> str | None:
    """A figure of another shipped model that the learner's own lines load by name (a string literal), given where
    the question's model is asked: the same quantity for that model (the lesson's `answers` with that model in the
    question's model's place) or one of its plain figures (its parameter count, its V·d table). Named only when
    that figure is the learner's value EXACTLY, this model's answer is not it, and the question is on the book's
    parameters (the lesson's `answers` there is the expected value: a class variant's question is not rebuilt)."""
    lesson = getattr(question, "lesson", "")
    if not lesson or getattr(question, "case", None) is not None or not question.source:
        return None
    own = code.read(code.own_part(question.source), question.name)
    if not own.parsed:
        return None
    from embedlab.params import available_models, count_params, load_config, model_shape

    known = set(available_models())
    loaded = [s for s in dict.fromkeys(own.strings) if s in known]
    if not loaded:
        return None
    import importlib

    try:  # the lesson's question module (as explain.other_model_value loads it): its book parameters and answers
        module = importlib.import_module(f"embedlab.grading.questions.l{lesson[:2]}")
        defaults = dict(module.SPACE.defaults)
        if not _exact_answer(module.answers(defaults).get(question.name), want):
            return None  # not the book's parameters (a class variant): the figures below are not this one's
    except Exception:  # noqa: BLE001 - a lesson without a variant space or answers: nothing to rebuild
        return None
    asked = code.solution_source(lesson, question.name) or ""
    params = [k for k, v in defaults.items() if isinstance(v, str) and v in known
              and re.search(rf"(?<![\w.]){re.escape(k)}(?!\w)", asked)]
    if len(params) != 1:
        return None  # the question's model is not one parameter the solution's cell reads: no model to name
    param, model = params[0], defaults[params[0]]
    for name in loaded:
        if name == model:
            continue
        figures = []
        try:
            figures.append((module.answers({**defaults, param: name}).get(question.name),
                            f"the same quantity for {name}"))
        except Exception:  # noqa: BLE001 - a model this lesson's answers cannot be computed for
            pass
        try:
            shape = model_shape(load_config(name))
            figures += [(count_params(load_config(name)).total, f"the parameter count of {name} as released "
                                                                f"(count_params(...).total)"),
                        (shape.vocab_size * shape.hidden_size, f"the V × d table of {name}")]
        except Exception:  # noqa: BLE001
            pass
        for value, what in figures:
            if _exact_answer(value, got) and not _exact_answer(value, want):
                return (f"that is {what}, the model your code loads by name: this question is about `{param}` "
                        f"({model}); read the model from `{param}`")
    return None


# --------------------------------------------------------------------------
# A count exactly one named term of the model short (or over): the model's own count (count_params) names its terms
# (final_norm, position_embedding, lm_head, the blocks' norms), so a gap of exactly one of them, where no other term of
# that model has that size, names it, with what the learner's lines read: "exactly d short" says which term of d.

_COUNT_TERMS = ("token_embedding", "position_embedding", "embedding_projection", "final_norm", "lm_head")
_BLOCK_TERMS = ("attention", "mlp", "norms")


def _count_fields(model: str) -> list[dict]:
    """The named terms of a shipped model's count (count_params), as two sets that each add up to a count a
    question may ask: the whole model's ({words: value}: its tables, final norm, head, and each block term for all
    blocks) and one block's (its attention, MLP and norms). [] for a model whose blocks are not all alike."""
    from embedlab.params import count_params, load_config

    counts = count_params(load_config(model))
    if len(getattr(counts, "groups", ()) or ()) != 1:
        return []
    block, n = counts.block, counts.num_blocks
    whole = {f"the {k.replace('_', ' ')} (`{k}` of count_params)": getattr(counts, k) for k in _COUNT_TERMS}
    whole.update({f"the {k} of all {n} blocks (`block.{k}` × `num_blocks`)": getattr(block, k) * n
                  for k in _BLOCK_TERMS})
    one = {f"one block's {k} (`block.{k}`)": getattr(block, k) for k in _BLOCK_TERMS}
    if sum(whole.values()) != counts.total or sum(one.values()) != block.total:
        return []  # terms that do not add up to the count: not read as its parts
    return [{w: v for w, v in whole.items() if isinstance(v, int) and v > 0},
            {w: v for w, v in one.items() if isinstance(v, int) and v > 0}]


def _answer_terms(model: str, want) -> tuple | None:
    """(the terms of the model's count that add up to `want`, the other terms of that set), when exactly one
    choice of terms of one set does; else None."""
    import itertools

    found = []
    for terms in _count_fields(model):
        items = list(terms.items())
        for k in range(1, len(items) + 1):
            for chosen in itertools.combinations(items, k):
                if sum(v for _, v in chosen) == want:
                    found.append((dict(chosen), {w: v for w, v in items if w not in dict(chosen)}))
    return found[0] if len(found) == 1 else None


def _question_model(question) -> tuple | None:
    """(parameter, model) of the shipped model the question reads (its `reads`), or None."""
    from embedlab.params import available_models

    reads = getattr(question, "reads", ()) or ()
    if len(reads) == 2 and isinstance(reads[1], str) and reads[1] in set(available_models()):
        return reads[0], reads[1]
    return None


def count_field_gap(question, got, want) -> list[str]:
    """The words for a value exactly one named term of the question's model away from the answer (count_field_gap
    above): a term left out that the learner's own lines never read, or one added that they do read. Only when no
    other term of the model has that size, and where a look reports the learner's value, exactly that term there
    too. [] otherwise."""
    if getattr(question, "case", None) is not None or not question.source:
        return []
    try:
        got, want = int(got), int(want)
    except (TypeError, ValueError, OverflowError):
        return []
    found = _question_model(question)
    if found is None or got == want:
        return []
    param, model = found
    try:
        terms = _answer_terms(model, want)
    except Exception:  # noqa: BLE001 - a model count_params cannot count
        return []
    if terms is None:
        return []  # the answer is not one choice of the model's terms: no term to name
    gap = abs(want - got)
    inside, outside = terms
    pool = inside if got < want else outside  # left out: a term the answer has; added: one it has not
    named = [w for w, v in pool.items() if v == gap]
    if len(named) != 1:
        return []  # none, or two terms of that size: the value cannot tell which
    words = named[0]
    field = re.search(r"`(?:block\.)?(\w+)", words).group(1)
    own = code.own_part(question.source) or ""

    def read(name) -> bool:
        return bool(re.search(rf"(?:\.|\[['\"]){name}\b", own))
    reads = read(field)
    if not any(read(n) for n in (*_COUNT_TERMS, *_BLOCK_TERMS, "total", "block", "num_blocks") if n != field):
        return []  # lines that read no term of the model's count: what they add up is their own terms, not these
    short = got < want
    if short == reads:
        return []  # a term said left out that the lines read, or said added that they never read
    for case in getattr(question, "elsewhere", None) or ():  # the looks the kernel reported: the same term there
        if not isinstance(case, dict) or not isinstance(case.get("look"), int) or question.at_look is None:
            continue
        try:
            _, params, _ = question.at_look(case["look"])
            g, w = int(case["got"]), int(case["want"])
            there = _answer_terms(params[param], w)
        except Exception:  # noqa: BLE001 - a look that cannot be rebuilt weighs nothing
            continue
        if g != w and (there is None or (there[0] if g < w else there[1]).get(words) != abs(w - g)):
            return []
    context = "your count"
    if short:
        return [f"{context} is exactly {words} short, a term your lines never read: the question's count includes "
                f"it ({gap:,} numbers here)"]
    return [f"{context} has exactly {words} too many, a term your lines add: the question's count leaves it out "
            f"({gap:,} numbers here)"]


def _exact_answer(value, target) -> bool:
    """Equal as answers are (a whole number exactly, a float to 1 part in 10**9); False for anything else."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or isinstance(target, bool) \
            or not isinstance(target, (int, float)):
        return False
    return value == target or _exact(value, target)


def searched_answer(question, want):
    """The answer's named parts as `number` searches them: the question's own, with its inputs and its
    model's sizes added (or the answer as one number when it has no parts but inputs or sizes)."""
    answer = _call(question.parts, question) if question.parts else None
    inputs = _call(question.inputs, question) if question.inputs else None
    sizes = _config_scales(question)
    if answer is None and question.case is None and (inputs or sizes):
        # no parts written: the answer as one number, searched for an input too many or too few and the
        # model's own sizes as factors (the units are left to the general words, which check the code)
        answer = parts.Answer(parts.Part("the answer", want, can_drop=False, can_double=False), units=False)
    if answer is not None:
        for one in (answer if isinstance(answer, (list, tuple)) else [answer]):
            if not one.unit:
                one.unit = _quiet_unit(question)
            if inputs and not one.inputs:
                one.inputs = {k: v for k, v in inputs.items() if isinstance(v, int)}
            for name, (words, value) in _config_named(question).items():
                one.inputs.setdefault(name, value)
            own = {round(s.factor, 12) for s in one.scales}
            one.scales = list(one.scales) + [s for s in sizes if round(s.factor, 12) not in own]
            _typed_for_inputs(one, typed_literals(question))
            if not one.present:
                one.present = frozenset(_quiet_list(present_terms, question))
    return answer


def present_terms(question, whole_values: bool = False) -> set:
    """{(value, the name it is assigned to)} of the terms the learner's own expression adds (each leaf of a `+`
    chain: `4 * d` in `mlp = d * 4 * d + 4 * d + …`, the two sides of a ratio walked into; a term subtracted, `- d`,
    as its negative value; with `whole_values`, each assignment's whole value instead), read as
    arithmetic on the book's inputs, where the cell
    reads as arithmetic there: what the code does count, and under which name (a part of that size, of the
    part the name says, is not what it left out)."""
    import ast

    source = code.own_part(question.source) if question.source else None
    if not source or question.case is not None or len(source) > code.SOURCE_LIMIT:
        return set()
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return set()
    whole = question.source
    head = whole[:len(whole) - len(source)]
    leaves, taken = [], set()  # taken: the leaves subtracted (`- d` in `untied - V * d - d`), read as negative
    depth = [0]  # ratios walked into: the top one only

    def walk(node, minus=False):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            walk(node.left, minus)
            walk(node.right, minus)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub):
            walk(node.left, minus)
            walk(node.right, not minus)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and depth[0] == 0:
            depth[0] += 1  # a ratio's two sides, each a sum of terms (a share's part and its whole)
            walk(node.left, minus)
            walk(node.right, minus)
            depth[0] -= 1
        else:
            leaves.append(node)
            if minus:
                taken.add(id(node))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value is not None:
            start = len(leaves)
            if whole_values:  # each assignment's whole value (`layer_norms = d + d`: 2 · d), not its terms
                leaves.append(node.value)
            else:
                walk(node.value)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            name = next((t.id for t in targets if isinstance(t, ast.Name)), "")
            leaves[start:] = [(leaf, name) for leaf in leaves[start:]]
    out = set()
    for env in book_envs(question):  # each model the book names, or the parameters' own numbers
        # the whole cell read as arithmetic; where it cannot be (a helper `def`, a list summed), each term alone on
        # the given lines' names (`norms = 2 * d`): what it reads is then an input, not a name the cell made
        alone = code.evaluate(whole, question.name, env) is None
        for leaf, name in leaves:
            segment = ast.get_source_segment(source, leaf)
            text = head + ("" if alone else source) + f"\nterm_ = {segment}\n"
            value = code.evaluate(text, "term_", env) if segment else None
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value:
                out.add((-value if id(leaf) in taken else value, name))
        if out:
            break
    return out


def own_terms(question, got) -> list | None:
    """The terms the learner's own lines add up to their value, each read as arithmetic on the book's inputs (a
    function's body on the call's arguments): the answer's `+`/`-` chain, each name in it the cell assigns once
    walked into (`block_params = qkv + proj + ln`, `ln = 2 * D`), a subtracted term negative. None when the lines
    cannot be read so, or the terms do not add up to the learner's value there."""
    import ast

    for whole, own, name, _, envs, _ in _readings(question):
        tree = _parsed(own)
        if tree is None or len(own) > code.SOURCE_LIMIT:
            continue
        head = whole[:len(whole) - len(own)]
        assigned: dict = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                assigned.setdefault(node.targets[0].id, []).append(node.value)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name):
                assigned.setdefault(node.target.id, []).extend([None, None])  # built up in steps: not one term
        if len(assigned.get(name, ())) != 1:
            continue
        leaves: list = []

        def resolved(node, depth):
            """A name the cell assigns once, as its value; anything else as it is."""
            while isinstance(node, ast.Name) and len(assigned.get(node.id, ())) == 1 and depth < 6 \
                    and assigned[node.id][0] is not None:
                node, depth = assigned[node.id][0], depth + 1
            return node, depth

        def is_sum(node) -> bool:
            return isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub))

        def walk(node, minus, depth, factors):
            node, depth = resolved(node, depth)
            if is_sum(node):
                walk(node.left, minus, depth, factors)
                walk(node.right, minus != isinstance(node.op, ast.Sub), depth, factors)
            elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) \
                    and (is_sum(resolved(node.right, depth)[0]) or is_sum(resolved(node.left, depth)[0])):
                # a count times a sum (L * (attn + mlp + ln)): each term of the sum times the count
                inner, other = (node.right, node.left) if is_sum(resolved(node.right, depth)[0]) \
                    else (node.left, node.right)
                walk(inner, minus, depth, factors + (ast.get_source_segment(own, other) or ast.unparse(other),))
            else:
                leaves.append((node, minus, factors))
        walk(assigned[name][0], False, 0, ())
        if len(leaves) < 2:
            continue
        for env in envs:
            if not _exact(code.evaluate(whole, name, env), got):
                continue
            values = []
            for leaf, minus, factors in leaves:
                segment = ast.get_source_segment(own, leaf) or ast.unparse(leaf)
                segment = " * ".join([f"({f})" for f in factors] + [f"({segment})"])
                value = code.evaluate(whole + f"\n_term_ = {segment}\n", "_term_", env) if segment else None
                if not isinstance(value, (int, float)) or isinstance(value, bool):
                    values = None
                    break
                values.append(-value if minus else value)
            if values and _exact(sum(values), got):
                return values
    return None


def term_dropped(question, got, want) -> list[str]:
    """A term the learner's own expression adds (or subtracts) that the answer does not have: the cell, read as
    arithmetic on the book's inputs, gives the learner's value, and with that one term taken out (0 in its place)
    it gives the answer exactly; then again on a second look, other inputs (the lesson's numbers moved, its model
    another shipped one) where the solution's own cell, read the same way, gives the answer. The term is quoted as
    the learner wrote it. [] when no term does that on both."""
    import ast

    source = code.own_part(question.source) if question.source else None
    if not source or question.case is not None or len(source) > code.SOURCE_LIMIT \
            or not isinstance(got, (int, float)) or isinstance(got, bool):
        return []
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return []
    whole = question.source
    head = whole[:len(whole) - len(source)]
    chains = []  # (leaf, subtracted) of each + / - chain of two or more terms

    def walk(node, minus, out):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            walk(node.left, minus, out)
            walk(node.right, minus != isinstance(node.op, ast.Sub), out)
        else:
            out.append((node, minus))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign)) and node.value is not None:
            leaves = []
            walk(node.value, False, leaves)
            if isinstance(node, ast.AugAssign) and isinstance(node.op, (ast.Add, ast.Sub)):
                leaves = [(leaf, minus != isinstance(node.op, ast.Sub)) for leaf, minus in leaves]
            elif len(leaves) < 2:
                continue
            chains += leaves
    if not chains:
        return []
    solved = code.solution_source(getattr(question, "lesson", ""), question.name)
    looks = _second_envs(question)
    out = []
    for model, fields, env, readable in book_inputs(question) or [(None, {}, env, {}) for env in book_envs(question)]:
        if not _exact(code.evaluate(whole, question.name, env), got):
            continue  # the cell, read as arithmetic here, is not the learner's value
        for leaf, minus in chains:
            segment = ast.get_source_segment(source, leaf)
            patched = _patched(source, leaf, "0")
            term = code.evaluate(head + source + f"\nterm_ = {segment}\n", "term_", env) if segment else None
            if not patched or not isinstance(term, (int, float)) or isinstance(term, bool) or not term \
                    or not _exact(code.evaluate(head + patched, question.name, env), want):
                continue
            seen = False  # the second look: the term out gives the solution's answer there too, and it is not 0
            for other in looks:
                theirs = code.evaluate(solved, question.name, other) if solved else None
                mine = code.evaluate(whole.replace(source, "") + patched, question.name, other)
                there = code.evaluate(whole, question.name, other)
                if theirs is None or mine is None or there is None:
                    continue
                if not _exact(mine, theirs) or _exact(there, theirs):
                    seen = False
                    break
                seen = True
            if seen and not minus and any(_quiet_list(lambda: [counted_part(question, term, got, want)])):
                continue  # a term the answer counts (a named part: 3·d of q, k, v biases), written once, as it is
            if seen:
                value = f"{abs(term):,}" if isinstance(term, int) or float(term).is_integer() else f"{abs(term):.6g}"
                out.append(f"your cell {'subtracts' if minus else 'adds'} `{segment}` ({value} here), a term the "
                           f"question does not {'take away' if minus else 'count'}: without it your cell is right; "
                           f"reread what the question counts")
        if out:
            break
    return list(dict.fromkeys(out))



def answer_piece(question, value, want) -> bool:
    """Is `value` the size of a piece the answer itself has (a named part or group of its parts: the two LayerNorms'
    4·d)? A typed product of that size is that piece written, not a ratio typed where a config's field belongs."""
    if getattr(question, "case", None) is not None or getattr(question, "parts", None) is None:
        return False
    answers = question.parts()
    for answer in answers if isinstance(answers, (list, tuple)) else [answers]:
        if not _exact(parts._eval(answer.tree, {}), want):
            continue
        for node in answer.tree.nodes():
            size = [] if isinstance(node, parts.Extra) else _quiet_list(lambda: [parts._eval(node, {})])
            if size and _exact(size[0], value):
                return True
    return False


def counted_part(question, value, got, want) -> bool:
    """Is `value` a term of the answer's own named parts (parts.story_terms, unchanged: 3·d of q, k, v biases) that
    the learner's own lines (own_terms) write no more often than the answer has it? Then it is a part the question
    counts, written right, whatever the value's excess is: the slip is elsewhere."""
    from collections import Counter

    if getattr(question, "case", None) is not None or getattr(question, "parts", None) is None:
        return False
    terms = own_terms(question, got)
    if not terms:
        return False
    key = parts._story_key
    answers = question.parts()
    for answer in answers if isinstance(answers, (list, tuple)) else [answers]:
        right = parts.story_terms(answer.tree, {})
        if key(sum(right)) != key(want):
            continue
        right, mine = Counter(key(t) for t in right), Counter(key(t) for t in terms)
        if right[key(value)] and mine[key(value)] <= right[key(value)]:
            return True
    return False


def _second_envs(question) -> list[dict]:
    """Other inputs for a second look, as code.evaluate reads them: the lesson's book numbers moved (each whole
    number over 1 plus 3, each fraction times 1.1), and each model it names replaced by another shipped model."""
    lesson = getattr(question, "lesson", "")
    try:
        import importlib

        from embedlab.params import available_models

        defaults = importlib.import_module(f"embedlab.grading.questions.l{lesson[:2]}").SPACE.defaults
        known = list(available_models())
    except Exception:  # noqa: BLE001 - a lesson without a variant space
        return []
    items = {k: v for k, v in defaults.items() if isinstance(v, (int, float, str)) and not isinstance(v, bool)}
    moved = {k: (v + 3 if isinstance(v, int) and v > 1 else v * 1.1 if isinstance(v, float) else v)
             for k, v in items.items()}
    models = {k: v for k, v in items.items() if isinstance(v, str) and v in known}
    out = []
    for k, v in models.items() or [(None, None)]:
        if k is not None:
            moved = {**moved, k: next((m for m in known if m != v and m not in models.values()), v)}
    found = _book_inputs(lesson, tuple(sorted(moved.items())))
    out += [env for _, _, env, _ in found] or ([{k: v for k, v in moved.items() if not isinstance(v, str)}])
    return out


def _quiet_unit(question) -> str:
    try:
        return question.unit_of()
    except Exception:  # noqa: BLE001 - a question without a name's unit: any scale may apply
        return ""


def typed_literals(question) -> set:
    """The whole numbers (2 or more) the learner's own lines type: each may stand where a given input belongs."""
    if not question.source:
        return set()
    own = code.read(code.own_part(question.source), question.name)
    if not own.parsed:
        return set()
    return {n for n in own.numbers if isinstance(n, int) and not isinstance(n, bool) and n >= 2}


def _typed_for_inputs(answer, typed: set) -> None:
    """A given input (a part named as one: L, d, V, n_new) replaced by a number the cell types (12 for L, as
    GPT-2 small has): one change, the input hard-coded."""
    if not typed:
        return
    for node in answer.tree.nodes():
        if not (isinstance(node, parts.Part) and isinstance(node.amount, int) and not isinstance(node.amount, bool)
                and node.amount >= 2 and not node.key):
            continue
        label = node.words if parts._IDENT.fullmatch(node.words or "") else node.name
        if not parts._IDENT.fullmatch(label):
            continue
        what = "" if label == node.name else f" ({node.name})"
        for c in sorted(typed):
            if c != node.amount and not any(a.value == c for a in node.alts):
                node.alts.append(parts.Alt(c, (
                    f"your answer uses {c} where {label}{what} belongs: a number typed by hand (hard-coded, right for "
                    f"another model or input), where the question gives {label}: read it, do not type it"), swap=True,
                                         last=True))


def explanations(question, got, want) -> set:
    """Every explanation the named parts give of `got` (the words of each, with the fewest changes):
    what a slip named on one call of a function must be among, on every other failing call."""
    try:
        got, want = float(got), float(want)
    except (TypeError, ValueError):
        return set()
    answer = searched_answer(question, want) if math.isfinite(got) else None
    if answer is None:
        return set()
    return {words for one in (answer if isinstance(answer, (list, tuple)) else [answer])
            for _, words in parts.matches(one, got, want)}


def _config_named(question) -> dict:
    """{d: (words, 1024), L: …} of the model the question reads, one name per size."""
    out, seen = {}, set()
    for name, (words, value) in config_inputs(question).items():
        if len(name) <= 4 and words not in seen:
            seen.add(words)
            out[name] = (words, value)
    return out


def _config_scales(question) -> list:
    """The sizes of the model a question reads as factors of the whole answer: ×L (every layer where one
    is asked, or L once too often) and ×d (numbers where rows or vectors are counted)."""
    named = _config_named(question)
    out = []
    if "L" in named:
        words, value = named["L"]
        out.append(parts.Scale(value, f"yours is {words} times too much: all L layers where one layer is "
                                      "asked, or the layers counted once too often"))
        out.append(parts.Scale(1 / value, f"yours is too small by a factor {words}: that is one layer, and "
                                          "the question counts all L layers"))
    if "d" in named:
        words, value = named["d"]
        out.append(parts.Scale(value, f"yours is {words} times too much: times d, multiplied by the width d once "
                                      "too often (numbers or parameters where the number of rows or vectors is "
                                      "asked?)"))
    return out


ANGLE_CALLS = {"arccos", "degrees", "acos", "rad2deg"}


def code_features(question, got, want) -> str | None:
    """What the answer cell does that fits a wrong value (`//`, `* 100`, round, a typed number). A construct
    named as the slip is proved first (`construct_proven`): its counterfactual must hold."""
    if not question.source:
        return None
    reading = code.read(code.own_part(question.source), question.name)
    if not reading.parsed:
        return None
    if reading.columns and construct_proven(question, "columns", got, want):
        return ("your code indexes columns, `[:, …]`: a word's vector is its row of the table (axis 0), "
                "so index the rows")
    if reading.calls & ANGLE_CALLS and construct_proven(question, "angle", got, want):
        written = ", ".join(sorted(reading.calls & ANGLE_CALLS))  # what the cell calls: arccos gives radians
        return f"your code turns the cosine into an angle ({written}): the question asks for the cosine itself"
    integer = getattr(question, "kind", "") == "integer"  # an Integer question (a function's integer result too)
    if reading.times_100 and want != 0 and abs(got) > abs(want) * 10 and construct_proven(question, "percent", got,
                                                                                          want):
        return "your code multiplies by 100, a percentage: give the fraction (between 0 and 1)"
    if not integer and reading.floordiv and float(got).is_integer() and construct_proven(question, "floor", got, want):
        return "your code divides with `//`, which rounds down to a whole number: divide with `/`"
    if not integer and "round" in reading.calls and construct_proven(question, "round", got, want):
        return "your code rounds (round(...)): keep every digit, the check wants it exact"
    if not integer and "int" in reading.calls and float(got).is_integer() and construct_proven(question, "int", got,
                                                                                               want):
        return "int(...) drops the fraction: keep the value as a float"
    if "count_nonzero" in reading.calls:
        return ("your code counts with np.count_nonzero, which counts every non-zero entry: "
                "check that those are the things the question asks to count")
    if reading.hard_coded:
        answer = _call(question.parts, question) if question.parts else None
        recipe = parts.recipe(answer) if answer is not None else ""
        # "your table" only where the learner built the table the question
        # counts (Question.own_table)
        granted = "own table" in question.described()
        own = ", from your table's own sizes" if granted else ""
        how = f" ({recipe}{own})" if recipe else ""
        return (f"`{question.name}` is a number typed by hand: compute it in code from the question's "
                f"inputs{how}; a typed number is right only by chance, and this one is not")
    return None


# --------------------------------------------------------------------------
# A construct of the learner's cell named as the slip (`//`, round, × 100, int, an angle, columns indexed) is
# a diagnosis like any other: it is shown only when its counterfactual holds. Three tests, in order:
#   1. the solution's own code for the question writes the construct as often or more: then it is not what
#      is wrong (a right cell has it too), whatever the value;
#   2. the learner's own cell, read as arithmetic on the book's inputs (code.evaluate), gives the learner's
#      value: then the construct undone in it (`//` as `/`, round(x, k) as x, × 100 left out, int(x) as x, the
#      angle's call left out) must give the answer exactly;
#   3. a cell the reading cannot follow: the slip applied to the answer must give the learner's value exactly
#      (floor of the answer, the answer rounded to k places, × 100, …); a construct with no such relation
#      (columns indexed) rests on test 1 alone.


def _parsed(source):
    """The learner's source as an ast tree (its first code.SOURCE_LIMIT characters), or None: not a string, or
    it does not parse."""
    import ast

    if not isinstance(source, str):
        return None
    try:
        return ast.parse(source[:code.SOURCE_LIMIT])
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _construct_count(source: str | None, family: str) -> int | None:
    """How many times `source` writes the construct of `family` (None: it does not parse)."""
    import ast

    tree = _parsed(source)
    if tree is None:
        return None
    n = 0
    for node in ast.walk(tree):
        if family == "shift" and isinstance(node, ast.Module) and code.read(ast.unparse(node)).shift_one:
            n += 1  # an index ± 1, a dict of ids + 1, np.eye(…, k=1): code.read's own reading
        elif family == "shift" and isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)) \
                and isinstance(node.right, ast.Constant) and node.right.value == 1:
            n += 1  # words.index(w) + 1, anywhere in the cell: a number moved by one
        elif family == "shift" and isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
                (node.func.id == "enumerate" and (any(k.arg == "start" and not (isinstance(k.value, ast.Constant)
                                                                                and k.value.value == 0)
                                                      for k in node.keywords) or len(node.args) > 1))
                or (node.func.id == "range" and len(node.args) > 1 and not (
                    isinstance(node.args[0], ast.Constant) and node.args[0].value == 0))):
            n += 1  # numbering from 1: enumerate(words, 1), range(1, n + 1)
        if family == "shift":
            continue
        if family == "floor" and (isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, ast.FloorDiv)):
            n += 1
        elif family == "divide" and isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, ast.Div) \
                and not code._number_expr(node.right if isinstance(node, ast.BinOp) else node.value):
            n += 1  # a division by a computed number: by 2**30 (a unit) is none
        elif family == "subtract" and isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, ast.Sub):
            n += 1
        elif family in ("divide", "subtract") and isinstance(node, ast.Call) and (
                node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")) in (
                {"divide": ("divide", "true_divide", "truediv"), "subtract": ("subtract", "sub")}[family]):
            n += 1
        elif family == "percent" and isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and any(
                isinstance(s, ast.Constant) and s.value in (100, 100.0) for s in (node.left, node.right)):
            n += 1
        elif isinstance(node, ast.Call):
            f = node.func
            called = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            n += (family == "round" and called in ("round", "around")) or (family == "int" and called == "int") \
                or (family == "angle" and called in ANGLE_CALLS)
        elif family == "columns" and isinstance(node, ast.Subscript) and code.read(ast.unparse(node)).columns:
            n += 1
        elif family == "precedence" and isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Add, ast.Sub)) \
                and isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.Div):
            n += 1  # x / y * z, x / y + z: only y divides
    return n


def _undone(source: str, family: str) -> str | None:
    """`source` with every construct of `family` undone (the learner's own lines only), or None."""
    import ast

    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None

    class Undo(ast.NodeTransformer):
        def visit_BinOp(self, node):
            self.generic_visit(node)
            if family == "floor" and isinstance(node.op, ast.FloorDiv):
                node.op = ast.Div()
            if family == "percent" and isinstance(node.op, ast.Mult):
                for side, other in ((node.left, node.right), (node.right, node.left)):
                    if isinstance(side, ast.Constant) and side.value in (100, 100.0):
                        return other
            return node

        def visit_AugAssign(self, node):
            self.generic_visit(node)
            if family == "floor" and isinstance(node.op, ast.FloorDiv):
                node.op = ast.Div()
            return node

        def visit_Call(self, node):
            self.generic_visit(node)
            f = node.func
            called = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if node.args and ((family == "round" and called in ("round", "around")) or (family == "int" and called == "int")
                              or (family == "angle" and called in ANGLE_CALLS)):
                return node.args[0]
            return node
    try:
        return ast.unparse(ast.fix_missing_locations(Undo().visit(tree))) + "\n"
    except Exception:  # noqa: BLE001 - a tree the undoing cannot write back
        return None


def _round_places(source: str | None) -> set[int] | None:
    """The places the learner's rounding calls write (`round(x, 3)`, `np.round(x, 3)`, `x.round(3)`; none
    written is 0), or None where one is not a literal or the source does not parse: any places then."""
    import ast

    tree = _parsed(source)
    if tree is None:
        return None
    places = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name not in ("round", "around"):
            continue
        method = isinstance(func, ast.Attribute) and not (isinstance(func.value, ast.Name)
                                                           and func.value.id in ("np", "numpy"))
        args = list(node.args[0 if method else 1:]) + [k.value for k in node.keywords if k.arg in ("ndigits",
                                                                                                    "decimals")]
        if not args:
            places.add(0)
        elif isinstance(args[0], ast.Constant) and isinstance(args[0].value, int):
            places.add(args[0].value)
        else:
            return None
    return places or None


def _relation(family: str, got, want, places: set[int] | None = None) -> bool | None:
    """Does the slip of `family` applied to the answer give the learner's value exactly? None: no relation.
    `places`: the places the learner's own rounding writes (only those are tried; None: 0 to 9)."""
    try:
        g, w = float(got), float(want)
    except (TypeError, ValueError):
        return None
    if not (math.isfinite(g) and math.isfinite(w)):
        return False
    if family == "floor":
        return g == math.floor(w) or g == math.trunc(w)
    if family == "int":
        return g == math.trunc(w)
    if family == "round":
        return any(g == round(w, k) for k in (sorted(places) if places else range(0, 10)))
    if family == "percent":
        return _exact(g, 100 * w)
    if family == "angle":
        import numpy as np

        if not -1 <= w <= 1:
            return False
        a = float(np.arccos(w))
        return _exact(g, a) or _exact(g, float(np.degrees(a)))
    return None


# Words that say the learner's code writes a construct ("operator precedence: x / y * z is (x / y) * z"): a
# hint of a question's own may say them from the value alone (the value is that of x / y * z); they are shown
# only when the learner's own lines write that construct (a cell that wrote x / (y / z) gets the same value,
# but no precedence slip). (words pattern, family of _construct_count)
CONSTRUCT_WORDS = [(r"subtracted the other way round", "subtract"),  # a -1 factor's guess: the lines must subtract
                   (r"operator precedence", "precedence"), (r"divides with `//`|`//` \(floor division\)", "floor"),
                   (r"your code rounds", "round"), (r"your code multiplies by 100", "percent"),
                   (r"your code indexes columns", "columns"), (r"turns the cosine into an angle", "angle"),
                   # rows one after (or before) the word's own, said of the ids: the cell must move an index by one
                   # (ids ± 1, enumerate(…, start=1), range(1, …)); ids from a sorted list give the same rows on some
                   # inputs, by a coincidence of the alphabet, and no index is moved
                   (r"every row is the one after|an off-by-one in the ids", "shift"),
                   # a ratio given where a difference is asked needs a division by a computed number (not / 2**30,
                   # a unit), and a difference where a ratio is asked a subtraction
                   (r"^that is a ratio \(", "divide"), (r"^that is a difference \(", "subtract"),
                   # a count that multiplies one too many or one too few times (parts.OFF_BY_ONE: "context + 1 where
                   # context belongs, an off-by-one"): the cell must move a count by one (n + 1, range(1, …)); a
                   # term of another size that happens to equal one more of that count (4·L·d, one more key's
                   # attention) is no off-by-one
                   (r"one too (?:many|few): .+ belongs.*, an off-by-one", "shift")]


def construct_unwritten(question, text: str) -> bool:
    """Do the words say the code writes a construct the learner's own lines do not write? False when the cell is
    not known or does not parse (nothing to read it against)."""
    import re

    source = code.own_part(getattr(question, "source", None)) if getattr(question, "source", None) else None
    if not isinstance(source, str) or not isinstance(text, str):
        return False
    for pattern, family in CONSTRUCT_WORDS:
        if re.search(pattern, text):
            n = _construct_count(source, family)
            if n is not None and n == 0:
                return True
    return False


# "use X" where X is code (a dotted name, np.add.at, run.model.E, or `x` in backquotes): words that send the learner
# to something their cell already reads are refuted by the cell (it did use it; the slip is elsewhere)
_USE_WORDS = None


def _used_code(source: str) -> set | None:
    """The names and dotted attribute chains a cell reads (`run.model.E`, `np.add.at`), or None: not parsed."""
    import ast

    tree = _parsed(source)
    if tree is None:
        return None
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, ast.Attribute):
            try:
                out.add(ast.unparse(node))
            except Exception:  # noqa: BLE001 - an odd node: its name is read elsewhere
                continue
    return out


def names_what_is_used(question, text: str) -> bool:
    """Do the words tell the learner to use a piece of code ("use the trained rows, run.model.E", "use
    np.add.at") their own lines already use? Then the words blame a source the learner did not get wrong."""
    import re

    global _USE_WORDS
    if _USE_WORDS is None:
        _USE_WORDS = re.compile(r"\buse (?:the [a-z ]+, )?(`[^`]+`|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)")
    source = code.own_part(getattr(question, "source", None)) if getattr(question, "source", None) else None
    if not isinstance(source, str) or not isinstance(text, str):
        return False
    named = [m.group(1).strip("`") for m in _USE_WORDS.finditer(text)]
    if not named:
        return False
    used = _used_code(source)
    return bool(used) and any(n in used for n in named)


_SWAP_WORDS = None


def swap_refuted(question, text: str) -> bool:
    """Do the words say the cell uses one input where another belongs ("you used h_kv where L belongs") of a cell
    whose own lines read the one said missing (L), as the solution's do? Then it is not missing: the value's match
    is a coincidence of the book's inputs (h = L = 32), not the slip."""
    import ast
    import re

    global _SWAP_WORDS
    if _SWAP_WORDS is None:
        _SWAP_WORDS = re.compile(r"\byou used `?([A-Za-z_]\w*)`? where `?([A-Za-z_]\w*)`? belongs")
    source = code.own_part(getattr(question, "source", None)) if getattr(question, "source", None) else None
    if not isinstance(source, str) or not isinstance(text, str):
        return False
    found = _SWAP_WORDS.findall(text)
    if not found:
        return False
    lesson = getattr(question, "lesson", "") or getattr(question, "solved_in", "")
    try:
        solved = code.solution_source(lesson, question.name) if lesson else None
    except Exception:  # noqa: BLE001 - no solution to count against: nothing refuted
        solved = None
    mine, theirs = _parsed(source), _parsed(solved) if isinstance(solved, str) else None
    if mine is None or theirs is None:
        return False

    def reads(tree, name: str) -> int:
        return sum(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) for n in ast.walk(tree))
    # read at all: a factored form reads it once where the solution's two terms read it twice
    return any(reads(theirs, missing) and reads(mine, missing) for _, missing in found)


# --------------------------------------------------------------------------
# "You used X where Y belongs" (and "uses `X` where `Y` belongs", "X instead of Y", "your answer uses 1024 where
# n_tokens belongs"): a swap is a claim about the learner's own lines, proven on them. The swap undone there (each X
# the lines read put back as Y) must give the answer on the book's inputs, and the solution's value on a second look
# (the lesson's numbers moved: a swap that holds by a coincidence of the book's sizes, n·d·8 = n²·4, fails there);
# lines that never read X do not use X anywhere. Every path that words a swap reaches this one check through
# refuted_by_cell, so no source can show one unproven.

_SWAP_CLAIMS = None


def swap_claims(text: str) -> list[tuple[str, str]]:
    """[(X, Y)] of the swaps the words claim: X read (or typed) where Y belongs. X is a name or a whole number."""
    import re

    global _SWAP_CLAIMS
    if _SWAP_CLAIMS is None:
        name = r"`?([A-Za-z_]\w*|\d[\d_,]*)`?"
        _SWAP_CLAIMS = [re.compile(rf"\byou used {name} where {name}(?: \([^()]*\))? belongs"),
                        re.compile(rf"\b(?:uses|reads) {name} where {name}(?: \([^()]*\))? belongs"),
                        re.compile(rf"\bused {name} instead of {name}\b")]
    if not isinstance(text, str):
        return []
    out = []
    for pattern in _SWAP_CLAIMS:
        for x, y in pattern.findall(text):
            out.append((x.replace(",", "").replace("_", "") if x[0].isdigit() else x, y))
    return list(dict.fromkeys(out))


def _swapped(source: str, x: str, y: str) -> list[str]:
    """`source` with the reads of X (a name, or a whole number typed) written Y: each read alone, then all of them
    (a cell may read X rightly once and in Y's place once); [] when the lines never read X."""
    import ast

    tree = _parsed(source)
    if tree is None:
        return []
    number = int(x) if x.isdigit() else None

    def is_x(node) -> bool:
        if number is None:
            return isinstance(node, ast.Name) and node.id == x and isinstance(node.ctx, ast.Load)
        return isinstance(node, ast.Constant) and type(node.value) is int and node.value == number
    count = sum(is_x(n) for n in ast.walk(tree))
    out = []
    for which in ([*range(count), None] if count > 1 else [None] if count else []):
        seen = [-1]

        class Swap(ast.NodeTransformer):
            def generic_visit(self, node):
                return super().generic_visit(node)

            def visit_Name(self, node):
                return self._swap(node)

            def visit_Constant(self, node):
                return self._swap(node)

            def _swap(self, node):
                if not is_x(node):
                    return node
                seen[0] += 1
                if which is not None and seen[0] != which:
                    return node
                return ast.copy_location(ast.Name(y, ast.Load()), node)
        try:
            out.append(ast.unparse(ast.fix_missing_locations(Swap().visit(ast.parse(source[:code.SOURCE_LIMIT]))))
                       + "\n")
        except Exception:  # noqa: BLE001
            continue
    return out


def _moved_args(args) -> list | None:
    """A function call's arguments moved for a second look (each whole number over 1 plus 3, a fraction × 1.1)."""
    if not isinstance(args, (list, tuple)) or not all(isinstance(a, (int, float)) and not isinstance(a, bool)
                                                       for a in args):
        return None
    return [a + 3 if isinstance(a, int) and a > 1 else a * 1.1 if isinstance(a, float) else a for a in args]


def _readings(question) -> list[tuple]:
    """[(the learner's lines as a cell, the own part of it, the name it sets, the solution's cell or None, the
    book's envs, the second look's envs)] the arithmetic reading weighs a claim on: the answer cell on the
    lesson's inputs, or a function's body on the call's arguments."""
    lesson = getattr(question, "lesson", "") or getattr(question, "solved_in", "")
    try:
        solved = code.solution_source(lesson, question.name) if lesson else None
    except Exception:  # noqa: BLE001 - no solution: the book's answer alone weighs it
        solved = None
    case = getattr(question, "case", None)
    if case is not None:
        whole, name, envs = _body_as_cell(question.source, question.name, case)
        if whole is None:
            return []
        moved = _moved_args(case)
        theirs, _, _ = _body_as_cell(solved, question.name, case) if isinstance(solved, str) else (None, None, None)
        looks = []
        if moved is not None:
            mine, _, there = _body_as_cell(question.source, question.name, moved)
            looks = there or []
        return [(whole, whole, name, theirs, envs, looks)]
    own = code.own_part(question.source) if question.source else None
    if not own:
        return []
    return [(question.source, own, question.name, solved, _float_envs(question) or book_envs(question),
             _kernel_looks(question) + (_second_answers(question) or [(env, None) for env in _second_envs(question)]))]


def _second_answers(question) -> list[tuple]:
    """[(env, the answer there)] of the second look of _second_envs (the lesson's numbers moved, its model
    another shipped one), the answer computed by the lesson's own `answers` for those parameters (not read from
    the solution's cell, which may call what the reading does not follow: np.dtype(precision).itemsize)."""
    lesson = getattr(question, "lesson", "")
    if lesson not in _SECOND_ANSWERS:
        _SECOND_ANSWERS[lesson] = _second_answers_of(lesson)
    answers, envs = _SECOND_ANSWERS[lesson]
    try:
        want = float(answers.get(question.name))
    except (TypeError, ValueError):
        return []
    return [(env, want) for env in envs] if math.isfinite(want) else []


_SECOND_ANSWERS: dict = {}


def _second_answers_of(lesson: str) -> tuple[dict, list]:
    """({question: answer}, envs) of the lesson's second look (see _second_answers); ({}, []) when none."""
    try:
        import importlib

        from embedlab.params import available_models

        module = importlib.import_module(f"embedlab.grading.questions.l{lesson[:2]}")
        defaults = module.SPACE.defaults
        known = list(available_models())
    except Exception:  # noqa: BLE001 - a lesson without a variant space
        return {}, []
    moved = {k: (v + 3 if isinstance(v, int) and not isinstance(v, bool) and v > 1
                 else v * 1.1 if isinstance(v, float) else v) for k, v in defaults.items()}
    models = {k: v for k, v in defaults.items() if isinstance(v, str) and v in known}
    for k, v in models.items():
        moved[k] = next((m for m in known if m != v and m not in models.values()), v)
    try:
        answers = dict(module.answers(moved))
    except Exception:  # noqa: BLE001 - the moved parameters build no answers: no look
        return {}, []
    items = tuple(sorted((k, v) for k, v in moved.items() if isinstance(v, (int, float, str)) and not isinstance(v, bool)))
    words = {k: v for k, v in items if isinstance(v, str)}  # a table read by a word parameter (cache_precision)
    envs = [{**env, **words} for _, _, env, _ in _book_inputs(lesson, items)] \
        or [{k: v for k, v in items if not isinstance(v, str)}]
    return answers, envs


def _kernel_looks(question) -> list[tuple]:
    """[(the env of a second look the learner's cell ran on, the answer there)]: the looks the kernel reported
    (`elsewhere`, with `at_look` giving each look's parameters), read as code.evaluate reads the book's."""
    out = []
    at = getattr(question, "at_look", None)
    for case in getattr(question, "elsewhere", None) or ():
        if not isinstance(case, dict) or not isinstance(case.get("look"), int) or at is None or "want" not in case:
            continue
        try:
            found = at(case["look"])
            want = case["want"]  # an integer's plain data is {"int": n} ({"float": x} past 2**53)
            want = float(want.get("int", want.get("float")) if isinstance(want, dict) else want)
        except Exception:  # noqa: BLE001 - a look that cannot be rebuilt, or a non-number answer: not weighed
            continue
        if not found or not math.isfinite(want):
            continue
        params = found[1]
        items = tuple(sorted((k, v) for k, v in params.items() if isinstance(v, (int, float, str))
                             and not isinstance(v, bool)))
        envs = [env for _, _, env, _ in _book_inputs(question.lesson, items)] \
            or [{k: v for k, v in items if not isinstance(v, str)}]
        out += [(env, want) for env in envs]
    return out


def _symbol_values(question) -> dict:
    """{symbol: value} of the sizes a hint names by symbol (the model's L, d, V; the question's own inputs), for a
    swap put back where the learner's cell defines no such name."""
    out = {}
    try:
        out.update({k: v for k, (_, v) in _config_named(question).items() if isinstance(v, (int, float))})
    except Exception:  # noqa: BLE001 - no model read: no sizes by symbol
        pass
    try:
        inputs = _call(question.inputs, question) if question.inputs else None
    except Exception:  # noqa: BLE001
        inputs = None
    for k, v in (inputs or {}).items() if isinstance(inputs, dict) else ():
        if isinstance(k, str) and k.isidentifier() and isinstance(v, (int, float)) and not isinstance(v, bool):
            out[k] = v
    return out


def swap_unproven(question, text: str, got=None, want=None) -> bool:
    """Do the words claim a swap (swap_claims) the learner's own lines do not prove? True when the lines never
    read X, or when they read as arithmetic and the swap undone there is not the answer on the book's inputs or
    not the solution's value on a second look. A cell the reading cannot follow refutes nothing but the X it
    never reads."""
    if _called_swap_unread(question, text):
        return True
    claims = swap_claims(text)
    if not claims or not getattr(question, "source", None):
        return False
    symbols = _symbol_values(question)  # a symbol the words name (L, V) that the cell does not define: its value
    for x, y in claims:
        for whole, own, name, theirs, envs, looks in _readings(question):
            if y in symbols:
                envs = [{y: symbols[y], **env} for env in envs]
            if own is None or _parsed(own) is None:
                continue
            edits = _swapped(own, x, y)
            head = whole[:len(whole) - len(own)]
            if not edits and x.isidentifier() and not _reads_name(own, x):
                return True  # the learner's own lines never name X, readable as arithmetic or not: not used for Y
            read = [env for env in envs if code.evaluate(whole, name, env) is not None
                    and (got is None or _exact(code.evaluate(whole, name, env), got))]
            if not read:
                continue  # not read as arithmetic here (X may be a length, len(words)): nothing is weighed
            if not edits:
                return True  # lines read as arithmetic that never read (or type) X: they did not use it for Y
            if not any(_swap_holds(head + "\n" + swapped, name, read, looks, theirs, want) for swapped in edits):
                return True  # put back, the swap is still wrong here or on a second look: not the slip
    return False


def _called_swap_unread(question, text: str) -> bool:
    """Do the words claim a size read where another belongs as a call on a name (`len(words)` where `len(features)`
    belongs) of a name the learner's own lines never name? Then the lines did not use it so."""
    import re

    if not isinstance(text, str) or not getattr(question, "source", None):
        return False
    found = re.findall(r"\b(?:uses|reads|you used) `[\w.]+\((\w+)\)` where `[^`]+` belongs", text)
    if not found:
        return False
    own = code.own_part(question.source)
    return bool(own) and _parsed(own) is not None and any(not _reads_name(own, x) for x in found)


def _reads_name(source: str, x: str) -> bool:
    """Does `source` name `x` anywhere (a read, an attribute, a keyword, a string key: `p["x"]`)? True when it cannot
    be parsed (nothing is refuted then)."""
    import ast

    tree = _parsed(source)
    if tree is None:
        return True
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == x or isinstance(node, ast.Attribute) and node.attr == x \
                or isinstance(node, ast.keyword) and node.arg == x or isinstance(node, ast.Constant) and node.value == x:
            return True
    return False


def _swap_holds(cell: str, name: str, read: list, looks: list, theirs, want) -> bool:
    """Does the cell with a swap undone give the answer on every book env it reads, and on a second look (where
    one is read) the answer there?"""
    # the book's inputs the cell reads as the learner's value (one model's, where the lesson names several)
    if not any(_exact(code.evaluate(cell, name, env), want if want is not None else
                      (code.evaluate(theirs, name, env) if theirs else None)) for env in read):
        return False
    seen = proven = False
    for look in looks:
        env, answer = look if isinstance(look, tuple) else (look, None)
        mine = code.evaluate(cell, name, env)
        if answer is None:
            answer = code.evaluate(theirs, name, env) if theirs else None
        if mine is not None and answer is not None:
            seen = True
            proven = proven or _exact(mine, answer)
    return proven or not seen


_MULTIPLY_WORDS = re.compile(r"\bmultiply (?:it |each |them )?by `?([A-Za-z_]\w*)`?")


def multiplies_what_is_read(question, text: str) -> bool:
    """Do the words tell the learner to multiply by an input ("multiply by bytes_per_number") their own lines
    already multiply by, and never divide by? Then that factor is not what is missing."""
    import ast

    names = _MULTIPLY_WORDS.findall(text) if isinstance(text, str) else []
    source = code.own_part(getattr(question, "source", None)) if getattr(question, "source", None) else None
    tree = _parsed(source)
    if not names or tree is None:
        return False
    for name in names:
        times = divides = 0
        for node in ast.walk(tree):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
                times += any(isinstance(n, ast.Name) and n.id == name for n in (node.left, node.right))
            elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Div, ast.FloorDiv)):
                divides += isinstance(node.right, ast.Name) and node.right.id == name
        if times and not divides:
            return True
    return False


def name_swapped(question, got, want) -> list[str]:
    """A name the learner's lines read where one of the question's inputs belongs (a stale variable: question 5's
    `trimmed_rows` where this example's `n_keep` belongs): each name the lines read that is no input, put back as an
    input, gives the answer on the book's inputs, and the answer on a second look where the look reads the lines.
    The other answers of the exercise are read with their values from the key (`others`). [] unless exactly one
    such swap does."""
    if getattr(question, "case", None) is not None or not question.source:
        return []
    own = code.own_part(question.source)
    tree = _parsed(own)
    if tree is None:
        return []
    import ast

    inputs = _call(question.inputs, question) if question.inputs else None
    if not isinstance(inputs, dict):
        return []
    extra, names = {}, []
    for key, value in inputs.items():  # inputs by their names (n_keep) and their attributes (tok.n_vocab: .n_vocab)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if key.isidentifier():
                names.append(key)
                extra[key] = value
            elif "." in key and key.rsplit(".", 1)[1].isidentifier():
                extra["." + key.rsplit(".", 1)[1]] = value
    others = {k: v for k, v in (getattr(question, "others", None) or {}).items()
              if isinstance(v, (int, float)) and not isinstance(v, bool)}
    read = list(dict.fromkeys(n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)))
    stale = [n for n in read if n not in names and n in others]  # another answer read here, not an input
    if not stale or not names:
        return []
    whole, head = question.source, question.source[:len(question.source) - len(own)]
    looks = _second_answers(question)
    lesson_answers = _SECOND_ANSWERS.get(getattr(question, "lesson", ""), ({}, []))[0]
    found = []
    for x in stale:
        for y in names:
            for env in _float_envs(question) or book_envs(question) or [{}]:
                env = {**env, **extra, **others}
                if not _exact(code.evaluate(whole, question.name, env), got):
                    continue
                if not any(_exact(code.evaluate(head + "\n" + edit, question.name, env), want)
                           for edit in _swapped(own, x, y)):
                    continue
                seen = proven = False
                for look_env, answer in looks:  # the look: its own answers for the stale name, the input moved
                    look_env = {**look_env, **{k: v for k, v in lesson_answers.items()
                                               if isinstance(v, (int, float)) and not isinstance(v, bool)}}
                    for edit in _swapped(own, x, y):
                        mine = code.evaluate(head + "\n" + edit, question.name, look_env)
                        if mine is not None:
                            seen = True
                            proven = proven or _exact(mine, answer)
                if proven or not seen:
                    found.append((x, y))
                break
    found = list(dict.fromkeys(found))
    if len(found) != 1:
        return []
    x, y = found[0]
    return [f"your code reads `{x}`, the answer of another question, where `{y}` belongs: with `{y}` there, your own "
            f"code gives the answer"]


def refuted_by_cell(question, text: str, got=None, want=None) -> bool:
    """Words the learner's own lines refute: a construct they do not write (construct_unwritten), a piece of
    code to use that they already use (names_what_is_used), an input said missing that they read
    (swap_refuted), or a swap their lines do not prove (swap_unproven)."""
    return construct_unwritten(question, text) or names_what_is_used(question, text) or swap_refuted(question, text) \
        or multiplies_what_is_read(question, text) or swap_unproven(question, text, got, want)


def book_envs(question) -> list[dict]:
    """The book's inputs as code.evaluate reads them: one env per shipped model the lesson's parameters name
    (book_inputs), or the parameters' own numbers when they name none."""
    envs = [env for _, _, env, _ in book_inputs(question)]
    if envs:
        return envs
    sizes = {}
    lesson = getattr(question, "lesson", "")
    try:
        import importlib

        defaults = importlib.import_module(f"embedlab.grading.questions.l{lesson[:2]}").SPACE.defaults
        sizes = {k: v for k, v in defaults.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    except Exception:  # noqa: BLE001 - a lesson without a variant space
        pass
    return [sizes] if sizes else []


def construct_proven(question, family: str, got, want) -> bool:
    """Is the construct of `family` in the learner's cell the slip that gives `got`? (see above)"""
    lesson = getattr(question, "lesson", "") or getattr(question, "solved_in", "")
    try:
        solved = code.solution_source(lesson, question.name) if lesson else None
    except Exception:  # noqa: BLE001 - the solution cannot be read: test 1 proves nothing either way
        solved = None
    own = code.own_part(question.source) if question.source else None
    mine, theirs = _construct_count(own, family), _construct_count(solved, family)
    if mine is not None and theirs is not None and theirs >= mine:
        return False  # a right cell writes it as often: not the slip
    if question.source and not question.source.lstrip().startswith("def ") and getattr(question, "case", None) is None:
        undone = _undone(own, family) if own else None
        head = question.source[:len(question.source) - len(own)] if own else ""
        read = False
        for env in book_envs(question):  # each model the book names: the one whose inputs the cell reads
            if not _exact(code.evaluate(question.source, question.name, env), got):
                continue  # the cell read as arithmetic here is not the learner's value
            read = True
            if undone and _exact(code.evaluate(head + "\n" + undone, question.name, env), want):
                return True
        if read:
            return False
    relation = _relation(family, got, want, _round_places(own) if family == "round" else None)
    return True if relation is None else relation


# --------------------------------------------------------------------------
# A whole number given as a float (262144.0 where an int is asked): the piece of the learner's own cell that
# makes it a float, proved on the cell read as arithmetic (code.evaluate) on the book's inputs: the cell must
# first give the learner's float, then give an int once that piece is changed (`/` to `//`, a typed 2.0 to 2,
# the course's table read as ints). A construct the cell does not write is never named.

NUMPY_FLOAT_CALLS = ("floor", "ceil", "round", "around", "trunc", "rint")


def _float_envs(question) -> list[dict]:
    """The book's inputs (book_envs) with the lesson's word parameters too (cache_precision = 'bf16'), so a
    lookup in a course table by a parameter (BYTES_PER_PARAM[cache_precision]) is read."""
    words = {}
    lesson = getattr(question, "lesson", "")
    try:
        import importlib

        defaults = importlib.import_module(f"embedlab.grading.questions.l{lesson[:2]}").SPACE.defaults
        words = {k: v for k, v in defaults.items() if isinstance(v, str)}
    except Exception:  # noqa: BLE001 - a lesson without a variant space: its numbers only
        pass
    return [{**env, **words} for env in book_envs(question)] or ([words] if words else [])


def _float_literals(source: str) -> list[str]:
    """The whole numbers the learner typed as floats (`2.0`, `1e9`), as written."""
    import ast

    tree = _parsed(source)
    if tree is None:
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, float) and node.value.is_integer():
            out.append(ast.get_source_segment(source, node) or repr(node.value))
    return list(dict.fromkeys(out))


def _changed(source: str, change: str) -> str | None:
    """`source` with `/` written `//` (change "div") or each whole float typed as an int ("literal")."""
    import ast

    tree = _parsed(source)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if change == "div" and isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, ast.Div):
            node.op = ast.FloorDiv()
        if change == "literal" and isinstance(node, ast.Constant) and isinstance(node.value, float) \
                and node.value.is_integer() and abs(node.value) < 1e18:
            node.value = int(node.value)
    try:
        return ast.unparse(ast.fix_missing_locations(tree)) + "\n"
    except Exception:  # noqa: BLE001
        return None


def _course_tables(source: str) -> list[str]:
    """The names the cell gives the course's tables of numbers that hold whole numbers as floats."""
    import ast

    tree = _parsed(source)
    if tree is None:
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                table = code._course_table(node.module, node.level, alias.name)
                if table and any(isinstance(v, float) and v.is_integer() for v in table.values()):
                    out.append((alias.asname or alias.name, alias.name))
    return out


def _quiet_eval(node, env):
    """A table's key as the cell reads it (BYTES_PER_PARAM[cache_precision]), or None."""
    try:
        return code._eval(node, env)
    except Exception:  # noqa: BLE001 - a key the reading does not follow
        return None


def float_cause(question, got) -> str:
    """Words for why the learner's whole number is a float, proved on their own cell; "" when nothing is."""
    import ast

    source = getattr(question, "source", None)
    own = code.own_part(source) if source else None
    name = getattr(question, "name", None)
    if not isinstance(own, str) or not name or not isinstance(got, (int, float)):
        return ""
    head = source[:len(source) - len(own)]
    tree = _parsed(own)
    if tree is None:
        return ""
    numpy_calls = sorted({n.func.attr for n in ast.walk(tree) if isinstance(n, ast.Call)
                          and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)
                          and n.func.value.id in ("np", "numpy") and n.func.attr in NUMPY_FLOAT_CALLS})
    writes_div = any(isinstance(n, (ast.BinOp, ast.AugAssign)) and isinstance(n.op, ast.Div) for n in ast.walk(tree))
    literals = _float_literals(own)
    tables = _course_tables(source)

    def whole(value) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value == got

    for env in _float_envs(question):
        value = code.evaluate(source, name, env)
        if whole(value) and numpy_calls:
            # read with Python's own floor/round (which give ints), the cell gives the number: numpy's call is
            # what gives a float
            call = numpy_calls[0]
            return f"np.{call} returns a float, even for a whole number: wrap the result in int()"
        if not (isinstance(value, float) and value == got):
            continue  # the cell read as arithmetic here is not the learner's float
        found = []
        if writes_div and whole(code.evaluate(head + "\n" + (_changed(own, "div") or ""), name, env)):
            found.append("`/` always gives a float, even when it divides exactly: divide with // "
                         "(or wrap the result in int())")
        if literals and whole(code.evaluate(head + "\n" + (_changed(own, "literal") or ""), name, env)):
            typed = ", ".join(literals[:2])
            found.append(f"the number{'s' * (len(literals) > 1)} {typed} you typed "
                         f"{'is a float' if len(literals) == 1 else 'are floats'}, so the result is one: type whole "
                         "numbers without a decimal point or an exponent (or wrap the result in int())")
        if tables and whole(code.evaluate(source, name, env, whole_tables=True)):
            alias, table = tables[0]
            called = alias if alias == table else f"{alias} ({table})"
            held = code._course_table("embedlab", 0, table)
            keys = [code._eval(n.slice, env) for n in ast.walk(_parsed(source)) if isinstance(n, ast.Subscript)
                    and isinstance(n.value, ast.Name) and n.value.id == alias and _quiet_eval(n.slice, env) in held]
            key = next((k for k in keys if float(held[k]).is_integer()),
                       next(k for k, v in held.items() if float(v).is_integer()))
            found.append(f"{called} holds floats ({key!r}: {held[key]!r}), so a product with it is a float: wrap the "
                         "result in int()")
        if found:
            return found[0]
        return ""
    return ""


def _reveals(text: str, want: float) -> bool:
    """Does a hint write the expected value? (Parts' words name inputs, never the total.)"""
    value = int(want) if float(want).is_integer() else want
    return bool(written_in(text, value))


RANDOM_CALLS = {"default_rng", "standard_normal", "normal", "rand", "randn", "random", "seed", "integers"}


def own_source(question) -> str | None:
    """The learner's own lines of the answer cell: what follows `# YOUR CODE HERE`, less every line the
    exercise gives for this question (its answer cell's and the cells' above, code.given_code), so a cell
    whose marker was deleted still does not count the given `rng = np.random.default_rng(0)` as the learner's."""
    own = code.own_part(question.source)
    if not isinstance(own, str) or not getattr(question, "lesson", ""):
        return own
    try:
        above, given = code.given_code(question.lesson).get(question.name, ((), ()))
    except Exception:  # noqa: BLE001 - the exercise's code cannot be read: the cell as it is
        return own
    handed = set(above) | set(given)
    return "\n".join(line for line in own.splitlines() if code._line(line) not in handed) if handed else own


def own_lines_call(question, calls: set) -> bool:
    """Do the learner's own lines (`own_source`) call one of `calls` (np.random's draws)?"""
    reading = code.read(own_source(question), question.name)
    return bool(reading.parsed and reading.calls & calls)


def array(question, got, want) -> str | None:
    """What the answer cell does that explains a wrong array (read from its source)."""
    if not question.source:
        return None
    reading = code.read(code.own_part(question.source), question.name)
    if not reading.parsed:
        return None
    said = _missing_needs(question, got, want)  # what a right cell always or never uses (norms of rows, E not U)
    if said:
        return said
    same_shape = getattr(got, "shape", None) == getattr(want, "shape", None)
    if reading.columns and not same_shape:
        return ("your code indexes columns, `[:, …]`: a lookup selects rows, one row per id (E[ids]), "
                "so index the rows (axis 0)")
    axis = sorted(k for k in reading.call_keywords if "(axis=" in k)
    if axis and getattr(got, "ndim", None) != getattr(want, "ndim", None):
        return (f"your code passes an axis ({', '.join(axis[:2])}), and yours is {tuple(got.shape)} where the answer "
                f"is {len(want.shape)}-D: that call keeps or removes a dimension the answer does not have")
    if reading.shift_one and same_shape and _solution_lacks(question, "shift_one"):
        return ("your code moves an index by one (± 1, or np.eye(…, k=1)): ids count from 0, and id i "
                "selects row i: an off-by-one")
    if reading.calls & RANDOM_CALLS and same_shape and own_lines_call(question, RANDOM_CALLS):
        return ("your code draws random numbers itself: use the table the question gives (its seed and "
                "shape), not a new draw")
    if ("round" in reading.calls or "around" in reading.calls) and _rounded_array(question, got, want):
        return "your code rounds (round): keep every value exact"
    return None


def _rounded_array(question, got, want) -> bool:
    """An array rounded where the answer is not: the solution's own code rounds less often, and the answer rounded
    to some number of places is the learner's array exactly."""
    import numpy as np

    lesson = getattr(question, "lesson", "") or getattr(question, "solved_in", "")
    try:
        solved = code.solution_source(lesson, question.name) if lesson else None
    except Exception:  # noqa: BLE001
        solved = None
    mine = _construct_count(code.own_part(question.source), "round")
    theirs = _construct_count(solved, "round")
    if mine is not None and theirs is not None and theirs >= mine:
        return False
    try:
        g, w = np.asarray(got), np.asarray(want)
        if g.shape != w.shape or not (np.issubdtype(g.dtype, np.number) and np.issubdtype(w.dtype, np.number)):
            return False
        # the slip done on the answer, in the learner's own dtype and in float64: a float32 product rounded to 3
        # places is np.round of the float32 answer, which float64's rounding of the same numbers is not
        # (the wire may hand both over as float64: float32 is tried too, and kept only if it holds the values exactly)
        kinds = {np.dtype(float), g.dtype if np.issubdtype(g.dtype, np.floating) else np.dtype(float)}
        kinds |= {np.dtype(np.float32)} if np.array_equal(g.astype(np.float32), g) and np.array_equal(
            w.astype(np.float32), w) else set()
        return any(np.array_equal(g.astype(t), np.round(w.astype(t), k)) for t in kinds for k in range(0, 10))
    except (TypeError, ValueError):
        return False


def _solution_lacks(question, flag: str) -> bool:
    """Does the solution's own code of `question` lack the construct a code reading's `flag` marks (an index
    ± 1)? Only then can that construct be the learner's slip: a right merge loop writes `tokens[j + 1]` too.
    False where the solution's code is not known (nothing proves the construct wrong then)."""
    lesson = getattr(question, "lesson", "") or getattr(question, "solved_in", "")
    try:
        solved = code.solution_source(lesson, question.name)
    except Exception:  # noqa: BLE001 - the solution cannot be read: nothing proved
        return False
    if not isinstance(solved, str):
        return False
    reading = code.read(solved)
    return reading.parsed and not getattr(reading, flag)


# --------------------------------------------------------------------------
# The slip undone in the learner's own expression: the cell read as arithmetic on the book's inputs (the
# fields of the models the lesson's parameters name, the parameters themselves), first reproducing the
# learner's own value, then with one piece of it put right


def book_inputs(question) -> list[dict]:
    """For each shipped model the lesson's book parameters name, {input name: value}: its config's fields and
    its shape's, under the names a cell reads them by (.hidden_size, ['hidden_size']), with every number of the
    book's parameters by its own name. [] when the lesson has no parameters (or no model)."""
    lesson = getattr(question, "lesson", "")
    if not lesson:
        return []
    try:
        import importlib

        defaults = importlib.import_module(f"embedlab.grading.questions.l{lesson[:2]}").SPACE.defaults
    except Exception:  # noqa: BLE001 - a lesson without a variant space
        return []
    return _book_inputs(lesson, tuple(sorted((k, v) for k, v in defaults.items() if isinstance(v, (int, float, str))
                                            and not isinstance(v, bool))))


_BOOK_INPUTS: dict = {}


def _book_inputs(lesson, items) -> list[dict]:
    if (lesson, items) in _BOOK_INPUTS:
        return _BOOK_INPUTS[(lesson, items)]
    from embedlab.params import count_params, load_config, model_shape

    numbers = {k: v for k, v in items if isinstance(v, (int, float))}
    out = []
    for _, value in items:
        if not isinstance(value, str):
            continue
        try:
            config = load_config(value)
            shape = model_shape(config)
        except Exception:  # noqa: BLE001 - not a shipped model's name
            continue
        fields = {k: v for k, v in dict(config).items() if isinstance(v, int) and not isinstance(v, bool)}
        fields.update({k: v for k, v in vars(shape).items() if isinstance(v, int) and not isinstance(v, bool)})
        readable = dict(fields)
        try:  # a count's parts are read too (counts.total), but are no config field a learner swaps for another
            readable.update({k: v for k, v in vars(count_params(config)).items()
                             if isinstance(v, int) and not isinstance(v, bool) and k not in fields})
        except Exception:  # noqa: BLE001
            pass
        env = dict(numbers)
        for k, v in readable.items():
            env[f".{k}"], env[f"[{k!r}]"] = v, v
        out.append((value, fields, env, readable))
    _BOOK_INPUTS[(lesson, items)] = out
    return out


def _thumb_counts(f) -> list:
    V, d, L = f["vocab_size"], f["hidden_size"], f["num_layers"]
    return [12 * L * d * d, V * d + 12 * L * d * d, 2 * V * d + 12 * L * d * d]


RULES_OF_THUMB = [  # (a value the config or count_params gives, formulas a learner may type for it, what they are)
    ("intermediate_size", lambda f: [4 * f["hidden_size"], 8 * f["hidden_size"] // 3, 8 * f["hidden_size"] / 3],
     "a rule of thumb for d_ff (4·d, or 8/3·d for a gated MLP)"),
    ("total", _thumb_counts, "the rule of thumb 12·L·d² (+ V·d), an estimate of the parameter count"),
]


def slip_undone(question, got, want) -> list[str]:
    """The words for one piece of the learner's own expression that, put right, gives the answer exactly: a
    field of a config read for another field of the same config (intermediate_size where hidden_size belongs),
    or a formula typed where the config gives the value (8/3·d for intermediate_size). The cell must first give
    the learner's own value on the book's inputs, read as arithmetic: else nothing is said."""
    import ast

    source = code.own_part(question.source) if question.source else None
    if not source or not isinstance(got, (int, float)) or isinstance(got, bool) or len(source) > code.SOURCE_LIMIT:
        return []
    whole = question.source
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return []
    out = []
    for model, fields, env, readable in book_inputs(question):
        if not _exact(code.evaluate(whole, question.name, env), got):
            continue  # the cell, read as arithmetic here, is not the learner's value: nothing to undo
        head = whole[:len(whole) - len(source)]  # the exercise's own lines above the learner's
        for node in ast.walk(tree):
            field = node.attr if isinstance(node, ast.Attribute) else node.slice.value \
                if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) else None
            if isinstance(field, str) and field in fields:  # a field read for another field of the same config
                seen = {fields[field]}
                names = _names_read_as(node, model)  # what the same object can be read by: `.x` or `['x']`
                for other, value in fields.items():
                    if other == field or value in seen or value < 2 or other not in names:
                        continue
                    seen.add(value)  # one field per value: the first the config names it by
                    patched = _patched(source, node, "undone_")
                    if patched and _exact(code.evaluate(head + patched, question.name, {**env, "undone_": value}), want):
                        out.append(f"your code reads `{field}` of {model}'s config where `{other}` belongs: two "
                                   f"fields of the same config; read `{other}`")
            if isinstance(node, ast.BinOp):  # a formula typed where the config gives the value
                segment = ast.get_source_segment(source, node)
                typed = code.evaluate(head + source + f"\nundone_ = {segment}\n", "undone_", env) if segment else None
                for other, formulas, what in RULES_OF_THUMB:
                    if other not in readable or typed is None or _exact(typed, readable[other]) \
                            or not any(_exact(typed, f) for f in _quiet_list(formulas, readable)):
                        continue
                    patched = _patched(source, node, "undone_")
                    if patched and _exact(code.evaluate(head + patched, question.name,
                                                        {**env, "undone_": readable[other]}), want):
                        source_of = "config" if other in fields else "exact count (count_params)"
                        out.append(f"`{segment}` is {what}: {model}'s {source_of} gives `{other}` itself, and it is "
                                   f"not that: read it, do not estimate it")
                if not out and typed is not None and _typed_ratio(node) \
                        and not any(_quiet_list(lambda: [answer_piece(question, typed, want)])):
                    out += _ratio_for_field(source, head, question.name, node, segment, typed, model, fields, env, want,
                                            _field_looks(question, got, want))
    return list(dict.fromkeys(out)) or _one_edit_undone(question, got, want)


def _names_read_as(node, model: str) -> set:
    """The field names the object `node` reads from can be read by: a `.field` reads model_shape's result (its
    attributes: hidden_size, never gpt2's n_embd), a `['field']` reads the config itself (its own keys). The
    field to read instead is named as the learner's own object spells it, else following the hint fails."""
    import ast
    import dataclasses

    from embedlab.params import ModelShape, load_config

    if isinstance(node, ast.Attribute):
        return {f.name for f in dataclasses.fields(ModelShape)}
    try:
        return set(load_config(model))
    except Exception:  # noqa: BLE001 - not a shipped model's name
        return set()


def _typed_ratio(node) -> bool:
    """Is `node` a number typed by hand times (or over) something read, `3.5 * d`, `d * 8 // 3`: a ratio typed in?"""
    import ast

    consts = [n for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, (int, float))
              and not isinstance(n.value, bool) and n.value not in (0, 1)]
    read = [n for n in ast.walk(node) if isinstance(n, (ast.Name, ast.Attribute, ast.Subscript))]
    ops = [n for n in ast.walk(node) if isinstance(n, ast.BinOp)]
    return bool(consts and read and ops and all(isinstance(n.op, (ast.Mult, ast.Div, ast.FloorDiv)) for n in ops))


def _words_of(lesson: str) -> dict:
    try:
        import importlib

        defaults = importlib.import_module(f"embedlab.grading.questions.l{lesson[:2]}").SPACE.defaults
    except Exception:  # noqa: BLE001 - a lesson without a variant space
        return {}
    return {k: v for k, v in defaults.items() if isinstance(v, str)}


def cell_readings(question, got, want):
    """(the exercise's given lines above the learner's, the learner's own lines, the book env on which the whole
    cell reads as the learner's value, [(env, the solution's value there)] of the other inputs that part
    coincidences), or None when the cell does not read as the learner's value on any book input."""
    import ast

    if getattr(question, "case", None) is not None or not isinstance(getattr(question, "source", None), str):
        return None
    if not isinstance(got, (int, float)) or isinstance(got, bool) or not math.isfinite(got):
        return None
    whole = question.source
    source = code.own_part(whole)
    if not source or len(whole) > code.SOURCE_LIMIT or source.lstrip().startswith("def "):
        return None
    head = whole[:len(whole) - len(source)]
    lesson = getattr(question, "lesson", "")
    solved = code.solution_source(lesson, question.name) if lesson else None
    if not isinstance(solved, str):
        return None
    # the book's inputs of the model the question reads: the cell gives the learner's value there, the solution the
    # answer (each model the lesson's parameters name is one env; a 0 may read on several)
    book = next((env for env in _quiet_list(_float_envs, question)
                 if _exact_number(code.evaluate(whole, question.name, env), got)
                 and _exact_number(code.evaluate(solved, question.name, env), want)), None)
    if book is None:
        return None
    words = _words_of(lesson)
    others = []
    for env in _quiet_list(_second_envs, question):
        env = {**words, **env}
        theirs = code.evaluate(solved, question.name, env)
        if isinstance(theirs, (int, float)) and not isinstance(theirs, bool):
            others.append((env, theirs))
    recheck = getattr(question, "recheck", None)
    mine = _parse_or_none(source)
    theirs = _parse_or_none(solved.split("# BEGIN SOLUTION")[-1])
    read = {n.id for n in ast.walk(mine) if isinstance(n, ast.Name)} if mine is not None else set()
    read_theirs = {n.id for n in ast.walk(theirs) if isinstance(n, ast.Name)} if theirs is not None else set()
    if recheck is not None:
        for inputs, expected, _ in _quiet_list(recheck):
            # a recheck sets names the solution's own lines read (`per_sequence`); a cell that makes its own from
            # the config instead does not read them, and the recheck cannot weigh it
            if {k for k in inputs if k.isidentifier()} & read_theirs - read:
                continue
            env = {**book, **inputs}
            theirs = code.evaluate(solved, question.name, env)
            others.append((env, theirs if isinstance(theirs, (int, float)) and not isinstance(theirs, bool)
                           else expected))
    return head, source, book, others


def _exact_number(value, target) -> bool:
    """_exact, with a bool never a number (counterfactual's rule for a cell read as arithmetic)."""
    return not isinstance(value, bool) and not isinstance(target, bool) and _exact(value, target)


def _parse_or_none(source: str):
    import ast

    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return None


def _field_looks(question, got, want) -> list:
    """[(env, the answer there)] of the inputs that part the book's coincidences (counterfactual.readings: the
    lesson's numbers moved, its model another; else the looks the kernel ran): a config's field put in a piece's
    place must give the answer there too, with that env's own field."""
    read = _quiet_list(lambda: [cell_readings(question, got, want)])
    kernel = _quiet_list(_kernel_looks, question)
    if read and read[0]:
        return read[0][3] + kernel
    return kernel + _quiet_list(_second_answers, question)


def looks_hold(value_at, looks: list) -> tuple[bool, int]:
    """(no look refutes it, how many looks it holds on) for `value_at(env)` (None: not read there) against the
    answer of each look. A look is the run of consecutive entries with one answer (a look read as the env of each
    shipped model its parameters name: the one the question reads gives the answer, the others need not): it holds
    where one of its envs gives the answer, and refutes where every env read gives another value."""
    groups: list = []
    for env, theirs in looks or ():
        if theirs is None:
            continue
        if groups and groups[-1][0] == theirs:
            groups[-1][1].append(env)
        else:
            groups.append((theirs, [env]))
    held = 0
    for theirs, envs in groups:
        values = [v for v in (value_at(env) for env in envs) if v is not None]
        if not values:
            continue
        if not any(_exact(v, theirs) for v in values):
            return False, held
        held += 1
    return True, held


def _field_holds(head: str, patched: str, name: str, field: str, looks: list) -> bool:
    """Does `patched` (the piece made `undone_`) give the answer on every look whose env holds `field`, and on one
    at least? (none that holds it: the book's sizes alone, which may fit by chance, 4·d for 2·2·d where d = 1024)"""
    def value_at(env):
        value = env.get(f".{field}", env.get(f"['{field}']"))
        return None if value is None else code.evaluate(head + patched, name, {**env, "undone_": value})
    ok, held = looks_hold(value_at, looks)
    return ok and held > 0


def _ratio_for_field(source, head, name, node, segment, typed, model, fields, env, want, looks=()) -> list[str]:
    """A ratio typed by hand (`3.5 * d`) where a field of the same config gives the value (intermediate_size):
    named only when that field put in the ratio's place makes the learner's own cell give the answer exactly,
    the ratio is not that field's value, and one value of the config's fields (whatever its names) does it."""
    patched = _patched(source, node, "undone_")
    if not patched:
        return []
    right = {}
    for other, value in fields.items():
        if value < 2 or _exact(typed, value) or value in right.values():
            continue
        if _exact(code.evaluate(head + patched, name, {**env, "undone_": value}), want) \
                and _field_holds(head, patched, name, other, looks):  # and on the looks: no coincidence of sizes
            right[other] = value
    if len(right) != 1:
        return []  # none, or two values of the config that both give it: not said
    other = next(iter(right))
    return [f"`{segment}` is a ratio typed by hand ({code._fmt(typed)} here), where {model}'s config gives "
            f"`{other}` itself ({code._fmt(right[other])}): read it from the config, a typed ratio fits some "
            f"models, not this one"]


# One piece of the learner's own expression written another way: an operator swapped (+ for -, * for /, / for //,
# ** for *) or a number one off (11 for 12). Each such edit is undone in turn in the learner's own cell, read as
# arithmetic on the book's inputs (the cell must first give the learner's value there), or in the body of the
# learner's function read as arithmetic on the failing call's arguments; the edit is named only when exactly one
# undoing gives the answer exactly: its counterfactual, the learner's own code put right, is right.
_OPS = {"Add": ("+", "adds"), "Sub": ("-", "subtracts"), "Mult": ("*", "multiplies"), "Div": ("/", "divides"),
        "FloorDiv": ("//", "divides and rounds down"), "Pow": ("**", "raises to a power")}
_UNDO = {"Add": ("Sub",), "Sub": ("Add", "Div"), "Mult": ("Div", "Pow"), "Div": ("Mult", "FloorDiv", "Sub"),
         "FloorDiv": ("Div",),
         "Pow": ("Mult",)}


def _one_edit_undone(question, got, want) -> list[str]:
    import ast

    if not isinstance(got, (int, float)) or isinstance(got, bool) or not question.source:
        return []
    from embedlab.grading import diagnose

    if want and any(f and _exact(got, f * want) for f, _ in diagnose.FACTORS):
        return []  # the whole value a factor off (× 2, ÷ 4): the factor's own words name it, not one number
    whole, name, envs = question.source, question.name, None
    if getattr(question, "case", None) is not None:  # a function's result: its body on the call's arguments
        whole, name, envs = _body_as_cell(question.source, question.name, question.case)
        if whole is None:
            return []
    source = code.own_part(whole) if envs is None else whole
    if not source or len(source) > code.SOURCE_LIMIT or source.lstrip().startswith("def "):
        return []
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return []
    head = whole[:len(whole) - len(source)]
    envs = [env for env in (book_envs(question) if envs is None else envs)
            if _exact(code.evaluate(whole, name, env), got)]
    if not envs:
        return []  # the cell, read as arithmetic on the book's inputs, is not the learner's value
    nodes = list(ast.walk(tree))
    # a cell's edit must also give the answer on the inputs that part the book's coincidences (a second look, the
    # question's recheck): `padded_size(V, m) - V + n_new` made `- n_new` fits the book's numbers only
    read = cell_readings(question, got, want) if getattr(question, "case", None) is None else None
    others = read[3] if read else []
    if not read and getattr(question, "case", None) is None:  # the solution does not read as arithmetic: the looks
        others = _quiet_list(_kernel_looks, question) + _quiet_list(_second_answers, question)  # the kernel ran
    found = {}
    for env, (k, node) in ((env, kn) for env in envs for kn in enumerate(nodes)):
        edits = []
        if isinstance(node, ast.BinOp) and type(node.op).__name__ in _UNDO:
            edits = [("op", new) for new in _UNDO[type(node.op).__name__]]
        elif isinstance(node, ast.Constant) and type(node.value) is int and abs(node.value) >= 2:
            edits = [("const", node.value + d) for d in (1, -1)]
        for how, new in edits:
            changed = ast.parse(source)
            target = list(ast.walk(changed))[k]
            if how == "op":
                target.op = getattr(ast, new)()
            else:
                target.value = new
            try:
                text = ast.unparse(changed)
            except Exception:  # noqa: BLE001
                continue
            if not _exact(code.evaluate(head + "\n" + text + "\n", name, env), want):
                continue
            if not looks_hold(lambda other: code.evaluate(head + "\n" + text + "\n", name, other), others)[0]:
                continue  # right on the book's inputs only: a coincidence of them, not the learner's slip
            if how == "op" and _vanishes(source, head, name, env, k, want):
                continue  # the term gone (0, or 1 in a product) gives the answer too: its size, not its operator
            if how == "op" and _identity_operand(source, head, env, node, new):
                continue  # `x - 1` made `x / 1` is `x`: the operand dropped, not the operator, gives the answer
            segment = ast.get_source_segment(source, node) or ast.unparse(node)
            if how == "op":
                old_sym, old_verb = _OPS[type(node.op).__name__]
                new_sym, new_verb = _OPS[new]
                right = ast.get_source_segment(source, node.right) or ast.unparse(node.right)
                where = segment if len(segment) <= 40 and not isinstance(node.left, ast.BinOp) \
                    else f"… {old_sym} {right}"  # in a chain of terms, the term whose operator it is
                words = (f"`{where}` {old_verb} where the formula {new_verb}: with `{new_sym}` in place of "
                         f"`{old_sym}` there, your own code gives the answer")
            else:
                words = (f"the number {node.value} in `{_enclosing(source, nodes, node)}` is one off: with {new} there, "
                         f"your own code gives the answer")
            found.setdefault(words, (how, node, new))
    if len(found) != 1:
        return []  # none, or several edits alike: not said
    return list(found)


def _identity_operand(source: str, head: str, env: dict, node, new: str) -> bool:
    """Is the right operand of `node` the identity of the operator `new` (1 for a product or a quotient, 0 for a
    sum or a difference)? Then the swapped operator only drops the operand: no proof that the operator is wrong."""
    import ast

    right = ast.get_source_segment(source, node.right) or ast.unparse(node.right)
    value = code.evaluate(head + "\n__operand__ = (" + right + ")\n", "__operand__", env)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return value == (1 if new in ("Mult", "Div", "FloorDiv", "Pow") else 0 if new in ("Add", "Sub") else None)


def _vanishes(source: str, head: str, name: str, env: dict, k: int, want) -> bool:
    """Does the cell give the answer with its k-th node (ast.walk order) replaced by 0 or by 1? Then an operator
    swapped there (`2 * d` made `2 / d`, about 0 beside billions) proves only that the term does not belong."""
    import ast

    for blank in (0, 1):
        changed = ast.parse(source)
        nodes = list(ast.walk(changed))
        target = nodes[k]
        for parent in nodes:
            for field, value in ast.iter_fields(parent):
                if value is target:
                    setattr(parent, field, ast.Constant(blank))
                elif isinstance(value, list) and any(v is target for v in value):
                    value[[i for i, v in enumerate(value) if v is target][0]] = ast.Constant(blank)
        try:
            text = ast.unparse(ast.fix_missing_locations(changed))
        except Exception:  # noqa: BLE001
            continue
        if _exact(code.evaluate(head + "\n" + text + "\n", name, env), want):
            return True
    return False


RESULT = "result_"


def _body_as_cell(source: str, name: str, args) -> tuple:
    """(the body of the learner's `def name(...)` as a cell whose `return x` sets result_, result_, [{parameter:
    argument}]) for a call whose arguments are plain numbers; (None, None, None) otherwise."""
    import ast

    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return None, None, None
    fns = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    if not fns or args is None:
        return None, None, None
    fn = fns[-1]
    params = [a.arg for a in fn.args.args]
    if len(params) != len(args) or not all(isinstance(a, (int, float)) and not isinstance(a, bool) for a in args):
        return None, None, None
    body = list(fn.body)
    if not body or not isinstance(body[-1], ast.Return) or body[-1].value is None \
            or any(isinstance(n, ast.Return) for stmt in body[:-1] for n in ast.walk(stmt)):
        return None, None, None
    body[-1] = ast.Assign(targets=[ast.Name(RESULT, ast.Store())], value=body[-1].value)
    try:
        text = ast.unparse(ast.fix_missing_locations(ast.Module(body=body, type_ignores=[]))) + "\n"
    except Exception:  # noqa: BLE001
        return None, None, None
    return text, RESULT, [dict(zip(params, args))]


def _enclosing(source, nodes, node) -> str:
    """The term around a number, as the learner wrote it: the product (or quotient) it is a factor of (`13 * d * d`
    for the 13 of `13 * d * d + 13 * d`), the number alone when it stands by itself."""
    import ast

    parent = {id(child): n for n in nodes for child in ast.iter_child_nodes(n)}
    term, up = None, parent.get(id(node))
    while isinstance(up, ast.BinOp) and isinstance(up.op, (ast.Mult, ast.Div, ast.FloorDiv, ast.Pow)):
        term, up = up, parent.get(id(up))
    return (ast.get_source_segment(source, term) if term is not None else None) or str(node.value)


def _quiet_list(f, *args) -> list:
    try:
        return list(f(*args))
    except Exception:  # noqa: BLE001
        return []


def _patched(source: str, node, name: str) -> str | None:
    """`source` with the one piece `node` stands for replaced by `name` (by its place, not its text)."""
    try:
        lines = source.splitlines(keepends=True)
        raw = [line.encode() for line in lines]
        start = sum(len(r) for r in raw[:node.lineno - 1]) + node.col_offset
        end = sum(len(r) for r in raw[:node.end_lineno - 1]) + node.end_col_offset
        data = source.encode()
        return (data[:start] + f"({name})".encode() + data[end:]).decode()
    except (AttributeError, TypeError, UnicodeDecodeError, ValueError):
        return None


def _exact(value, target) -> bool:
    try:
        if value is None:
            return False
        value, target = float(value), float(target)
    except (TypeError, ValueError):
        return False
    return value == target or (math.isfinite(value) and math.isclose(value, target, rel_tol=1e-12, abs_tol=0.0))


def _book_sizes(question) -> dict:
    """{name: value} of the whole numbers of the lesson's book parameters (2 or more), and the lengths of its
    lists (len(name))."""
    lesson = getattr(question, "lesson", "")
    try:
        import importlib

        defaults = importlib.import_module(f"embedlab.grading.questions.l{lesson[:2]}").SPACE.defaults
    except Exception:  # noqa: BLE001 - a lesson without a variant space
        return {}
    out = {}
    for k, v in defaults.items():
        if isinstance(v, int) and not isinstance(v, bool) and v >= 2:
            out[k] = v
        elif isinstance(v, (list, tuple)) and len(v) >= 2:
            out[f"len({k})"] = len(v)
    return out


def size_swapped(question, got, want) -> list[str]:
    """Your value is exactly the answer × x / y for two sizes x, y of the lesson's parameters: one used where
    the other belongs (a share over n_train words where n_top were audited). Exact only (1 part in 10**12), and
    only where one pair of sizes gives it."""
    try:
        got, want = float(got), float(want)
    except (TypeError, ValueError):
        return []
    if not want or not got or not math.isfinite(got):
        return []
    sizes = _book_sizes(question)
    from embedlab.grading import diagnose

    units = [f for f, _ in diagnose.FACTORS] + [s.factor for s in parts.UNIT_SCALES]
    found = []
    for x, vx in sizes.items():
        for y, vy in sizes.items():
            if x == y or vx == vy or any(math.isclose(vx / vy, u, rel_tol=1e-9) for u in units):
                continue  # a ratio that is also a unit's (4 bytes, ×100): the unit's words weigh it
            if math.isclose(got, want * vx / vy, rel_tol=1e-12, abs_tol=0.0):
                found.append((x, y))
    if len({(sizes[x], sizes[y]) for x, y in found}) != 1:
        return []  # none, or two pairs of sizes that give it alike: not said
    x, y = found[0]
    return [f"yours is exactly the answer × {x} / {y}: your value uses `{y}` where `{x}` belongs (divided by {y} "
            f"instead of {x}, or multiplied by {x} instead of {y})"]


def precedence_slip(source: str | None) -> str | None:
    """A division (or product) written without the parentheses its denominator needs: `x / a + b` or
    `x / a * b` where a and b are alike (two norms, two lengths: names made by the same expression of
    different inputs, or the same call on each), which reads (x / a) + b: only a divides. Read from the
    learner's own lines, never run."""
    import ast

    if not isinstance(source, str) or len(source) > code.SOURCE_LIMIT:
        return None
    own = code.own_part(source) or ""
    try:
        tree = ast.parse(own)
    except (SyntaxError, ValueError, RecursionError):
        return None
    made = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            made[node.targets[0].id] = node.value

    def shape(node) -> str:
        """The expression with every name left out: two lengths of two vectors read alike."""
        node = made.get(node.id, node) if isinstance(node, ast.Name) else node
        return ast.dump(_nameless(node))

    for node in ast.walk(tree):
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult))):
            continue
        inner = node.left
        if not (isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.Div)) or not isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
            continue
        a, b = inner.right, node.right
        if isinstance(a, ast.Constant) or isinstance(b, ast.Constant) or ast.dump(a) == ast.dump(b):
            continue
        if shape(a) != shape(b):
            continue
        segment = ast.get_source_segment(own, node) or ""
        A, B = ast.get_source_segment(own, a) or "a", ast.get_source_segment(own, b) or "b"
        op = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}[type(node.op)]
        return (f"`{segment}` is read ({ast.get_source_segment(own, inner.left) or 'x'} / {A}) {op} {B}: `/` binds "
                f"before `{op}` (operator precedence), so only {A} divides; put the whole denominator in "
                f"parentheses: x / ({A} … {B}), with the operation the formula asks for between them")
    return None


def _nameless(node):
    import ast
    import copy

    node = copy.deepcopy(node)
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            n.id = "_"
    return node


def _function_body(source, name: str, args) -> tuple:
    """(the body of `def name(...)` in `source` as a module whose `return x` sets RESULT, {parameter: argument})
    for a call whose arguments are plain numbers (a bool's `x if flag else y` read as the branch it takes), or
    (None, None)."""
    import ast

    if not isinstance(source, str) or args is None:
        return None, None
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None, None
    fns = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    if not fns:
        return None, None
    params = [a.arg for a in fns[-1].args.args]
    if len(params) != len(args) or not all(isinstance(a, (int, float)) for a in args):
        return None, None
    env = dict(zip(params, args))
    body = list(fns[-1].body)
    if not body or not isinstance(body[-1], ast.Return) or body[-1].value is None \
            or any(isinstance(n, ast.Return) for stmt in body[:-1] for n in ast.walk(stmt)):
        return None, None

    class Branch(ast.NodeTransformer):
        def visit_IfExp(self, node):
            self.generic_visit(node)
            test = node.test
            if isinstance(test, ast.Name) and isinstance(env.get(test.id), bool):
                return node.body if env[test.id] else node.orelse
            return node

    body[-1] = ast.Assign(targets=[ast.Name(RESULT, ast.Store())], value=body[-1].value)
    module = ast.fix_missing_locations(Branch().visit(ast.Module(body=body, type_ignores=[])))
    return module, {k: int(v) if isinstance(v, bool) else v for k, v in env.items()}


def _as_written(stmt) -> str:
    """A statement of a function's body as the learner wrote it: its `return x` (read as `result_ = x`) as a return."""
    import ast

    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
            and stmt.targets[0].id == RESULT:
        return f"return {ast.unparse(stmt.value)}"
    return ast.unparse(stmt)


def typed_in_function(question, got, want) -> str | None:
    """A number typed in a function's body where its value depends on the arguments: an argument itself (4096 typed
    where `d_ff` belongs) or a value the solution's body computes from them (`head_dim = 128` where it is `d // h`):
    a number the same on every call. Proven on the call: the learner's body, read as arithmetic (code.evaluate,
    never run), gives their value, and with the argument (or the solution's expression) in the typed number's place
    gives the answer. Then the typed number is the story, before any the value alone fits (a term "counted twice"
    where 128 is twice 64)."""
    import ast
    import copy

    case = getattr(question, "case", None)
    if case is None or not question.source or not isinstance(got, (int, float)) or isinstance(got, bool):
        return None
    lesson = getattr(question, "lesson", "") or getattr(question, "solved_in", "")
    mine, env = _function_body(question.source, question.name, case)
    theirs, _ = _function_body(code.solution_source(lesson, question.name) if lesson else None, question.name, case)
    if mine is None or not _exact(code.evaluate(ast.unparse(mine), RESULT, env), got):
        return None
    computed = [] if theirs is None else [
        s.value for s in theirs.body if isinstance(s, ast.Assign) and len(s.targets) == 1
        and isinstance(s.targets[0], ast.Name) and s.targets[0].id != RESULT and not code._number_expr(s.value)]
    named = {} if theirs is None else {
        s.targets[0].id: s.value for s in theirs.body if isinstance(s, ast.Assign) and len(s.targets) == 1
        and isinstance(s.targets[0], ast.Name) and not code._number_expr(s.value)}
    for k, stmt in enumerate(mine.body):  # a name set to a typed number, where the solution computes that name
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and stmt.targets[0].id in named and code._number_expr(stmt.value) \
                and code._value(stmt.value) is not None:
            changed = copy.deepcopy(mine)
            changed.body[k].value = copy.deepcopy(named[stmt.targets[0].id])
            if _exact(code.evaluate(ast.unparse(ast.fix_missing_locations(changed)), RESULT, env), want):
                name = stmt.targets[0].id
                return (f"your function sets `{name} = {ast.unparse(stmt.value)}`, a number typed in, the same on "
                        f"every call; here {name} is not {code._fmt(code._value(stmt.value))}: compute it from the "
                        "arguments")
    # an argument's place: a size typed (100 or more, as code.typed_input reads them; a flag is no size), or a whole
    # `name = number` in place of a value the solution computes
    params = [k for k, v in zip(env, case) if not isinstance(v, bool)]
    for stmt in mine.body:
        whole = isinstance(stmt, ast.Assign) and code._number_expr(stmt.value)
        for node in ast.walk(stmt):
            if not (isinstance(node, ast.Constant) and type(node.value) in (int, float) and abs(node.value) >= 2):
                continue
            sized = [ast.Name(p, ast.Load()) for p in params] if abs(node.value) >= 100 else []
            for new in sized + (computed if whole else []):
                k = next(j for j, n in enumerate(ast.walk(mine)) if n is node)
                changed = copy.deepcopy(mine)
                target = list(ast.walk(changed))[k]
                for parent in ast.walk(changed):  # the typed number's place takes the argument or the expression
                    for field, value in ast.iter_fields(parent):
                        if value is target:
                            setattr(parent, field, copy.deepcopy(new))
                        elif isinstance(value, list) and any(v is target for v in value):
                            value[[v is target for v in value].index(True)] = copy.deepcopy(new)
                try:
                    text = ast.unparse(ast.fix_missing_locations(changed))
                except Exception:  # noqa: BLE001
                    continue
                if not _exact(code.evaluate(text, RESULT, env), want):
                    continue
                typed = code._fmt(node.value)
                if isinstance(new, ast.Name):
                    return (f"your function types {typed} where its argument `{new.id}` belongs (in "
                            f"`{_as_written(stmt)}`): a number typed in is the same on every call; with `{new.id}` "
                            "there, your function gives the answer")
                if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                        and code._number_expr(stmt.value):
                    name = stmt.targets[0].id
                    return (f"your function sets `{name} = {ast.unparse(stmt.value)}`, a number typed in, the same on "
                            f"every call; here {name} is not {code._fmt(code._value(stmt.value))}: compute it from the "
                            "arguments")
                return (f"your function types {typed} (in `{_as_written(stmt)}`), a number the same on every call, "
                        "where a value computed from the arguments belongs")
    return None
