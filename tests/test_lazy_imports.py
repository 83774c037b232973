"""`import s2s_ad` leaves out what a first grad() never runs: check_grads and the
higher-order makers (hessian, hvp, jacobian) are imported when first asked for."""
import subprocess
import sys
import textwrap


def test_checking_and_higher_order_are_imported_when_first_asked_for(tmp_path):
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent("""
        import sys
        import numpy as np
        import s2s_ad
        assert "s2s_ad.checking" not in sys.modules
        assert "s2s_ad.higher_order" not in sys.modules

        def f(x):
            return np.sum(x ** 3)

        s2s_ad.grad(f)(np.ones(2))
        assert "s2s_ad.higher_order" not in sys.modules
        assert {"hessian", "check_grads"} <= set(dir(s2s_ad))
        from s2s_ad import hessian, check_grads, GradientCheckError, hvp, jacobian
        assert s2s_ad.hessian is hessian and issubclass(GradientCheckError, Exception)
        assert np.allclose(hessian(f)(np.array([1.0, 2.0])), np.diag([6.0, 12.0]))
        check_grads(f, np.ones(3))
        try:
            s2s_ad.no_such_name
        except AttributeError:
            print("ok")
    """))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
