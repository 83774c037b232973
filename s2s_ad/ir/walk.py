"""Walking structured levels form: every statement, nested blocks included.

    for stmt in all_statements(tree.body): ...   # if/for/while bodies and else-branches too
"""
import copy
from ast import AST

import gast

from .build import clone


def walk_tree(node):
    """Every node under `node` (itself first), breadth first: the order of `gast.walk`,
    at a fraction of its cost (the analyses and passes walk trees often; it was a fifth of
    the time a derivative takes to build). Lazy like gast.walk: a node's children are
    read when the node is reached, so a caller may edit the nodes it has been given."""
    todo = [node]
    push = todo.append
    fields_of = _CHILD_FIELDS.get
    for node in todo:             # a list iterator sees the items pushed while it runs
        cls = node.__class__
        if cls is _NAME:
            # a third of every tree: its one child is its context (an annotation only on
            # a parameter), read without the loop over fields below
            ctx = getattr(node, "ctx", None)
            if isinstance(ctx, AST):
                push(ctx)
            annotation = getattr(node, "annotation", None)
            if isinstance(annotation, AST):
                push(annotation)
            yield node
            continue
        fields = fields_of(cls)
        if fields is None:
            fields = _child_fields(cls)
        for name in fields:
            field = getattr(node, name, None)
            if field is None:     # most optional fields (a slice's step, a return's value)
                continue
            if isinstance(field, AST):
                push(field)
            elif isinstance(field, list):
                for item in field:
                    if isinstance(item, AST):
                        push(item)
        yield node


_NAME = gast.Name


# fields the grammar gives a string (an identifier, a type comment, a constant's kind),
# never a node: walks skip them (a Name is a third of a tree, and its id the field read
# most often for nothing)
_LEAF_FIELDS = frozenset({"id", "attr", "kind", "type_comment"})
_CHILD_FIELDS = {}            # node class -> its fields that may hold nodes, in order


def _child_fields(cls):
    fields = _CHILD_FIELDS[cls] = tuple(f for f in cls._fields if f not in _LEAF_FIELDS)
    return fields


class Transformer(gast.NodeTransformer):
    """gast.NodeTransformer, visiting the same nodes in the same order with the same
    results, at about half its cost: a class's visitor name is made once, the fields the
    grammar gives strings are not read, and a Constant goes straight to generic_visit
    (the base class's visit_Constant only looks for the visit_Num-style methods of
    Python < 3.8, which nothing here defines). The passes that rewrite every expression
    (folding, template expansion) subclass it."""

    def visit(self, node):
        cls = node.__class__
        name = _VISITOR_NAMES.get(cls)
        if name is None:
            name = _VISITOR_NAMES[cls] = "visit_" + cls.__name__
        return getattr(self, name, self.generic_visit)(node)

    def visit_Constant(self, node):
        return self.generic_visit(node)

    def generic_visit(self, node):
        fields = _CHILD_FIELDS.get(node.__class__)
        if fields is None:
            fields = _child_fields(node.__class__)
        for name in fields:
            old_value = getattr(node, name, None)
            if isinstance(old_value, list):
                new_values = []
                for value in old_value:
                    if isinstance(value, AST):
                        value = self.visit(value)
                        if value is None:
                            continue
                        if not isinstance(value, AST):
                            new_values.extend(value)
                            continue
                    new_values.append(value)
                old_value[:] = new_values
            elif isinstance(old_value, AST):
                new_node = self.visit(old_value)
                if new_node is None:
                    delattr(node, name)
                else:
                    setattr(node, name, new_node)
        return node


class CopyingTransformer(Transformer):
    """A Transformer that never writes into the tree it is given: a node one of whose
    children a visitor replaced is a shallow copy holding the new child, every other node
    is shared. A stage that rewrites expressions this way leaves its input as it was
    without copying the whole tree first. Its visitors return one node (never None or a
    list).

        CopyingTransformer subclass folding `y * 1.0` on `g = y * 1.0 + z`
        -> a new BinOp `y + z` (and its new parent); `g`'s old tree unchanged"""

    def generic_visit(self, node):
        fields = _CHILD_FIELDS.get(node.__class__)
        if fields is None:
            fields = _child_fields(node.__class__)
        changes = None
        for name in fields:
            old_value = getattr(node, name, None)
            if isinstance(old_value, list):
                new_value = [self.visit(v) if isinstance(v, AST) else v for v in old_value]
                if any(a is not b for a, b in zip(new_value, old_value)):
                    changes = changes or {}
                    changes[name] = new_value
            elif isinstance(old_value, AST):
                new_node = self.visit(old_value)
                if new_node is not old_value:
                    changes = changes or {}
                    changes[name] = new_node
        if changes is None:
            return node
        node = copy.copy(node)
        for name, value in changes.items():
            setattr(node, name, value)
        return node


