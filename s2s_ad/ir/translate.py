"""ast <-> gast: the trees gast's own translators make, at about half their cost.

    tree = parse_gast(text)            # gast.parse(text)
    module = to_ast(gast_tree)         # gast.gast_to_ast(gast_tree)

Every first call parses f and the templates it uses (gast.parse) and prints the
derivative (gast.gast_to_ast, then astor): gast's translators were a tenth of a first
call's cost (a node costs a string concatenation and a getattr to find its visitor, a
constructor call through *args, and ast.copy_location's four membership tests). These
are gast's translator classes with the per-node work done once per node class: the
visitor of a class is looked up once, the class a node becomes is looked up once, and a
Name (a third of every tree) is made without the generic constructor. Whatever gast's
translators do otherwise (the special cases of each Python version) is inherited, not
rewritten; tests/test_translate.py holds the trees equal to gast's, field by field and in
the same attribute order, on every template, every benchmark and the generated sources.
"""
import ast

import gast
from gast.ast3 import Ast3ToGAst, GAstToAst3

_MISSING = object()
_LOCATION = ("lineno", "col_offset", "end_lineno", "end_col_offset")
# NodeVisitor.visit_Constant reaches the visit_Num-style methods of Python < 3.8 when a
# translator defines them, else generic_visit
_OLD_CONSTANT_VISITORS = ("visit_Num", "visit_Str", "visit_Bytes", "visit_NameConstant",
                          "visit_Ellipsis")


class _Cached:
    """The per-class lookups of gast's Translator.visit / generic_visit, made once."""
    _into = None            # the module whose classes nodes become (gast or ast)

    def visit(self, node):
        cls = node.__class__
        visitor = self._visitors.get(cls)
        if visitor is None:
            visitor = self._visitors[cls] = self._visitor_of(cls)
        return visitor(self, node)

    @classmethod
    def _visitor_of(cls, node_class):
        found = getattr(cls, "visit_" + node_class.__name__, None)
        if found is ast.NodeVisitor.visit_Constant and not any(
                hasattr(cls, name) for name in _OLD_CONSTANT_VISITORS):
            found = None
        return found or cls.generic_visit

    def _visit(self, node):
        if isinstance(node, ast.AST):
            return self.visit(node)
        if isinstance(node, list):
            return [self._visit(n) for n in node]
        return node

    def generic_visit(self, node):
        cls = node.__class__
        make = self._targets.get(cls, _MISSING)
        if make is _MISSING:
            make = self._targets[cls] = _maker(getattr(self._into, cls.__name__, None))
        if make is None:
            return None         # gast's translators drop what the target grammar lacks
        new_node = make.__new__(make) if make in _BLANK else make()
        fields = new_node.__dict__          # what setattr writes, without the call
        for field in node._fields:
            value = getattr(node, field)
            kind = value.__class__
            if kind is list:
                fields[field] = [self.visit(v) if isinstance(v, ast.AST) else self._visit(v)
                                 for v in value]
            elif kind in _ATOMS:
                fields[field] = value
            else:
                fields[field] = self._visit(value)
        for attr in node._attributes:
            value = getattr(node, attr, _MISSING)
            if value is not _MISSING:
                fields[attr] = value
        return new_node


_ATOMS = frozenset({str, int, float, bool, complex, bytes, type(None), type(Ellipsis)})


def _maker(cls):
    """The class generic_visit makes a node of; noted in _BLANK when it is gast's,
    whose constructor given no arguments sets nothing: its __new__ makes the same node
    without the Python-level call (an ast class is called: it is C)."""
    init = getattr(cls, "__init__", None)
    if getattr(init, "__module__", None) == gast.gast.__name__ \
            and getattr(init, "__name__", None) == "create_node":
        _BLANK.add(cls)
    return cls


_BLANK = set()


def _located(new_node, old_node):
    """ast.copy_location for two nodes whose classes both have the four position
    attributes (a Name, in either grammar)."""
    for attr in _LOCATION:
        value = getattr(old_node, attr, None)
        if value is not None or attr[0] == "e" and hasattr(old_node, attr):
            setattr(new_node, attr, value)
    return new_node


_NAME = gast.Name


class _ToGast(_Cached, Ast3ToGAst):
    _into = gast
    _visitors = {}
    _targets = {}

    def visit_Name(self, node):
        # gast.Name(node.id, ctx, None, None): its constructor sets the fields in order
        new_node = _NAME.__new__(_NAME)
        new_node.__dict__.update(id=node.id, ctx=self._visit(node.ctx), annotation=None,
                                 type_comment=None)
        return _located(new_node, node)


class _ToAst(_Cached, GAstToAst3):
    _into = ast
    _visitors = {}
    _targets = {}

    def visit_Name(self, node):
        return _located(ast.Name(self._visit(node.id), self._visit(node.ctx)), node)


def _same_as_gast():
    """Whether the Name visitors above are what this gast's translators do (gast 0.5 and
    0.6 on Python 3.8-3.13); otherwise gast's own are kept."""
    names_fields = gast.Name._fields == ("id", "ctx", "annotation", "type_comment")
    return names_fields and set(_LOCATION) <= set(gast.Name._attributes) \
        and set(_LOCATION) <= set(ast.Name._attributes)


if not _same_as_gast():
    del _ToGast.visit_Name, _ToAst.visit_Name


def to_gast(tree):
    """gast.ast_to_gast(tree)."""
    return _ToGast().visit(tree)


def to_ast(tree):
    """gast.gast_to_ast(tree)."""
    return _ToAst().visit(tree)


def parse_gast(text):
    """gast.parse(text)."""
    return to_gast(ast.parse(text))
