"""Class mode's variants: one `parameters` cell per solution, a variant space per lesson.

A solution notebook keeps every input a variant may change in ONE code cell
tagged ``parameters`` (papermill's convention): plain assignments of Python
literals, ``name = value``, and comments. Every answer is computed from those
names. The lesson's question module declares its variant space as ``SPACE``
(a `Space`, embedlab.grading.space): the defaults (variant 0, the values the book publishes, which
must be the ones in the solution's parameters cell) and how a class variant
is drawn from its pools and ranges.

Variants 1..K are the class's; variant 0 is the book's and is never assigned,
since its answers are public. A learner's variant is

    1 + HMAC-SHA256(secret, lesson NUL learner) mod K

so it is reproducible from the instructor's secret and unguessable without it.
The parameters of class variant k are drawn by the lesson's `draw(rng, pick)`:
`rng` is a generator seeded by HMAC-SHA256(secret, "parameters" NUL lesson NUL k),
and `pick(name, pool)` gives variant k the k-th item of `pool` in an order
shuffled by the secret, so that up to len(pool) variants all get different
items (a different model each, say). Another instructor (another secret) gets
other variants. A drawn variant is rejected and drawn again until `problems`
finds nothing wrong with it, and until it is kept apart from the variants
before it: variants are drawn in order 1, 2, ..., and variant k is drawn again
while the answers of an earlier variant (or of the book, variant 0) would earn
more than half of its points (MAX_SHARED) handed in as its own, or its answers
more than half of an earlier variant's (`shared_points`). So copying a
classmate on another variant, or the published solution, earns at most half.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import functools
import hashlib
import hmac
import importlib
import pprint
import re

import numpy as np

from embedlab.grading import kept, kinds
from embedlab.grading.kinds import Function, answer_of, expected_value
from embedlab.grading.lessons import questions_for
from embedlab.grading.parameters import PARAMETERS_TAG, VariantError, read_parameters  # noqa: F401 - variants' too
from embedlab.grading.space import FRESH_INPUTS, Space, equal_to_book  # noqa: F401 - variants' names too
from embedlab.grading.status import CORRECT

DEFAULT_VARIANTS = 8
MAX_DRAWS = 1000  # draws tried for one variant before the space is declared too tight
MAX_SHARED = 0.5  # the most of a variant's points another variant's answers may earn
MAX_CLOSE_DRAWS = 200  # usable draws too close to an earlier variant before the pools count as spent
PARAMETERS_HEADER = "# Parameters: every input of this exercise (a class gives each learner its own)"
SAFE_LEARNER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$")


def space_for(lesson: str) -> Space | None:
    """The lesson's SPACE, or None while the lesson is not parameterised."""
    number = lesson.split("-", 1)[0]
    try:
        module = importlib.import_module(f"embedlab.grading.questions.l{number}")
    except ModuleNotFoundError:
        return None
    return getattr(module, "SPACE", None)


def _digest(secret: bytes, *parts: str) -> int:
    message = "\0".join(parts).encode("utf-8")
    return int.from_bytes(hmac.new(secret, message, hashlib.sha256).digest(), "big")


def variant_of(secret: bytes, lesson: str, learner: str, k: int = DEFAULT_VARIANTS) -> int:
    """The learner's variant of `lesson`, 1..k (0 is the book's, never assigned)."""
    if not secret:
        raise ValueError("secret must not be empty")
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be a whole number of variants of at least 1, got k={k!r}")
    return 1 + _digest(secret, lesson, learner) % k


