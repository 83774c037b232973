"""Walking structured levels form: every statement, nested blocks included.

    for stmt in all_statements(tree.body): ...   # if/for/while bodies and else-branches too
"""


def all_statements(body):
    """Each statement of `body`, then (depth first) those of its nested blocks."""
    for stmt in body:
        yield stmt
        for field in ("body", "orelse"):
            yield from all_statements(getattr(stmt, field, None) or [])
