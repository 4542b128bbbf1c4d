"""Handing each learner their own file: the public bundle, and zips in Moodle's feedback-upload form.

Two ways a class's per-learner files reach learners through an LMS
(embedlab-assign writes them; book/grading.md, "Handing out per-learner handouts
through Canvas / Moodle" and "Releasing solutions", says how to upload them):

* **A Moodle feedback zip** (`write_moodle_zip`): one entry per learner, named as
  Moodle's "Upload multiple feedback files in a zip" reads it
  (embedlab.grading.lms.moodle_feedback_name): each learner finds their own file
  under Feedback on the assignment's page, before the due date as after it.

* **The public bundle** (`write_public_bundle`, `open_public_bundle`): one file,
  the same for the whole class, posted anywhere (a Canvas course file, a Moodle
  resource), from which each learner makes their own handout in their clone of the
  course: ``embedlab-handout BUNDLE --learner ID``. Canvas cannot take files per
  learner before the due date (its "Re-upload submissions" attaches a file only to
  a file the learner already submitted: ``Assignment#infer_comment_context_from_filename``
  in app/models/assignment.rb of canvas-lms), so the bundle is Canvas's way.

The public bundle holds no key, no secret and no list of the class. It is JSON:

    {"format": "embedlab-public-bundle", "version": 2, "lessons": [...],
     "exercises": {lesson: the exercise notebook every handout is made from (public)},
     "solutions": {lesson: the solution notebook, without outputs (public: the book's)},
     "kdf": {"name": "pbkdf2-sha256", "iterations": N, "salt": hex},
     "entries": {index: sealed entry, ...}}

Each sealed body also holds the SHA-256 of everything else in the bundle (`shared_digest`: its
format, lessons, exercises, solutions, kdf, every field but the entries), so the exercise a handout
is made from is authenticated with the learner's entry: a bundle whose shared part was edited or
damaged (one word of an exercise, a line added to its code) opens no entry, and nothing is written.
The kdf's parameters are bounded before any key is derived (`check_kdf`: the name, an iteration
count from MIN_ITERATIONS to KDF_ITERATIONS, a 16-byte salt): a bundle asking for more is refused
with a message naming the field, never ground through.

Each learner's entry is found and opened with a key derived from their id alone
(`learner_key`: PBKDF2-HMAC-SHA256 of the id without case, the bundle's salt,
KDF_ITERATIONS rounds): the entry's index is an HMAC of that key, and its body
(the learner's id as the roster spells it, and per lesson their variant and
parameters cell) is encrypted with an HMAC-SHA256 keystream and authenticated
with an HMAC tag (encrypt-then-MAC, stdlib only). So reading an entry takes its
learner's id: the bundle gives no more than guessing ids one by one, each guess
costing one key derivation. Every body has the same length (padded), and decoy
entries, indistinguishable from real ones, pad the count to a multiple of
DECOY_ROUNDING, so neither who shares a variant nor the exact class size shows.
The salt and the decoys are derived from the instructor's secret by HMAC (a
one-way function: nothing of the secret can be read back from them), so the same
secret, roster and course write the same bundle bytes.

What the bundle cannot hide: anyone who knows a learner's id can make that
learner's handout, as the learner could share it. A handout gives away no answer
(class mode's handouts hold parameters, never keys), so this gains nobody points.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import zipfile
from pathlib import Path

from embedlab.grading.lessons import known_lessons
from embedlab.grading.lms import moodle_feedback_name
from embedlab.grading.text import atomic_output

FORMAT = "embedlab-public-bundle"
VERSION = 2  # 2: every sealed body holds the digest of the bundle's shared part (version 1 did not)
KDF = "pbkdf2-sha256"
KDF_ITERATIONS = 100_000  # ~25 ms per id here: a class of 200 in ~5 s, one guess of an id as costly
MIN_ITERATIONS = 10_000  # a bundle asking for fewer is refused (a forged, cheap-to-search one)
MAX_ITERATIONS = KDF_ITERATIONS  # nor more: embedlab-assign never writes more (a bundle must not grind for hours)
SALT_BYTES = 16
DECOY_ROUNDING = 16  # entries (real + decoys) come in multiples of this
BODY_ROUNDING = 512  # bytes: every body is padded to the same multiple of this
TAG_BYTES = 32
ZIP_TIME = (2020, 1, 1, 0, 0, 0)  # fixed: the same files make the same zip bytes


class BundleError(ValueError):
    """A public bundle that cannot be read, or holds no entry for the id given."""


# --------------------------------------------------------------------------
# Keys and sealing (HMAC-SHA256 only)


def normal_id(learner: str) -> str:
    """A learner id as the bundle compares it: without surrounding spaces or case (ids are compared
    without case everywhere in class mode)."""
    return str(learner).strip().casefold()


def learner_key(learner: str, salt: bytes, iterations: int = KDF_ITERATIONS) -> bytes:
    """The 32-byte key of one learner's entry: PBKDF2-HMAC-SHA256(id without case, salt, iterations)."""
    return hashlib.pbkdf2_hmac("sha256", normal_id(learner).encode("utf-8"), salt, iterations)


