"""`cmake --install` puts a module that imports and detects from its installed place alone."""
import os
import pathlib
import subprocess
import sys

import pytest

from conftest import BUILD, FRONTAL_FACE, SAMPLES, need


def test_the_installed_module_imports_and_detects(tmp_path):
    build = pathlib.Path(os.environ.get("CASCADE_BUILD_DIR", BUILD))
    if not (build / "CMakeCache.txt").exists():
        pytest.skip(f"SKIP: no build folder at {build}")
    subprocess.run(["cmake", "--install", str(build), "--prefix", str(tmp_path)], check=True, stdout=subprocess.DEVNULL)
    installed = list(tmp_path.glob("lib/python3*/dist-packages/cascade_toolkit*.so"))
    assert len(installed) == 1, list(tmp_path.rglob("*"))
    model, image = need(FRONTAL_FACE), need(SAMPLES / "messi5.jpg")
    script = (f"import cascade_toolkit as ct; print(ct.__file__); "
              f"print(len(ct.Detector({model!r}).detect(ct.imread({image!r}))))")
    env = dict(os.environ, PYTHONPATH=str(installed[0].parent))
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, text=True, env=env,
                         cwd=tmp_path).stdout.split()
    assert out[0] == str(installed[0]) and int(out[1]) > 0
