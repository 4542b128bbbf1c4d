"""The named parts' search works a part's value out once (embedlab.grading.parts._answered) and reuses it for
every change that does not reach below it (parts._touched). Here that shortcut is checked against the
evaluation without it, on every question of every lesson with named parts: every single change the search
makes, and pairs of them, give the same value both ways (or fail the same way), so a hint built from the
search cannot differ for the shortcut's sake."""

from __future__ import annotations

import itertools
import math

import pytest

from embedlab.grading import parts
from embedlab.grading.lessons import known_lessons, questions_for


class _Everything:
    """A set every change meets: with it as every node's keys, no part's value is ever reused."""

    def isdisjoint(self, other) -> bool:
        return False


def _value(tree, change):
    try:
        v = parts._eval(tree, change)
    except (ArithmeticError, ValueError, TypeError, OverflowError) as e:
        return type(e).__name__
    return "nan" if isinstance(v, float) and math.isnan(v) else v


def _answers(lesson):
    for q in questions_for(lesson, None):
        if getattr(q, "parts", None) is None:
            continue
        try:
            made = q.parts()
        except Exception:  # noqa: BLE001 - a question whose parts need a learner's value: not this test's
            continue
        for answer in made if isinstance(made, (list, tuple)) else [made]:
            if isinstance(answer, parts.Answer):
                yield q.name, answer


@pytest.mark.parametrize("lesson", known_lessons())
def test_a_part_worked_out_once_gives_what_working_it_out_again_gives(lesson, monkeypatch):
    checked = 0
    for name, answer in _answers(lesson):
        singles = [c for c, _, _ in parts.changes_of(answer)]
        changes = [{}, *singles, *({**a, **b} for a, b in itertools.islice(itertools.combinations(singles, 2), 400))]
        fast = [_value(answer.tree, c) for c in changes]
        with monkeypatch.context() as patch:
            patch.setattr(parts, "_touched", lambda node: _Everything())
            patch.setattr(parts, "_answered", lambda node: node.value({}))
            slow = [_value(answer.tree, c) for c in changes]
        assert fast == slow, (name, [(c, f, s) for c, f, s in zip(changes, fast, slow) if f != s][:3])
        checked += len(changes)
    assert checked or lesson in NO_PARTS, f"{lesson}: no question with named parts was checked"


NO_PARTS = {"11-size-a-model"}  # its questions are a design and functions of one: no named parts


def test_every_op_a_group_change_is_written_under_is_one_the_shortcut_reads():
    """A group's change is keyed by its id and an op ("#without", "#times" …): an op that parts._touched does not
    list makes the shortcut reuse the group's value as answered under that change (a new op added without it
    gave lesson 06's "T times too large" story the answered value, and the story vanished)."""
    ops = {v for k, v in vars(parts).items() if k.isupper() and isinstance(v, str) and v.startswith("#")}
    assert ops and ops <= set(parts.GROUP_OPS), ops - set(parts.GROUP_OPS)
