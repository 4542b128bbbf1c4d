"""What a run writes: the CSV of rows, the class's totals, the LMS gradebook, and the summary
it prints (embedlab-grade --out, --totals, --gradebook).

Every file is written atomically and every text cell is spreadsheet-safe
(embedlab.grading.text: atomic_output, csv_cell, csv_writer).
"""

from __future__ import annotations

import csv
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from embedlab.grading.judge import Row
from embedlab.grading.keys import LessonKeys
from embedlab.grading.lessons import questions_for
from embedlab.grading.lms import Roster, _key, write_gradebook
from embedlab.grading.policy import Policy
from embedlab.grading.status import (
    MARKED,
    TO_MARK,
    CORRECT,
    GRADED,
    IDENTITY_MISMATCH,
    MISSING_WORK,
    NEEDS_KEYS,
    NOT_GRADED,
    NOT_GRADED_YET,
    REVIEW,
    STATUSES,
    TO_REVIEW,
    UNKNOWN_SUBMITTER,
    UNREADABLE,
    WRONG_LESSON,
    WRONG_PARAMETERS,
    format_points,
)
from embedlab.grading.submissions import UNREAD_FOLDER
from embedlab.grading.text import atomic_output, csv_cell, csv_writer, display_name, display_width, pad, printable

COLUMNS = ("submission", "lesson", "question", "points", "max_points", "status", "detail", "learner")
TOTALS_COLUMNS = ("learner", "lesson", "points", "max_points", "status", "submissions", "counted", "late",
                  "adjustment", "late_penalty", "final", "weight", "policy")
NO_SANDBOX_NOTE = "no sandbox (--no-sandbox): submissions ran with the grader's privileges"
NO_GROUP_NOTE = ("no control group per submission: --memory-mb bounds each process, not a submission's "
                 "processes and files together, and --max-processes is not enforced (book/grading.md, Limits)")


def write_csv(rows: list[Row], out: Path) -> None:
    """Write the CSV atomically (see atomic_output)."""
    with atomic_output(out, "w", newline="", encoding="utf-8") as f:
        writer = csv_writer(f)
        writer.writerow(COLUMNS)
        for r in rows:
            writer.writerow([csv_cell(r.submission), csv_cell(r.lesson), csv_cell(r.question),
                             _points(r.points), format_points(r.max_points), r.status,
                             csv_cell(printable(r.detail)), csv_cell(printable(r.learner))])


def _points(points) -> str:
    return "" if points is None else format_points(points)


@dataclass
class Total:
    """One learner's line for one lesson in the totals and the gradebook."""
    learner: str
    lesson: str
    points: float | None  # empty unless `graded` or `review`
    max_points: float
    status: str  # graded, missing, not_graded, review (embedlab.grading.status.TOTAL_STATUSES)
    submissions: int  # how many of their files were found for this lesson
    counted: str = ""  # the file whose points count (graded), or the one set aside (review)
    late: bool = False  # the LMS marked that file late
    # --policy (embedlab.grading.policy): final = points + adjustment - late_penalty; without a policy
    # final is the points of a graded lesson. `final` is what every gradebook and report shows; None
    # where there is nothing to import (missing, not graded, review: unless the policy sets the total).
    adjustment: float = 0.0
    late_penalty: float = 0.0
    final: float | None = None
    weight: float | None = None  # the lesson's weight in the weighted total (--policy), else None
    # --latest, set aside: the learner's files that only their metadata says are theirs (a flat folder),
    # each as likely to be a classmate's as theirs: none counts until the instructor decides
    unplaced: tuple = ()


@dataclass(frozen=True)
class Scope:
    """Which learners a run holds (a term's sections graded run by run, from one roster): its totals,
    gradebook, report and feedback have a line for these learners only, and a learner outside it is
    never `missing` here (graded elsewhere). A learner with a file in the run is held too, unless
    `strict` (--section: another section's file in a shared folder stays out of this run's totals).

    `learners` None: every learner of the keys; `per_lesson` narrows it lesson by lesson (Moodle's
    participant ids, one column per assignment); `words` says how it was chosen (the run's summary)."""

    learners: frozenset | None = None
    per_lesson: dict = field(default_factory=dict)
    words: str = ""
    # The learners of the section(s) the run is for (--section's, the layout's), whom a gradebook made
    # from merged totals lists (--merge: a straggler's run holds one learner, its gradebook the section)
    section: frozenset | None = None
    # --section: the section's learners only, even one with a file in the run (another section's folder in
    # a shared download: graded in scores.csv, held by that section's run); else a file's learner is held
    strict: bool = False

    def holds(self, learner: str, lesson: str) -> bool:
        held = self.per_lesson.get(lesson, self.learners)
        return held is None or learner in held


