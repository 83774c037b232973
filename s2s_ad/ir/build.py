"""The one place that constructs gast nodes by hand.

    >>> astor_src(assign("t1_0", binop(name("x"), "Pow", const(2))))
    't1_0 = x ** 2'
"""
import copy
from ast import AST

import gast


def name(identifier, store=False):
    ctx = gast.Store() if store else gast.Load()
    return gast.Name(id=identifier, ctx=ctx, annotation=None, type_comment=None)


def const(value):
    return gast.Constant(value=value, kind=None)


def literal(value):
    """A Python literal (numbers, None, bools, strings, nested tuples) as an expression."""
    if isinstance(value, tuple):
        return gast.Tuple(elts=[literal(v) for v in value], ctx=gast.Load())
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0:
        return gast.UnaryOp(op=gast.USub(), operand=const(-value))
    return const(value)


def number_literal(node):
    """The value of a numeric literal (`2`, `-0.5`), else None."""
    if isinstance(node, gast.Constant) and type(node.value) in (int, float):
        return node.value
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
        inner = number_literal(node.operand)
        return None if inner is None else -inner
    return None


def literal_value(node):
    """A number literal's value, or a string literal's, else None."""
    if isinstance(node, gast.Constant) and type(node.value) is str:
        return node.value
    return number_literal(node)


def literal_test(test):
    """The truth of a test literals decide, else None: a bool or int literal, `a is b` /
    `a is not b` between two literals one of which is None, `a == b` / `a != b` between
    number or string literals (a template's choice on an operand bound to a literal)."""
    if isinstance(test, gast.Constant) and type(test.value) in (bool, int):
        return bool(test.value)
    if not (isinstance(test, gast.Compare) and len(test.ops) == 1):
        return None
    op, left, right = test.ops[0], test.left, test.comparators[0]
    if isinstance(op, (gast.Is, gast.IsNot)) and isinstance(left, gast.Constant) \
            and isinstance(right, gast.Constant) and None in (left.value, right.value):
        return (left.value is right.value) == isinstance(op, gast.Is)
    left, right = literal_value(left), literal_value(right)
    if isinstance(op, (gast.Eq, gast.NotEq)) and left is not None and right is not None:
        return (left == right) == isinstance(op, gast.Eq)
    return None


def is_none(node):
    """Is node the literal None?"""
    return isinstance(node, gast.Constant) and node.value is None


def assign(target, value):
    if isinstance(target, str):
        target = name(target, store=True)
    return gast.Assign(targets=[target], value=value, type_comment=None)


def assigned_name(stmt):
    """The name `name = value` binds (one target, a plain name), else None."""
    if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
            and isinstance(stmt.targets[0], gast.Name):
        return stmt.targets[0].id
    return None


def assign_tuple(targets, value):
    elts = [name(t, store=True) for t in targets]
    return gast.Assign(targets=[gast.Tuple(elts=elts, ctx=gast.Store())], value=value,
                       type_comment=None)


def aug_add(target, value):
    return gast.AugAssign(target=name(target, store=True), op=gast.Add(), value=value)


def aug_assign(target, op_name, value):
    """`target op= value` (`x_bar *= x`)."""
    return gast.AugAssign(target=name(target, store=True), op=getattr(gast, op_name)(),
                          value=value)


def binop(left, op_name, right):
    return gast.BinOp(left=left, op=getattr(gast, op_name)(), right=right)


def unaryop(op_name, operand):
    return gast.UnaryOp(op=getattr(gast, op_name)(), operand=operand)


def signed_sum(terms, total=None):
    """total + t1 - t2 ... for [(positive, t)] (total an expression or None: then the first
    term starts the sum, negated when it is not positive); None for no terms at all."""
    for positive, term in terms:
        if total is None:
            total = term if positive else gast.UnaryOp(op=gast.USub(), operand=term)
        else:
            total = gast.BinOp(left=total, op=gast.Add() if positive else gast.Sub(), right=term)
    return total


def call(func, args=(), keywords=()):
    if isinstance(func, str):
        func = dotted(func)
    kws = [gast.keyword(arg=k, value=v) for k, v in keywords]
    return gast.Call(func=func, args=list(args), keywords=kws)


