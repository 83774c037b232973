"""A forward-mode gradient of number code computes a source statement's partials once for
all directions (ad/shared_partials.py): where a partial is an expression read by two
directions or more, it is bound once and each direction's tangent reads it; where the
templates' tangents, direction by direction, cost no more, they stay. Gradients agree
with central differences on both derivative paths, whatever the grouping."""
import math

import pytest

import s2s_ad
from derivative_paths import PATHS
from gradcheck import assert_grad_matches


def logistic_counts_nll(w0, w1, w2, rows):
    """Binomial log-likelihood of k successes out of n at logit w0 + w1 u + w2 v."""
    ll = 0.0
    for u, v, k, n in rows:
        z = w0 + w1 * u + w2 * v
        ll = ll + k * z - n * math.log1p(math.exp(z))
    return -ll


def gamma_rate_fit(a, b, obs):
    """Exponential-family fit: sum of log(mu) + y / mu with mu = exp(a + b t)."""
    total = 0.0
    for t, y in obs:
        mu = math.exp(a + b * t)
        total = total + math.log(mu) + y / mu
    return total


def cauchy_line(m, c, pts):
    """Cauchy loss of a line through points, residuals scaled by a width."""
    s = 0.0
    for x, y in pts:
        r = (y - m * x - c) / 0.4
        s = s + math.log1p(r * r)
    return s


def asymmetric_fit(a, b, pts):
    """Residuals of a exp(b x) weighted differently on each side: a partial per branch."""
    loss = 0.0
    for x, y in pts:
        r = y - a * math.exp(b * x)
        if r > 0.0:
            loss = loss + math.log(1.0 + r * r)
        else:
            loss = loss + 0.25 * r * r * r * r
    return loss


def sine_feedback(a, b, n):
    """s = sin(a b + s): both partials are the one cosine; the per-direction tangents
    (one add, one product each) are cheaper than partials times tangents."""
    s = 0.0
    for _ in range(n):
        s = math.sin(a * b + s)
    return s


ROWS = [(0.3, -1.2, 3.0, 10.0), (1.1, 0.4, 7.0, 9.0), (-0.7, 0.9, 1.0, 6.0),
        (0.0, 2.0, 5.0, 5.0), (2.2, -0.3, 0.0, 4.0)]
OBS = [(0.1, 1.3), (0.7, 2.9), (1.4, 4.1), (2.0, 9.5), (2.5, 12.0)]
PTS = [(0.0, 1.1), (1.0, 2.9), (2.0, 5.2), (3.0, 6.8), (4.0, 9.5), (5.0, 30.0)]

CASES = {
    "binomial counts, three directions": (logistic_counts_nll, (0.1, 0.5, -0.2, ROWS), (0, 1, 2)),
    "gamma rate, log of an exp": (gamma_rate_fit, (0.2, 0.6, OBS), (0, 1)),
    "Cauchy line": (cauchy_line, (1.7, 1.2, PTS), (0, 1)),
    "asymmetric fit, a partial per branch": (asymmetric_fit, (0.9, 0.35, PTS), (0, 1)),
    "sine feedback": (sine_feedback, (0.8, 0.6, 12), (0, 1)),
}


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_gradients_agree_with_central_differences(name, path):
    f, args, wrt = CASES[name]
    assert_grad_matches(f, args, wrt=wrt, path=path, rtol=1e-6, atol=1e-7)


def _lines(f, args, wrt):
    source = s2s_ad.derivative_source(s2s_ad.grad(f, wrt), *args)
    return [line.strip() for line in source.splitlines()]


def test_a_partial_two_directions_read_is_bound_once():
    # ll's partial w.r.t. z, k - n e^z / (1 + e^z), is written once (`dll_dz`), not in
    # each of the three directions' tangents
    lines = _lines(*CASES["binomial counts, three directions"])
    bound = [line for line in lines if line.startswith("dll_dz = ")]
    assert len(bound) == 1, "\n".join(lines)
    assert sum("math.log1p" in line or "math.exp" in line for line in lines
               if line.startswith("dll_")) == 0, "\n".join(lines)
    tangents = [line for line in lines if line.startswith(("dll_dw0 =", "dll_dw1 =",
                                                           "dll_dw2 =")) and "0.0" not in line]
    assert len(tangents) == 3 and all("dll_dz" in line for line in tangents), "\n".join(lines)


