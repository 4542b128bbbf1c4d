"""Plain data for values: how an answer or a function argument travels as JSON.

Floats travel as hex strings, so a value survives JSON bit for bit (nan, inf
and -0.0 too). Used by the question kinds (`to_data`, `judge`) and by the
grader, which sends the inputs of function questions to the kernel this way.
"""

from __future__ import annotations

import math
import numbers
import re

import numpy as np


class NotAttempted(Exception):
    """The learner has not written this answer yet (name missing, or a stub raised)."""


class WrongForm(Exception):
    """The answer exists but is not the right kind of thing (type, dtype, not callable)."""


def is_plain_number(value) -> bool:
    """A real number that is not a bool (Python or numpy)."""
    return isinstance(value, (numbers.Real, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def read_real(x):
    """A float from plain data: the grader's sandbox carries nan and inf as text ("nan", "inf")."""
    if isinstance(x, str):
        try:
            return float(x)
        except ValueError:
            return math.nan
    return x


def undefined(x) -> bool:
    """nan or inf (or None, or their text)."""
    x = read_real(x)
    return x is None or (isinstance(x, float) and not math.isfinite(x))


def array_to_data(value) -> dict:
    """A numeric array (or list, or number) as {"shape", "kind", "hex"}; WrongForm if it is not numbers."""
    if isinstance(value, (list, tuple)) or is_plain_number(value) or isinstance(value, np.ndarray):
        try:
            arr = np.asarray(value)
        except Exception as exc:
            raise WrongForm(f"could not make an array from it ({type(exc).__name__})")
    else:
        raise WrongForm(f"expected a numpy array, got {type(value).__name__}")
    if arr.dtype == object or arr.dtype.kind not in "biuf":
        raise WrongForm(f"expected numbers, got an array of dtype {arr.dtype}")
    kind = "bool" if arr.dtype.kind == "b" else ("int" if arr.dtype.kind in "iu" else "float")
    flat = arr.astype(np.float64).ravel()
    return {"shape": list(arr.shape), "kind": kind, "hex": [float(x).hex() for x in flat]}


def data_to_array(data) -> np.ndarray:
    """The float64 array that `array_to_data` encoded (an array passes through)."""
    if isinstance(data, np.ndarray):
        return data
    values = np.array([float.fromhex(x) for x in data["hex"]], dtype=np.float64)
    return values.reshape(data["shape"])


def encode_value(value):
    """Plain JSON data for one function argument: the grader sends its fresh inputs this way."""
    if isinstance(value, np.ndarray):
        return {"array": array_to_data(value)}
    if isinstance(value, (bool, np.bool_)):
        return {"bool": bool(value)}
    if isinstance(value, (numbers.Integral, np.integer)):
        return {"int": int(value)}
    if isinstance(value, (numbers.Real, np.floating)):
        return {"float": float(value).hex()}
    if isinstance(value, str):
        return {"str": value}
    if isinstance(value, (list, tuple)):
        return {type(value).__name__: [encode_value(v) for v in value]}
    if isinstance(value, dict):  # word -> count: its items in order, each key and value encoded
        return {"dict": [[encode_value(k), encode_value(v)] for k, v in value.items()]}
    raise ValueError(f"value must be an array, number, string, list, tuple or dict, got value of type "
                     f"{type(value).__name__}")


def decode_value(data):
    """The inverse of encode_value (arrays come back as float64, int64 or bool)."""
    (tag, content), = data.items()
    if tag == "array":
        arr = data_to_array(content)
        return arr.astype({"bool": bool, "int": np.int64}.get(content["kind"], np.float64))
    if tag == "float":
        return float.fromhex(content)
    if tag in ("bool", "int", "str"):
        return {"bool": bool, "int": int, "str": str}[tag](content)
    if tag in ("list", "tuple"):
        items = [decode_value(v) for v in content]
        return items if tag == "list" else tuple(items)
    if tag == "dict":
        return {decode_value(k): decode_value(v) for k, v in content}
    raise ValueError(f"data must be tagged array, float, bool, int, str, list, tuple or dict, got tag={tag!r}")


def copy_args(args) -> tuple:
    """The arguments with every array, list and dict copied (deeply): a function that edits its input in
    place cannot change the case the next call (or the reference) sees."""
    import copy

    return tuple(np.array(a, copy=True) if isinstance(a, np.ndarray)
                 else copy.deepcopy(a) if isinstance(a, (list, dict, set)) else a for a in args)


def written_forms(value) -> list[str]:
    """How a value could be written in a notebook or on a page: a whole number of 100 or more with
    or without separators, a float to 5-16 significant figures, an array as its list. Class mode
    searches a learner's handout (none of their variant's answers may be there) and the book (what
    a variant could look up) for these. A yes/no, a name, or a small count says nothing alone: []."""
    if isinstance(value, (bool, np.bool_, str)):
        return []
    if isinstance(value, (int, np.integer)):
        return [] if abs(value) < 100 else [str(value), f"{value:,}", f"{value:_}"]
    if isinstance(value, (float, np.floating)):
        return sorted({repr(float(value))} | {f"{value:.{n}g}" for n in range(5, 17)})
    arr = np.asarray(value)
    return [repr(arr.tolist())] if arr.size > 1 else []


def written_in(text: str, value) -> list[str]:
    """The forms of `value` (`written_forms`) that `text` holds as a whole token."""
    return [t for t in written_forms(value) if re.search(rf"(?<![\w.]){re.escape(t)}(?![\w])", text)]