def shared_points(lesson: str, given: dict, judged_as: dict, answers_of=None) -> tuple[float, float]:
    """(points, maximum): what variant `given`'s answers earn handed in as variant `judged_as`'s.

    That is what a learner gains by copying a classmate on another variant (or the
    book, variant 0) without working anything out. Each answer is judged as the
    grader judges it; a function, or a question that cannot vary, is earned by
    any copy. `answers_of(params)` gives a variant's answers (the lesson module's
    `answers`, which each lesson's tests tie to its solution notebook).
    """
    module = importlib.import_module(f"embedlab.grading.questions.l{lesson.split('-', 1)[0]}")
    answers_of = answers_of or module.answers
    mine, theirs = answers_of(given), answers_of(judged_as)
    fixed = module.SPACE.fixed
    earned = total = 0.0
    for q in questions_for(lesson, judged_as):
        if q.kind == "written":  # marked by hand, not by a key: no copy earns it, and it keeps nothing apart
            continue
        total += q.points
        if isinstance(q, Function) or (q.name in fixed and q.name not in mine):
            earned += q.points
            continue
        try:
            expected = expected_value(q, q.to_data(answer_of(q, theirs)))
            with kinds.status_only():  # whether it earns the points; the hint a learner would read is not needed
                ok = q.judge(q.to_data(answer_of(q, mine)), expected).status == CORRECT
        except Exception:  # noqa: BLE001 - a copied value the question cannot even read earns nothing
            ok = False
        earned += q.points if ok else 0.0
    return earned, total


def too_close(lesson: str, params: dict, earlier: list[dict], answers_of) -> str | None:
    """Why `params` is not kept apart from the variants `earlier` (the book's first), or None:
    an earlier variant's answers would earn more than MAX_SHARED of its points, or its answers
    more than MAX_SHARED of an earlier classmate's (variant 0 is never a learner's)."""
    for number, other in enumerate(earlier):
        pairs = [(other, params)] + ([(params, other)] if number else [])
        for given, judged_as in pairs:
            earned, total = shared_points(lesson, given, judged_as, answers_of)
            if earned > MAX_SHARED * total:
                return (f"variant {number}'s answers earn {earned:g} of {total:g} points as the new variant's"
                        if given is other else f"its answers earn {earned:g} of {total:g} points as variant {number}'s")
    return None


_CLASSES: dict = {}  # (lesson, secret) -> the variants drawn so far, [variant 0, 1, 2, ...]


def parameters_of(lesson: str, variant: int, secret: bytes = b"", space: Space | None = None) -> dict:
    """The parameters of one variant: the defaults for 0, else drawn (see the module doc)."""
    space = space or space_for(lesson)
    if space is None:
        raise VariantError(f"lesson {lesson} has no variant space yet (no SPACE in its question module)")
    if isinstance(variant, bool) or not isinstance(variant, int) or variant < 0:
        raise ValueError(f"variant must be a whole number 0 or more, got variant={variant!r}")
    if variant == 0:
        return copy.deepcopy(space.defaults)
    if not secret:
        raise ValueError("secret must not be empty for a class variant")
    classes = _CLASSES if space is space_for(lesson) else {}  # another space: drawn afresh, not kept
    drawn = classes.setdefault((lesson, bytes(secret)), [copy.deepcopy(space.defaults)])
    while len(drawn) <= variant:
        # kept only as this module draws (a test that swaps its rule, too_close, draws afresh)
        own = classes is _CLASSES and getattr(too_close, "__module__", None) == __name__
        drawn.append(_kept_draw(lesson, len(drawn), secret, space, drawn) if own
                     else _draw_next(lesson, len(drawn), secret, space, drawn))
    return copy.deepcopy(drawn[variant])


def _kept_draw(lesson: str, variant: int, secret: bytes, space: Space, earlier: list[dict]) -> dict:
    """`_draw_next`, or the same draw kept by embedlab.grading.kept (the lesson's own space, the secret and
    the variant's number decide it, the variants before it being drawn from the same). Kept as the literal
    a parameters cell holds, and only if it reads back as the very same values."""
    path = kept.path_for("variant", lesson, hashlib.sha256(bytes(secret)).hexdigest(), variant)
    text = kept.read(path)
    if isinstance(text, str):
        try:
            params = ast.literal_eval(text)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            params = None
        if isinstance(params, dict) and list(params) == space.names():
            return params
    params = _draw_next(lesson, variant, secret, space, earlier)
    try:
        same = repr(ast.literal_eval(repr(params))) == repr(params)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        same = False
    if same:
        kept.keep(path, repr(params))
    return params


SECOND_LOOK_DRAWS = 60  # draws tried for a second-look variant (the one that differs most from the book's is kept)