def test_a_quotient_partial_is_one_division():
    # log1p(r^2)'s partial 2 r / (1 + r^2): one division for both directions, taken
    # through r (read by the next line alone: merged_runs) to the residual before its
    # scaling, so r carries no tangents of its own
    lines = _lines(*CASES["Cauchy line"])
    assert sum(line.count("/ (1.0 +") for line in lines) == 1, "\n".join(lines)
    bound = [line.split(" = ")[0] for line in lines if "/ (1.0 +" in line]
    assert bound[0].startswith("ds_d") and not any(
        line.startswith(("dr_dm", "dr_dc")) for line in lines), "\n".join(lines)
    assert all(bound[0] in line for line in lines
               if line.startswith(("ds_dm = ds_dm", "ds_dc = ds_dc"))), "\n".join(lines)


def test_each_branch_binds_its_own_partial():
    lines = _lines(*CASES["asymmetric fit, a partial per branch"])
    bound = [line for line in lines if line.startswith(("dloss_dr =", "dloss_dr_1 ="))]
    assert len(bound) == 2, "\n".join(lines)


def test_per_direction_tangents_stay_where_they_are_cheaper():
    lines = _lines(*CASES["sine feedback"])
    assert not any(line.startswith(("ds_dt1_1 =", "ds_ds =")) for line in lines), \
        "\n".join(lines)
    tangent = [line for line in lines if line.startswith("ds_da = ") and "0.0" not in line]
    assert len(tangent) == 1 and tangent[0].count("ds_da") == 2, "\n".join(lines)


def test_one_direction_keeps_its_template_tangents():
    # one differentiated input: nothing to share
    lines = _lines(cauchy_line, (1.7, 1.2, PTS), (0,))
    assert not any(line.startswith("ds_dr = ") for line in lines), "\n".join(lines)


# Cross-statement preaccumulation (shared_partials.merged_runs): a value read by the next
# line alone carries no tangents; its partials go into that line's by the chain rule.
def heteroscedastic(m0, m1, s0, s1, pts):
    """Student-t-like NLL, location and log scale linear in x: z is read by the next line
    alone."""
    nll = 0.0
    for x, y in pts:
        log_sd = s0 + s1 * x
        z = (y - m0 - m1 * x) * math.exp(-log_sd)
        nll = nll + log_sd + math.log1p(z * z)
    return nll


def carried_residual(a, b, pts):
    """r is read by the next line and, the next iteration, by its own: it keeps its
    tangents (merging it would lose the previous iteration's)."""
    r = 0.0
    loss = 0.0
    for x, y in pts:
        r = 0.5 * r + (y - a * math.exp(b * x))
        loss = loss + math.log1p(r * r)
    return loss


def read_twice_later(a, b, pts):
    """u is read by the next line and by the one after it: not joined to one line."""
    total = 0.0
    for x, y in pts:
        u = math.tanh(a * x + b)
        total = total + (u - y) ** 2
        total = total + 0.1 * u * a
    return total


MERGED = {
    "heteroscedastic": (heteroscedastic, (0.3, 1.0, -0.5, 0.2, OBS), (0, 1, 2, 3)),
    "carried residual": (carried_residual, (0.8, 0.3, OBS), (0, 1)),
    "read twice later": (read_twice_later, (0.8, -0.3, OBS), (0, 1)),
}


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name", sorted(MERGED))
def test_merged_lines_agree_with_central_differences(name, path):
    f, args, wrt = MERGED[name]
    assert_grad_matches(f, args, wrt=wrt, path=path, rtol=1e-6, atol=1e-7)


def test_a_value_the_next_line_alone_reads_carries_no_tangents():
    lines = _lines(*MERGED["heteroscedastic"])
    assert not any(line.startswith("dz_d") for line in lines), "\n".join(lines)
    # the log standard deviation's partial, read by s0's and s1's tangents, once
    bound = [line for line in lines if line.startswith("dnll_dlog_sd = ")]
    assert len(bound) == 1, "\n".join(lines)
    assert sum("dnll_dlog_sd" in line for line in lines if line.startswith(
        ("dnll_ds0 = dnll_ds0", "dnll_ds1 = dnll_ds1"))) == 2, "\n".join(lines)
    # each source line keeps its provenance comment
    assert sum(line.startswith("# with derivatives: z = ") for line in lines) == 1


def test_a_value_read_elsewhere_keeps_its_tangents():
    assert any(line.startswith("dr_da = ") for line in _lines(*MERGED["carried residual"]))
    assert any(line.startswith("du_da = ") for line in _lines(*MERGED["read twice later"]))
