"""numpy.fft with complex intermediates, end to end: real arguments and real results give
real gradients (JAX's convention inside; analyses/complex_values.py), on both derivative
paths, against central differences (grad, jvp and hvp); and what stays refused, with a
located error. The templates themselves are checked by the spec rows (specs_fft.py)."""
import numpy as np
import pytest

import s2s_ad
from s2s_ad import errors

from derivative_paths import PATHS, check_against_differences, grad_on
from gradcheck import numeric_grad

N = 16
RNG = np.random.default_rng(7)
TARGET = np.abs(np.fft.rfft(RNG.standard_normal(N))) ** 2
FILTER = np.exp(-np.arange(N // 2 + 1) / 3.0)
KERNEL = RNG.standard_normal(N)
PHASE = np.exp(-2j * np.pi * np.arange(N) * 1.5 / N)     # a complex global: a constant


def spectral_loss(x):
    """match a power spectrum"""
    power = np.abs(np.fft.rfft(x, norm="ortho")) ** 2
    return np.sum((power - TARGET) ** 2)


def power(x):
    return np.sum(np.abs(np.fft.fft(x)) ** 2)


def circular_filter(x):
    y = np.real(np.fft.ifft(np.fft.fft(x) * np.fft.fft(KERNEL)))
    return np.sum(np.tanh(y))


def low_pass(x):
    y = np.fft.irfft(np.fft.rfft(x) * FILTER, N)
    return np.sum(y ** 3)


def shifted(x):
    """a fractional delay by a complex global phase"""
    y = np.fft.ifft(np.fft.fft(x) * PHASE)
    return np.sum(y.real ** 2 * np.arange(N)) + np.sum(np.angle(y[1:4]))


def in_a_loop(x):
    spectrum = np.fft.fft2(np.reshape(x, (4, 4)))
    total = 0.0
    for k in range(3):
        spectrum = spectrum * np.conj(spectrum) / (1.0 + k) + spectrum
        total = total + np.sum(np.imag(spectrum) ** 2)
    return total + np.sum(np.fft.fftshift(np.abs(spectrum))[0])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [spectral_loss, power, circular_filter, low_pass, shifted,
                               in_a_loop], ids=lambda f: f.__name__)
def test_real_losses_through_complex_spectra(f, path):
    x = np.random.default_rng(3).standard_normal(N)
    check_against_differences(path, f, x, second_order=f is not in_a_loop)
    gradient = grad_on(path, f)(x)
    assert gradient.dtype == np.float64       # real, never complex with a zero imaginary part


def filtered(x, h):
    return np.sum(np.fft.irfft(np.fft.rfft(x) * h, x.shape[0]) ** 2)


@pytest.mark.parametrize("path", PATHS)
def test_a_real_filter_multiplied_into_a_spectrum_gets_a_real_gradient(path):
    x, h = np.random.default_rng(4).standard_normal((2, 9))[:, :9]
    h = h[:5]
    got = grad_on(path, filtered, wrt=(0, 1))(x, h)
    for k, g in enumerate(got):
        assert not np.iscomplexobj(g)
        np.testing.assert_allclose(g, numeric_grad(filtered, (x, h), k), rtol=1e-6, atol=1e-8)


def complex_literal(x):
    return np.sum(np.real(np.fft.fft(x) * 1j))


def complex_maximum(x):
    return np.real(np.max(np.fft.fft(x)))


def sum_of_abs(z):
    return np.sum(np.abs(z))


def passes_complex(x):
    return sum_of_abs(np.fft.fft(x))


def spectrum_of(x):
    return np.fft.fft(x)


def receives_complex(x):
    return np.sum(np.abs(spectrum_of(x)))


def complex_output(x):
    return np.sum(np.fft.fft(x))


@pytest.mark.parametrize("f, error, words", [
    (complex_literal, errors.UnsupportedSyntaxError, "complex numbers"),
    (complex_maximum, errors.MissingDerivativeError, "of a complex value"),
    (passes_complex, errors.MissingDerivativeError, "is given a complex value"),
    (receives_complex, errors.MissingDerivativeError, "returns a complex value"),
], ids=lambda v: getattr(v, "__name__", None))
def test_what_complex_values_cannot_do_is_a_located_error(f, error, words):
    with pytest.raises(error) as info:
        s2s_ad.grad(f)(np.ones(4))
    assert words in str(info.value) and info.value.location is not None


def test_a_complex_output_or_argument_is_refused():
    with pytest.raises(errors.ADError):
        s2s_ad.grad(complex_output)(np.ones(4))
    with pytest.raises(errors.APIUsageError):
        s2s_ad.grad(power)(np.ones(4) + 1j)


def test_jvp_of_a_spectral_loss_is_real():
    x, v = np.random.default_rng(5).standard_normal((2, N))
    value, tangent = s2s_ad.jvp(spectral_loss)(x, v)
    assert isinstance(tangent, float) or not np.iscomplexobj(tangent)
    assert tangent == pytest.approx(np.sum(numeric_grad(spectral_loss, (x,), 0) * v),
                                    rel=1e-6)


def phase_in_radians(x):
    return np.sum(np.angle(np.fft.fft(x)[1:3], deg=False))


def test_keywords_of_the_numpy_function_bind_for_its_complex_form():
    x = np.random.default_rng(9).standard_normal(6)
    np.testing.assert_allclose(s2s_ad.grad(phase_in_radians)(x),
                               numeric_grad(phase_in_radians, (x,), 0), rtol=1e-6, atol=1e-8)


SPECTRAL_MODULE = '''import numpy as np


def loss(x):
    spectrum = np.fft.fft(x)
    return np.sum(np.abs(spectrum) ** 2) + np.sum(np.imag(spectrum[1:3]) * np.angle(spectrum[1:3]))
'''


@pytest.mark.slow
def test_the_command_writes_second_derivatives_through_complex_values(tmp_path):
    """the hvp module reads the complex constant of np.imag's adjoint: written into it"""
    import subprocess
    import sys
    (tmp_path / "spectral.py").write_text(SPECTRAL_MODULE)
    out = subprocess.run([sys.executable, "-m", "s2s_ad", "hvp", "spectral.py:loss", "-o",
                          "hvp_spectral.py"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    check = ("import numpy as np, spectral, hvp_spectral, s2s_ad\n"
             "x = np.linspace(-1.0, 1.0, 8) ** 3; v = np.cos(np.arange(8.0))\n"
             "assert np.allclose(hvp_spectral.hvp_loss(x, v), s2s_ad.hvp(spectral.loss)(x, v))\n"
             "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", check], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300)
    assert out.stdout.strip() == "ok", out.stderr
