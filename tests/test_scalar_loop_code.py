"""Loops on Python numbers in a specialised gradient's final code: one tape tuple per
iteration (optimize/tape_batches.py), loops over a sequence's items (optimize/
item_loops.py), on floats, np.float64 scalars and tuples/lists of floats, and the
derivative of such a derivative (which reads the code before these rewrites)."""
import math

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on
from s2s_ad.derivative_registry import dispatcher_of


def euler_fit(a, b, x0, obs, dt):
    """Several values saved per step: x, and the temporaries the backward sweep reads."""
    x = x0
    loss = 0.0
    for t in range(len(obs)):
        dx = a * x - b * x * x
        x = x + dt * math.exp(-dx * dx) * dx
        loss = loss + (x - obs[t]) ** 2
    return loss


def horner(x, a, coeffs):
    p = 0.0
    for c in coeffs:
        p = p * x + a * c
    return p


def horner_appending(x, a, coeffs):
    """Writes into the list it loops over: the loops must keep reading positions."""
    p = 0.0
    for c in coeffs:
        p = p * x + a * c
    coeffs.append(0.0)
    return p


def horner_with_position(x, a, coeffs):
    """The position is read besides the item."""
    p = 0.0
    for i in range(len(coeffs)):
        c = coeffs[i]
        p = p * x + a * c * i
    return p


OBS = (0.2, 0.35, 0.3, 0.5, 0.45, 0.6)
COEFFS = (0.5, -1.0, 2.0, 0.25, -3.0, 1.5)


def differences(f, args, k, eps=1e-6):
    up, down = list(args), list(args)
    up[k] = up[k] + eps
    down[k] = down[k] - eps
    return (f(*up) - f(*down)) / (2 * eps)


def horner_exact(x, a, coeffs):
    """(d/dx, d/da) of a * P(x) from the polynomial's own derivative."""
    n = len(coeffs)
    value = sum(c * x ** (n - 1 - k) for k, c in enumerate(coeffs))
    slope = sum(c * (n - 1 - k) * x ** (n - 2 - k) for k, c in enumerate(coeffs[:-1]))
    return a * slope, value


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("number", [float, np.float64])
def test_a_loop_saving_several_numbers_has_the_right_gradient(path, number):
    args = (number(0.9), number(0.4), number(0.3), OBS, number(0.1))
    df = grad_on(path, euler_fit, wrt=(0, 1, 2))
    got = df(*args)
    for k in range(3):
        assert got[k] == pytest.approx(differences(euler_fit, args, k), rel=1e-6, abs=1e-9)


def test_a_loop_saving_several_floats_pushes_one_tuple_per_iteration(reverse_mode):
    args = (0.9, 0.4, 0.3, OBS, 0.1)
    df = s2s_ad.grad(euler_fit, wrt=(0, 1, 2))
    source = s2s_ad.derivative_source(df, *args)
    # one push and one pop in the loop bodies, of all values the step saves
    assert source.count("_tape.append(") == 1 and source.count("_tape.pop()") == 1
    assert "_tape.append((" in source
    general = s2s_ad.derivative_source(s2s_ad.api.general_derivative(df))
    assert general.count("_tape.append(") > 1          # the general derivative is as before
    assert np.allclose(df(*args), s2s_ad.api.general_derivative(df)(*args), rtol=1e-12)


def test_second_derivative_of_a_batched_loop():
    """grad of grad differentiates the gradient as it was before batching."""
    args = (0.9, 0.4, 0.3, OBS, 0.1)
    dda = s2s_ad.grad(first_component, wrt=0)
    eps = 1e-5
    up, down = list(args), list(args)
    up[0] += eps
    down[0] -= eps
    expected = (first_component(*up) - first_component(*down)) / (2 * eps)
    assert dda(*args) == pytest.approx(expected, rel=1e-5)


_first = s2s_ad.grad(euler_fit, wrt=0)


def first_component(a, b, x0, obs, dt):
    return _first(a, b, x0, obs, dt)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("container", [tuple, list])
def test_horner_over_a_sequence_of_floats(path, container):
    coeffs = container(COEFFS)
    df = grad_on(path, horner, wrt=(0, 1))
    assert df(0.7, 1.5, coeffs) == pytest.approx(horner_exact(0.7, 1.5, COEFFS), rel=1e-12)
    # again, with other items of the same kinds (the same specialisation)
    other = container(c * 2.0 for c in COEFFS)
    assert df(0.7, 1.5, other) == pytest.approx(horner_exact(0.7, 1.5, tuple(other)),
                                                rel=1e-12)