def _same_value(a, b) -> bool:
    try:
        return np.shape(a) == np.shape(b) and bool(np.all(np.asarray(a, dtype=object) == np.asarray(b, dtype=object)))
    except Exception:  # noqa: BLE001 - values numpy cannot compare: compared as they are
        try:
            return bool(a == b)
        except Exception:  # noqa: BLE001
            return False


SECOND_LOOKS = 3  # looks per question: together they break what one cannot (see _second_look_variant)


@functools.lru_cache(maxsize=None)
def _second_look_variants(lesson: str) -> tuple:
    """SECOND_LOOKS variants drawn as `_second_look_variant` draws one, each with a seed of its own: together
    they break as many of the book's coincidences as they can (each look those the looks before it left)."""
    out = []
    for k in range(SECOND_LOOKS):
        params = _second_look_variant(lesson, k, tuple(out))
        if params is not None and not any(_same_value(params, other) for other in out):
            out.append(params)
    return tuple(out)


# The factors the hints name for a whole value (a percentage, bits, KiB, seconds per hour): a number of the
# book's equal to one makes that slip and another the same value (100 words: a count is 100 × the share)
HINT_CONSTANTS = frozenset({8.0, 100.0, 1000.0, 1024.0, 3600.0})

HOWS = ("ratio", "multiple", "order")  # how two numbers of a variant may be related (see _Book)


class _Book:
    """The book's coincidences, which a second look should break: each value of the book's parameters, and
    for every two of its numbers and lengths (`_sizes`) their ratio, whether one is a whole multiple of the
    other, and which is larger (out = 4·in, as many sentence words as table rows, a padded size already a
    multiple, / where // was meant, a table with fewer spare rows than new tokens); a named model's kind
    (`_model_kind`) and a list of models' kinds (`_model_facts`). A wrong method right on the book's values
    rides on at least one of them; a look that breaks it refuses it.

    Every family of them (one kind of coincidence among one set of parameters: the ratios between
    vocab_model's numbers and n_new's) weighs 1 in all, so a model that brings a dozen numbers does not
    outweigh two plain numbers' one ratio. The relations are arrays over the pairs of the book's numbers:
    a space's draws are scored by the hundred, in every kernel that checks an answer."""

    def __init__(self, book: dict):
        sizes = _sizes(book)
        self.book, self.names = book, sorted(sizes)
        self.i, self.j = np.triu_indices(len(self.names), 1)
        self.relations = self._relations(np.array([sizes[n] for n in self.names], dtype=float))
        roots = [_root(n) for n in self.names]
        families = [frozenset((roots[i], roots[j])) for i, j in zip(self.i, self.j)]
        count: dict = {}
        for f in families:
            count[f] = count.get(f, 0) + 1
        self.pair_weights = np.array([1 / count[f] for f in families])  # the same for each of HOWS
        self.others = {**{("value", n): v for n, v in book.items()},
                       **{("kind", n): k for n, k in _model_kinds(book).items()},
                       **{("model", n): f for n, f in _model_facts(book).items()},
                       # a number equal to a factor a hint names (100 words: their count is also 100 × their share)
                       **{("constant", n): v for n, v in sizes.items() if v in HINT_CONSTANTS}}

    def _relations(self, x: np.ndarray) -> np.ndarray:
        """(len(HOWS), pairs) array: each pair's ratio (rounded to 9 figures, NaN over 0), whether the larger
        is a whole multiple of the smaller, and the sign of their difference; NaN where a number is missing."""
        a, b = x[self.i], x[self.j]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            ratio = np.where(b != 0, np.round(a / b, 9), np.nan)
            big, small = np.where(np.abs(a) >= np.abs(b), a, b), np.where(np.abs(a) >= np.abs(b), b, a)
            multiple = ((small != 0) & (np.mod(big / np.where(small != 0, small, 1), 1) == 0)).astype(float)
            order = np.sign(a - b)
        missing = np.isnan(a) | np.isnan(b)
        multiple[missing], order[missing] = np.nan, np.nan
        return np.stack([ratio, multiple, order])

    def broken(self, params: dict) -> tuple:
        """(a boolean array over HOWS × pairs, a frozenset of the other coincidences): which of the book's
        coincidences `params` breaks."""
        sizes = _sizes(params)
        mine = self._relations(np.array([sizes.get(n, np.nan) for n in self.names], dtype=float))
        ours = self.relations
        pairs = ~((mine == ours) | (np.isnan(mine) & np.isnan(ours)))
        kinds, facts = _model_kinds(params), _model_facts(params)
        other = set()
        for key, value in self.others.items():
            kind, name = key
            if kind == "constant":
                if sizes.get(name) != value:
                    other.add(key)
                continue
            theirs = params.get(name) if kind == "value" else (kinds if kind == "kind" else facts).get(name)
            if not (_same_value(theirs, value) if kind == "value" else theirs == value):
                other.add(key)
        return pairs, frozenset(other)

    def weight(self, broken: tuple, covered: tuple | None = None) -> float:
        """The weight of what `broken` breaks, leaving out what `covered` (the looks before) already does."""
        pairs, other = broken
        if covered is not None:
            pairs, other = pairs & ~covered[0], other - covered[1]
        return float((pairs * self.pair_weights).sum() + len(other))

    def union(self, broken: list) -> tuple:
        """What a list of `broken` results break between them."""
        if not broken:
            return np.zeros((len(HOWS), len(self.i)), dtype=bool), frozenset()
        return np.logical_or.reduce([b[0] for b in broken]), frozenset().union(*(b[1] for b in broken))


