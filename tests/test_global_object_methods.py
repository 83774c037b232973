"""A method of a module-level object called in f (`model.loss(x)`, `Cls.make(x)` of a
classmethod), as users write a loss around a model they built once: the bound method is
differentiated as its def with the object first (`Model.loss(model, x)`), to any order,
on both paths. Before, no derivative was known for `model.loss(...)` (a false rejection)."""
import numpy as np
import pytest

from derivative_paths import PATHS, check_against_differences


class Model:
    def __init__(self, n):
        self.W = np.linspace(-1.0, 1.0, 3 * n).reshape(3, n)
        self.b = np.array([0.1, -0.2, 0.3])

    def forward(self, x):
        return np.tanh(self.W @ x + self.b)

    def loss(self, x, scale=1.0):
        return scale * np.sum(self.forward(x) ** 2) + 0.5 * np.sum(x * x)

    @classmethod
    def penalty(cls, x):
        return cls.WEIGHT * np.sum(np.sin(x) ** 2)

    WEIGHT = 0.3


MODEL = Model(4)


def loss_of_a_global_model(x):
    return MODEL.loss(x) + MODEL.loss(2.0 * x, scale=0.5)


def classmethod_of_a_global_class(x):
    return Model.penalty(x) * np.sum(x)


X = np.array([0.11, -0.27, 0.45, 0.58])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [loss_of_a_global_model, classmethod_of_a_global_class])
def test_methods_of_module_level_objects(f, path):
    check_against_differences(path, f, X)


class Stepper:
    def __init__(self, rate):
        self.rate = rate

    def step(self, u, dt=1.0):
        u[:] = u * (1.0 - self.rate * dt)
        u[1:] = u[1:] + dt * np.sin(u[:-1])


STEPPER = Stepper(0.2)


def stepped_in_place_with_a_keyword(x):
    u = x * 1.0
    STEPPER.step(u, dt=0.5)
    STEPPER.step(u, dt=0.25)
    return np.sum(u ** 2)


@pytest.mark.parametrize("path", PATHS)
def test_a_global_object_method_writing_into_its_argument_with_a_keyword(path):
    # the method is inlined; its keyword argument was handed over as a node build.call
    # could not read (a TypeError while building the derivative)
    check_against_differences(path, stepped_in_place_with_a_keyword, X)


def shift_rows_(u, scale=1.0, **opts):
    u[1:] = u[1:] + scale * np.sin(u[:-1]) + opts.get("bias", 0.0)


class Shifter:
    def shift(self, u, scale=1.0, **opts):
        u[:-1] = u[:-1] * (1.0 - 0.1 * scale) + opts.get("bias", 0.0)


SHIFTER = Shifter()


def writes_through_a_helper_taking_kwargs(x):
    # a helper (or a global object's method) that writes into its argument is inlined;
    # one taking **kwargs was refused there ("differentiated for the keywords a call
    # gives") though the call gives them: its adapter for those keywords is inlined now
    u = x * 1.0
    shift_rows_(u, bias=0.1)
    SHIFTER.shift(u, 0.5)
    SHIFTER.shift(u, scale=0.25, bias=0.2)
    return np.sum(u ** 2)


@pytest.mark.parametrize("path", PATHS)
def test_a_helper_taking_kwargs_that_writes_into_its_argument(path):
    check_against_differences(path, writes_through_a_helper_taking_kwargs, X)


def test_only_the_users_own_defs_are_followed():
    # a method of a module-level object is followed only when it is the user's def:
    # log.debug of a logging.Logger (standard library) or a function of an installed
    # package is left to the call rules for library code (it was refused as a write)
    import logging

    from s2s_ad.users_defs import is_users_def
    assert is_users_def(Model.loss)
    assert is_users_def(shift_rows_)
    assert not is_users_def(logging.Logger.debug)
    assert not is_users_def(pytest.approx)
    assert not is_users_def(np.linalg.norm)


class Repeated:
    """A callable object calling itself through self (recursion by __call__)."""

    def __init__(self, w):
        self.w = w

    def __call__(self, x, n):
        return x if n == 0 else self(np.tanh(self.w * x) + 0.1 * x, n - 1)


REPEATED = Repeated(np.array([0.7, -1.1, 0.4, 1.3]))


def through_a_global_object_calling_itself(x):
    return np.sum(REPEATED(x, 3) ** 2)


def through_an_argument_calling_itself(obj, x):
    return np.sum(obj(x * 1.5, 2) * x)


@pytest.mark.parametrize("path", PATHS)
def test_a_callable_object_that_calls_itself(path):
    # (session 22) a module-level callable object is inlined into f, its class known
    # inside; its `self(...)` is R.__call__(self, ...), whose name the inlining had bound
    # without the function behind it: "no derivative is known for `call__(...)`". Now
    # differentiated as a recursive helper, like recursion through a plain def
    check_against_differences(path, through_a_global_object_calling_itself, X)
    # self(...) in the __call__ of an object argument (the object is not differentiated)
    check_against_differences(path, lambda x: through_an_argument_calling_itself(
        REPEATED, x), X)


class Net:
    def __init__(self, w):
        self.w = w

    def __call__(self, x, n):
        return x if n == 0 else self(np.tanh(self.w * x), n - 1)

    def run(self, x):
        return np.sum(self(x, 3) ** 2)


def method_of_an_argument_calling_itself(net, x):
    return net.run(x) * 2.0


def test_a_method_of_an_object_argument_recursing_through_call():
    # self(...) inside a method called on an object argument: in x on both paths, and
    # in the object itself (its w) on the specialised one, against central differences
    from gradcheck import numeric_grad
    from derivative_paths import grad_on
    net, x = Net(np.array([0.7, -1.1, 0.5, 0.9])), X
    expected = numeric_grad(method_of_an_argument_calling_itself, (net, x), 1)
    for path in PATHS:
        np.testing.assert_allclose(grad_on(path, method_of_an_argument_calling_itself, wrt=1)(
            net, x), expected, rtol=1e-6, atol=1e-9)
    by_w = numeric_grad(lambda w: method_of_an_argument_calling_itself(Net(w), x), (net.w,), 0)
    assert np.abs(by_w).max() > 0.1
    np.testing.assert_allclose(grad_on("specialised", method_of_an_argument_calling_itself)(
        net, x).w, by_w, rtol=1e-6, atol=1e-9)
