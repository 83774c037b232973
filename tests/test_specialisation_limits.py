"""How many specialisations a derivative keeps. A function called through a variable
(`model(x)` with model an object argument, `fns[k](x)`) is differentiated by a derivative
specialised on that function's identity, which has no general form to fall back to: the
ninth layer class a model called that way used to raise an APIUsageError (order-dependent
in a long session: every test's layers share Module.__call__)."""
import numpy as np
import pytest

from derivative_paths import PATHS, grad_on
from test_module_classes import Module


class Layer0(Module):
    def forward(self, x):
        return np.tanh(x) * 0.5


class Layer1(Module):
    def forward(self, x):
        return np.tanh(x) * 1.5


class Layer2(Module):
    def forward(self, x):
        return np.tanh(x) * 2.5


class Layer3(Module):
    def forward(self, x):
        return np.tanh(x) * 3.5


class Layer4(Module):
    def forward(self, x):
        return np.tanh(x) * 4.5


class Layer5(Module):
    def forward(self, x):
        return np.tanh(x) * 5.5


class Layer6(Module):
    def forward(self, x):
        return np.tanh(x) * 6.5


class Layer7(Module):
    def forward(self, x):
        return np.tanh(x) * 7.5


class Layer8(Module):
    def forward(self, x):
        return np.tanh(x) * 8.5


class Layer9(Module):
    def forward(self, x):
        return np.tanh(x) * 9.5


class Layer10(Module):
    def forward(self, x):
        return np.tanh(x) * 10.5


class Layer11(Module):
    def forward(self, x):
        return np.tanh(x) * 11.5


CLASSES = [Layer0, Layer1, Layer2, Layer3, Layer4, Layer5, Layer6, Layer7, Layer8, Layer9,
           Layer10, Layer11]


def model_loss(x, model):
    return np.sum(model(x) ** 2)


@pytest.mark.parametrize("path", PATHS)
def test_twelve_layer_classes_through_one_call(path):
    df = grad_on(path, model_loss)
    x = np.array([0.3, -0.2, 0.8])
    for k, cls in enumerate(CLASSES):
        expected = 2 * (k + 0.5) ** 2 * np.tanh(x) * (1 - np.tanh(x) ** 2)
        np.testing.assert_allclose(df(x, cls()), expected, rtol=1e-12)
