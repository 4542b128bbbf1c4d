"""Answers as named parts: a counting, size or cost answer as the expression the lesson teaches.

A question states its answer as a tree over named parts, built from the
variant's own parameters (never the book's numbers), e.g. one GPT-2 block:

    Sum("a GPT-2 block", [
        Part("attention weights", 4 * d * d, "q, k, v and out: 4 · d²"),
        Part("attention biases", 4 * d, "4 · d"),
        ...
        Part("LayerNorm shifts", 2 * d, "2 · d per block"),
    ])

and a KV cache per token as a product:

    Prod("the cache per token", [
        Part("keys and values", 2, "×2"), Part("layers", L, "L"),
        Part("key/value heads", h_kv, "h_kv", alts=[Alt(h, "every query head cached: only h_kv …")]),
        Part("head width", head_dim, "head_dim"), Part("bytes per value", b, …)])

`search(tree, got)` looks for the nearby expressions that give the learner's
number: a part left out, counted twice, replaced by a sibling (an `Alt`), the
whole multiplied or divided by a count or a unit factor (`Scale`), up to two
changes at once, and returns the words naming them ("your count has no
LayerNorm shifts: 2 · d per block"). The words name parts and inputs, never the
expected value. When two different explanations give the same number (in
Mixtral (8 − 2) × 1 = 2 × 3), `search` names both, or neither when more fit:
never one of two equals.

Parts that appear twice (a table in a share's numerator and in its total) share
a `key`: changing one changes both, as one change.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field

from embedlab.grading import diagnose
from embedlab.grading.text import _size_like as size_like, is_symbol, plural

DROP, TWICE, PLUS = "drop", "twice", "plus"
_DETERMINED = re.compile(r"(?:the|a|an|its|their|this|that|each|every|one|two)\b", re.I)
WITHOUT = "#without"  # a group's op: one child left out there only (a shared, keyed part left out in one place)
SPREAD = "#spread"    # a sum's op: one term's count factor put on every term ((a + b) · L for a + b · L)
NARROW = "#narrow"    # a product's op: its factors put on one term of its sum only (a + b · L for (a + b) · L)
TIMES = "#times"      # a sum's op: one term × a count of the answer once too often
# Every op a group's change is written under (its id + the op): _touched reads them, so an op left out here would
# let the search reuse a group's value as answered under a change that reaches it (tests/test_parts_memo.py).
GROUP_OPS = (WITHOUT, SPREAD, NARROW, TIMES)


@dataclass
class Alt:
    """A sibling a learner may use in place of a part: its value and what to say then."""

    value: float
    says: str
    tag: str | None = None  # the same mistake written in another formulation has the same tag
    swap: bool = False      # made by the search (another input in this part's place): the weakest explanation
    last: bool = False      # tried alone, only when nothing else explains the value (a count off by one)


@dataclass
class Node:
    name: str
    words: str = ""                      # how the part is made ("2 · d per block"): named in the hint
    alts: list = field(default_factory=list)
    missing: str | None = None           # own words when it is left out
    twice: str | None = None             # own words when it is counted twice
    key: str | None = None               # parts with one key change together
    can_drop: bool = True
    can_double: bool = True
    tag: str | None = None               # leaving it out is the same mistake as another change with this tag

    def id(self) -> str:
        if self.key:
            return self.key
        made = self.__dict__.get("_id_made")  # (id(self), the words): a copy or an unpickled node makes its own
        if made is None or made[0] != id(self):
            made = self.__dict__["_id_made"] = (id(self), f"{self.name}#{id(self)}")
        return made[1]

    def value(self, changes: dict) -> float:
        raise NotImplementedError

    def nodes(self):
        yield self

    def say_missing(self, context: str) -> str:
        if self.missing:
            return self.missing
        words = f": {self.words}" if self.words else ""
        if _DETERMINED.match(self.name):  # "the blocks", "its bias": "has no the blocks" is missing a word
            return f"{context} leaves out {self.name}{words}"
        return f"{context} has no {self.name}{words}"

    def say_twice(self, context: str) -> str:
        if self.twice:
            return self.twice
        words = f" ({self.words})" if self.words else ""
        return f"{self.name}{words} counted twice"


@dataclass
class Part(Node):
    """A leaf: a named number."""

    amount: float = 0.0

    def __init__(self, name, amount, words="", alts=(), missing=None, twice=None, key=None, can_drop=True,
                 can_double=True, tag=None):
        super().__init__(name, words, list(alts), missing, twice, key, can_drop, can_double, tag)
        self.amount = amount

    def value(self, changes):
        return self.amount


class Extra(Node):
    """Something that is NOT in the answer but a learner may count (a tied head, a bias Llama does
    not have): 0 in the answer; counting it is a change, and `says` names it."""

    def __init__(self, name, amount, says, key=None, alone=False):
        super().__init__(name, "", [], None, None, key, False, False)
        self.amount, self.says = amount, says
        # alone: named only when counting it is the ONE change that gives the learner's value exactly (a term of
        # another part of the layer: its counterfactual is "your value = the asked part + that term"); paired with
        # another change it proves nothing (a too-small value is not "something added")
        self.alone = alone

    def value(self, changes):
        if changes.get(self.id()) != "add":
            return 0
        return _eval(self.amount, changes) if isinstance(self.amount, Node) else self.amount

    def nodes(self):
        yield self
        if isinstance(self.amount, Node):  # its parts follow the keyed changes (heads, widths) of the rest
            yield from self.amount.nodes()


def absent(name: str, widths, says: str, key: str | None = None) -> list:
    """Extras for terms a block does NOT have (biases where its linear layers have none, a norm's shift
    where it has a scale only): `widths` is each such term's size, one per layer or norm (a bias is as wide
    as its layer's outputs). A learner may count all of them, only some, or each at one width (a bias of
    d_ff on every matrix, the down projection's too): every one of these is one change, said in the same
    words, so the search names it once however the number was made."""
    widths = [w for w in widths if isinstance(w, (int, float)) and w > 0]
    amounts = {sum(widths)}
    amounts |= set(widths)
    amounts |= {len(widths) * w for w in widths}
    amounts |= {sum(widths) - w for w in widths if len(widths) > 2}  # all but one
    return [Extra(name, amount, says, key=f"{key}:{i}" if key else None) for i, amount in enumerate(sorted(amounts))]


def belongs_elsewhere(whole: str, asked: str, terms) -> list:
    """Extras for the terms of the `whole` (a layer, a model) that are NOT in the part the question asks for
    (`asked`: the MLP of a layer, its attention): `terms` is [(name, amount, words)]. A learner who counts one of
    them has counted a term the model HAS, in another part: said so ("the two RMSNorms (2 · d) belong to the
    layer, not to the MLP"), never as a term the model does not have (a bias where there is none)."""
    out = []
    for name, amount, words in terms:
        if isinstance(amount, (int, float)) and amount > 0:
            how = f" ({words})" if words else ""
            many = name.split()[-1].endswith("s") and not name.split()[-1].endswith("ss")  # "two RMSNorms"
            out.append(Extra(name, amount, f"{name}{how} belong{'' if many else 's'} to {whole}, not to {asked}: "
                                           f"leave {'them' if many else 'it'} out", alone=True))
    return out


class _Group(Node):
    children: list

    def nodes(self):
        yield self
        for child in self.children:
            yield from child.nodes()


class Sum(_Group):
    """Parts added: one left out, or counted twice, is a change."""

    def __init__(self, name, children, words="", alts=(), missing=None, twice=None, key=None, can_drop=True,
                 can_double=True, tag=None):
        super().__init__(name, words, list(alts), missing, twice, key, can_drop, can_double, tag)
        self.children = list(children)

    def value(self, changes):
        total = 0
        without = changes.get(self.id() + WITHOUT)
        spread = changes.get(self.id() + SPREAD)  # (i, factor): a factor of term i put on every term (parentheses)
        times = changes.get(self.id() + TIMES)    # (i, factor): term i × factor
        for i, child in enumerate(self.children):
            if i != without:
                term = _term(child, changes, 0, 2)
                term = term * times[1] if times is not None and i == times[0] else term
                total += term * spread[1] if spread is not None and i != spread[0] else term
        return total


class Prod(_Group):
    """Factors multiplied: one left out (× 1), or in twice (squared), is a change."""

    def __init__(self, name, children, words="", alts=(), missing=None, twice=None, key=None, can_drop=True,
                 can_double=True, tag=None):
        super().__init__(name, words, list(alts), missing, twice, key, can_drop, can_double, tag)
        self.children = list(children)

    def value(self, changes):
        own = changes.get(self.id())
        added = own[1:] if isinstance(own, tuple) and own[0] == PLUS else ()
        total, plus = 1, 0
        without = changes.get(self.id() + WITHOUT)
        narrow = changes.get(self.id() + NARROW)  # (i, j): the other factors reach only term j of the sum at i
        if narrow is not None:
            i, j = narrow
            rest = 1
            for k, child in enumerate(self.children):
                if k != i:
                    rest *= _eval(child, changes)
            terms = [_term(c, changes, 0, 2) for c in self.children[i].children]
            return rest * terms[j] + sum(t for k, t in enumerate(terms) if k != j)
        for i, child in enumerate(self.children):
            if i == without:
                continue
            v = _eval(child, changes)
            op = changes.get(child.id())
            if op == DROP:
                continue
            v = v * v if op == TWICE else v
            if i in added:
                plus += v
                continue
            total *= v
        return total * plus if added else total

    def say_missing(self, context):
        return super().say_missing(context)


class Ratio(_Group):
    """num / den (a share, a ratio). Mistakes inside each are changes; upside down is one more."""

    def __init__(self, name, num, den, words="", upside_down: str | None = None, key=None):
        super().__init__(name, words, [], None, None, key, False, False)
        self.children = [num, den]
        self.upside_down = upside_down or f"upside down: {name} is {num.name} over {den.name}"

    def value(self, changes):
        num, den = (_eval(c, changes) for c in self.children)
        op = changes.get(self.id())
        if op == "invert":
            num, den = den, num
        elif isinstance(op, tuple) and op[0] == "rest":
            den = den - num
        elif isinstance(op, tuple) and op[0] == "again":
            part = next((n for n in self.children[0].nodes() if n.id() == op[1]), None)
            den = den + (_eval(part, changes) if part is not None else math.nan)
        return num / den if den else math.nan


def _eval(node, changes):
    if not changes or _touched(node).isdisjoint(changes):  # no change reaches below `node`: its value as answered
        return _answered(node)
    op = changes.get(node.id())
    if isinstance(op, tuple) and op[0] == "alt":
        return node.alts[op[1]].value
    return node.value(changes)


def _touched(node) -> frozenset:
    """Every key a change below `node` (itself included) is written under: each node's id, and a group's ops on
    it (GROUP_OPS). A change none of them names leaves `node`'s value as answered. Kept on the node:
    a tree's parts and keys are fixed once built (only alternatives are added later, read under a change)."""
    kept = node.__dict__.get("_touched")
    if kept is None or kept[0] != id(node):
        keys = set()
        for n in node.nodes():
            nid = n.id()
            keys.add(nid)
            keys.update(nid + op for op in GROUP_OPS)
        kept = node.__dict__["_touched"] = (id(node), frozenset(keys))
    return kept[1]


def _answered(node):
    """`node`'s value with no change made, worked out once: the search evaluates the tree under every change and
    pair of changes, and all but the path to a changed part is the same each time (an error is raised each time).
    tests/test_parts_memo.py checks every change and pair of changes against the evaluation without it."""
    kept = node.__dict__.get("_answered")
    if kept is None or kept[0] != id(node):
        kept = node.__dict__["_answered"] = (id(node), node.value({}))
    return kept[1]


def _term(child, changes, dropped, doubled):
    op = changes.get(child.id())
    if op == DROP:
        return dropped
    v = _eval(child, changes)
    return v * doubled if op == TWICE else v


@dataclass
class Scale:
    """The whole answer multiplied by `factor` (×L, ÷batch, bits, GiB): what to say then."""

    factor: float
    says: str


# Unit factors any size or cost may be off by (named by `Answer(units=True)`, the default).
UNIT_SCALES = [
    Scale(8, "8 times too much: bits where bytes are asked?"),
    Scale(1 / 8, "an eighth: divided by 8 once too often (bits to bytes twice?)"),
    Scale(100, "a percentage: give the fraction (between 0 and 1)"),
    Scale(1e-9, "in units of 10**9 (GB, billions) where plain units are asked"),
    Scale(1e9, "10**9 times too much: bytes (or units) where GB (billions) are asked"),
    Scale(1e9 / 2**30, "GiB (2**30 bytes) where GB (10**9 bytes) is asked"),
    Scale(2**30 / 1e9, "GB (10**9 bytes) where GiB (2**30 bytes) is asked"),
    Scale(1e-12, "in units of 10**12 (TFLOP/s, trillions) where the plain unit is asked"),
    Scale(1e-6, "in millions where plain units are asked"),
    Scale(2**20, "2**20 times too much: bytes where MiB are asked?"),
    Scale(1 / 2**20, "in MiB (2**20 bytes) where bytes are asked"),
    Scale(1 / 2**10, "in KiB (2**10 bytes) where bytes are asked"),
    Scale(1e-3, "in thousands (kB, k) where plain units are asked"),
    Scale(1 / math.log(2), "in bits (log base 2) where nats (the natural log) are asked"),
    Scale(math.log(2), "in nats where bits (log base 2) are asked"),
    Scale(3600, "per hour where per second is asked (× 3,600)"),
    Scale(1 / 3600, "hours where seconds are asked (÷ 3,600)"),
    Scale(-1, "the sign is wrong: subtracted the other way round"),
]


# The unit scales a quantity without units can be off by: a percentage and a sign, and a divergence's bits
# (a cosine, a share or a probability is in no bytes, bits or hours: those words would blame a slip it
# cannot have)
UNITLESS_SCALES = {"cosine": (100, -1), "share": (100, -1), "ratio": (100, -1),
                   "probability": (100, -1),
                   "divergence": (100, -1, 1 / math.log(2), math.log(2))}


# quantities counted in no bytes (Question.unit_of), and the unit scales that are bytes' (bits, MiB, KiB, GiB/GB):
# "bits where bytes are asked" of a FLOP rate blames a unit it does not have (a factor 8 there is 8 GPUs)
NOT_BYTES = {"flops", "parameters"}
BYTE_FACTORS = (8, 1 / 8, 2**20, 1 / 2**20, 1 / 2**10, 1e9 / 2**30, 2**30 / 1e9)


@dataclass
class Layer:
    """A whole linear layer the answer counts `times` times (once per block, L in a model): its weights and its
    bias together (`bias`=False for a layer without one). A learner may leave the whole layer out, weights
    and bias at once: one slip, which a tree of matrices and biases (grouped by kind, not by layer) could
    only make as two."""

    name: str            # "the MLP's second layer"
    n_in: int
    n_out: int
    shape: str = ""      # its shape in the question's symbols ("4d → d")
    bias: bool = True
    times: int = 1

    def amount(self) -> int:
        return self.times * (self.n_in * self.n_out + (self.n_out if self.bias else 0))

    def says(self, context: str) -> str:
        shape = f" ({self.shape})" if self.shape else ""
        what = "its weights (in · out) and its bias (out)" if self.bias else "its weights (in · out)"
        per = " in every block" if self.times > 1 else ""
        return f"{context} leaves out one whole linear layer{per}, {self.name}{shape}: {what}, together"


@dataclass
class Answer:
    """A question's answer as parts: the tree, the scales that make sense for it, and how to
    call the whole in a hint ("your count")."""

    tree: Node
    scales: list = field(default_factory=list)
    context: str = "your count"
    depth: int = 2
    units: bool = True
    whole: tuple | None = None  # (the whole it is part of, what to say of whole − answer: the complement)
    floor: bool = False         # the answer is rounded down (a whole number of sequences): so is each candidate
    inputs: dict = field(default_factory=dict)  # {name: value} of the question's inputs: a part equal to one may
                                                # be replaced by another ("d_ff where d belongs"), one change
    offsets: bool = True        # the whole off by exactly one input (d, V): a vector of that size counted or left out
    layers: list = field(default_factory=list)  # the Layers counted: one left out whole is one change
    unit: str = ""              # what the answer counts (Question.unit_of): a share has no bytes, bits or hours
    # {(value, name)} of the terms the learner's own expression adds (explain.present_terms): of two parts of one
    # size that would each explain a number by being left out, one the learner's code adds, by name, is not it
    present: frozenset = frozenset()
    meanings: dict = field(default_factory=dict)  # {input name: what it counts}: said when one is used for another

    def siblings(self) -> dict:
        """{name: value} of the whole numbers the answer is made of (a width, a count of heads…): any
        one of them used in place of another is a change ("d_ff where d belongs")."""
        import re

        out = dict(self.inputs)
        for node in self.tree.nodes():  # parts named as inputs are (d, V, L, h_kv, head_dim, d_ff, T …)
            if isinstance(node, Part) and not node.key and isinstance(node.amount, int) and node.amount >= 2 \
                    and re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{0,11}", node.name):
                out.setdefault(node.name, node.amount)
        return out

    def leaves(self) -> dict:
        """{name: value} of the named numbers the answer is made of (for a typed, rounded one)."""
        out = {}
        for node in self.tree.nodes():
            if isinstance(node, Part) and isinstance(node.amount, (int, float)) and abs(node.amount) >= 100:
                out.setdefault(node.name, abs(node.amount))
        return out

    def all_scales(self) -> list:
        own = {round(s.factor, 12) for s in self.scales}
        kept = UNITLESS_SCALES.get(self.unit)
        bytes_free = self.unit in NOT_BYTES  # FLOPs and parameters come in no bits, bytes, MiB or GiB
        return list(self.scales) + [s for s in UNIT_SCALES if self.units and round(s.factor, 12) not in own
                                    and (kept is None or any(_close(s.factor, k) for k in kept))
                                    and not (bytes_free and any(_close(s.factor, b) for b in BYTE_FACTORS))]


# --------------------------------------------------------------------------
# The search


def changes_of(answer: Answer) -> list[tuple[dict, str, tuple]]:
    """Every single change: ({node id: op}, words, the ids it touches)."""
    out, seen = [], set()
    parents = {}
    for node in answer.tree.nodes():
        for child in getattr(node, "children", []):
            parents[child.id()] = node
    named = {k: v for k, v in answer.siblings().items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    keyed, holder = {}, {}
    for node in answer.tree.nodes():
        if node.key:
            keyed[node.key] = keyed.get(node.key, 0) + 1
        for i, child in enumerate(getattr(node, "children", [])):
            holder[id(child)] = (node, i)
    for node in answer.tree.nodes():
        nid = node.id()
        parent = parents.get(nid)
        if node.key and keyed[node.key] >= 2 and node.can_drop and id(node) in holder:
            # a part shared by several places (2 FLOPs per weight in the blocks and in the head) left out in one
            # of them only: one slip, not "left out everywhere, and another part counted twice"
            group, i = holder[id(node)]
            if isinstance(group, (Sum, Prod)) and not (group.key and keyed[group.key] >= 2) \
                    and (nid, "without", group.id()) not in seen:  # a group that is itself shared is not one place
                seen.add((nid, "without", group.id()))
                words = f"{group.name}: {node.say_missing(answer.context)}"
                PLACED[words] = node.say_missing(answer.context)
                out.append(({group.id() + WITHOUT: i}, words, (group.id() + WITHOUT, nid)))
        if isinstance(node, Part) and named and not node.key:
            mine = [k for k, v in named.items() if v == node.amount]
            if mine:
                # a size named by a symbol (d_ff) goes in the slot; one named by a word (RMSNorms) is said by name
                symbol = next((k for k in mine if size_like(k)), None)
                for other, value in named.items():
                    if value != node.amount and value not in (0, 1) and (nid, "swap", other) not in seen:
                        seen.add((nid, "swap", other))
                        what = f"{node.name}{': ' + node.words if node.words else ''}"
                        says = (f"you used {other} where {symbol} belongs ({what})" if symbol and size_like(other)
                                else f"you used {other} for {node.name}" + (f" ({node.words})" if node.words else ""))
                        if answer.meanings.get(other):  # what the input used counts: why it does not belong
                            says += f": `{other}` is {answer.meanings[other]}"
                        node.alts.append(Alt(value, says, swap=True))
        if isinstance(node, Part) and isinstance(parent, Prod) and _count_factor(node) and (nid, "off-by-one") not in seen:
            # a count that multiplies (L layers, T positions) one too many or one too few: an off-by-one, the
            # last resort (beside a batch of 1, context + 1 is as well context + batch added: OFF_BY_ONE's
            # words give way to any other that fits as many of a function's calls)
            seen.add((nid, "off-by-one"))
            label = node.words if _IDENT.fullmatch(node.words or "") else node.name
            what = "" if label == node.name else f" {node.name}"
            where = f" ({parent.name} counted {label} ± 1 times)" if parent.name else ""
            if _width(node, label):  # an extra 1 in each row's width: one more number per row, a bias
                more = (f"one extra number per row: {label} + 1{what} where {label} belongs{where.replace('±', '+')}"
                        f"{A_BIAS}")
            else:
                more = f"one too many: {label} + 1{what} where {label} belongs{where.replace('±', '+')}{OFF_BY_ONE}"
            node.alts.append(Alt(node.amount + 1, more, swap=True, last=True))
            if node.amount >= 2:
                node.alts.append(Alt(node.amount - 1, f"one too few: {label} − 1{what} where {label} belongs"
                                                      f"{where.replace('±', '−')}{OFF_BY_ONE}", swap=True,
                                     last=True))
        if isinstance(node, Part) and named and not node.key and (nid, "factor-left-out") not in seen:
            seen.add((nid, "factor-left-out"))
            node.alts.extend(_factor_left_out_alts(node, named))
        if isinstance(node, Prod) and (nid, "exact-flops") not in seen \
                and not any(isinstance(n, Ratio) for n in answer.tree.nodes()):
            seen.add((nid, "exact-flops"))
            node.alts.extend(_exact_flop_alts(node))
        if isinstance(node, Part) and isinstance(node.amount, (int, float)) and node.amount < 0 \
                and (nid, "sign") not in seen and parent is not None and not node.key:
            # a term taken away (minus the head, −V): added instead is one change, the sign
            seen.add((nid, "sign"))
            what = parent.name if node.amount == -1 and isinstance(parent, Prod) else node.name
            what = what[6:] if what.startswith("minus ") else what
            node.alts.append(Alt(-node.amount, f"you added {what} where it is taken away: subtract it"))
        if isinstance(node, Ratio):
            out.append(({nid: "invert"}, node.upside_down, (nid,)))
            out.extend(_ratio_changes(node))
        if isinstance(node, Sum) and len(node.children) >= 2:  # a term's count factor on every term: parentheses
            for i, child in enumerate(node.children):
                if not isinstance(child, Prod):
                    continue
                for factor in child.children:
                    if isinstance(factor, Part) and _count_factor(factor) and factor.amount >= 2 \
                            and (nid, "spread", i, factor.id()) not in seen:
                        seen.add((nid, "spread", i, factor.id()))
                        label = _label(factor)
                        out.append(({nid + SPREAD: (i, factor.amount)},
                                    f"{label} multiplies all of {node.name} in your formula, where only {child.name} "
                                    f"is counted {label} times: a precedence slip (parentheses around the sum, then "
                                    f"× {label}); multiply {child.name} alone", (nid + SPREAD, child.id())))
        if isinstance(node, Prod):  # its factors on one term of its sum only: parentheses missing
            for i, child in enumerate(node.children):
                if not (isinstance(child, Sum) and len(child.children) >= 2):
                    continue
                counts = [f for k, f in enumerate(node.children) if k != i and isinstance(f, Part) and _count_factor(f)]
                if not counts:
                    continue
                label = " × ".join(_label(f) for f in counts)
                for j, term in enumerate(child.children):
                    if isinstance(term, Extra) or (nid, "narrow", i, j) in seen:
                        continue
                    seen.add((nid, "narrow", i, j))
                    out.append(({nid + NARROW: (i, j)},
                                f"{label} multiplies only {term.name} in your formula, where it multiplies all of "
                                f"{child.name}: a precedence slip (a product binds before a sum): put {child.name} "
                                f"in parentheses, then × {label}", (nid + NARROW, child.id())))
        if isinstance(node, Prod):  # two factors added where they multiply (V + d for V × d)
            factors = [(i, c) for i, c in enumerate(node.children)
                       if isinstance(c, (Part, Prod, Sum)) and _plain_factor(c)]
            for (i, a), (j, b) in itertools.combinations(factors, 2):
                out.append(({nid: (PLUS, i, j)}, f"you added {a.name} and {b.name} where they multiply "
                                                 f"({a.name} × {b.name}, not {a.name} + {b.name})", (nid,)))
        if isinstance(node, Extra):
            if (nid, "add") not in seen:
                seen.add((nid, "add"))
                out.append(({nid: "add"}, node.says, (nid,)))
            continue
        if parent is not None and not isinstance(parent, Ratio):
            if node.can_drop and (nid, DROP) not in seen and _rest_is_one(parent, node):
                # a factor left out where the other factors make 1 (the head run
                # once: 1 × head) leaves a 1, not a 0: it matches only within a
                # tolerance what leaving out the whole product gives exactly, and its
                # words ("your share has no head") name no slip of its own
                seen.add((nid, DROP))
            if node.can_drop and (nid, DROP) not in seen:
                seen.add((nid, DROP))
                words = node.say_missing(answer.context)
                if _layer_count(node) and isinstance(parent, Prod) and isinstance(parents.get(parent.id()), Sum):
                    # the count of layers left out of one term only (the rest of the sum right): a per-layer term
                    term = parent.name[6:] if parent.name.startswith("minus ") else parent.name
                    label = node.words if _IDENT.fullmatch(node.words or "") else node.name
                    count = node.name if "layer" in node.name.lower() and node.name != label else "layers"
                    # one clause each, no aside inside an aside: the part's own words (how many layers there are)
                    # after the rule, left out where they say it again (text.join_clauses)
                    from embedlab.grading.text import join_clauses

                    words = join_clauses(f"{term} counted for one layer only: multiply this part by {label}, the "
                                         f"number of {count} it applies to", node.missing or "",
                                         "the rest of your formula is right")
                out.append(({nid: DROP}, words,
                            (nid,) + ((f"tag:{node.tag}",) if node.tag else ())))
            # a factor in twice (squared) only when the author names it: learners double terms, not factors
            if node.can_double and (isinstance(parent, Sum) or node.twice) and (nid, TWICE) not in seen:
                seen.add((nid, TWICE))
                twin = _repeated_by_extra(node, parent, answer)  # the Extra it is (a tied head): one slip, its words
                out.append(({nid: TWICE}, twin or node.say_twice(answer.context), (nid,)))
        for i, alt in enumerate(node.alts):
            if (nid, i) not in seen:
                seen.add((nid, i))
                out.append(({nid: ("alt", i)}, alt.says, (nid,) + ((f"tag:{alt.tag}",) if alt.tag else ())))
    return out


def _ulps_apart(a: float, b: float, ulps: int = 8) -> bool:
    """Are two numbers equal to within a few units in float64's last place (one
    computation written two ways)?"""
    if not (math.isfinite(a) and math.isfinite(b)):
        return False
    return abs(a - b) <= ulps * math.ulp(max(abs(a), abs(b)))


def _rest_is_one(parent, node) -> bool:
    """Is `node` a factor of the product `parent` whose other factors make exactly 1?"""
    if not isinstance(parent, Prod):
        return False
    rest = 1
    for child in parent.children:
        if child is node:
            continue
        try:
            rest *= _eval(child, {})
        except (ArithmeticError, ValueError, TypeError):
            return False
    return rest == 1


def _repeated_by_extra(node, parent, answer=None):
    """The words of the Extra beside `node` in its sum of exactly its amount (its own, or those of the Extra its key
    changes with: a tied head beside the table it is, the head's new columns beside the table's), else None. Counting that Extra is `node` counted twice: one slip,
    said in the Extra's words (which say why) both ways, so the two read as one explanation, never as two."""
    if not isinstance(parent, Sum):
        return None
    try:
        amount = node.value({})
    except Exception:  # noqa: BLE001 - a part that cannot be valued alone has no twin
        return None
    for c in parent.children:
        if isinstance(c, Extra) and c is not node and not isinstance(c.amount, Node) and c.amount == amount:
            if c.says:
                return c.says
            keyed = [e.says for e in (answer.tree.nodes() if answer is not None and c.key else ())
                     if isinstance(e, Extra) and e.key == c.key and e.says]  # its words where its key has them
            if keyed:
                return keyed[0]
    return None


def _factor_left_out_alts(node, named: dict) -> list:
    """A part that is the product of two of the answer's sizes (the tied table, V·d) given as one of them (V: one
    number per token where a row of d belongs): the other factor left out. Tried alone, when nothing else explains
    the value (last), and named by the sizes, not guessed."""
    amount = node.amount
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 4:
        return []
    sizes = {k: v for k, v in named.items() if isinstance(v, int) and not isinstance(v, bool) and v >= 2
             and v != amount and size_like(k)}
    out, seen = [], set()
    for a, va in sizes.items():
        for b, vb in sizes.items():
            if a == b or va * vb != amount or va in seen or any(alt.value == va for alt in node.alts):
                continue
            seen.add(va)
            what = f"{node.name}: {node.words}" if node.words else node.name
            out.append(Alt(va, f"{a} where {a}·{b} belongs ({what}): a factor {b} left out", swap=True, last=True))
    return out


def _exact_flop_alts(prod) -> list:
    """A matmul priced at 2 FLOPs per weight (a Prod with a factor 2 named FLOPs) counted the other known way:
    exactly, m multiplies and m − 1 adds per dot product of m terms, n·(2m − 1) where the course counts 2·n·m.
    A convention, not a slip of the model: named as such, for each whole factor m that may be the dot
    product's length (the value tells them apart); one the question's own parts already say (an Alt of that
    value on a factor) is not said twice. A count only: in a share (a Ratio) the convention cancels nearly
    out, and its alternatives would crowd the slips a share's value proves."""
    children = list(getattr(prod, "children", []))
    two = [c for c in children if isinstance(c, Part) and c.amount == 2 and "flop" in c.name.lower()]
    if len(two) != 1:
        return []
    factors = [c for c in children if c is not two[0]]
    if not factors or not all(isinstance(c, Part) and isinstance(c.amount, int) and not isinstance(c.amount, bool)
                              for c in factors):
        return []
    whole = 2
    for c in factors:
        whole *= c.amount
    out = []
    for c in factors:
        m = c.amount
        if m < 2 or not (c.name and _IDENT.fullmatch(c.name)):
            continue
        exact = whole - whole // (2 * m)
        said = {whole // m * a.value for f in factors if f.amount for a in f.alts
                if isinstance(a.value, (int, float)) and f is c} | {a.value for a in prod.alts}
        if any(math.isclose(exact, v, rel_tol=1e-12) for v in said if isinstance(v, (int, float))):
            continue
        name = c.name
        out.append(Alt(exact, f"that counts {prod.name} exactly: each dot product of {name} terms as {name} "
                              f"multiplies and {name} − 1 adds, (2·{name} − 1) FLOPs per output; the course counts "
                              f"2 FLOPs per weight (a multiply and an add each), 2·{name} per output"))
    return out


OFF_BY_ONE = ", an off-by-one"  # how the words of a count off by one (the last resort) end
# … and of a row one number too wide: 1 more per row (per output) is a bias, not a miscount of the width
A_BIAS = (": a bias (one number per row, per output) counted where this layer has no bias (n · (w + 1) where "
          "n · w belongs)")
LAST_WORDS = (OFF_BY_ONE, A_BIAS)
_WIDTHS = {"d", "width", "columns", "hidden_size", "d_model", "n_embd", "e", "word_embed_proj_dim"}


def _layer_count(node) -> bool:
    """Is a part the number of layers (blocks) something is counted over?"""
    text = f"{node.name} {node.words or ''}".lower()
    return (isinstance(node, Part) and isinstance(node.amount, int) and node.amount >= 2 and not node.key
            and ("layer" in text or "block" in text or node.name == "L" or node.words == "L"))


def _width(node, label: str) -> bool:
    """Is a factor a row's width (d, the columns, the numbers per row), not a count of rows or layers?"""
    words = (node.words or "").lower()
    return label in _WIDTHS or node.name.lower() in _WIDTHS or "width" in words or "per row" in words
_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,11}")


def _label(node) -> str:
    """A factor as the question writes it: its words when they are a symbol (L), else its name."""
    return node.words if _IDENT.fullmatch(node.words or "") else node.name


def _count_factor(node) -> bool:
    """A factor that counts things (L layers, T positions, V rows), named as an input: not a constant (2
    FLOPs per weight), not a shared key, not one that may not be left out."""
    return (isinstance(node.amount, int) and not isinstance(node.amount, bool) and node.amount >= 1 and not node.key
            and node.can_drop and bool(_IDENT.fullmatch(node.words or "") or _IDENT.fullmatch(node.name)))


def _plain_factor(node) -> bool:
    """A factor a learner may add to another instead of multiplying: a count or a size, not ×2 or −1."""
    try:
        v = node.value({})
    except (ArithmeticError, ValueError, TypeError):
        return False
    return isinstance(v, (int, float)) and math.isfinite(v) and abs(v) >= 3 and not (
        isinstance(node, Part) and not node.can_drop)


def _ratio_changes(ratio) -> list:
    """A share's whole taken wrong: over the rest (the whole without the share's own parts), or
    with a part of the numerator added to the whole again (the whole already holds it)."""
    num, den = ratio.children
    nid = ratio.id()
    out = [({nid: ("rest",)}, f"you divided by the rest ({den.name} without {num.name}): a share divides by "
                               f"the whole, {den.name}, which holds {num.name} too", (nid, "ratio-den"))]
    for child in getattr(num, "children", [num]) if isinstance(num, Sum) else [num]:
        if isinstance(child, Extra):
            continue
        out.append(({nid: ("again", child.id())}, f"{child.name} added to {den.name} again: {den.name} already "
                                                   f"counts it once", (nid, "ratio-den")))
    return out


def _rank(answer, change: dict) -> int:
    """The author's siblings first (their words name the mistake), then a part left out, counted
    twice or counted extra, then another input swapped in by the search."""
    for nid, op in change.items():
        if isinstance(op, tuple) and op[0] == PLUS:  # factors added: many pairs, a single change only
            return 2
        if isinstance(op, tuple) and op[0] == "alt":
            node = next((n for n in answer.tree.nodes() if n.id() == nid), None)
            return 2 if node is not None and node.alts[op[1]].swap else 0
    return 1


def _close(a: float, b: float) -> bool:
    """Equal as two computations of one number are: whole numbers exactly, others to float64's rounding (1 part
    in 10**9); no absolute slack around 0, so a 0 (a floor division) never matches a tiny candidate (a count in
    units of 10**12)."""
    if not (math.isfinite(a) and math.isfinite(b)):
        return False
    if a == b:
        return True
    if float(a).is_integer() and float(b).is_integer() and max(abs(a), abs(b)) < 2**53:
        return False  # two whole numbers: equal or not, nothing in between
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=0.0)


