"""Class mode in the grader: the instructor keys of a run, whose notebook a submission is,
and whether it holds that learner's variant.

embedlab-assign gives each learner a variant of a lesson and writes the instructor keys
(embedlab.grading.keys); here a submission is matched to its learner (its metadata, its
folder, the LMS's or Gradescope's record of who handed it in) and to the parameters that
learner's variant must hold.
"""

from __future__ import annotations

import dataclasses
import json

from embedlab.grading.keys import KeysError, LessonKeys
from embedlab.grading.status import IDENTITY_MISMATCH, UNKNOWN_SUBMITTER, WRONG_LESSON
from embedlab.grading.submissions import Submission
from embedlab.grading.text import cut
from embedlab.grading.variants import parameters_of


def _plain_json(value):
    """Parameters as the keys file holds them (JSON: tuples are lists) for comparison."""
    try:
        return json.loads(json.dumps(value, sort_keys=True, default=lambda v: sorted(v, key=repr)
                                     if isinstance(v, (set, frozenset)) else str(v)))
    except (TypeError, ValueError):
        return None


def wrong_parameters(parameters: dict | None, variant, lesson_keys: LessonKeys, lesson: str) -> str:
    """Why a class notebook's parameters cell does not hold its learner's variant ("" if it does):
    whose parameters it holds when that is known (the book's, another variant's), never whose
    notebook those belong to."""
    want = _plain_json(variant.parameters)
    if parameters is not None:
        got = {name: parameters.get(name) for name in want}
        if _plain_json(got) == want:
            return ""
    lead = "its parameters cell does not hold this learner's variant"
    if parameters is None:
        return f"{lead}: it has no cell of `name = value` lines tagged parameters; not graded"
    got = _plain_json({name: parameters.get(name) for name in want})
    if got == _plain_json({n: v for n, v in parameters_of(lesson, 0).items() if n in want}):
        return f"{lead}: it holds the book's parameters (the published exercise's); not graded"
    if any(got == _plain_json(v.parameters) for n, v in lesson_keys.keys.items() if n != variant.number):
        return f"{lead}: it holds another variant's parameters; not graded"
    differ = sorted(name for name in want if _plain_json(parameters.get(name)) != want[name])
    return f"{lead}: {', '.join(differ[:6])} changed; not graded"


def merge_keys(loaded: list[tuple[str, dict[str, LessonKeys]]]) -> dict[str, LessonKeys]:
    """One {lesson: keys} from several instructor-keys folders (lessons assigned week by week, a
    late learner assigned in a run of their own). One lesson in two folders merges its learners
    when both runs made the same variants (the same secret and K); KeysError if they did not,
    or if one learner has two variants."""
    merged, where = {}, {}
    for folder, keys in loaded:
        for lesson, mine in keys.items():
            if lesson not in merged:
                merged[lesson], where[lesson] = mine, folder
                continue
            theirs = merged[lesson]
            # ids are compared without case, as everywhere a learner is looked up: 'Ada' in one run and
            # 'ada' in another are one learner, kept under the first spelling
            known = {name.casefold(): (name, n) for name, n in theirs.learners.items()}
            clash = (f"{where[lesson]!r} and {folder!r} hold different keys for {lesson}"
                     if (theirs.variants, theirs.keys) != (mine.variants, mine.keys) else
                     next((f"{where[lesson]!r} and {folder!r} give learner {name!r} different variants of {lesson}"
                           for name, n in mine.learners.items()
                           if known.get(name.casefold(), (name, n))[1] != n), None))
            if clash:
                raise KeysError(f"{clash} (assigned with another secret or K?): give the folder of the run "
                                "that assigned it")
            added = {name: n for name, n in mine.learners.items() if name.casefold() not in known}
            merged[lesson] = dataclasses.replace(theirs, learners={**theirs.learners, **added})
    return merged


def class_variant(sub: Submission, meta, lesson: str, keys: dict[str, LessonKeys]):
    """(learner, variant or None, status, why not) of a class submission.

    The learner is the one its metadata names; a notebook in a roster learner's
    folder (the nearest folder, up to the one named on the command line, whose
    name is a learner's, case ignored) must name that learner. The variant is the
    keys' record for that learner, never the metadata's own (a learner can edit
    metadata).
    """
    lesson_keys = keys.get(lesson)
    if lesson_keys is None:
        return "", None, WRONG_LESSON, f"the instructor keys hold no variants of {lesson}"
    named = meta.get("learner") if isinstance(meta, dict) and isinstance(meta.get("learner"), str) else None
    # Learner ids compare without case everywhere (rosters, folders, LMS and Gradescope records, metadata):
    # each is read as the keys' own spelling of it.
    by_name = {name.lower(): name for name in lesson_keys.learners}
    on_roster = by_name.get(named.lower()) if named is not None else None
    if sub.submitter is not None:  # an LMS download or Gradescope: the LMS says who handed it in
        owner = by_name.get(sub.submitter.lower())
        if owner is None:
            return "", None, UNKNOWN_SUBMITTER, (f"submitted by {cut(repr(sub.submitter), 80)}, who has no "
                                                 f"variant of {lesson} in these keys: not graded")
        if named is not None and on_roster != owner:
            return owner, None, IDENTITY_MISMATCH, (f"submitted by {owner} ({sub.submitter_source}), but its "
                                                    f"metadata names learner {cut(repr(named), 80)}: not "
                                                    "graded, credited to nobody")
        return owner, lesson_keys.for_learner(owner), "", ""
    folders = sub.folders or (sub.path.parent.name,)
    owner = next((by_name[name.lower()] for name in folders if name.lower() in by_name), None)
    if owner is not None and named is not None and on_roster != owner:
        return owner, None, IDENTITY_MISMATCH, (f"in {owner}'s folder, but its metadata names learner "
                                                f"{cut(repr(named), 80)}: not graded, credited to nobody")
    if named is not None and on_roster is None:
        return cut(named, 80), None, IDENTITY_MISMATCH, (f"learner {cut(repr(named), 80)} is not on the "
                                                           "roster these keys were made for: not graded")
    learner = on_roster if named is not None else owner
    if learner is None:
        return "", None, IDENTITY_MISMATCH, ("no learner in its metadata, and nothing says who handed it in (a "
                                             "learner's folder, an LMS layout, Gradescope's record): not graded")
    return learner, lesson_keys.for_learner(learner), "", ""