def totals(rows: list[Row], keys: dict[str, LessonKeys], complete: bool = True, rule: str = "best",
           mtimes: dict | None = None, lessons=(), late=frozenset(), policy: Policy | None = None,
           placed=None, trust_metadata: bool = False, scope: Scope | None = None) -> list[Total]:
    """One Total per roster learner and lesson graded (or named in `lessons`), sorted: with `scope`,
    only the learners it holds and those with a file in these rows (the others are not in this run).

    Of a learner's submissions for a lesson, the graded ones count: the best (`rule` "best",
    the default) or the newest file (`rule` "latest": the LMS's own upload order where its names
    give one, Canvas's attachment id, else the file's modification time); a learner
    with none graded is `review` when one was set aside for the instructor (another learner's
    notebook in their slot, wrong parameters...), `not_graded` when the run stopped or failed
    before grading theirs (or, after an incomplete run, when none of theirs was seen), and
    `missing` when a complete run found nothing of theirs.

    With `policy` (--policy), its adjustments, late rule and weights are merged in (Policy.apply:
    PolicyError, and no total, when an entry cannot be applied to these grades).

    `placed` holds the submissions whose learner the layout says (their folder, the LMS's name or
    record: grader._owner_of); None when every file's does. With `rule` "latest", a learner's graded
    files of a lesson of which at least one is not placed (only its metadata names the learner: a
    flat shared folder, where a classmate can hand in a newer, blank copy of another's handout) are not
    resolved by recency: the total is `review`, no points, every such file listed (`unplaced`), unless
    `trust_metadata` (--trust-metadata: the instructor collected the files, so metadata is who handed
    each in). With "best" a file cannot lower another's points, so the best counts as ever."""
    mtimes = mtimes or {}  # submission -> how recent (a number, or a tuple: the LMS's order, then the time)
    oldest = min(mtimes.values()) if mtimes else 0.0
    per: dict = {}  # (learner, lesson) -> {submission: [points, statuses, order]}
    for order, row in enumerate(rows):
        if row.learner and row.lesson:
            got = per.setdefault((row.learner, row.lesson), {}).setdefault(row.submission, [0.0, set(), order])
            got[0] += row.points or 0.0
            got[1].add(row.status)
    out = {}
    for lesson in sorted({row.lesson for row in rows if row.lesson in keys} | {x for x in lessons if x in keys}):
        best = float(sum(q.points for q in questions_for(lesson)))
        for learner in keys[lesson].learners:
            if scope is not None and not scope.holds(learner, lesson) and (scope.strict or (learner, lesson) not in per):
                continue  # another section's, or graded in a run of its own: not in this run, never missing
            subs = per.get((learner, lesson), {})
            graded = {k: v for k, v in subs.items() if not v[1] & ({NOT_GRADED} | set(REVIEW))}
            review = {k: v for k, v in subs.items() if v[1] & set(REVIEW)}
            stopped = {k: v for k, v in subs.items() if NOT_GRADED in v[1]}
            doubtful = (rule == "latest" and len(graded) > 1 and not trust_metadata and placed is not None
                        and any(k not in placed for k in graded))
            if doubtful:
                total = Total(learner, lesson, None, best, TO_REVIEW, len(subs), "", any(k in late for k in graded),
                              unplaced=tuple(sorted(graded, key=lambda k: (mtimes.get(k, oldest), graded[k][2]))))
            elif graded:
                if rule == "latest":
                    pick = max(graded, key=lambda k: (mtimes.get(k, oldest), graded[k][2]))
                else:
                    pick = max(graded, key=lambda k: (graded[k][0], mtimes.get(k, oldest), graded[k][2]))
                total = Total(learner, lesson, graded[pick][0], best, GRADED, len(subs), pick, pick in late)
            elif review:
                pick = max(review, key=lambda k: review[k][2])
                total = Total(learner, lesson, 0.0, best, TO_REVIEW, len(subs), pick, pick in late)
            elif stopped or not complete:
                total = Total(learner, lesson, None, best, NOT_GRADED_YET, len(subs))
            else:
                total = Total(learner, lesson, None, best, MISSING_WORK, 0)
            total.final = total.points if total.status == GRADED else None
            out[learner, lesson] = total
    found = [out[k] for k in sorted(out)]
    return policy.apply(found, rows) if policy is not None else found