def _root(size: str) -> str:
    """The parameter a number of `_sizes` comes from: "len(ids)" and "max(ids)+1" from ids,
    "vocab_model.spare rows" from vocab_model."""
    return re.sub(r"^(len|max|min)\(|\)(\+1)?$", "", size).split(".")[0]


@functools.lru_cache(maxsize=None)
def _model_numbers(name: str) -> dict:
    """A shipped model's shape as numbers ({} for a name that is not one): V, d, L, heads, d_ff, the
    learned positions (its context where it has a table), its parameters."""
    from embedlab.params import count_params, load_config, model_shape, n_tokens

    try:
        config = load_config(name)
        shape = model_shape(config)
        out = {field: float(value) for field, value in vars(shape).items()
               if isinstance(value, (int, float)) and not isinstance(value, bool)}
        out["total"] = float(count_params(config).total)
    except Exception:  # noqa: BLE001 - not a model's name
        return {}
    with contextlib.suppress(ValueError):  # a model without a cited tokenizer size
        out["tokens"] = float(n_tokens(name))
        out["spare rows"] = out["vocab_size"] - out["tokens"]
    return out


def _model_facts(params: dict) -> dict:
    """What a list of shipped models brings with it, for `_Book`: which of them tie, and which have
    no position table, no head, no projection, no final norm, in its order and in order of size (the one
    that ties is the smallest one). A single model's numbers are in `_sizes`."""
    out = {}
    for name, value in params.items():
        if (isinstance(value, (list, tuple)) and value and len(value) < 64
                and all(isinstance(v, str) and len(v) < 64 and _model_numbers(v) for v in value)):
            by_size = sorted(value, key=lambda v: _model_numbers(v)["total"])
            for order, models in (("in order", value), ("by size", by_size)):
                kinds = [_model_kind(v) for v in models]
                out[f"{name} {order}: tied"] = tuple(tied for _, tied in kinds)
                for part in ("position_embedding", "lm_head", "embedding_projection", "final_norm"):
                    out[f"{name} {order}: no {part}"] = tuple(part in empty for empty, _ in kinds)
    return out