@pytest.mark.parametrize("container", [tuple, list])
def test_a_loop_over_items_reads_the_items(container, reverse_mode):
    df = s2s_ad.grad(horner, wrt=(0, 1))
    source = s2s_ad.derivative_source(df, 0.7, 1.5, container(COEFFS))
    assert "for c in coeffs:" in source and "for c in reversed(coeffs):" in source
    assert "range(" not in source


def test_a_list_the_function_writes_into_keeps_its_position_loops():
    df = s2s_ad.grad(horner_appending, wrt=(0, 1))
    coeffs = list(COEFFS)
    source = s2s_ad.derivative_source(df, 0.7, 1.5, list(COEFFS))
    assert "for c in coeffs:" not in source
    got = df(0.7, 1.5, coeffs)
    assert got == pytest.approx(horner_exact(0.7, 1.5, COEFFS), rel=1e-12)
    assert len(coeffs) == len(COEFFS) + 1


def test_a_position_read_besides_the_item_keeps_its_loop():
    df = s2s_ad.grad(horner_with_position, wrt=(0, 1))
    source = s2s_ad.derivative_source(df, 0.7, 1.5, COEFFS)
    assert "for c in coeffs:" not in source
    args = (0.7, 1.5, COEFFS)
    got = df(*args)
    for k in range(2):
        assert got[k] == pytest.approx(differences(horner_with_position, args, k), rel=1e-7)


def test_second_derivative_of_horner_over_items():
    ddx = s2s_ad.grad(horner_dx, wrt=0)
    x, a = 0.7, 1.5
    n = len(COEFFS)
    exact = a * sum(c * (n - 1 - k) * (n - 2 - k) * x ** (n - 3 - k)
                    for k, c in enumerate(COEFFS[:-2]))
    for container in (tuple, list):
        assert ddx(x, a, container(COEFFS)) == pytest.approx(exact, rel=1e-12)


_horner_grad = s2s_ad.grad(horner, wrt=0)


def horner_dx(x, a, coeffs):
    return _horner_grad(x, a, coeffs)


def test_the_list_guard_takes_a_list_holding_an_array_elsewhere():
    """The guard counting a list's item types sends a list with an int or a 0-d array
    to a derivative of its own."""
    df = s2s_ad.grad(horner, wrt=(0, 1))
    floats = list(COEFFS)
    assert df(0.7, 1.5, floats) == pytest.approx(horner_exact(0.7, 1.5, COEFFS))
    mixed = floats[:-1] + [np.array(COEFFS[-1])]
    gx, ga = df(0.7, 1.5, mixed)
    assert (gx, float(ga)) == pytest.approx(horner_exact(0.7, 1.5, COEFFS))
    with_int = floats[:-1] + [2]
    assert df(0.7, 1.5, with_int) == pytest.approx(
        horner_exact(0.7, 1.5, tuple(with_int)))
    dispatcher = dispatcher_of(df)
    built = [dispatcher.specialisation(dispatcher.signature_for((0.7, 1.5, c), {}))
             for c in (floats, mixed, with_int)]
    assert len(set(built)) == 3 and None not in built


def euler_fit_scaled(a, b, x0, obs, dt):
    """obs is also read whole (np.sum): it stays an array."""
    scale = np.sum(obs)
    x = x0
    loss = 0.0
    for t in range(len(obs)):
        x = x + dt * (a * x - b * x * x)
        loss = loss + (x - obs[t]) ** 2
    return loss / scale


@pytest.mark.parametrize("path", PATHS)
def test_a_float_array_read_item_by_item_in_a_loop(path, reverse_mode):
    obs = np.array(OBS)
    args = (0.9, 0.4, 0.3, obs, 0.1)
    df = grad_on(path, euler_fit, wrt=(0, 1, 2))
    got = df(*args)
    for k in range(3):
        assert got[k] == pytest.approx(differences(euler_fit, args, k), rel=1e-6, abs=1e-9)
    if path == "specialised":
        assert all(type(g) is float for g in got)
        source = s2s_ad.derivative_source(df, *args)
        assert "obs_items = array_tolist(obs)" in source and "float(obs[" not in source


