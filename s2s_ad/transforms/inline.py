"""Nested functions and lambdas: inlined where they are called, during normalization.

Closures only read the enclosing function's variables (writes need `nonlocal`, which the
fence rejects), so substituting the body at the call site, with the nested function's
own names made fresh, is exact; reads of enclosing variables see their values at the
time of the call, as in Python.

    def f(x, scale):                        def f(x, scale):
        def act(z):                             z = x
            return np.tanh(z * scale)   ->      t1_0 = z * scale
        return np.sum(act(x))                   t2_0 = np.tanh(t1_0)
                                                t3_0 = np.sum(t2_0)
                                                return t3_0
"""

import dataclasses

import gast

from ..ir.walk import walk_tree
from ..errors import UnsupportedSyntaxError
from ..ir import build
from .control import assigned_in_compound
from .exits import lower_exits
from .item_unrolling import unrolled_item_loops


def collect_nested(tree, smap):
    """Remove nested defs / `name = lambda ...` (and plain aliases of them, `h = inner`)
    from the body; return {name: FunctionDef}."""
    nested = {}
    stores = {}
    for node in walk_tree(tree):
        if isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Param)):
            stores[node.id] = stores.get(node.id, 0) + 1

    def strip(stmts, top):
        kept = []
        for stmt in stmts:
            fdef = _as_function(stmt)
            if fdef is not None:
                if fdef.name in nested:
                    raise UnsupportedSyntaxError(
                        f"`{fdef.name}` is defined twice inside the function",
                        smap.locate(stmt), "give the nested functions different names")
                if getattr(stmt, "decorator_list", None):
                    raise UnsupportedSyntaxError("decorated nested functions are not supported",
                                                 smap.locate(stmt), "remove the decorator")
                nested[fdef.name] = fdef
                continue
            alias = _alias(stmt, nested, stores) if top else None
            if alias is not None:
                nested[alias] = nested[stmt.value.id]
                continue
            for field in ("body", "orelse"):
                inner = getattr(stmt, field, None)
                if inner and isinstance(stmt, (gast.If, gast.For, gast.While)):
                    setattr(stmt, field, strip(inner, False) or [gast.Pass()])
            kept.append(stmt)
        return kept

    tree.body = strip(tree.body, True)
    return nested


def _alias(stmt, nested, stores):
    """h for `h = inner` in the function's own body (not in a branch or loop) after inner's
    def, h stored nowhere else: h names the nested function, so the statement goes and
    calls of h inline inner's body. None for any other statement."""
    if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
            and isinstance(stmt.targets[0], gast.Name) \
            and isinstance(stmt.value, gast.Name) and stmt.value.id in nested \
            and stmt.targets[0].id not in nested and stores[stmt.targets[0].id] == 1:
        return stmt.targets[0].id
    return None


def _as_function(stmt):
    if isinstance(stmt, gast.FunctionDef):
        return stmt
    if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
            and isinstance(stmt.targets[0], gast.Name) and isinstance(stmt.value, gast.Lambda):
        return lambda_as_def(stmt.targets[0].id, stmt.value, stmt)
    return None


def _calls_itself(fdef):
    return any(isinstance(n, gast.Call) and isinstance(n.func, gast.Name)
               and n.func.id == fdef.name for n in walk_tree(fdef))


def lambda_as_def(name, lam, where):
    """`lambda z: e` -> `def name(z): return e`, located at `where`."""
    body = build.with_location(gast.Return(value=lam.body), where)
    fdef = gast.FunctionDef(name=name, args=lam.args, body=[body], decorator_list=[],
                            returns=None, type_comment=None, type_params=[])
    return build.with_location(fdef, where)