def matches(answer: Answer, got: float, want: float | None = None, tagged: bool = False) -> list:
    """(number of changes, words) of every explanation of `got` with the fewest changes. Two
    changes of the same parts that give the same number are one explanation (a factor left out
    and that factor replaced by a sibling of 1): the sibling's own words are kept."""
    try:
        base = _eval(answer.tree, {})
    except (ArithmeticError, ValueError, TypeError):
        return []
    singles = changes_of(answer)
    last = [c for c in singles if _is_last(answer, c[0])]
    singles = [c for c in singles if not _is_last(answer, c[0])]
    # the sibling's words first: they name the mistake more exactly than "left out"
    singles.sort(key=lambda c: _rank(answer, c[0]))
    values = []
    for change, words, ids in singles:
        try:
            values.append(_eval(answer.tree, change))
        except (ArithmeticError, ValueError, TypeError, OverflowError):
            values.append(math.nan)
    scales = [(s.factor, s.says) for s in answer.all_scales()]
    # a unit scale that a unit part's change already makes (GB for GiB, written as a part) is that change
    ratios = [v / base for (change, _, ids), v in zip(singles, values)
              if base and math.isfinite(v) and math.isfinite(base) and not _close(v, base) and _unit_change(answer, ids)]
    scales = [(f, w) for f, w in scales if not any(_close(f, r) for r in ratios)]
    if answer.floor:
        values = [math.floor(v) if math.isfinite(v) else v for v in values]
        base = math.floor(base) if math.isfinite(base) else base
    found = {}  # (touched parts, scale) -> words: one explanation per set of parts changed
    same_den = _denominator_tags(answer, singles)
    # one change: a part, or a scale of the whole
    matched = [(change, words, ids, v)
               for (change, words, ids), v in zip(singles, values)
               if not _close(v, base) and _close(v, got)]
    if any(_ulps_apart(v, got) for *_, v in matched):
        # a change that gives the learner's number to float64's last digits beside one
        # that gives it only within the tolerance (a term left as 1 or 12 FLOPs in a
        # whole of 10¹¹, where the other leaves it out): that one only
        matched = [m for m in matched if _ulps_apart(m[3], got)]
    for change, words, ids, v in matched:
        key = frozenset(ids) | {SINGLE} | same_den.get(id(change), set())
        found.setdefault((key, None), words)
        WRITTEN_AS[words] = _changed_values(answer, change)
        _story(answer, change, words, got)
    _present_ruled_out(answer, found)
    for factor, says in scales:
        if _close(base * factor, got):
            found.setdefault((frozenset(), factor), says)
    if answer.whole is not None and _close(answer.whole[0] - base, got):
        found.setdefault((frozenset(["whole"]), None), answer.whole[1])
    for layer in answer.layers:  # a whole linear layer left out: one change, before any two
        if layer.amount() and _close(base - layer.amount(), got):
            found.setdefault((frozenset([f"layer:{layer.name}"]), None), layer.says(answer.context))
    if not found:  # one term of the answer given for the whole (the saving for the total, the part for the share)
        for words in _a_part_alone(answer, base, got):
            found.setdefault((frozenset([f"part-alone:{words}"]), None), words)
    # a ratio for a difference, or the reverse (a difference that is one part is that part, above): tried even
    # when a part explains the value, since the book's inputs may make both give it (a look tells them apart)
    for key, words in _ratio_or_difference(answer, got):
        found.setdefault((frozenset([key]), None), words)
    if not found:  # the whole off by exactly one of its inputs: a vector of that size counted or left out
        for name, size in _sizes(answer).items():
            for k in (1, 2):
                for sign in (1, -1):
                    if _close(base + sign * k * size, got):
                        found.setdefault((frozenset([f"offset:{name}"]), None), _offset_words(answer, name, k, sign))
    if found:
        return _out(1, found, tagged)
    if answer.depth < 2:
        return _out(1, _last_resort(answer, last, base, got), tagged)
    # a term of another part (belongs_elsewhere) is proven only alone: its value is asked + that term, exactly
    solo = {n.id() for n in answer.tree.nodes() if isinstance(n, Extra) and n.alone}
    keep = [i for i, (change, _, ids) in enumerate(singles) if not set(ids) & solo]
    singles, values = [singles[i] for i in keep], [values[i] for i in keep]
    if base and any(_close(base * f, got) for f, _ in diagnose.FACTORS):
        # one slip of the whole (×2, ÷2, ×4 …) explains the value: two changes that happen to give it are no proof
        return []
    # two changes: two parts, or a part and a scale, or two unit scales
    for (f1, s1), (f2, s2) in itertools.combinations(scales, 2):
        if _close(base * f1 * f2, got) and not _close(f1 * f2, 1):
            found.setdefault((frozenset(), f1 * f2), f"{s1}; and {s2}")
            SCALES_OF[f"{s1}; and {s2}"] = (f1, f2)
    for (change, words, ids), v in zip(singles, values):
        if _close(v, base):
            continue
        for factor, says in scales:
            if _close(v * factor, got):
                found.setdefault((frozenset(ids), factor), f"{words}; and {says}")
    paired = [i for i, (change, _, _) in enumerate(singles) if _rank(answer, change) < 2]  # swaps: one change only
    for (a, b) in itertools.combinations(paired, 2):
        ca, wa, ia = singles[a]
        cb, wb, ib = singles[b]
        if set(ia) & set(ib) or _close(values[a], base) or _close(values[b], base):
            continue
        try:
            v = _eval(answer.tree, {**ca, **cb})
            v = math.floor(v) if answer.floor and math.isfinite(v) else v
        except (ArithmeticError, ValueError, TypeError, OverflowError):
            continue
        if _close(v, got) and not _written(answer, ca) and not _written(answer, cb):
            words = _pair_words(answer, ca, wa, cb, wb)
            found.setdefault((frozenset(ia) | frozenset(ib), None), words)
            _story(answer, {**ca, **cb}, words, got)
    # one term of a sum multiplied by a count of the answer (T, L) once too often: one
    # change, but read only beside the two-change stories, since the same number is
    # often both (T · attention over T-fold parts, or the head and the blocks once over
    # one fold of attention): two readings of one number are offered both, or neither
    for key, words in _times_count(answer, base, got):
        found.setdefault((frozenset([key]), None), words)
    if not found:
        return _out(1, _last_resort(answer, last, base, got), tagged)
    out = _out(2, found, tagged)
    TWO.update(words for _, words, *_ in out)
    return out