def write_totals(rows: list[Row], keys: dict[str, LessonKeys], out: Path, kept: list | None = None, **how) -> None:
    """Write the totals CSV atomically, as write_csv does (`how`: see `totals`). `kept`: rows of an
    earlier totals file (`read_totals`) written again as they were, each (learner, lesson) this run
    has a total for replaced by this run's (`--merge`)."""
    found = totals(rows, keys, **how)
    mine = {(t.learner, t.lesson) for t in found}
    lines = [((t.learner, t.lesson), [csv_cell(t.learner), csv_cell(t.lesson), _points(t.points),
                                      format_points(t.max_points), t.status, t.submissions,
                                      csv_cell(t.counted or " | ".join(t.unplaced)),
                                      "late" if t.late or t.late_penalty else "", format_points(t.adjustment),
                                      format_points(t.late_penalty), _points(t.final),
                                      "" if t.weight is None else format_points(t.weight),
                                      csv_cell(printable(_policy_notes(t, how.get("policy"))))])
             for t in found]
    lines += [((r["learner"], r["lesson"]), [r[c] for c in TOTALS_COLUMNS]) for r in kept or []
              if (r["learner"], r["lesson"]) not in mine]
    with atomic_output(out, "w", newline="", encoding="utf-8", flag="--totals") as f:
        writer = csv_writer(f)
        writer.writerow(TOTALS_COLUMNS)
        for _, line in sorted(lines, key=lambda kv: kv[0]):
            writer.writerow(line)