class InlineMixin:
    """`_inline(name, call)` for the normalizer: the call's value as an atom."""

    def _inline(self, name, call, held=None, shared=(), receiver_class=None):
        """The call's value as an atom. With `held` (the nested defs of a helper that
        returns functions, transforms/returned_functions.py): each registered as a nested
        function of f reading the helper's variables under their fresh names, and the
        returned expression given back unlowered (its functions are no values)."""
        # (a def of yours inlined, a method `helper0` calling the module's `helper0`,
        # reads its names in its own module: no call of itself)
        if name in self._inlining or held is None and _calls_itself(self.nested[name]) \
                and name not in getattr(self, "helper_defs", {}):
            lifted_call = self._recursion_lifted(name, call)
            if lifted_call is not None:
                return lifted_call
            raise UnsupportedSyntaxError(
                f"the nested function `{name}` calls itself, and is differentiated as a "
                f"module-level function only with plain parameters (no defaults, `*args`, "
                f"`**kwargs` or keyword-only ones)", self.smap.locate(call),
                "give it plain parameters, or make it a module-level function")
        fdef = build.clone(self.nested[name])
        params = [a.id for a in fdef.args.posonlyargs + fdef.args.args + fdef.args.kwonlyargs]
        # the parameters of lambdas inside are renamed with the names they shadow, so a
        # lambda's `z` never reads the function's own `z`
        local = set(params) | {n.id for n in walk_tree(fdef) if isinstance(n, gast.Name)
                               and isinstance(n.ctx, (gast.Store, gast.Param))}
        rename = {v: self.namer.fresh(v) for v in sorted(local)}
        # a parameter in `shared` given a variable of f is that variable: the helper's
        # writes into it are f's writes (`q[0] = v` in the helper is `t[0] = v` in f)
        caller = {p: arg.id for p, arg in self._arguments_given(fdef, call).items()
                  if p in shared and isinstance(arg, gast.Name) and arg.id in self.current
                  and arg.id not in self.nested}
        rename.update(caller)
        # the fresh names are values of f (`w_1.sum()` is a method of a value); an inlined
        # method's object is of the class its call chose (its methods are that class's)
        receivers = self.res.receivers if receiver_class is None or not params else \
            {**self.res.receivers, rename[params[0]]: (receiver_class, "exact")}
        self.res = dataclasses.replace(self.res, locals=self.res.locals | set(rename.values()),
                                       receivers=receivers)
        if receiver_class is not None and params:
            self._know_as(call.args[0] if call.args else None, rename[params[0]])
        bound = self._bind_call(fdef, rename, call, name,  # defaults read enclosing names
                                set(caller))
        helper = getattr(self, "helper_defs", {}).get(name)
        if helper is not None:          # a def of yours: its names, for errors
            where = self.smap.locate(call)
            self.__dict__.setdefault("inlined", {}).update(
                {rename[v]: (v, helper, where) for v in local if v not in caller})
        for fn in [fdef] + [self._hold(fname, fd) for fname, fd in (held or {}).items()]:
            for node in walk_tree(fn):
                if isinstance(node, gast.Name) and node.id in rename:
                    node.id = rename[node.id]
        # its loops over a list of objects of known classes unrolled, as f's own are
        # (`for layer in self.layers` of an inlined Sequential.forward)
        fdef = unrolled_item_loops(fdef, self.known_functions, self._fresh_local)
        fdef = lower_exits(fdef, self.namer)
        # its bindings, read like f's own (the keys of a `**kwargs` it forwards)
        self.__dict__.setdefault("_inlined_defs", []).append(fdef)
        for var in assigned_in_compound(fdef):
            # bound in a loop or branch (a loop's index): one name throughout, as f's own
            self.multi_def.add(var)
            self.current.setdefault(var, var)
            self.levels.setdefault(var, 0)
        self._flush(call, [])
        for param, atom, level in bound:
            if atom is None:            # a function: calls of the parameter inline it
                self.nested[param] = level
                continue
            self.current[param] = param
            self.levels[param] = level
            self._flush(call, [build.assign(param, atom)])
        self._inlining.append(name)
        # a helper called in a loop's iterable (`for r in [a, helper(x)]`) must not leave
        # its own loop's variable as the enclosing loop's
        saved_loop_var = self._loop_var
        try:
            for stmt in fdef.body[:-1]:
                self._statement(stmt)
            final = fdef.body[-1]
            if not isinstance(final, gast.Return):
                self._statement(final)
                return build.const(None), 0
            value = final.value if final.value is not None else build.const(None)
            return value if held is not None else self._atom(value)
        finally:
            self._inlining.pop()
            self._loop_var = saved_loop_var

    def _fresh_local(self, base):
        """A fresh name from the namer, a value of f (a name an inlined def's unrolled loop
        binds)."""
        name = self.namer.fresh(base)
        self.res = dataclasses.replace(self.res, locals=self.res.locals | {name})
        return name

    def _recursion_lifted(self, name, call):
        """A nested def of f calling itself, called: its lifted function (transforms/
        lifted.py: f's variables it reads as parameters by name) called with them, as a
        module-level recursive helper is; None when it cannot be lifted."""
        from .lifted import lifted
        fdef = self.nested[name]
        found = lifted(self.parsed.func, fdef, self.res.is_value,
                       self.smap.first_line + fdef.lineno - 1) \
            if isinstance(fdef, gast.FunctionDef) and hasattr(self.parsed.func, "__code__") \
            else None
        if found is None:
            return None
        function, extra = found
        bound = self._bound_name(function)
        target = build.with_location(build.call(
            build.name(bound), list(call.args),
            [(k.arg, k.value) for k in call.keywords] + [(v, build.name(v)) for v in extra]),
            call)
        return self._call_target(build.name(bound), bound, function, target)

    def _know_as(self, given, name):
        """What the signature says of the object `given` (an argument of f, an object it
        holds, an item of a list it holds: the classes and functions their attributes
        hold, "blk.fc.__class__") said of `name` too, the inlined method's `self`:
        `self.fc(x)` in it is then Linear.__call__(self.fc, x), as `blk.fc(x)` is in f.
        A new dict: the one given to the normalizer is kept."""
        path = self._receiver_path(given) if given is not None else None
        if path is None:
            return
        known = {name + key[len(path):]: value
                 for key, value in self.known_functions.items()
                 if key.startswith((path + ".", path + "["))}
        if known:
            self.known_functions = {**self.known_functions, **known}

    def _hold(self, name, fdef):
        """A copy of the nested def `fdef` registered as f's nested function `name`."""
        self.nested[name] = build.clone(fdef)
        return self.nested[name]

    def _arguments_given(self, fdef, call):
        """{parameter: the argument expression the call gives it} (positional and keyword)."""
        a = fdef.args
        positional = [p.id for p in a.posonlyargs + a.args]
        given = dict(zip(positional, call.args))
        given.update({k.arg: k.value for k in call.keywords if k.arg is not None})
        return given

    def _bind_call(self, fdef, rename, call, name, shared=frozenset()):
        """(fresh parameter, argument atom, level) for each parameter of the nested
        function, but those in `shared`, which name f's variable itself."""
        a = fdef.args
        originals = [p.id for p in a.posonlyargs + a.args + a.kwonlyargs]
        fresh = {p: rename[p] for p in originals}
        positional = originals[:len(a.posonlyargs + a.args)]
        defaults = dict(zip(positional[len(positional) - len(a.defaults):], a.defaults))
        defaults.update({p.id: d for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None})
        given = {}
        if len(call.args) > len(positional) and not a.vararg:
            raise UnsupportedSyntaxError(f"too many arguments for `{name}`",
                                         self.smap.locate(call))
        if any(isinstance(arg, gast.Starred) for arg in call.args) and a.vararg \
                or any(kw.arg is None for kw in call.keywords) and a.kwarg:
            raise UnsupportedSyntaxError(
                f"`{name}` takes *args or **kwargs and is given items spread from a value "
                f"here: its parameters are bound for the items the call writes out",
                self.smap.locate(call), f"write the items out: {name}(x[0], x[1])")
        for p, arg in zip(positional, call.args):
            given[p] = arg
        extra = {}
        for kw in call.keywords:
            if (kw.arg not in fresh and not a.kwarg) or kw.arg in given:
                raise UnsupportedSyntaxError(f"bad keyword argument `{kw.arg}` for `{name}`",
                                             self.smap.locate(call))
            if kw.arg in fresh:
                given[kw.arg] = kw.value
            else:
                extra[kw.arg] = kw.value
        # `def total(*vals)`: vals is the tuple of the items past the named parameters,
        # `def f(**opts)`: opts the dict of the keywords no parameter names (as a call binds)
        starred = []
        if a.vararg:
            starred.append((rename[a.vararg.id], build.tuple_(list(call.args[len(positional):]))))
        if a.kwarg:
            starred.append((rename[a.kwarg.id], gast.copy_location(gast.Dict(
                keys=[build.const(k) for k in extra], values=list(extra.values())), call)))
        out = [(param, *self._atom(value)) for param, value in starred]
        for p in originals:
            if p in shared:
                continue
            expr = given.get(p, defaults.get(p))
            if expr is None:
                raise UnsupportedSyntaxError(f"`{name}` is missing the argument `{p}`",
                                             self.smap.locate(call))
            function = self._local_function(expr)
            if function is not None:
                out.append((fresh[p], None, function))
                continue
            atom, level = self._atom(expr)
            out.append((fresh[p], atom, level))
        return out

    def _local_function(self, expr):
        """The def a nested function's name or a lambda passed as an argument stands for
        (inlined where the parameter receiving it is called), else None."""
        if isinstance(expr, gast.Lambda):
            return lambda_as_def(self.namer.fresh("lambda_"), expr, expr)
        if isinstance(expr, gast.Name) and expr.id in self.nested \
                and expr.id not in self.current:
            return self.nested[expr.id]
        made = self._partial_made_here(expr) if isinstance(expr, (gast.Name, gast.Call)) \
            else None
        return self._partial_as_def(made, expr) if made is not None else None

    def _partial_as_def(self, made, where):
        """`partial(g, a, k=v)` made in f, as `def partial_(x, y): return g(a, x, y, k=v)`:
        its parameters are g's that the partial leaves and that have no default (g a
        function whose signature Python gives). None for another g."""
        import inspect
        path = build.dotted_path(made.args[0])
        if path is None or self.res.is_value(path.split(".")[0]) or not self.res.has(path):
            return None
        try:
            params = list(inspect.signature(self.res.lookup(path)).parameters.values())
        except (TypeError, ValueError):
            return None
        fixed = {k.arg for k in made.keywords}
        left = [p.name for p in params[len(made.args) - 1:]
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                and p.default is p.empty and p.name not in fixed]
        names = [self.namer.fresh(p) for p in left]
        value = build.call(build.clone(made.args[0]),
                           [build.clone(a) for a in made.args[1:]] + [build.name(n) for n in names],
                           [(k.arg, build.clone(k.value)) for k in made.keywords])
        fdef = build.function_def(self.namer.fresh("partial_"), names, [build.ret(value)])
        for node in walk_tree(fdef):
            build.with_location(node, where)
        return fdef