def _second_look_variant(lesson: str, k: int = 0, earlier: tuple = ()) -> dict | None:
    """The parameters the checks try every answer cell on a second time (embedlab.grading.elsewhere):
    drawn from the lesson's space (its `look_draw` where it declares one) with a seed of its own (the same
    for every learner and every run, so a grade stays a pure function of the file). Of SECOND_LOOK_DRAWS
    draws it keeps the one that breaks the most of the book's coincidences (`_Book`) the earlier
    looks kept, then the most of them all: a wrong method is refused when any one look breaks the
    coincidence it rides on, so the looks share the work rather than all breaking the same ones. Not
    vetted by `problems` (which may train models): it is never anyone's variant, only other inputs on
    which the solution's own cell gives the answer."""
    space = space_for(lesson)
    if space is None:
        return None
    draw = space.look_draw or space.draw
    rng = np.random.default_rng(_digest(b"second look", "other inputs", lesson, str(k)))

    def pick(name, pool):
        return pool[int(rng.integers(len(pool)))]

    book = _Book(space.defaults)
    covered = book.union([book.broken(look) for look in earlier])
    best = None
    for _ in range(SECOND_LOOK_DRAWS):
        try:
            params = draw(rng, pick)
        except Exception:  # noqa: BLE001 - a draw that fails is not used
            continue
        broken = book.broken(params)
        score = (round(book.weight(broken, covered), 9), round(book.weight(broken), 9))
        if best is None or score > best[0]:
            best = (score, params)
    return copy.deepcopy(best[1]) if best else None


@functools.lru_cache(maxsize=None)
def _model_kind(name: str):
    """What kind of model a shipped config's name stands for: its parts that hold no parameters (no
    position table, no head of its own, no projection) and whether its head is tied; None for a name that
    is not a shipped model (a tokenizer, a language). Two models of one kind hide the same slips: a count
    that forgets the position table is right for every model without one."""
    from embedlab.params import count_params, load_config

    try:
        counts = count_params(load_config(name))
    except Exception:  # noqa: BLE001 - not a model's name
        return None
    empty = tuple(part for part in ("position_embedding", "lm_head", "embedding_projection", "final_norm")
                  if not getattr(counts, part, 0))
    return empty, bool(counts.tied)


def _model_kinds(params: dict) -> dict:
    """{parameter: _model_kind} of the parameters that name a shipped model."""
    out = {}
    for name, value in params.items():
        if isinstance(value, str) and len(value) < 64:
            kind = _model_kind(value)
            if kind is not None:
                out[name] = kind
    return out


def _sizes(params: dict) -> dict:
    """The numbers a variant's values give: each number, the length of each list, dict or text, and the
    largest and smallest whole number of a list of them (ids: the largest + 1 may be the table's rows)."""
    out = {}
    for name, value in params.items():
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)):
            out[name] = float(value)
        elif isinstance(value, (list, tuple, dict, str)):
            out[f"len({name})"] = float(len(value))
            whole = [v for v in (value if isinstance(value, (list, tuple)) else ())
                     if isinstance(v, int) and not isinstance(v, bool)]
            if whole and len(whole) == len(value):
                out[f"max({name})+1"], out[f"min({name})"] = float(max(whole) + 1), float(min(whole))
        if isinstance(value, str) and len(value) < 64:
            out.update({f"{name}.{field}": number for field, number in _model_numbers(value).items()})
    return out


class Look(dict):
    """One second look's {parameter: value}, and which of the lesson's looks it is (`index`): the judge
    builds the question again for that look's parameters (`look_question`) to weigh a hint there."""

    index: int | None = None


def second_look(lesson: str, namespace: dict) -> list[dict]:
    """For each second-look variant, {parameter: value} wherever it differs from the notebook's own
    parameters (copies, as a Look that knows its index); [] without a variant space."""
    out = []
    for k, params in enumerate(_second_look_variants(lesson)):
        changed = Look({k: copy.deepcopy(v) for k, v in params.items()
                        if k in namespace and not _same_value(namespace[k], v)})
        changed.index = k
        if changed:
            out.append(changed)
    return out


def look_question(lesson: str, name: str):
    """A function of a look's index: (question `name` built for that second look's parameters, those
    parameters, the book's), or None (no such look, no variant space, a function question). What the
    judge weighs a hint with on the look: the same slip must explain the learner's value there too."""
    cache: dict = {}

    def at(k):
        if k not in cache:
            cache[k] = _look_question(lesson, name, k)
        return cache[k]
    return at


@functools.lru_cache(maxsize=256)
def _look_question(lesson: str, name: str, k):
    looks = _second_look_variants(lesson)
    space = space_for(lesson)
    if space is None or not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < len(looks):
        return None
    try:
        found = [q for q in questions_for(lesson, copy.deepcopy(looks[k])) if q.name == name]
    except Exception:  # noqa: BLE001 - a question that cannot be built there: the look weighs nothing
        return None
    if not found or isinstance(found[0], Function):
        return None
    return found[0], looks[k], space.defaults