def _times_count(answer, base, got) -> list:
    """(key, words) of each term of a sum that, multiplied by one of the answer's counts
    (a Part that counts: T positions, L layers), gives `got` exactly: "attention over
    the context is T times too large"."""
    counts = {}
    for node in answer.tree.nodes():
        named = _IDENT.fullmatch(node.words or "") or _IDENT.fullmatch(node.name)
        if isinstance(node, Part) and type(node.amount) is int and node.amount >= 2 \
                and named:
            counts.setdefault(node.amount, _label(node))
    out = []
    for node in answer.tree.nodes():
        if not isinstance(node, Sum) or len(node.children) < 2:
            continue
        for i, child in enumerate(node.children):
            if isinstance(child, Extra):
                continue
            for amount, label in counts.items():
                try:
                    v = _eval(answer.tree, {node.id() + TIMES: (i, amount)})
                except (ArithmeticError, ValueError, TypeError, OverflowError):
                    continue
                if not _close(v, base) and _close(v, got):
                    words = (f"{child.name} is {label} times too large: multiplied "
                             f"by {label} once too often")
                    out.append((f"times:{child.id()}:{amount}", words))
    return out


# --------------------------------------------------------------------------
# A story told of the learner's code ("your count has no LayerNorms", "the first bias is d wide") is the answer's
# terms with the change made: the terms the learner's lines would then write. Of several stories that give one
# value, the one whose terms the learner's own lines write (explain.own_terms: `ln = 2 * D` is a LayerNorm term of
# 2 · d) is the learner's; one that says "no LayerNorms" of lines that write one is fitted to the gap's size only.