def dotted_path(node):
    """'np.linalg.norm' for Attribute(Attribute(Name np, linalg), norm); None otherwise."""
    parts = []
    while isinstance(node, gast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, gast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def dotted(path):
    """'np.linalg.norm' -> Attribute(Attribute(Name np, linalg), norm)."""
    head, *rest = path.split(".")
    node = name(head)
    for attr in rest:
        node = gast.Attribute(value=node, attr=attr, ctx=gast.Load())
    return node


def attribute(value, attr):
    return gast.Attribute(value=value, attr=attr, ctx=gast.Load())


def subscript(value, index):
    return gast.Subscript(value=value, slice=index, ctx=gast.Load())


def store_subscript(value, index):
    return gast.Subscript(value=value, slice=index, ctx=gast.Store())


def index_value(index):
    """A subscript index as an ordinary expression: `1:3` -> slice(1, 3, None)."""
    if isinstance(index, gast.Slice):
        return call(name("slice"), [b if b is not None else const(None)
                                    for b in (index.lower, index.upper, index.step)])
    if isinstance(index, gast.Tuple):
        return tuple_([index_value(e) for e in index.elts])
    return index


def list_(elts):
    return gast.List(elts=list(elts), ctx=gast.Load())


def slice_(lower=None, upper=None, step=None):
    return gast.Slice(lower=lower, upper=upper, step=step)


def compare(left, op_name, right):
    return gast.Compare(left=left, ops=[getattr(gast, op_name)()], comparators=[right])


def if_exp(test, body, orelse):
    return gast.IfExp(test=test, body=body, orelse=orelse)


def outside(x, low, high):
    """`not low < x < high` (a bound None is left out): x outside an open interval."""
    ops, values = [], []
    if low is not None:
        ops, values = [gast.Lt()], [const(low)]
    left = values.pop() if values else clone(x)
    comparators = [clone(x)] if low is not None else []
    if high is not None:
        ops.append(gast.Lt())
        comparators.append(const(high))
    return gast.UnaryOp(op=gast.Not(), operand=gast.Compare(left=left, ops=ops,
                                                            comparators=comparators))


def if_stmt(test, body, orelse=()):
    return gast.If(test=test, body=list(body), orelse=list(orelse))


def list_comp(elt, target, iterable):
    """[elt for target in iterable] (target a name or a tuple of names)."""
    if isinstance(target, str):
        target = name(target, store=True)
    elif isinstance(target, (list, tuple)):
        target = gast.Tuple(elts=[name(t, store=True) for t in target], ctx=gast.Store())
    return gast.ListComp(elt=elt, generators=[gast.comprehension(
        target=target, iter=iterable, ifs=[], is_async=0)])


def float_sign(x):
    """`1.0 if x > 0.0 else (-1.0 if x < 0.0 else x * 0.0)`: np.sign of a Python float x
    (0.0, -0.0 and nan kept), as a float."""
    def compare(op):
        return gast.Compare(left=clone(x), ops=[op], comparators=[const(0.0)])
    inner = gast.IfExp(test=compare(gast.Lt()), body=literal(-1.0),
                       orelse=gast.BinOp(left=clone(x), op=gast.Mult(), right=const(0.0)))
    return gast.IfExp(test=compare(gast.Gt()), body=const(1.0), orelse=inner)


def is_float_sign(node):
    """Is `node` float_sign(x) of a name x?"""
    return isinstance(node, gast.IfExp) and isinstance(node.test, gast.Compare) \
        and isinstance(node.test.left, gast.Name) \
        and gast.dump(node) == gast.dump(float_sign(node.test.left))


def tuple_target(names):
    """`x, y` as the target of an assignment or a for loop."""
    return gast.Tuple(elts=[name(n, store=True) for n in names], ctx=gast.Store())


def mapping(keys, values):
    """The dict display {k0: v0, ...}."""
    return gast.Dict(keys=list(keys), values=list(values))


def with_block(manager, body, target=None):
    """with manager: body   (with manager as target: body)"""
    bound = name(target, store=True) if target is not None else None
    return gast.With(items=[gast.withitem(context_expr=manager, optional_vars=bound)],
                     body=list(body) or [gast.Pass()], type_comment=None)


def try_raising(body, caught, exc):
    """try: body / except caught: raise exc   (no handler when exc is None: the caller
    gives the `try` its finalbody)"""
    handlers = [gast.ExceptHandler(type=caught, name=None, body=[
        gast.Raise(exc=exc, cause=None)])] if exc is not None else []
    return gast.Try(body=list(body) or [gast.Pass()], handlers=handlers, orelse=[],
                    finalbody=[])


def try_setting_flag(body, caught, flag, undo):
    """try: body / except caught: undo; flag = False / else: flag = True"""
    handler = gast.ExceptHandler(type=caught, name=None,
                                 body=list(undo) + [assign(flag, const(False))])
    return gast.Try(body=list(body) or [gast.Pass()], handlers=[handler],
                    orelse=[assign(flag, const(True))], finalbody=[])


def delete_tail(list_name, start):
    """del list_name[start:]"""
    return gast.Delete(targets=[gast.Subscript(value=name(list_name), slice=slice_(start),
                                               ctx=gast.Del())])


def tuple_(elts):
    return gast.Tuple(elts=list(elts), ctx=gast.Load())


def ret(value):
    return gast.Return(value=value)


def expr_stmt(value):
    return gast.Expr(value=value)


def comment(text):
    """A marker statement the emitter turns into a `# text` line."""
    return expr_stmt(call("__s2s_comment__", [const(text)]))


def is_comment(stmt):
    """Is `stmt` a `comment(...)` marker?"""
    return isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call) \
        and isinstance(stmt.value.func, gast.Name) and stmt.value.func.id == "__s2s_comment__"