@pytest.mark.parametrize("path", PATHS)
def test_a_jvp_reads_the_array_from_a_list_too(path):
    """The list is the levels form's (transforms/python_floats.py), so forward mode reads
    it as reverse mode does (the final-code pass it replaced ran in reverse mode only)."""
    from derivative_paths import jvp_on
    obs = np.array(OBS)
    args = (0.9, 0.4, 0.3, obs, 0.1)
    value, tangent = jvp_on(path, euler_fit, args, 1.0, wrt=0)
    assert value == pytest.approx(euler_fit(*args), rel=1e-12)
    assert tangent == pytest.approx(differences(euler_fit, args, 0), rel=1e-6, abs=1e-9)
    if path == "specialised":
        source = s2s_ad.derivative_source(s2s_ad.jvp(euler_fit, wrt=0), *args, 1.0)
        assert "obs_items[t]" in source and "float(obs[" not in source


def phase_fit(a, obs):
    """obs[t] is read by the backward sweep too (sin's adjoint reads its operand)."""
    loss = 0.0
    for t in range(len(obs)):
        loss = loss + math.sin(a * obs[t]) * obs[t]
    return loss


def test_an_item_read_from_the_list_is_read_again_not_taped(reverse_mode):
    """The list is bound once at the top and only indexed, so the backward loop reads
    the item from it again, as it read the array's (ad/recompute.py), instead of taping it."""
    obs = np.array(OBS)
    df = s2s_ad.grad(phase_fit, wrt=0)
    assert df(0.7, obs) == pytest.approx(differences(phase_fit, (0.7, obs), 0), rel=1e-6)
    source = s2s_ad.derivative_source(df, 0.7, obs)
    forward, backward = source.split("[::-1]")
    assert "= obs_items[t]" in forward and "= obs_items[t]" in backward
    assert not any(line.strip().startswith("_tape.append") and "t1_" in line
                   for line in forward.splitlines())


def converted_fit(a, obs):
    """A float32 series read through float(): its items are those floats."""
    x = 0.5
    loss = 0.0
    for t in range(len(obs)):
        x = x + 0.1 * (a * x - x * x)
        loss = loss + (x - float(obs[t])) ** 2
    return loss


def plain_float32_sum(a, obs):
    """A float32 item used as a float32 number: it stays an array read."""
    loss = 0.0
    for t in range(len(obs)):
        loss = loss + a * obs[t]
    return loss


@pytest.mark.parametrize("path", PATHS)
def test_a_float32_array_converted_item_by_item_is_read_from_a_list(path, reverse_mode):
    obs = np.linspace(0.1, 0.9, 7).astype(np.float32)
    df = grad_on(path, converted_fit, wrt=0)
    assert df(0.7, obs) == pytest.approx(differences(converted_fit, (0.7, obs), 0), rel=1e-6)
    if path == "specialised":
        assert "obs_items = array_tolist(obs)" in s2s_ad.derivative_source(df, 0.7, obs)
        other = s2s_ad.grad(plain_float32_sum, wrt=0)
        assert other(0.7, obs) == pytest.approx(float(np.sum(obs)), rel=1e-6)
        assert "tolist" not in s2s_ad.derivative_source(other, 0.7, obs)


def test_an_array_read_whole_as_well_stays_an_array():
    obs = np.array(OBS)
    args = (0.9, 0.4, 0.3, obs, 0.1)
    df = s2s_ad.grad(euler_fit_scaled, wrt=(0, 1))
    assert "tolist" not in s2s_ad.derivative_source(df, *args)
    got = df(*args)
    for k in range(2):
        assert got[k] == pytest.approx(differences(euler_fit_scaled, args, k), rel=1e-6)


_first_of_array_fit = s2s_ad.grad(euler_fit, wrt=0)


def first_of_array_fit(a, b, x0, obs, dt):
    return _first_of_array_fit(a, b, x0, obs, dt)


def test_second_derivative_through_a_loop_reading_a_list():
    args = (0.9, 0.4, 0.3, np.array(OBS), 0.1)
    got = s2s_ad.grad(first_of_array_fit, wrt=0)(*args)
    assert got == pytest.approx(differences(first_of_array_fit, args, 0, eps=1e-5), rel=1e-5)


def test_the_rewrites_leave_the_code_a_second_derivative_reads_as_it_was(reverse_mode):
    """Batched tapes are final code only; the list an array is read from is the levels
    form's (transforms/python_floats.py), so the plain code reads it too."""
    args = (0.9, 0.4, 0.3, np.array(OBS), 0.1)
    df = s2s_ad.grad(euler_fit, wrt=(0, 1))
    df(*args)
    derived = dispatcher_of(df).built[-1]
    _, plain = derived.plain()
    assert "_tape.append((" in derived.source and "array_tolist(obs)" in derived.source
    assert "_tape.append((" not in plain and "obs_items[t]" in plain
    assert "float(obs[" not in plain


_first_of_array_fit_by_obs = s2s_ad.grad(euler_fit, wrt=0)