STORIES: dict = {}  # (words, the value they explain) -> the terms the story says the learner's sum adds


def _story(answer, change: dict, words: str, got) -> None:
    try:
        STORIES[(words, _story_key(got))] = tuple(story_terms(answer.tree, change))
    except (ArithmeticError, ValueError, TypeError, OverflowError, RecursionError):
        pass
    try:
        PIECES[(words, _story_key(got))] = _pieces(answer.tree, change)
    except (ArithmeticError, ValueError, TypeError, OverflowError, RecursionError):
        pass
    nodes = {n.id(): n for n in answer.tree.nodes()}
    if any(isinstance(op, tuple) and op[0] == "alt" and key in nodes and nodes[key].alts[op[1]].swap
           for key, op in change.items()):
        SWAPPED.add((words, _story_key(got)))  # another input in a part's place, put there by the search
    parents = {c.id(): n for n in answer.tree.nodes() for c in getattr(n, "children", [])}
    if change and all(isinstance(parents.get(key), Sum) for key in change):
        TERMWISE.add((words, _story_key(got)))  # each change a whole term of a sum: the terms tell the story


# --------------------------------------------------------------------------
# Two explanations of one value may be one story told twice: the same terms (a table counted again where the final
# norm belongs, and an untied head with no final norm), the same numerator and denominator, or the same clauses once
# a shared part left out "in one place" (`group: words`) is read as left out (the other place's term left out too).
# Said as two slips ("either … or …") they repeat each other; the story is said once (kinds.Question._either).