def blank_line():
    """A marker statement the emitter turns into an empty line."""
    return expr_stmt(call("__s2s_blank__"))


def is_blank_line(stmt):
    return isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call) \
        and isinstance(stmt.value.func, gast.Name) and stmt.value.func.id == "__s2s_blank__"


def function_def(fname, params, body, defaults=(), kwonly=(), kw_defaults=(), docstring=None):
    args = gast.arguments(
        args=[name(p, store=False) for p in params], posonlyargs=[], vararg=None,
        kwonlyargs=[name(p) for p in kwonly], kw_defaults=list(kw_defaults), kwarg=None,
        defaults=list(defaults))
    for a in args.args + args.kwonlyargs:
        a.ctx = gast.Param()
    if docstring:
        body = [expr_stmt(const(docstring))] + list(body)
    return gast.FunctionDef(name=fname, args=args, body=list(body), decorator_list=[],
                            returns=None, type_comment=None, type_params=[])


def clone(node):
    """A deep copy of a tree, a list of statements or a tuple of either: what
    copy.deepcopy(node) gives (a node reached twice is copied once and stays shared), at
    a fraction of its cost (templates are copied at every expansion and stages copy the
    trees they change: deepcopy was a tenth of the time a derivative takes to build)."""
    return _clone(node, {})


_ATOMS = frozenset({str, int, float, bool, complex, bytes, type(None), type(Ellipsis)})


def _clone(value, memo):
    cls = value.__class__
    if cls in _ATOMS:
        return value
    copied = memo.get(id(value))
    if copied is not None:
        return copied
    if isinstance(value, AST):
        make = _BLANK.get(cls) or _blank_maker(cls)
        new = make(cls)         # as deepcopy makes it: the class called without fields
        memo[id(value)] = new
        fields = new.__dict__
        for key, item in value.__dict__.items():
            # atoms (names, numbers) are most values: kept without a call (a loop
            # writing into the new node's dict: a comprehension and an update cost more)
            fields[key] = item if item.__class__ in _ATOMS else _clone(item, memo)
        return new
    if cls is list:
        new = []
        memo[id(value)] = new
        new.extend([item if item.__class__ in _ATOMS else _clone(item, memo)
                    for item in value])
        return new
    if cls is tuple:
        items = tuple(_clone(item, memo) for item in value)
        if all(a is b for a, b in zip(items, value)):
            return value        # deepcopy keeps a tuple whose items it kept
        memo[id(value)] = items
        return items
    return copy.deepcopy(value, memo)


_BLANK = {}                 # node class -> how _clone makes an empty one of it


def _blank_maker(cls):
    """`cls.__new__` where calling the class without arguments does nothing more (gast's
    constructor, given no fields, sets none: a Python-level call a copied node need not
    pay); the class itself otherwise (Python's own ast classes may fill in defaults)."""
    init = cls.__init__
    blank = getattr(init, "__module__", None) == gast.gast.__name__ and \
        getattr(init, "__name__", None) == "create_node"
    make = _BLANK[cls] = cls.__new__ if blank else _call
    return make


def _call(cls):
    return cls()


def with_location(new, old):
    """Copy the source position of `old` onto `new` (and return `new`)."""
    for attr in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
        if hasattr(old, attr):
            setattr(new, attr, getattr(old, attr))
    return new


def with_statements_before(body, before):
    """`body` with the statements `before(stmt)` gives put ahead of each statement, in
    every block; compound statements holding one are copied (the input is not changed).

        with_statements_before([y = f(x)], lambda s: [check(x)])  ->  [check(x), y = f(x)]
    """
    out = []
    for stmt in body:
        out.extend(before(stmt))
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            stmt = copy.copy(stmt)
            stmt.body = with_statements_before(stmt.body, before)
            stmt.orelse = with_statements_before(stmt.orelse, before)
        out.append(stmt)
    return out