_VISITOR_NAMES = {}           # node class -> "visit_" + its name


def same_nodes(new, old):
    """Whether two lists hold the same nodes (by identity) in the same order: a rewrite
    that builds new nodes keeps the statement holding a block it did not change."""
    return len(new) == len(old) and all(a is b for a, b in zip(new, old))


def all_statements(body):
    """Each statement of `body`, then (depth first) those of its nested blocks. From an
    explicit stack: nothing here recurses on how deep blocks nest."""
    stack = [iter(body)]
    push, pop = stack.append, stack.pop
    while stack:
        for stmt in stack[-1]:
            yield stmt
            # read after the yield: a caller may change the blocks of what it was given
            inner, orelse = getattr(stmt, "body", None), getattr(stmt, "orelse", None)
            if inner or orelse:
                if orelse and isinstance(orelse, list):
                    push(iter(orelse))
                if inner and isinstance(inner, list):
                    push(iter(inner))
                break       # into the nested blocks; this block's iterator resumes after
        else:
            pop()


def without_statements(body, drop):
    """`body` without the statements (nested ones too) for which `drop(stmt)` is true; a
    block left empty becomes `pass`. A compound statement holding a dropped one is a
    shallow copy (the statements given are not written into)."""
    def block(stmts):
        return (without_statements(stmts, drop) or [gast.Pass()]) if stmts else stmts
    return [with_blocks(stmt, block) for stmt in body if not drop(stmt)]


def with_blocks(stmt, rewrite):
    """stmt, or a shallow copy of it whose blocks (body, orelse, finalbody and each except
    handler's body) are rewrite(block), where one of them changed: how a rewrite that
    builds new statements leaves the compound statements it was given as they were.

        with_blocks(for x in xs: [a, b], drop_b)  ->  a new For with [a]; the old one
        still holds [a, b]; with_blocks(y = f(x), ...) -> the same statement"""
    fields = [f for f in ("body", "orelse", "finalbody")
              if isinstance(getattr(stmt, f, None), list)]
    if not fields:
        return stmt
    new = {f: rewrite(getattr(stmt, f)) for f in fields}
    handlers = [with_blocks(h, rewrite) for h in getattr(stmt, "handlers", ())]
    if all(same_nodes(new[f], getattr(stmt, f)) for f in fields) \
            and same_nodes(handlers, getattr(stmt, "handlers", [])):
        return stmt
    stmt = copy.copy(stmt)
    for f in fields:
        setattr(stmt, f, new[f])
    if handlers:
        stmt.handlers = handlers
    return stmt


def names_loaded(node):
    """The names an expression or statement reads, in walk order (repeats kept)."""
    return [n.id for n in _names(node) if isinstance(n.ctx, gast.Load)]


def name_counts(statements):
    """({name: times read}, {name: times bound or deleted}) over `statements` (a list of
    nodes), from one walk: what a pass asks before it moves, inlines or drops a name."""
    loads, stores = {}, {}
    for stmt in statements:
        for node in _names(stmt):
            table = loads if isinstance(node.ctx, gast.Load) else stores
            table[node.id] = table.get(node.id, 0) + 1
    return loads, stores


def every_call(node, test):
    """Does test(call) hold for every call under `node` (itself included)? With a pass's
    pure_call: may the expression be evaluated again, moved or dropped?"""
    return all(test(n) for n in walk_tree(node) if isinstance(n, gast.Call))


def names_stored(node):
    """The names a statement (or a whole function body) binds, in walk order."""
    return [n.id for n in _names(node) if isinstance(n.ctx, gast.Store)]


def _names(node):
    """The Name nodes walk_tree(node) yields, in its order: the same walk, yielding
    only names and not entering a name's context (a leaf): a third of the steps and of
    the values handed back (the name queries above were a sixth of all walking)."""
    todo = [node]
    push = todo.append
    fields_of = _CHILD_FIELDS.get
    for node in todo:
        cls = node.__class__
        if cls is _NAME:
            annotation = getattr(node, "annotation", None)
            if isinstance(annotation, AST):
                push(annotation)
            yield node
            continue
        fields = fields_of(cls)
        if fields is None:
            fields = _child_fields(cls)
        for name in fields:
            field = getattr(node, name, None)
            if field is None:
                continue
            if isinstance(field, AST):
                push(field)
            elif isinstance(field, list):
                for item in field:
                    if isinstance(item, AST):
                        push(item)


