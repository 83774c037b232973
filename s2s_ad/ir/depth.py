"""How deep a tree nests, and room on the Python stack for the walks that recurse on it.

s2s_ad's own analyses and passes walk statements and expressions from explicit stacks,
but gast's conversion, astor's printer, copy.deepcopy and ast's visitors recurse once or
more per level of a tree. The parser accepts a function whose expressions or blocks nest
at most MAX_DEPTH deep (deeper is a located error, as Python's own parser reports what
it cannot take), and `recursion_room` lets the recursion limit grow to fit that depth
for the time a derivative is built, so a 300-deep expression never hits the default
limit of 1,000 frames, whatever the caller's own stack holds.

    depth, deepest = tree_depth(tree)        # 301, the innermost node
    with recursion_room():
        ...                                   # build the derivative
"""
import contextlib
import sys
from ast import AST

MAX_DEPTH = 500          # levels of one function's tree (the C stack bounds the frames)
FRAMES_PER_LEVEL = 10    # what the library walks use per level, with room to spare


def tree_depth(root):
    """(levels of the deepest node under `root`, the innermost node with a position on
    the way to it), from an explicit stack."""
    deepest, node_of = 0, root
    stack = [(root, 1, root)]
    pop, push = stack.pop, stack.append
    while stack:
        node, depth, located = pop()
        if hasattr(node, "lineno"):
            located = node
        if depth > deepest:
            deepest, node_of = depth, located
        depth += 1
        for name in node._fields:       # (a loop, not a generator per node: every parse)
            field = getattr(node, name, None)
            if isinstance(field, list):
                for item in field:
                    if isinstance(item, AST):
                        push((item, depth, located))
            elif isinstance(field, AST):
                push((field, depth, located))
    return deepest, node_of


@contextlib.contextmanager
def recursion_room(levels=MAX_DEPTH):
    """Raise the recursion limit (never lower it) so that walks recursing `levels` deep
    fit above the current stack; the old limit comes back afterwards."""
    old = sys.getrecursionlimit()
    needed = _stack_depth() + FRAMES_PER_LEVEL * levels + 200
    if needed > old:
        sys.setrecursionlimit(needed)
    try:
        yield
    finally:
        if needed > old:
            sys.setrecursionlimit(old)


def _stack_depth():
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth
