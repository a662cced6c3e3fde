"""Remembered results of the grouping's costly steps, within one ``group`` call.

The what-if scores group the same photo again for every candidate class of every uncertain
tile (:mod:`vision.grouping.what_if`): the boxes stay, one tile's class changes. The steps
that measure the rows and the tiles around them (row geometry, stacked tiles, indicator
runs) mostly read only boxes and face-down flags, and even within one grouping they are
asked the same question many times (each reading direction, split, doubt re-read). A
whole-table photo (172 boxes, 13 uncertain tiles) spent most of its seconds there.

:func:`remembered` wraps such a step. Within :func:`sharing` (entered by
:func:`~vision.grouping.group.group_detections`, :func:`~vision.grouping.what_if.what_if`
and the ``group`` request), a call whose other arguments are equal and whose detections
agree on *everything the step read from them* returns the result it gave before. What a
step reads is recorded as it runs (the step sees the detections through a recorder), so
the reuse does not depend on knowing what each rule looks at: a rule that starts reading
a tile's class is then keyed on it too. Outside :func:`sharing` every call runs afresh
(tests that change ``settings`` between calls see their change).

Rules for a remembered step: it reads detections only through its ``dets`` argument (by
index, ``len`` or iteration) and never keeps or returns them; its other arguments are
numbers, strings, numpy arrays, lists/tuples and frozen dataclasses of those; it changes
none of them. Results are handed out as fresh lists and dicts each time; numpy arrays in
them are made read-only (a caller writing into a shared result fails loudly).

>>> calls = []
>>> @remembered
... def widths(members, dets):
...     calls.append(1)
...     return [dets[i].box[2] - dets[i].box[0] for i in members]
>>> from vision.grouping.values import Detection
>>> dets = [Detection("1m", (0, 0, 3, 4)), Detection("2m", (5, 0, 9, 4))]
>>> with sharing():
...     a = widths([0], dets)
...     b = widths([0], [dets[0], Detection("x", (5, 0, 9, 4))])  # only tile 1 changed
...     c = widths([0], [Detection("1m", (0, 0, 4, 4)), dets[1]])  # tile 0's box changed
>>> a, b, c, len(calls)
([3], [3], [4], 2)
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import inspect
import operator
import struct
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from typing import Any, TypeVar

import numpy as np

F = TypeVar("F", bound=Callable[..., Any])

#: The remembered results of the current ``group`` call: {(step, arguments): [(reads,
#: result), ...]}; None outside :func:`sharing`. A context variable: each thread (each web
#: request) has its own.
_MEMO: ContextVar[dict[tuple[Any, ...], list[tuple[_Reads, Any]]] | None] = ContextVar(
    "grouping_memo", default=None
)


#: :func:`not_sharing`'s mark: every step runs afresh, and :func:`sharing` starts no memo.
_OFF: dict[tuple[Any, ...], list[tuple[_Reads, Any]]] = {}


@contextlib.contextmanager
def sharing() -> Iterator[None]:
    """Steps wrapped by :func:`remembered` reuse their results until the outermost
    ``with`` ends (nested ``with`` blocks share the outer one's)."""
    if _MEMO.get() is not None:
        yield
        return
    token = _MEMO.set({})
    try:
        yield
    finally:
        _MEMO.reset(token)


@contextlib.contextmanager
def not_sharing() -> Iterator[None]:
    """Every step runs afresh inside (to compare results with and without the memo)."""
    token = _MEMO.set(_OFF)
    try:
        yield
    finally:
        _MEMO.reset(token)


class _Seen:
    """One detection as a remembered step sees it: each attribute read is noted (once:
    the value is then kept on this object, and Python finds it without asking again)."""

    def __init__(self, det: Any) -> None:
        self.__dict__["_det"] = det
        self.__dict__["_names"] = set()

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._det, name)
        self._names.add(name)
        self.__dict__[name] = value
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a remembered step may not change a detection ({name})")


class _Recorder(list[_Seen]):
    """The detections as a remembered step sees them: a list of stand-ins (indexing, ``len``
    and iteration as fast as the list's own), each noting what is read from it."""

    def __init__(self, dets: Sequence[Any]) -> None:
        super().__init__(_Seen(d) for d in dets)
        self.dets = dets

    def reads(self) -> _Reads:
        """What was read: the detections' indices, the detections, the attributes' names."""
        seen = [(i, s._det, frozenset(s._names)) for i, s in enumerate(self) if s._names]
        idx = tuple(i for i, _, _ in seen)
        return _Reads(idx, tuple(d for _, d, _ in seen), tuple(n for _, _, n in seen))

    def note(self, reads: _Reads) -> None:
        """What a remembered step called from this one read (its reads are ours)."""
        for i, names in zip(reads.idx, reads.names, strict=True):
            self[i]._names.update(names)