def _sub(key: bytes, label: str) -> bytes:
    return hmac.new(key, label.encode("ascii"), hashlib.sha256).digest()


def entry_index(key: bytes) -> str:
    return _sub(key, "index").hex()


def _keystream(key: bytes, size: int) -> bytes:
    blocks = (hmac.new(key, i.to_bytes(8, "big"), hashlib.sha256).digest() for i in range(-(-size // 32)))
    return b"".join(blocks)[:size]


def _xor(data: bytes, stream: bytes) -> bytes:
    return (int.from_bytes(data, "big") ^ int.from_bytes(stream, "big")).to_bytes(len(data), "big")


def seal(key: bytes, body: bytes) -> bytes:
    """`body` encrypted under `key` (HMAC-SHA256 keystream), then its HMAC tag (encrypt-then-MAC)."""
    sealed = _xor(body, _keystream(_sub(key, "encrypt"), len(body)))
    return sealed + hmac.new(_sub(key, "authenticate"), sealed, hashlib.sha256).digest()


def unseal(key: bytes, blob: bytes) -> bytes | None:
    """The body `seal` sealed under `key`, or None if the tag does not match (another key, or altered)."""
    sealed, tag = blob[:-TAG_BYTES], blob[-TAG_BYTES:]
    if len(blob) < TAG_BYTES or not hmac.compare_digest(
            tag, hmac.new(_sub(key, "authenticate"), sealed, hashlib.sha256).digest()):
        return None
    return _xor(sealed, _keystream(_sub(key, "encrypt"), len(sealed)))


def _from_secret(secret: bytes, *parts: str) -> bytes:
    return hmac.new(secret, "\0".join(("public-bundle",) + parts).encode("utf-8"), hashlib.sha256).digest()


# --------------------------------------------------------------------------
# The public bundle


def write_public_bundle(path: Path, secret: bytes, lessons: dict, learners: dict, *, flag: str = "--public-bundle",
                        iterations: int = KDF_ITERATIONS, map_=map, solutions: dict | None = None) -> dict:
    """Write the public bundle atomically; {"entries": n, "decoys": n}.

    `lessons` maps each lesson to its exercise notebook's text (what every handout is made from),
    `solutions` (optional) to its solution notebook's text (what each solved notebook is made from);
    `learners` maps each learner id (as the roster spells it) to {lesson: (variant, parameters cell
    source)}. `map_` may be a thread pool's map (key derivation releases the GIL)."""
    names = sorted(lessons)
    salt = _from_secret(secret, "salt", *names)[:SALT_BYTES]
    check_kdf({"name": KDF, "iterations": iterations, "salt": salt.hex()}, flag)
    data = {"format": FORMAT, "version": VERSION,
            "about": "Class handouts of Embedding Lab. In your clone of the course: "
                     "embedlab-handout THIS_FILE --learner YOUR_ID (the id your instructor gave you).",
            "lessons": names, "exercises": {lesson: lessons[lesson] for lesson in names},
            "solutions": {lesson: (solutions or {})[lesson] for lesson in names if lesson in (solutions or {})},
            "kdf": {"name": KDF, "iterations": iterations, "salt": salt.hex()}}
    shared = shared_digest(data)
    bodies = {learner: json.dumps({"learner": learner, "shared": shared,
                                   "lessons": {lesson: {"variant": variant, "parameters": source}
                                               for lesson, (variant, source) in sorted(mine.items())}},
                                  sort_keys=True, ensure_ascii=False).encode("utf-8")
              for learner, mine in learners.items()}
    size = max((len(b) for b in bodies.values()), default=0)
    size = -(-(size + 1) // BODY_ROUNDING) * BODY_ROUNDING
    order = list(bodies)
    keys = dict(zip(order, map_(lambda learner: learner_key(learner, salt, iterations), order)))
    entries = {}
    for learner in order:
        key = keys[learner]
        index = entry_index(key)
        if index in entries:  # two ids equal without case: the roster refuses them first
            raise BundleError(f"two learners share the id {normal_id(learner)!r} without case")
        entries[index] = seal(key, bodies[learner].ljust(size, b" "))
    real = len(entries)
    total = max(DECOY_ROUNDING, -(-real // DECOY_ROUNDING) * DECOY_ROUNDING)
    number = 0
    while len(entries) < total:  # decoys: as long as a real entry, from the secret, opened by no id
        index = _from_secret(secret, "decoy index", str(number), *names).hex()
        entries.setdefault(index, _keystream(_from_secret(secret, "decoy body", str(number), *names),
                                             size + TAG_BYTES))
        number += 1
    data["entries"] = {index: base64.b64encode(entries[index]).decode("ascii") for index in sorted(entries)}
    with atomic_output(Path(path), "w", flag=flag, encoding="utf-8") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
        f.write("\n")
    return {"entries": real, "decoys": total - real}


def shared_digest(data: dict) -> str:
    """SHA-256 (hex) of every field of a bundle but its entries, in one canonical JSON form: what each
    sealed entry vouches for (the exercises and solutions every handout is made from, the kdf...)."""
    shared = {key: value for key, value in data.items() if key != "entries"}
    text = json.dumps(shared, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def check_kdf(kdf, where: str = "the bundle") -> None:
    """BundleError naming the field and its value unless `kdf` is what embedlab-assign writes: name KDF,
    an int of iterations from MIN_ITERATIONS to MAX_ITERATIONS, a salt of SALT_BYTES bytes in hex.
    Checked before any key is derived, so a bundle cannot make embedlab-handout grind."""
    if not isinstance(kdf, dict):
        raise BundleError(f"{where}: kdf = {str(kdf)[:60]!r} is not what embedlab-assign writes (an object)")
    if kdf.get("name") != KDF:
        raise BundleError(f"{where}: kdf.name = {str(kdf.get('name'))[:60]!r} is not what embedlab-assign "
                          f"writes ({KDF!r})")
    rounds = kdf.get("iterations")
    if type(rounds) is not int or not MIN_ITERATIONS <= rounds <= MAX_ITERATIONS:
        raise BundleError(f"{where}: kdf.iterations = {str(rounds)[:60]} is not what embedlab-assign writes "
                          f"(an integer from {MIN_ITERATIONS:,} to {MAX_ITERATIONS:,}): a damaged or forged bundle, "
                          "nothing written; download it again")
    salt = kdf.get("salt")
    try:
        ok = isinstance(salt, str) and len(bytes.fromhex(salt)) == SALT_BYTES
    except ValueError:
        ok = False
    if not ok:
        raise BundleError(f"{where}: kdf.salt = {str(salt)[:60]!r} is not what embedlab-assign writes "
                          f"({SALT_BYTES} bytes in hex)")


def read_public_bundle(path: Path) -> dict:
    """The bundle's JSON, checked for form; BundleError saying what is wrong."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise BundleError(f"cannot read the bundle {str(path)!r} ({type(exc).__name__})") from None
    except ValueError:
        raise BundleError(f"{str(path)!r} is not a public bundle of embedlab-assign (not JSON)") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BundleError(f"{str(path)!r} is not a public bundle of embedlab-assign (format {FORMAT!r})")
    if isinstance(data.get("version"), int) and not isinstance(data["version"], bool) and data["version"] < VERSION:
        raise BundleError(f"{str(path)!r} is a public bundle of version {data['version']}, written by an older "
                          f"embedlab-assign whose exercises are not authenticated; this embedlab reads version "
                          f"{VERSION}: ask your instructor to post it again (embedlab-assign --public-bundle)")
    if data.get("version") != VERSION:
        raise BundleError(f"{str(path)!r} is a public bundle of version {data.get('version')!r}; this embedlab "
                          f"reads version {VERSION}: update your clone of the course (git pull)")
    entries, exercises = data.get("entries"), data.get("exercises")
    check_kdf(data.get("kdf"), repr(str(path)))
    if (not isinstance(entries, dict) or not isinstance(exercises, dict)
            or not all(isinstance(v, str) for v in exercises.values())
            or not isinstance(data.get("solutions", {}), dict)
            or not all(isinstance(v, str) for v in data.get("solutions", {}).values())
            or not isinstance(data.get("lessons"), list) or set(data["lessons"]) != set(exercises)):
        raise BundleError(f"{str(path)!r}: a damaged public bundle (its lessons, exercises or entries); "
                          "download it again")
    # Its lessons name the files a handout is written to: only the course's own lessons (a bundle anyone
    # can forge may name `../x` or an absolute path), for handouts and solutions alike.
    for lesson in [*data["lessons"], *data.get("solutions", {})]:
        if not isinstance(lesson, str) or lesson not in known_lessons():
            raise BundleError(f"{str(path)!r} names lesson {str(lesson)[:80]!r}, which is not one of the course's "
                              f"lessons ({known_lessons()[0]} … {known_lessons()[-1]}): a forged bundle, or one "
                              "for a newer course (git pull, then try again); nothing written")
    return data


def open_public_bundle(data: dict, learner: str) -> dict:
    """{"learner": the id as the roster spells it, "lessons": {lesson: {"variant", "parameters"}}} of
    `learner`'s entry; BundleError when the bundle holds no entry for that id (compared without case)."""
    kdf = data["kdf"]
    check_kdf(kdf)
    key = learner_key(learner, bytes.fromhex(kdf["salt"]), kdf["iterations"])
    blob = data["entries"].get(entry_index(key))
    if blob is None:
        raise BundleError(f"this bundle has no handout for learner {str(learner).strip()!r}: give the id your "
                          "instructor assigned with (as on the class roster, e.g. your institution email or "
                          "student number; case does not matter), or ask them whether you were on the roster")
    try:
        body = unseal(key, base64.b64decode(blob, validate=True))
    except ValueError:
        body = None
    if body is None:
        raise BundleError("your entry in this bundle is damaged (it does not match its check): download the bundle "
                          "again")
    entry = json.loads(body.decode("utf-8"))
    if not isinstance(entry, dict) or not hmac.compare_digest(str(entry.get("shared", "")), shared_digest(data)):
        raise BundleError("this bundle's exercises, solutions or settings are not the ones your entry was sealed "
                          "with (the bundle was edited or damaged after embedlab-assign wrote it): nothing "
                          "written; download the bundle again")
    if normal_id(entry.get("learner", "")) != normal_id(learner):
        raise BundleError("your entry in this bundle names another learner: download the bundle again")
    return entry


# --------------------------------------------------------------------------
# Moodle's feedback zip


def write_moodle_zip(path: Path, files: list[tuple[str, str, str, bytes]], *, flag: str) -> list[str]:
    """Write a zip for Moodle's "Upload multiple feedback files in a zip", atomically: one entry per
    (full name, participant id, file name, content), named by lms.moodle_feedback_name, at the zip's
    root, in the order given, with a fixed date (the same files make the same bytes). The entry
    names; ValueError if two entries would share a name."""
    names = [moodle_feedback_name(name, pid, filename) for name, pid, filename, _ in files]
    seen = set()
    for entry in names:
        if entry in seen:
            raise ValueError(f"{flag}: two files would both be {entry!r} in the zip (a participant id twice?)")
        seen.add(entry)
    with atomic_output(Path(path), "wb", flag=flag) as f, zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED) as z:
        for entry, (_, _, _, content) in zip(names, files):
            info = zipfile.ZipInfo(entry, date_time=ZIP_TIME)
            info.external_attr = 0o100644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, content)
    return names