def with_copies_of(body, nodes):
    """`body` (a new list) where the statements holding one of `nodes` (by identity, at any
    depth) are copies: a simple statement deeply, a loop or branch shallowly with its
    blocks copied the same way (and its test or iterable deeply when it holds one). A pass
    about to edit those nodes, or to give a copied loop a new body, edits the copies; the
    statements it was given stay as they were, and those it does not touch are shared.
    Returns (body, copies): copies maps id(loop or branch) to its copy."""
    wanted = {id(n) for n in nodes}
    copies = {}

    def holds(node):
        return any(id(n) in wanted for n in walk_tree(node))

    def block(stmts):
        out = []
        for stmt in stmts:
            if not holds(stmt):
                out.append(stmt)
            elif isinstance(stmt, (gast.If, gast.For, gast.While)):
                new = copy.copy(stmt)
                new.body, new.orelse = block(stmt.body), block(stmt.orelse)
                for head in ("test", "iter", "target"):
                    if hasattr(stmt, head) and holds(getattr(stmt, head)):
                        setattr(new, head, clone(getattr(stmt, head)))
                copies[id(stmt)] = new
                out.append(new)
            else:
                out.append(clone(stmt))
        return out
    return block(body), copies


def uninterrupted_blocks(tree):
    """ids of the statement lists of a function every statement of which runs, once the
    list is entered, when the function returns: its body (no early return) and loop bodies
    with no break, continue or return in them (at any depth). One walk of the statements."""
    blocks = set()

    def exits(stmts):
        """(a break, continue or return somewhere in `stmts`, a return there)."""
        found = returns = False
        for stmt in stmts:
            found |= isinstance(stmt, (gast.Break, gast.Continue, gast.Return))
            returns |= isinstance(stmt, gast.Return)
            for field in ("body", "orelse", "handlers", "finalbody"):
                inner = getattr(stmt, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], gast.AST):
                    inner_found, inner_returns = exits(inner)
                    if field == "body" and isinstance(stmt, (gast.For, gast.While)) \
                            and not inner_found:
                        blocks.add(id(stmt.body))
                    found, returns = found or inner_found, returns or inner_returns
        return found, returns

    if not exits(tree.body[:-1])[1]:
        blocks.add(id(tree.body))
    exits(tree.body[-1:])
    return blocks


def own_nodes(fdef):
    """The nodes of fdef's body outside the defs, lambdas and classes nested in it (each
    of those is yielded, its inside is not)."""
    pending = list(fdef.body)
    while pending:
        node = pending.pop()
        yield node
        if not isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda,
                                 gast.ClassDef)):
            pending.extend(gast.iter_child_nodes(node))


def assigned_at_most_once(body):
    """Names bound at most once in the body (loop targets and `+=` count as bindings) and
    never written into (`name[i] = v`, `name.attr = v`, `out=name`)."""
    stores, written = {}, set()
    for stmt in body:
        for node in walk_tree(stmt):
            if isinstance(node, gast.Name):
                count = 1 if isinstance(node.ctx, gast.Store) else 0
                stores[node.id] = stores.get(node.id, 0) + count
            elif isinstance(node, (gast.Assign, gast.AugAssign)):
                targets = node.targets if isinstance(node, gast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, (gast.Subscript, gast.Attribute)):
                        written.update(n.id for n in walk_tree(target)
                                       if isinstance(n, gast.Name))
            elif isinstance(node, gast.keyword) and node.arg == "out":
                written.update(n.id for n in walk_tree(node.value) if isinstance(n, gast.Name))
    return {name for name, count in stores.items() if count <= 1} - written


def dump_key(node):
    """A key two trees share exactly when gast.dump(node) gives them the same text (the
    node classes, the fields it shows, the reprs of their values), built as nested tuples
    at a fraction of the cost of formatting that text: what common subexpressions and
    repeated calls are recognised by. As gast.dump, a field that is missing, None or an
    empty list is left out, except a Constant's (or MatchSingleton's) value."""
    if isinstance(node, AST):
        cls = node.__class__
        key = [cls.__name__]
        shown = isinstance(node, _SHOW_NONE)
        for name in node._fields:
            value = getattr(node, name, _ABSENT)
            if value is _ABSENT or value is None and getattr(cls, name, 42) is None:
                continue
            if not shown and (value is None or value == []):
                continue
            key.append((name, dump_key(value)))
        return tuple(key)
    if isinstance(node, list):
        return ("[",) + tuple(dump_key(item) for item in node)   # no node class is "["
    return repr(node)


_ABSENT = object()
_SHOW_NONE = (gast.Constant, getattr(gast, "MatchSingleton", gast.Constant))
