"""@s2s_ad.adjoint registers a template written exactly like those in templates/."""
import inspect

import numpy as np
import pytest

import s2s_ad
from s2s_ad.ad.registry import default_registry
from programs import user_template


def test_user_template_is_used():
    x = np.linspace(-2, 2, 5)
    df = s2s_ad.grad(user_template.uses_softplus)
    np.testing.assert_allclose(df(x), 2.0 / (1.0 + np.exp(-x)))


def test_user_template_wins_over_differentiating_the_source():
    assert default_registry().reverse(user_template.opaque_softplus).name == \
        "opaque_softplus_adjoint"
    assert "vjp_opaque_softplus" not in s2s_ad.derivative_source(
        s2s_ad.grad(user_template.uses_softplus))


def test_malformed_template_is_rejected_once_at_load():
    registry = default_registry()
    registry.reverse(np.sin)          # everything registered so far is loaded
    from programs import bad_template
    with pytest.raises(s2s_ad.TemplateError, match="wrong_adjoint") as info:
        registry.reverse(bad_template.not_registered_anywhere)
    assert "d[p] += expr" in str(info.value)
    assert info.value.filename == bad_template.__file__
    assert info.value.lineno == inspect.getsourcelines(bad_template.wrong_adjoint)[1]
    assert registry.reverse(bad_template.not_registered_anywhere) is None
    assert registry.reverse(np.sin) is not None