def first_of_array_fit_by_obs(obs, a, b, x0, dt):
    return _first_of_array_fit_by_obs(a, b, x0, obs, dt)


@pytest.mark.parametrize("path", PATHS)
def test_second_derivative_along_the_array_read_as_a_list(path):
    """d/d obs of d/da: the outer derivative differentiates the inner one's
    `obs_items = array_tolist(obs)` (its template lays the list's adjoint out as obs)."""
    args = (np.array(OBS), 0.9, 0.4, 0.3, 0.1)
    got = grad_on(path, first_of_array_fit_by_obs, wrt=0)(*args)
    for k in range(len(OBS)):
        bumped = [np.array(OBS) for _ in range(2)]
        bumped[0][k] += 1e-6
        bumped[1][k] -= 1e-6
        want = (first_of_array_fit_by_obs(bumped[0], *args[1:])
                - first_of_array_fit_by_obs(bumped[1], *args[1:])) / 2e-6
        assert got[k] == pytest.approx(want, rel=1e-5, abs=1e-8)


def gbm_average(S0, sigma, r, dt, normals):
    """Loop-invariant float arithmetic written inside the loop (and a division, which
    could raise, that must stay there)."""
    S = S0
    total = 0.0
    for z in normals:
        S = S * math.exp((r - 0.5 * sigma * sigma) * dt + sigma * z / r)
        total = total + S
    return total


NORMALS = (0.3, -1.2, 0.8, 0.1, -0.4)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("number", [float, np.float64])
def test_invariant_float_arithmetic_in_a_loop(path, number):
    args = (number(100.0), number(0.2), number(0.05), number(0.01), NORMALS)
    df = grad_on(path, gbm_average, wrt=(0, 1, 2, 3))
    got = df(*args)
    for k in range(4):
        assert got[k] == pytest.approx(differences(gbm_average, args, k, eps=1e-7), rel=1e-6)


def test_invariant_float_arithmetic_runs_once_before_the_loop(reverse_mode):
    args = (100.0, 0.2, 0.05, 0.01, NORMALS)
    df = s2s_ad.grad(gbm_average, wrt=(0, 1))
    source = s2s_ad.derivative_source(df, *args)
    forward = source[:source.index("for z in normals")]
    assert "0.5 * sigma" in forward and "* dt" in forward
    assert "/ r" not in forward                      # a division stays in the loop
    # nothing of it is taped any more: only what changes per step
    assert "sigma" not in source[source.index("_tape.append("):].split("\n")[0]


def gbm_steps(S0, sigma, r, dt, n):
    S = S0
    for _ in range(n):
        S = S * math.exp((r - 0.5 * sigma * sigma) * dt + sigma / r)
    return S


def test_a_loop_run_zero_times_after_hoisting():
    """r = 0.0 would divide by zero in the loop; with no steps nothing raises, and the
    hoisted products cannot raise."""
    df = s2s_ad.grad(gbm_steps, wrt=(0, 1))
    assert df(100.0, 0.2, 0.0, 0.01, 0) == (1.0, 0.0)
    source = s2s_ad.derivative_source(df, 100.0, 0.2, 0.0, 0.01, 0)
    assert "0.5 * sigma" in source[:source.index("for _ in")]
    got = df(100.0, 0.2, 0.05, 0.01, 3)
    args = (100.0, 0.2, 0.05, 0.01, 3)
    for k in range(2):
        assert got[k] == pytest.approx(differences(gbm_steps, args, k, eps=1e-7), rel=1e-6)


_gbm_sigma = s2s_ad.grad(gbm_average, wrt=1)


def gbm_sigma(S0, sigma, r, dt, normals):
    return _gbm_sigma(S0, sigma, r, dt, normals)


def test_second_derivative_through_hoisted_arithmetic():
    args = (100.0, 0.2, 0.05, 0.01, NORMALS)
    got = s2s_ad.grad(gbm_sigma, wrt=1)(*args)
    assert got == pytest.approx(differences(gbm_sigma, args, 1, eps=1e-6), rel=1e-5)


@pytest.mark.parametrize("path", PATHS)
def test_forward_mode_through_hoisted_arithmetic(path):
    from derivative_paths import jvp_on
    args = (100.0, 0.2, 0.05, 0.01, NORMALS)
    value, tangent = jvp_on(path, gbm_average, args, 1.0, wrt=1)
    assert value == pytest.approx(gbm_average(*args), rel=1e-14)
    assert tangent == pytest.approx(differences(gbm_average, args, 1, eps=1e-7), rel=1e-6)