PLACED: dict = {}  # the words of a shared part left out in one group only -> the part's own missing words
PIECES: dict = {}  # (words, the value they explain) -> the values of the answer's top-level pieces under the change
SWAPPED: set = set()  # (words, the value) of stories with an input the search swapped into a part (the weakest)
TERMWISE: set = set()  # (words, the value) of stories whose changes are whole terms of a sum, none inside a product


def _pieces(tree, change: dict) -> tuple:
    """The values of the answer's top-level pieces with `change` made: a ratio's numerator and denominator (its own
    op applied), a sum's terms (story_terms, sorted), a product's factors (sorted)."""
    if isinstance(tree, Ratio):
        num, den = (_eval(c, change) for c in tree.children)
        op = change.get(tree.id())
        if op == "invert":
            num, den = den, num
        elif isinstance(op, tuple) and op[0] == "rest":
            den = den - num
        elif isinstance(op, tuple) and op[0] == "again":
            part = next((n for n in tree.children[0].nodes() if n.id() == op[1]), None)
            den = den + (_eval(part, change) if part is not None else math.nan)
        return ("ratio", _story_key(num), _story_key(den))
    if isinstance(tree, Sum):
        return ("sum", *(_story_key(t) for t in story_terms(tree, change)))
    if isinstance(tree, Prod) and not change.get(tree.id()):
        return ("prod", *(_story_key(_term(c, change, 1, 1) ** (2 if change.get(c.id()) == TWICE else 1))
                          for c in tree.children))
    return ("one", _story_key(_eval(tree, change)))