@dataclasses.dataclass(frozen=True)
class _Reads:
    idx: tuple[int, ...]
    dets: tuple[Any, ...]
    names: tuple[frozenset[str], ...]

    def agree(self, dets: Sequence[Any]) -> bool:
        """Whether ``dets`` give what was read (the same detection objects, which are
        frozen, or equal values of the attributes read)."""
        now = [dets[i] for i in self.idx]
        if all(map(operator.is_, now, self.dets)):
            return True
        for a, b, names in zip(now, self.dets, self.names, strict=True):
            if a is b:
                continue
            for name in names:
                x, y = getattr(a, name), getattr(b, name)
                if type(x) is not type(y) or x != y:
                    return False
        return True


def _key(value: Any) -> Any:
    """A hashable stand-in for an argument, equal only for arguments that are equal (numpy
    arrays by dtype, shape and bytes; floats by their exact bits, so -0.0 is not 0.0)."""
    kind = type(value)
    if kind is int or kind is bool or kind is str or value is None:
        return (kind, value)
    if kind is float:
        return (float, value.hex())
    if isinstance(value, np.ndarray):
        return (np.ndarray, value.dtype.str, value.shape, value.tobytes())
    if kind is list or kind is tuple:
        kinds = set(map(type, value))
        if kinds == {int}:
            return (kind, int, tuple(value))
        if kinds == {float}:
            return (kind, float, struct.pack(f"<{len(value)}d", *value))
        return (kind, tuple(_key(v) for v in value))
    if isinstance(value, np.generic):
        return (kind, value.tobytes())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (kind, tuple(_key(getattr(value, f)) for f in _field_names(kind)))
    raise TypeError(f"a remembered step got an argument it cannot compare: {kind.__name__}")


@functools.cache
def _field_names(kind: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(kind))


def _settle(value: Any) -> Any:
    """A result made safe to keep: numpy arrays in it (also in dataclasses) read-only."""
    if isinstance(value, np.ndarray):
        value.setflags(write=False)
    elif isinstance(value, list | tuple):
        for v in value:
            _settle(v)
    elif isinstance(value, dict):
        for v in value.values():
            _settle(v)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in _field_names(type(value)):
            _settle(getattr(value, f))
    return value


def _fresh(value: Any) -> Any:
    """A kept result handed out: its lists and dicts copied (the caller may change them)."""
    if type(value) is list:
        return [_fresh(v) for v in value]
    if type(value) is dict:
        return {k: _fresh(v) for k, v in value.items()}
    if type(value) is tuple and any(type(v) in (list, dict, tuple) for v in value):
        return tuple(_fresh(v) for v in value)
    return value


def remembered(step: F) -> F:
    """``step`` (with a ``dets`` argument) reusing its results within :func:`sharing`."""
    params = list(inspect.signature(step).parameters)
    at = params.index("dets")
    name = f"{step.__module__}.{step.__qualname__}"

    @functools.wraps(step)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        memo = _MEMO.get()
        if memo is None or memo is _OFF:
            return step(*args, **kwargs)
        args_list = list(args)
        positional = len(args_list) > at
        if positional:
            dets = args_list[at]
            args_list[at] = None
        else:
            dets = kwargs.pop("dets")
        outer = dets if isinstance(dets, _Recorder) else None
        dets = outer.dets if outer is not None else dets
        key = (name, len(dets), _key(args_list), _key(sorted(kwargs.items())))
        kept = memo.setdefault(key, [])
        found = next((entry for entry in kept if entry[0].agree(dets)), None)
        if found is None:
            recorder = _Recorder(dets)
            if positional:
                args_list[at] = recorder
            else:
                kwargs["dets"] = recorder
            result = _settle(step(*args_list, **kwargs))
            found = (recorder.reads(), result)
            kept.append(found)
        reads, result = found
        if outer is not None:
            outer.note(reads)
        return _fresh(result)

    return wrapper  # type: ignore[return-value]