def _draw_next(lesson: str, variant: int, secret: bytes, space: Space, earlier: list[dict]) -> dict:
    """Class variant `variant`, kept apart from `earlier` (variants 0 .. variant - 1)."""
    def pick(name: str, pool):
        order = np.random.default_rng(_digest(secret, "pool", lesson, name)).permutation(len(pool))
        return pool[int(order[(variant - 1) % len(pool)])]

    module = importlib.import_module(f"embedlab.grading.questions.l{lesson.split('-', 1)[0]}")
    seen: dict[int, tuple] = {}  # id -> (the parameters, kept alive so the id stays theirs; answers)

    def answers_of(params):  # each variant's answers computed once while this variant is drawn
        if id(params) not in seen:
            seen[id(params)] = (params, module.answers(params))
        return seen[id(params)][1]

    rng = np.random.default_rng(_digest(secret, "parameters", lesson, str(variant)))
    close = 0
    for _ in range(MAX_DRAWS):
        params = space.draw(rng, pick)
        if list(params) != space.names():
            raise VariantError(f"{lesson}: draw() gave the names {list(params)}, expected {space.names()}")
        if space.problems(params):
            continue
        why = too_close(lesson, params, earlier, answers_of)
        if why is None:
            return params
        close += 1
        if close == MAX_CLOSE_DRAWS:
            raise VariantError(f"lesson {lesson} keeps at most {variant - 1} variants apart with this secret "
                               f"(variant {variant}, drawn {close} times, stays too close to an earlier one: "
                               f"{why}); ask for --variants {variant - 1} or fewer")
    raise VariantError(f"{lesson}: no usable variant {variant} in {MAX_DRAWS} draws (the space is too tight)")


# --------------------------------------------------------------------------
# The parameters cell


class _Literals(pprint.PrettyPrinter):
    """pprint, with whole numbers of five digits or more grouped as the book writes them (600_000_000)."""

    def format(self, obj, context, maxlevels, level):
        if isinstance(obj, int) and not isinstance(obj, bool) and abs(obj) >= 10_000:
            return f"{obj:_}", True, False
        return super().format(obj, context, maxlevels, level)


def render_parameters(params: dict) -> str:
    """The source of a parameters cell holding `params` (Python literals, lines within 88 characters)."""
    lines = [PARAMETERS_HEADER]
    for name, value in params.items():
        text = _Literals(width=88 - len(name) - 3, sort_dicts=False).pformat(value)
        lines.append(f"{name} = " + text.replace("\n", "\n" + " " * (len(name) + 3)))
    return "\n".join(lines)


def parameters_cell(nb) -> int:
    """Index of the notebook's one cell tagged `parameters`; VariantError if there is not exactly one."""
    found = [i for i, c in enumerate(nb.cells)
             if c.cell_type == "code" and PARAMETERS_TAG in c.get("metadata", {}).get("tags", [])]
    if len(found) != 1:
        raise VariantError(f"expected exactly one code cell tagged {PARAMETERS_TAG!r}, found {len(found)}")
    return found[0]


def with_parameters(nb, params: dict):
    """A copy of the notebook whose parameters cell holds `params` (outputs of that cell cleared)."""
    nb = copy.deepcopy(nb)
    cell = nb.cells[parameters_cell(nb)]
    cell.source = render_parameters(params)
    cell.outputs = []
    cell.execution_count = None
    return nb


def check_parameters_cell(nb, lesson: str) -> None:
    """The solution's parameters cell must hold exactly variant 0's parameters (the book's)."""
    space = space_for(lesson)
    if space is None:
        return
    index = parameters_cell(nb)
    found = read_parameters(nb.cells[index].source)
    if found != space.defaults or list(found) != space.names():
        raise VariantError(f"{lesson}: the parameters cell (cell {index + 1}) differs from SPACE.defaults "
                           f"of its question module: cell {found!r}, defaults {space.defaults!r}")