def read_totals(path: Path) -> list[dict]:
    """The rows of a totals file embedlab-grade wrote (--merge: the term's totals a run adds to), each a
    dict of TOTALS_COLUMNS; [] when there is no such file yet. ValueError naming the file and line of
    anything else: another header, a row whose numbers do not read."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"--merge: cannot read {display_name(path)} ({type(exc).__name__})") from None
    reader = csv.reader(text.splitlines())
    header = next(reader, [])
    if tuple(header) != TOTALS_COLUMNS:
        raise ValueError(f"--merge: {display_name(path)} is not a totals file of embedlab-grade (its header: "
                         f"{', '.join(header[:14])})")
    out = []
    for line, cells in enumerate(reader, start=2):
        row = dict(zip(TOTALS_COLUMNS, cells))
        try:
            if len(cells) != len(TOTALS_COLUMNS) or row["status"] not in (GRADED, MISSING_WORK, NOT_GRADED_YET,
                                                                          TO_REVIEW):
                raise ValueError
            int(row["submissions"] or 0)
            for column in ("max_points", "adjustment", "late_penalty"):
                float(row[column])
            for column in ("points", "final", "weight"):
                if row[column]:
                    float(row[column])
        except ValueError:
            raise ValueError(f"--merge: {display_name(path)}, line {line}: not a row of a totals file "
                             f"({', '.join(cells[:4])} …)") from None
        out.append(row)
    return out


def kept_totals(kept: list[dict]) -> list[Total]:
    """The rows `read_totals` gave as Totals (what a merged gradebook is made from)."""
    number = lambda text: float(text) if text else None  # noqa: E731
    return [Total(r["learner"], r["lesson"], number(r["points"]), float(r["max_points"]), r["status"],
                  int(r["submissions"] or 0), r["counted"], bool(r["late"]), float(r["adjustment"]),
                  float(r["late_penalty"]), number(r["final"]), number(r["weight"])) for r in kept]


def _policy_notes(t: Total, policy) -> str:
    """What the policy did to one total, in the words feedback shows (each adjustment's reason, the
    late rule): every grade in --totals stays explainable."""
    if policy is None:
        return ""
    notes = [str(a) for a in policy.adjustments_for(t.learner, t.lesson)]
    late = policy.late_for(t.learner, t.lesson) if t.late_penalty else None
    return " | ".join(notes + ([str(late)] if late else []))


def several(rows: list[Row]) -> list[tuple[str, str, int]]:
    """(learner, lesson, how many) for every learner with more than one submission of a lesson."""
    seen: dict = {}
    for row in rows:
        if row.learner and row.lesson:
            seen.setdefault((row.learner, row.lesson), set()).add(row.submission)
    return [(learner, lesson, len(subs)) for (learner, lesson), subs in sorted(seen.items()) if len(subs) > 1]


def question_statistics(rows: list[Row]) -> list[tuple[str, str, int, int, str, int]]:
    """(lesson, question, correct, judged, most frequent hint, its count) per question: what a
    class missed. Only submissions whose answers were judged count (not review, not not_graded)."""
    per: dict = {}
    for row in rows:
        if not row.question or row.status in REVIEW or row.status in (NOT_GRADED, UNREADABLE, WRONG_LESSON):
            continue
        if row.status in (TO_MARK, MARKED):  # written work: marked by hand (embedlab.grading.manual.summary)
            continue
        got = per.setdefault((row.lesson, row.question), [0, 0, {}])
        got[1] += 1
        if row.status == CORRECT:
            got[0] += 1
        elif row.detail:
            hint = re.sub(r"^on input \d+ of \d+, ", "", row.detail)
            got[2][hint] = got[2].get(hint, 0) + 1
    out = []
    for (lesson, question), (right, judged, hints) in per.items():
        common = max(hints.items(), key=lambda kv: (kv[1], -len(kv[0])), default=("", 0))
        out.append((lesson, question, right, judged, common[0], common[1]))
    return out


SUMMARY_WIDTH = 72  # terminal columns of the summary's submission column, at most


def summary(rows: list[Row]) -> str:
    """One line per submission: its points, then its questions by status, each labelled (a
    question may be worth 2 points: "7 / 7" points can be "6 of 6 questions correct")."""
    per: dict[str, list[Row]] = {}
    for row in rows:
        per.setdefault(row.submission, []).append(row)
    # display width (a full-width name takes two columns a character), at most SUMMARY_WIDTH: a longer
    # label (a path nested deep) overflows its own line rather than pushing every other line right
    width = min(SUMMARY_WIDTH, max([len("submission")] + [display_width(s) for s in per]))
    lines = [f"{pad('submission', width)}  {'lesson':<20}  {'points':>9}  questions"]
    for label, group in per.items():
        got, best = sum(r.points or 0.0 for r in group), sum(r.max_points for r in group)
        shown = "-" if all(r.points is None for r in group) else format_points(got)
        counts = {}
        for r in group:
            counts[r.status] = counts.get(r.status, 0) + 1
        questions = f"{counts.get(CORRECT, 0)} of {len(group)} correct" + "".join(
            f", {counts[s]} {s}" for s in STATUSES if s in counts and s != CORRECT)
        lines.append(f"{pad(label, width)}  {pad(group[0].lesson, 20)}  "
                     f"{shown + ' / ' + format_points(best):>9}  {questions}")
    return "\n".join(lines)


def statistics_text(rows: list[Row]) -> str:
    """The per-question statistics of a class run, as printed after the summary."""
    stats = question_statistics(rows)
    if not stats:
        return ""
    lines = ["per question (judged submissions): share correct, and the most frequent hint"]
    for lesson, question, right, judged, hint, count in stats:
        share = f"{right}/{judged} ({100 * right / judged:.0f} %)" if judged else "0/0"
        lines.append(f"  {lesson} {question}: {share}" + (f"; {count}× \"{hint[:160]}\"" if hint else ""))
    return "\n".join(lines)


def write_class_gradebook(path: Path, rows: list[Row], keys, roster, fmt: str, how: dict,
                          kept: list | None = None) -> None:
    """The LMS gradebook (embedlab.grading.lms.write_gradebook) from the totals: points where a
    learner's lesson was graded, empty where it was not (missing, not graded, or set aside for
    review: an instructor's decision, not a zero to import). With a run's scope (sections), a row
    only for the learners it holds. `kept`: an earlier totals file's rows (--merge), this run's
    replacing theirs."""
    found = totals(rows, keys, **how)
    mine = {(t.learner, t.lesson) for t in found}
    found += [t for t in kept_totals(kept or []) if (t.learner, t.lesson) not in mine]
    scope = how.get("scope")
    if kept and scope is not None and scope.section is not None:
        found = [t for t in found if t.learner in scope.section]  # the merged totals of this run's section
    if roster is not None and (scope is not None or kept):
        roster = roster.only({t.learner for t in found})
    lessons = sorted({t.lesson for t in found})
    if not lessons:
        return
    points = {(t.learner, t.lesson): t.final for t in found}
    max_points = {t.lesson: t.max_points for t in found}
    if roster is None:  # the plain form, without --roster: the keys' learners
        learners = tuple(sorted({t.learner for t in found}))
        roster = Roster("(the instructor keys)", learners, ("learner",), {n: {"learner": n} for n in learners},
                        {("learner", _key("learner", n)): n for n in learners})
    points = {k: v for k, v in points.items() if k[0] in roster.learners}
    weighted = weighted_totals(found, how.get("policy"))
    write_gradebook(path, roster, points, lessons, max_points, fmt,
                    weighted={k: v for k, v in weighted.items() if k in roster.learners} if weighted else None)


def scope_summary(scope: Scope, rows: list[Row], keys, how: dict, kept: list | None) -> str:
    """The run's summary line on whom it holds: its learners, how they were chosen, and how many
    learners of the keys it leaves to other runs (never `missing` here)."""
    found = totals(rows, keys, **how)
    held = {t.learner for t in found}
    everyone = {n for lesson in {t.lesson for t in found} for n in keys[lesson].learners}
    line = (f"learners in this run: {len(held)} ({scope.words}); {len(everyone - held)} other learner(s) of the "
            "keys are not in this run (graded in another, never missing here)")
    outside = {r.learner for r in rows if r.learner and r.learner not in held and r.lesson in keys}
    if outside:
        line += (f"; {len(outside)} learner(s) of another section had a file here: in --out's rows, not in this "
                 f"run's totals ({', '.join(sorted(outside)[:5])}{' …' if len(outside) > 5 else ''})")
    if kept is not None:
        line += (f"; --merge: {len(found)} total(s) of this run replace theirs among the "
                 f"{len(kept)} kept from the earlier totals")
    return line


def weighted_totals(found: list[Total], policy) -> dict | None:
    """{learner: weighted total in percent} (Policy.weighted_total) when the policy gives weights, else None."""
    if policy is None or not policy.weights:
        return None
    per: dict = {}
    for t in found:
        per.setdefault(t.learner, []).append(t)
    return {learner: policy.weighted_total(mine) for learner, mine in per.items()}


def print_summary(rows: list[Row], submissions, outputs: dict, *, stopped: bool, seconds: float, seed: int | None,
                  totals: bool, keys, rule: str, bwrap: str | None, no_group: str, limits,
                  how: dict | None = None) -> None:
    """What embedlab-grade prints once the files are written: a line per submission, the class's
    statistics, what was graded and written, and how (function inputs, sandbox, budget)."""
    print(summary(rows))
    if keys is not None and len({r.submission for r in rows}) > 1:
        stats = statistics_text(rows)
        if stats:
            print("\n" + stats)
    graded = len({r.submission for r in rows if r.status != NOT_GRADED})
    what = "graded" if not stopped else f"graded before Ctrl-C stopped the run (of {len(submissions)})"
    wrote = ", ".join(display_name(p) for p in outputs.values())
    print(f"\n{graded} submission(s) {what} in {seconds:.1f} s; wrote {wrote}")
    if stopped:
        print(f"{len({r.submission for r in rows if r.status == NOT_GRADED})} submission(s) not graded: their rows "
              f"say {NOT_GRADED} with no points" + (" and their learners' totals say not_graded" if totals
                                                     else ""))
    print("function inputs: " + (f"each question's fixed ones and random ones drawn with --seed {seed}"
                                 if seed is not None else "each question's own (as the notebook's check draws them)"))
    unread = [s.label for s in submissions if s.real is None and s.problem.startswith(UNREAD_FOLDER)]
    if unread:
        print(f"{len(unread)} folder(s) of the submissions that could not be read (nested too deep for the "
              "system's path limit, or no permission): whatever they hold is not graded; each has its "
              "unreadable row:" + "".join(f"\n  {label if len(label) <= 200 else label[:80] + ' … ' + label[-100:]}"
                                           for label in unread[:20]), file=sys.stderr)
    if keys is not None:
        _print_class_notes(rows, submissions, rule, how)
    class_notebooks = len({r.submission for r in rows if r.status == NEEDS_KEYS})
    if class_notebooks:
        print(f"{class_notebooks} class notebook(s) not graded (status {NEEDS_KEYS}): they are judged against "
              "each learner's variant; grade them with --keys DIR/instructor-keys", file=sys.stderr)
    print("sandbox: bubblewrap, one per submission" if bwrap else NO_SANDBOX_NOTE)
    print(NO_GROUP_NOTE if no_group else f"budget: one control group per submission ({limits.memory_mb:,} MB, "
                                         f"{limits.max_processes:,} processes and threads)")


def _print_class_notes(rows: list[Row], submissions, rule: str, how: dict | None = None) -> None:
    """Class mode's part of the summary: the rule for several submissions, and the files set aside."""
    how = how or {}
    print(f"a learner with several submissions of a lesson: the {rule} counts "
          f"({'--best, the default' if rule == 'best' else '--latest: the newest file'})")
    for learner, lesson, count in several(rows):
        print(f"  {learner}: {count} submissions of {lesson}")
    placed = how.get("placed")
    if placed is not None:
        doubtful = {}  # (learner, lesson) -> the graded files of it that only their metadata places
        for row in rows:
            if row.learner and row.lesson and row.status not in (NOT_GRADED, *REVIEW):
                doubtful.setdefault((row.learner, row.lesson), set()).add(row.submission)
        doubtful = {k: v for k, v in doubtful.items() if len(v) > 1 and v - set(placed)}
        if doubtful and rule == "latest" and not how.get("trust_metadata"):
            print(f"{len(doubtful)} learner lesson(s) set aside for review (totals status {TO_REVIEW}, no points): "
                  "several files name the learner, and nothing but their metadata says who handed them in (a "
                  "shared folder, not one folder per learner), so --latest cannot tell theirs from a newer copy "
                  "a classmate made: keep the right one, or grade with --best (a file never lowers another's "
                  "points) or --trust-metadata (you collected the files yourself):"
                  + "".join(f"\n  {learner}, {lesson}: " + " | ".join(sorted(files))
                            for (learner, lesson), files in sorted(doubtful.items())[:20]), file=sys.stderr)
        elif doubtful:
            print(f"{len(doubtful)} learner lesson(s) with several files that only their metadata says are "
                  f"theirs (a shared folder): the {rule} counts"
                  + (" (--trust-metadata)" if rule == "latest" else ": a file never lowers another's points")
                  + "".join(f"\n  {learner}, {lesson}: " + " | ".join(sorted(files))
                            for (learner, lesson), files in sorted(doubtful.items())[:20]))
    unknown = sorted({(r.submission, r.detail) for r in rows if r.status == UNKNOWN_SUBMITTER})
    if unknown:
        print(f"{len(unknown)} file(s) whose submitter the roster does not give, or whose name reads more "
              f"than one way (status {UNKNOWN_SUBMITTER}): not graded:"
              + "".join(f"\n  {label}: {detail}" for label, detail in unknown[:20])
              + (f"\n  … and {len(unknown) - 20} more" if len(unknown) > 20 else ""), file=sys.stderr)
    review = sorted({(r.learner, r.status, r.submission) for r in rows
                     if r.status in (IDENTITY_MISMATCH, WRONG_PARAMETERS)})
    if review:
        print(f"{len(review)} submission(s) to review (status {IDENTITY_MISMATCH} or {WRONG_PARAMETERS}): "
              "0 points, credited to nobody:" + "".join(f"\n  {learner or '(no learner)'}: {status}, {label}"
                                                        for learner, status, label in review[:20])
              + (f"\n  … and {len(review) - 20} more" if len(review) > 20 else ""), file=sys.stderr)
    late = sorted({s.label for s in submissions if s.late})
    if late:
        print(f"{len(late)} file(s) the LMS marked late (the totals' late column):"
              + "".join(f"\n  {label}" for label in late[:20]), file=sys.stderr)
