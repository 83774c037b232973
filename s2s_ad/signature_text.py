"""Kinds written as text, read back: `s2s-ad grad --signature` and string annotations.

The written form is the one `signature.describe` prints (so a docstring's "For w:
float64[n], m: Model(W: float64[n,n])" can be pasted back):

    "w: float64[D], X: float64[N,D], k: int"  ->  (("w", Num(ndarray, 'float64', (None,))),
                                                  ("X", Num(...)), ("k", Num(int, ...)))
    "tuple[float, ...]"                        ->  SequenceOf(tuple, Num(float, ...))
    "{'W': float64[D,H], 'b': float64[H]}"     ->  Mapping((("W", ...), ("b", ...)))
    "Dense(W: float64[D,H], b: float64[H])"    ->  Attributes(Dense, (("W", ...), ("b", ...)))
    "Dense"                                    ->  Attributes(Dense, ())

A class is named as the module defining f names it (`resolve`, from the CLI: f's globals);
its attributes are the ones listed, in order (a dataclass's fields, an object's
attributes as vars() holds them); an attribute not listed is one the derivative does not
need to know.
"""
import numpy as np

from .signature import (NUMERIC_KINDS, PYTHON_NUMBER_DTYPES, UNKNOWN, Attributes, Items,
                        Mapping, Num, SequenceOf)


def parse_signature(text, resolve=None):
    """`"w: float64[D], X: float64[N,D], k: int"` -> (("w", kind), ("X", kind), ...).

    A kind is written as `describe` prints it: float, int, bool; a numpy scalar by its
    dtype (float32); an array as dtype[axes] where an axis is 1 or any other name or
    number (N, D, 64: not of length one); tuple[float, ...] / list[K, ...] for a sequence
    of any length; tuple[K1, K2] item by item; {'key': K, ...} a dict entry by entry;
    Cls(attr: K, ...) an object of the class `resolve("Cls")` gives; any for no fact.
    ValueError when malformed.
    """
    return tuple(_entry(part, resolve) for part in _split_top(text))


def _entry(part, resolve):
    name, colon, spec = part.partition(":")
    if not colon or not name.strip().isidentifier():
        raise ValueError(f"expected `name: kind`, got {part.strip()!r}")
    return name.strip(), parse_kind(spec, resolve)


def parse_kind(text, resolve=None):
    """One kind from its written form (see parse_signature)."""
    text = text.strip()
    if text in ("float", "int", "bool"):
        t = {"float": float, "int": int, "bool": bool}[text]
        return Num(t, PYTHON_NUMBER_DTYPES[t], ())
    if text == "any":
        return UNKNOWN
    if text.startswith("{"):
        if not text.endswith("}"):
            raise ValueError(f"unbalanced braces in {text!r}")
        entries = [_entry(part, resolve) if part.strip()[:1] not in "'\""
                   else _quoted_entry(part, resolve) for part in _split_top(text[1:-1])]
        return Mapping(tuple(entries))
    head, paren, rest = text.partition("(")
    if paren and "[" not in head:
        return _object_kind(head.strip(), rest, text, resolve)
    head, bracket, rest = text.partition("[")
    head = head.strip()
    if head in ("tuple", "list") and bracket:
        if not rest.endswith("]"):
            raise ValueError(f"unbalanced brackets in {text!r}")
        items = _split_top(rest[:-1])
        container = tuple if head == "tuple" else list
        if len(items) == 2 and items[1].strip() == "...":
            return SequenceOf(container, parse_kind(items[0], resolve))
        return Items(container, tuple(parse_kind(i, resolve) for i in items))
    try:
        dtype = np.dtype(head)
    except TypeError:
        cls = resolve(head) if resolve is not None and not bracket else None
        if isinstance(cls, type) and cls.__module__ not in ("builtins", "numpy"):
            return Attributes(cls, ())      # `p: Linear`: its class, no attribute's kind
        raise ValueError(f"unknown kind {text!r}: use float, int, bool, a dtype such as "
                         f"float64 or float64[N, D], tuple[float, ...], {{'key': kind}}, "
                         f"ClassName(attribute: kind, ...) or any") from None
    if dtype.kind not in NUMERIC_KINDS:
        raise ValueError(f"{head} is not a numeric dtype")
    if not bracket:
        return Num(dtype.type, dtype.name, ())
    if not rest.endswith("]"):
        raise ValueError(f"unbalanced brackets in {text!r}")
    axes = [a.strip() for a in rest[:-1].split(",")] if rest[:-1].strip() else []
    if any(not a for a in axes):
        raise ValueError(f"an empty axis in {text!r}")
    return Num(np.ndarray, dtype.name, tuple(1 if a == "1" else None for a in axes))


def _quoted_entry(part, resolve):
    """`'W1': float64[D,H]` (the key quoted, as describe writes a dict's)."""
    part = part.strip()
    quote = part[0]
    end = part.find(quote, 1)
    if end < 0 or part[end + 1:].lstrip()[:1] != ":":
        raise ValueError(f"expected `'key': kind`, got {part!r}")
    return part[1:end], parse_kind(part[end + 1:].lstrip()[1:], resolve)


def _object_kind(name, rest, text, resolve):
    """`Dense(W: float64[D,H], b: float64[H])`: an object of the class named `name`."""
    if not rest.endswith(")"):
        raise ValueError(f"unbalanced parentheses in {text!r}")
    if not name.replace(".", "_").isidentifier():
        raise ValueError(f"expected a class name before '(' in {text!r}")
    cls = resolve(name) if resolve is not None else None
    if not isinstance(cls, type):
        raise ValueError(f"{name!r} in {text!r} is not a class the module defines or "
                         f"imports")
    entries = tuple(_entry(part, resolve) for part in _split_top(rest[:-1]))
    return Attributes(cls, entries)


def _split_top(text):
    """Split at the commas outside brackets, braces and parentheses."""
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += ch in "[{("
        depth -= ch in "]})"
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current)
    return parts