def _clauses_of(words: str) -> list:
    return [c.strip() for c in words.split("; and ") if c.strip()]


def one_story(a: str, b: str, got) -> bool:
    """Do two explanations of `got` tell one story? Their pieces (the terms of a sum, a ratio's numerator and
    denominator) are the same values, with more than one piece; or their clauses are the same once a shared part
    left out in one place is read as that part left out."""
    key = _story_key(got)
    if a in TWO and b in TWO:
        # two slips each that give the sum the same terms, each change a whole term (a factor changed inside a
        # product, 1 byte where the 2 of keys and values is left out, is another story with the same terms), or
        # a ratio the same numerator and the same denominator: one pair told two ways (one part left out of two
        # of the same size, each alone, stays two stories: the value cannot tell them)
        x, y = STORIES.get((a, key)), STORIES.get((b, key))
        if x is not None and y is not None and len(x) > 1 and tuple(x) == tuple(y) \
                and (a, key) in TERMWISE and (b, key) in TERMWISE:
            return True
        x, y = PIECES.get((a, key)), PIECES.get((b, key))
        if x is not None and x[0] == "ratio" and x == y:
            return True
    ca = sorted(PLACED.get(c, c) for c in _clauses_of(a))
    cb = sorted(PLACED.get(c, c) for c in _clauses_of(b))
    return ca == cb


SHARED_MORE = "; and one slip more, which your number cannot tell apart: either "


def shared_slip(a: str, b: str) -> str | None:
    """Two explanations that share a slip ("X; and Y", "X; and Z"): the shared slip said once, then the two others
    as the one slip more the value cannot tell apart ("X; and one slip more, …: either Y; or Z"). None when they
    share no clause, or one is all shared (no difference to say)."""
    ca, cb = _clauses_of(a), _clauses_of(b)
    na, nb = [PLACED.get(c, c) for c in ca], [PLACED.get(c, c) for c in cb]
    shared = [c for c, n in zip(ca, na) if n in nb]
    ra = [c for c, n in zip(ca, na) if n not in nb]
    rb = [c for c, n in zip(cb, nb) if n not in na]
    if not shared or not ra or not rb:
        return None
    x, y = " and ".join(ra), " and ".join(rb)
    label = x.split(": ", 1)[0] + ": "
    if len(ra) == len(rb) == 1 and ra[0] in PLACED and rb[0] in PLACED and y.startswith(label):
        # both a shared part left out of one group, the same group: its name said once, before the two
        return f"{'; and '.join(shared)}; and one slip more in {label[:-2]}, which your number cannot tell apart: " \
               f"either {x[len(label):]}{EITHER_SEP}{y[len(label):]}"
    return f"{'; and '.join(shared)}{SHARED_MORE}{x}{EITHER_SEP}{y}"


def plainer(a: str, b: str) -> str:
    """Of two tellings of one story, the one to say: each slip said as its own clause (an untied head; and no final
    norm) before one that says two as a swap; no clause that names a shared part "in one place" before one that
    does; then the shorter."""
    def rank(words):
        clauses = _clauses_of(words)
        return (-len(clauses), sum(c in PLACED for c in clauses), len(words))
    return min((a, b), key=rank)


def _story_key(value):
    try:
        return float(f"{float(value):.12g}")
    except (TypeError, ValueError):
        return None


def story_terms(node, change: dict) -> list:
    """The terms a sum of the answer adds with `change` made: each Sum walked into (a part counted twice is two
    terms, one left out none), every other node (a product, a ratio, a part) one term of its value."""
    op = change.get(node.id())
    if op == DROP:
        return []
    plain = not (isinstance(op, tuple) and op[0] == "alt") and not any(
        k.startswith(node.id() + "#") for k in change)
    if isinstance(node, Sum) and plain:
        out = []
        for child in node.children:
            terms = story_terms(child, change)
            out += terms * 2 if change.get(child.id()) == TWICE else terms
        return out
    sums = [c for c in getattr(node, "children", []) if isinstance(c, Sum)]
    if isinstance(node, Prod) and plain and len(sums) == 1 and change.get(sums[0].id()) not in (DROP, TWICE):
        factor = 1  # a count times a sum (L · one layer): each term of the sum times the count, as L · (a + b) is
        for child in node.children:
            if child is sums[0] or change.get(child.id()) == DROP:
                continue
            v = _eval(child, change)
            factor *= v * v if change.get(child.id()) == TWICE else v
        return [factor * t for t in story_terms(sums[0], change)]
    value = _eval(node, change)
    return [value] if value else []


def swapped_in(words: str, got) -> bool:
    """Is the story of `words` an input the search itself put in a part's place (columns for rows)?"""
    return (words, _story_key(got)) in SWAPPED


def story_of(words: str, got):
    """The terms the story of `words` says the learner adds (for the value `got`), or None: not a story."""
    return STORIES.get((words, _story_key(got)))


def agreement(story, terms) -> int:
    """How many of the learner's own terms the story's terms are, one for one (as multisets of values)."""
    from collections import Counter

    mine = Counter(_story_key(t) for t in terms)
    theirs = Counter(_story_key(t) for t in story)
    return sum((mine & theirs).values())


# the words of one change: the values the changed part (and the group holding it) take under it, which the learner's
# own expression may write (explain.present_terms): of two explanations of one value, the one the cell writes
WRITTEN_AS: dict = {}


def _changed_values(answer, change: dict) -> tuple:
    """The values a single change gives its part and that part's group (a LayerNorm's shifts left out: the
    LayerNorms are then 2 · d), on the book's inputs."""
    parents = {c.id(): n for n in answer.tree.nodes() for c in getattr(n, "children", [])}
    out = []
    for key in change:
        node = next((n for n in answer.tree.nodes() if n.id() == key), None)
        if node is None:
            continue
        parent = parents.get(key)
        names = f"{node.name} {getattr(parent, 'name', '')}".lower()
        for n in (node, parent):
            if n is None:
                continue
            try:
                value = _term(n, change, 0, 2) if n is node else _eval(n, change)
            except (ArithmeticError, ValueError, TypeError, OverflowError):
                continue
            if isinstance(value, (int, float)) and math.isfinite(value) and value:
                # a part or a group's sum is written under a name that says it (`norms = 2 * d`: a lone d may be
                # any of several parts); a product at its changed value (d · V where 2 · d · V belongs), whatever
                # its name
                out.append((value, "product" if n is not node and isinstance(n, Prod) else "named", names))
    return tuple(out)


def written_by(words: str, present) -> bool:
    """Does the learner's expression (explain.present_terms: {(value, name)}) write the part a single change of
    `words` changes, at its changed value?"""
    for value, kind, names in WRITTEN_AS.get(words, ()):
        for v, name in present:
            if not _close(value, v):
                continue
            if kind == "product" or any(len(w) >= 3 and w in names for w in str(name).lower().split("_")):
                return True
    return False


# the words of explanations made of two changes at once (two parts, a part and a scale, two scales): the check
# shows one only where a look, on other inputs, finds the same two again (kinds.Question._support)
TWO: set = set()
SCALES_OF: dict = {}  # the words of two unit scales at once: their two factors (each may be typed in the cell)


def two_changes(words: str) -> bool:
    """Are the words an explanation of two changes at once (matches' second round)?"""
    if not isinstance(words, str):
        return False
    pair = alternatives(words)  # "either A, or B": two slips at once when each of the two is
    return words in TWO or bool(pair) and all(a in TWO for a in pair)


def _written(answer, change: dict) -> bool:
    """Does a change leave out a part the learner's own expression writes? A part left out (or not subtracted)
    whose value is exactly that of a term the cell adds (or subtracts: answer.present, read as arithmetic on the
    book's inputs) is there: the clause "leaves out X" is refuted by the cell, whatever the term's name."""
    if not answer.present or len(change) != 1:
        return False
    (key, op), = change.items()
    if op != DROP:
        return False
    node = next((n for n in answer.tree.nodes() if n.id() == key), None)
    amount = getattr(node, "amount", None)
    if not isinstance(node, Part) or not isinstance(amount, (int, float)) or isinstance(amount, bool) or not amount:
        return False
    # another part of that very size (a LayerNorm's scales and its shifts) may be the term the cell writes
    twins = [n for n in answer.tree.nodes() if n is not node and isinstance(n, Part)
             and isinstance(getattr(n, "amount", None), (int, float)) and _close(n.amount, amount)]
    return not twins and any(_close(amount, v) for v, _ in answer.present)


def _pair_words(answer, ca: dict, wa: str, cb: dict, wb: str) -> str:
    """The words of two changes found together, checked against each other: a term of a sum counted twice and
    another term of the same sum left out is ONE slip, the first term put where the second belongs (2 · total
    for total + V·d): its two clauses said apart contradict each other ("counted twice", then "counts the
    table once"), so it is said once, by the doubled term's own words when its author wrote them (they say
    what belongs), else as the swap."""
    nodes = {n.id(): n for n in answer.tree.nodes()}
    parent = {c.id(): n for n in answer.tree.nodes() for c in getattr(n, "children", [])}
    for (c1, w1), (c2, _) in (((ca, wa), (cb, wb)), ((cb, wb), (ca, wa))):
        if len(c1) != 1 or len(c2) != 1:
            continue
        (id1, op1), (id2, op2) = next(iter(c1.items())), next(iter(c2.items()))
        if op1 == TWICE and op2 == DROP and isinstance(parent.get(id1), Sum) and parent.get(id1) is parent.get(id2):
            doubled, dropped = nodes[id1], nodes[id2]
            if doubled.twice:
                return doubled.twice
            return (f"{doubled.name} counted again where {dropped.name} belongs"
                    + (f" ({dropped.words})" if dropped.words else ""))
    return f"{_said_with_another(answer, ca, wa)}; and {_said_with_another(answer, cb, wb)}"


