"""A module that rebinds builtin names the generated code also uses (`float`, `type`)."""
float = int     # noqa: A001  (on purpose: the generated scalar test must not read these)
type = str      # noqa: A001


def cube(x):
    return x * x * x
