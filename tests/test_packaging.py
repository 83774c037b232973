"""Build the wheel, install it in a fresh venv, differentiate a function there."""
import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCRIPT = textwrap.dedent('''
    import os, sys
    import numpy as np
    import s2s_ad, s2s_ad.templates
    assert os.path.abspath(s2s_ad.__file__).startswith(sys.prefix), s2s_ad.__file__
    assert os.path.abspath(s2s_ad.templates.__file__).startswith(sys.prefix)

    def f(x):
        return np.sum(np.tanh(x) * x)

    x = np.linspace(-1.0, 1.0, 5)
    g = s2s_ad.grad(f)(x)
    t = np.tanh(x)
    assert np.allclose(g, (1 - t * t) * x + t), g
    print("ok")
''')


@pytest.mark.slow
def test_wheel_installs_in_a_fresh_venv(tmp_path):
    wheel_dir = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", ROOT, "--no-deps", "-q",
                    "-w", str(wheel_dir)], check=True)
    wheels = list(wheel_dir.glob("s2s_ad-*.whl"))
    assert len(wheels) == 1
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    # the dependencies come from this environment (no download): their directories go on
    # the new venv's path after its own site-packages, where the wheel installs s2s_ad
    # (a .pth there does not run the .pth files of those directories, so a development
    # install of s2s_ad stays out of sight)
    import astor
    import gast
    import numpy
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path("
                           "'purelib'))"], capture_output=True, text=True, check=True)
    homes = sorted({os.path.dirname(os.path.dirname(m.__file__)) for m in (astor, gast, numpy)})
    with open(os.path.join(site.stdout.strip(), "s2s_ad_test_deps.pth"), "w") as fh:
        fh.write("\n".join(homes) + "\n")
    subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "-q", str(wheels[0])],
                   check=True)
    script = tmp_path / "use_it.py"
    script.write_text(SCRIPT)
    out = subprocess.run([str(python), str(script)], cwd=tmp_path, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