def _said_with_another(answer, change: dict, words: str) -> str:
    """A part's own words for its slip, fit to stand beside another slip: an author's words that say what the
    whole value then is ("that is the padded size") hold for that slip alone, and beside a second one they are
    false (both parts left out give 0, not the padded size); the plain words of the slip are said instead."""
    if len(change) != 1 or not re.match(r"(that|this|those|these) (is|are|was)\b", words.strip().lower()):
        return words
    (key, op), = change.items()
    node = next((n for n in answer.tree.nodes() if n.id() == key), None)
    if node is None or op not in (DROP, TWICE):
        return words
    what = f" ({node.words})" if node.words else ""
    if op == TWICE:
        return f"{node.name}{what} counted twice"
    if node.name.startswith("minus "):
        return f"{answer.context} does not subtract {node.name[6:]}{what}"
    return f"{answer.context} leaves out {node.name}{what}"


def _present_ruled_out(answer, found: dict) -> None:
    """Of several single changes that explain the value, drop those that leave out a part the learner's own
    expression adds: a term of its size assigned under a name that says that part (answer.present: `4 * d` in
    `mlp = …` is the MLP's first bias; the LayerNorms, 4 · d too, are in no term). The counterfactual read from
    the code; a term under a name that says no part (one long sum) rules nothing out. One is always kept."""
    if not answer.present or len(found) < 2:
        return
    nodes = {n.id(): n for n in answer.tree.nodes()}
    parents = {c.id(): n for n in answer.tree.nodes() for c in getattr(n, "children", [])}

    def named(node, target: str) -> bool:  # the term's name says it is this part (`mlp` for the MLP's bias)
        words = f"{node.name} {getattr(parents.get(node.id()), 'name', '')}".lower()
        return any(len(w) >= 3 and w in words for w in target.lower().split("_"))

    def twin(node, target: str) -> bool:  # another part of that size the same name says (a LayerNorm's scales and
        # its shifts, both "norms"): either may be the term written
        return any(n is not node and isinstance(n, Part) and isinstance(getattr(n, "amount", None), (int, float))
                   and _close(n.amount, node.amount) and named(n, target) for n in answer.tree.nodes())

    def present(key) -> bool:
        ids, factor = key
        dropped = [nodes[i] for i in ids if i in nodes]
        return factor is None and SINGLE in ids and len(dropped) == 1 and isinstance(dropped[0], Part) \
            and found[key] == dropped[0].say_missing(answer.context) \
            and any(_close(dropped[0].amount, v) and named(dropped[0], t) and not twin(dropped[0], t)
                    for v, t in answer.present)
    out = [k for k in found if present(k)]
    if out and len(out) < len(found):
        for k in out:
            del found[k]


def _ratio_or_difference(answer, got) -> list:
    """[(key, words)] for `got` equal to the ratio of a difference's two sides (how many times larger, where
    how much larger is asked: a − b given as a / b), or to the difference of a ratio's two sides (num − den
    for num / den). Each side's units cancel in a ratio, so the rest of the answer (a scale to GiB) is left out."""
    out = []
    for node in answer.tree.nodes():
        try:
            if isinstance(node, Sum) and len(node.children) >= 2:
                values = [(c, _term(c, {}, 0, 2)) for c in node.children if not isinstance(c, Extra)]
                plus = [(c, v) for c, v in values if v > 0]
                minus = [(c, v) for c, v in values if v < 0]
                if not plus or not minus:
                    continue
                a, b = sum(v for _, v in plus), -sum(v for _, v in minus)
                what_a = " + ".join(c.name for c, _ in plus)
                what_b = " + ".join((c.name[6:] if c.name.startswith("minus ") else c.name) for c, _ in minus)
                for value, how in ((a / b, f"{what_a} / {what_b}"), (b / a, f"{what_b} / {what_a}")):
                    if abs(value - 1) > 1e-12 and _close(value, got):
                        out.append((f"ratio:{node.id()}", (
                            f"that is a ratio ({how}: how many times larger) where {node.name} is a difference "
                            f"({what_a} − {what_b}: how much larger): subtract, do not divide")))
            elif isinstance(node, Ratio):
                num, den = (_eval(c, {}) for c in node.children)
                for value, how in ((num - den, f"{node.children[0].name} − {node.children[1].name}"),
                                   (den - num, f"{node.children[1].name} − {node.children[0].name}")):
                    if value and _close(value, got):
                        out.append((f"difference:{node.id()}", (
                            f"that is a difference ({how}: how much larger) where {node.name} is a ratio "
                            f"({node.children[0].name} / {node.children[1].name}: how many times): divide, do not "
                            "subtract")))
        except (ArithmeticError, ValueError, TypeError):
            continue
    return out


def _a_part_alone(answer, base, got) -> list:
    """The words for `got` equal to one term of the answer (a part, a group of parts, the amount taken away),
    given where the whole is asked: the tree's own parts, never a term counted only as a slip (an Extra)."""
    inside_extra = {id(n) for e in answer.tree.nodes() if isinstance(e, Extra) for n in e.nodes()}
    whole = answer.tree.name
    out = []
    for node in answer.tree.nodes():
        if node is answer.tree or id(node) in inside_extra:
            continue
        try:
            value = _eval(node, {})
        except (ArithmeticError, ValueError, TypeError):
            continue
        if not isinstance(value, (int, float)) or not math.isfinite(value) or abs(value) < 10 \
                or _close(abs(value), abs(base)) or not _close(abs(value), got):
            continue
        if _term_of_another_part(answer, node):
            continue
        out.append(_alone_words(node, value, whole))
    return list(dict.fromkeys(out))


def _term_of_another_part(answer, node) -> bool:
    """Does a term the learner's own expression adds (answer.present) have the size of a part outside `node` and of
    none inside it? Then the value is `node` alone only by its number: `4 * d**2 + 4 * d**2` is the MLP's 8 · d², or
    attention's 4 · d² and a 4 · d² MLP; the code cannot tell which, so no part is named as given alone."""
    inside = {id(n) for n in node.nodes()}
    above = {id(n) for n in answer.tree.nodes() if inside <= {id(m) for m in n.nodes()}}

    def sizes(nodes) -> list:
        out = []
        for n in nodes:
            try:
                v = _eval(n, {})
            except (ArithmeticError, ValueError, TypeError):
                continue
            if isinstance(v, (int, float)) and math.isfinite(v) and v:
                out.append(v)
        return out

    own = sizes(node.nodes())
    others = sizes(n for n in answer.tree.nodes() if id(n) not in inside | above)
    return any(any(_close(v, o) for o in others) and not any(_close(v, o) for o in own)
               for v, _ in (answer.present or ()))


def _alone_words(node, value, whole: str) -> str:
    """The words for one term of the answer given where the whole is asked."""
    name = node.name[6:] if node.name.startswith("minus ") else node.name
    # the part's words in an aside; words with an aside of their own ("every parameter (count_params)") after a
    # comma instead, so that no aside sits inside another
    how = "" if not node.words else f", {node.words}," if "(" in node.words else f" ({node.words})"
    if value < 0 or node.name.startswith("minus "):
        return (f"that is {name}{how} alone, the amount taken away (the saving, the difference), not "
                f"{whole}: the question asks for {whole}, the whole that is left")
    return (f"that is {name}{how} alone, one part of {whole}: the question asks for {whole}, the whole, "
            f"not one of its parts")


def templates(answer) -> list[str]:
    """Every words the search can name for one change of `answer` (a list of Answers too), rendered with
    its own parts, whatever the learner's value: a part left out, counted twice, replaced, a scale, the
    whole off by an input, a term alone, a layer left out. Two changes are two of these joined by "; and ".
    For a test that reads them all (tests/test_hint_rendering.py): none may hold a slot left empty."""
    out = []
    for one in (answer if isinstance(answer, (list, tuple)) else [answer]):
        out += [words for _, words, _ in changes_of(one)]
        out += [s.says for s in one.all_scales()]
        if one.whole is not None:
            out.append(one.whole[1])
        out += [layer.says(one.context) for layer in one.layers]
        for name in _sizes(one):
            for k in (1, 2):
                for sign in (1, -1):
                    out.append(_offset_words(one, name, k, sign))
        inside_extra = {id(n) for e in one.tree.nodes() if isinstance(e, Extra) for n in e.nodes()}
        for node in one.tree.nodes():
            if node is one.tree or id(node) in inside_extra:
                continue
            try:
                value = _eval(node, {})
            except (ArithmeticError, ValueError, TypeError):
                continue
            if isinstance(value, (int, float)) and math.isfinite(value):
                out.append(_alone_words(node, value, one.tree.name))
    return list(dict.fromkeys(out))


def _last_resort(answer, last, base, got) -> dict:
    """When nothing else explains `got`: one count off by one, alone."""
    found = {}
    for change, words, ids in last:
        try:
            v = _eval(answer.tree, change)
            v = math.floor(v) if answer.floor and math.isfinite(v) else v
        except (ArithmeticError, ValueError, TypeError, OverflowError):
            continue
        if not _close(v, base) and _close(v, got):
            found.setdefault((frozenset(ids) | {SINGLE}, None), words)
    return found


def _is_last(answer, change: dict) -> bool:
    for nid, op in change.items():
        if isinstance(op, tuple) and op[0] == "alt":
            node = next((n for n in answer.tree.nodes() if n.id() == nid), None)
            return node is not None and node.alts[op[1]].last
    return False


SINGLE = "single"  # a found explanation made of one change (its tag, if any, names the mistake it is)


def _denominator_tags(answer, singles) -> dict:
    """{id(change): {tag}} for the single changes that leave a share's denominator (a Ratio's) as the
    whole less the numerator, or the whole plus the numerator again: the same mistake however the tree
    lets it be made (the rest divided by, the head dropped from the total, its factor dropped there), so
    the search names it once, in the words of the first (the Ratio's own), not as three equals."""
    out = {}
    for ratio in (n for n in answer.tree.nodes() if isinstance(n, Ratio)):
        num, den = ratio.children
        try:
            num_base, den_base = _eval(num, {}), _eval(den, {})
        except (ArithmeticError, ValueError, TypeError):
            continue
        inside = {n.id() for n in den.nodes()} | {ratio.id()}
        for change, _, _ in singles:
            if not set(change) & inside or set(change) & {n.id() for n in num.nodes()}:
                continue
            try:
                if ratio.id() in change:
                    value = _eval(ratio, change)
                    changed = num_base / value if value else math.nan
                else:
                    changed = _eval(den, change)
            except (ArithmeticError, ValueError, TypeError, OverflowError):
                continue
            for sign, what in ((-1, "rest"), (1, "again")):
                if num_base and _close(changed, den_base + sign * num_base):
                    out[id(change)] = {f"tag:{what}:{ratio.id()}"}
    return out


def _unit_change(answer, ids) -> bool:
    """A change of a part that is a unit factor (1 / 2**30 bytes per GiB, 1 / 3,600): not a count."""
    for node in answer.tree.nodes():
        if node.id() in ids and isinstance(node, Part):
            return isinstance(node.amount, float) and not float(node.amount).is_integer()
    return False


def _sizes(answer) -> dict:
    """{name: value} of the inputs a whole count may be off by (a width, a vocabulary): counts only."""
    if not answer.offsets:
        return {}
    out, seen = {}, set()
    for k, v in sorted(answer.siblings().items(), key=lambda kv: len(kv[0])):  # the shortest name of a size
        # said as a symbol (d_trim, L) or as items counted (rows, layers): "one
        # number for each of the rows"; a size's word ("width", "head", "batch")
        # counts no items, so its symbol names it, or nothing does
        if not (is_symbol(k) or _counted_items(k)):
            continue
        if isinstance(v, int) and not isinstance(v, bool) and v >= 8 and v not in seen:
            seen.add(v)
            out[k] = v
    return out


def _counted_items(name: str) -> bool:
    """Does a part's name count items, one number each (rows, layers,
    tokens), not a size (width, head)?"""
    return bool(re.fullmatch(r"(?:[a-z]+ )?[a-z]+s", name)) and plural(name.split()[-1])


def _offset_words(answer, name, k, sign) -> str:
    """The whole off by exactly one input (or two): measured, so said as measured. Which term of that size it is
    (a norm's scale, a bias, the exact count's − V) the value cannot tell: no guess in parentheses."""
    if not is_symbol(name):  # a size named in words ("rows"): one number per row, not "exactly rows too many"
        each = f"each of the {name}" if k == 1 else f"each of the {name}, twice"
        if sign < 0:
            return (f"{answer.context} is short by exactly one number for {each}: "
                    f"recheck each term the question counts that holds one number "
                    f"for each of them, and any you subtract")
        value = answer.siblings().get(name)
        if isinstance(value, (int, float)) and any(v == k * value for v, _ in (answer.present or ())):
            return (f"{answer.context} has exactly one number too many for {each}, and your code adds a term of "
                    f"exactly that size: the model has no such term (count only what the question lists)")
        return (f"{answer.context} has exactly one number too many for {each}: "
                f"recheck that the model has each term you count that holds one "
                f"number for each of them")
    size = name if k == 1 else f"{k} · {name}"
    value = answer.siblings().get(name)
    if sign < 0:
        if isinstance(value, (int, float)) and any(v == -k * value for v, _ in (answer.present or ())):
            # the learner's own expression takes away a term of exactly that size: the code shows it
            return (f"{answer.context} is exactly {size} short, and your code subtracts a term of exactly {size} "
                    f"numbers: the question's count keeps it (take away only what the question lists)")
        return (f"{answer.context} is exactly {size} short: recheck the terms of {size} numbers the question counts, "
                f"and any you subtract")
    if isinstance(value, (int, float)) and any(v == k * value for v, _ in (answer.present or ())):
        # the learner's own expression adds a term of exactly that size: the code shows what the value measures
        return (f"{answer.context} has exactly {size} too many, and your code adds a term of exactly {size} "
                f"numbers: the model has no such term (count only what the question lists)")
    return (f"{answer.context} has exactly {size} too many: recheck that the model has each term of {size} numbers "
            f"you count")


def _out(n, found: dict, tagged: bool) -> list:
    """(n, words) per explanation, or (n, words, tag) with `tagged` (a single tagged change)."""
    out, seen = [], set()
    for (ids, factor), words in found.items():
        if words in seen:
            continue
        seen.add(words)
        tags = sorted(i for i in ids if i.startswith("tag:"))
        tag = tags[0] if len(tags) == 1 and factor is None and SINGLE in ids else None
        out.append((n, words, tag) if tagged else (n, words))
    return out


def _unique(items):
    return list(dict.fromkeys(items))


def search(answer, got: float, want: float | None = None) -> str | None:
    """The words naming the changes that give `got`: one explanation, or both of two equals
    ("either …, or …"); None when nothing fits or more than two fit equally. `answer` may be a
    list of Answers: the same answer written the ways a learner may compute it (stored minus
    skipped, or shared plus used), searched together."""
    answers = answer if isinstance(answer, (list, tuple)) else [answer]
    found, tags = [], {}
    for one in answers:
        for n, words, tag in matches(one, got, want, tagged=True):
            if tag is None or tag not in tags:
                found.append((n, words))
                if tag is not None:
                    tags[tag] = words
    if found:
        fewest = min(n for n, _ in found)
        found = [(n, w) for n, w in dict.fromkeys(found) if n == fewest]
    if not found:
        return None
    if len(found) == 1:
        return found[0][1]
    if len(found) == 2:
        a, b = found[0][1], found[1][1]
        return plainer(a, b) if one_story(a, b, got) else either(a, b)
    return None


# "either A; or B" words the search built, with their two alternatives: the check weighs each on the learner's own
# cell and looks (kinds.Question._weigh), keeps the one they prove, and writes two it cannot part one sentence each
EITHER: dict = {}

# How two explanations of one number are framed. Each alternative's words are written as what puts the number
# right, the question's setting first ("the cache is sized at the serving context, not the training context"): a
# frame that read them as the slips made ("either A, or B" after "two slips") would name the right setting as
# the slip. So the frame asks the learner to put right the one they made, and lists the fixes.
TWO_SLIPS = "two slips give exactly your number; put right the one you made"
EITHER_LEAD = TWO_SLIPS + ": either "
EITHER_SEP = "; or "


# The frame of two explanations when one of them is itself two slips ("X; and Y"): "put right the one slip you
# made" would contradict an alternative that names two; a slip both share is said once first (`worded`)
TWO_WAYS_LEAD = "two explanations give exactly your number; put right the one that is yours: either "


def either(a: str, b: str) -> str:
    """The words naming two explanations of one number, each as its fix; registered for `alternatives`."""
    words = f"{EITHER_LEAD}{a}{EITHER_SEP}{b}"
    EITHER[words] = (a, b)
    return words


def worded(words):
    """`either` words as a learner reads them: where an alternative is itself two slips ("X; and Y"), the slip
    both share said once, then the one slip more (`shared_slip`), else the frame of two explanations; other words
    as they are. Applied where the words are shown (kinds: a question's weighed words, a Design rule's problems)."""
    pair = alternatives(words)
    if not pair or not any(len(_clauses_of(a)) > 1 for a in pair):
        return words
    return shared_slip(*pair) or f"{TWO_WAYS_LEAD}{pair[0]}{EITHER_SEP}{pair[1]}"


def alternatives(words: str) -> tuple | None:
    """The two explanations of `either(A, B)` words, or None."""
    return EITHER.get(words) if isinstance(words, str) else None


def recipe(answer) -> str:
    """How the answer is made, in its top-level parts' names ("rows × columns"): no values."""
    answer = answer[0] if isinstance(answer, (list, tuple)) else answer
    tree = answer.tree
    children = [c for c in getattr(tree, "children", []) if not isinstance(c, Extra)]
    if isinstance(tree, Prod):
        return " × ".join(c.name for c in children)
    if isinstance(tree, Sum):
        return " + ".join(c.name for c in children)
    if isinstance(tree, Ratio):
        return f"{children[0].name} / {children[1].name}"
    return tree.name
