"""Shared paths and helpers of the Python module's tests (run by CTest as python_pytest, or by hand:
PYTHONPATH=build/python python3 -m pytest python/tests from the project root)."""
import json
import os
import pathlib
import subprocess

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Where Debian's opencv-doc and opencv-data put them; elsewhere (the GPU machine: tools/gpu-check) from the environment.
SAMPLES = pathlib.Path(os.environ.get("CASCADE_SAMPLES_DIR", "/usr/share/doc/opencv-doc/examples/data"))
FRONTAL_FACE = pathlib.Path(os.environ.get("CASCADE_FRONTAL_FACE",
                                           "/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml"))
DATA = ROOT.parent / "shared" / "data"
BUILD = ROOT / "build"


def need(path):
    """Skips the test, with the reason on the report, when a data file it reads is absent."""
    if not pathlib.Path(path).exists():
        pytest.skip(f"SKIP: {path} is absent")
    return str(path)


def tool(name, folder):
    """The path of a tool of this build (CTest passes each in CASCADE_<NAME>_EXE)."""
    variable = "CASCADE_" + name.split("-")[1].upper() + "_EXE"
    path = os.environ.get(variable, str(BUILD / folder / name))
    if not pathlib.Path(path).exists():
        pytest.skip(f"SKIP: {name} is not built ({path})")
    return path


def cli_detections(args, tmp_path):
    """cascade-detect's detections for ARGS (options and one image) as an (N, 5) array of x, y, w, h, score."""
    out = tmp_path / "cli.json"
    subprocess.run([tool("cascade-detect", "detect"), "--quiet", "--output", str(out), *args], check=True)
    records = json.loads(out.read_text())["detections"]
    return np.array([[r["x"], r["y"], r["w"], r["h"], r["score"]] for r in records], dtype=np.float64).reshape(-1, 5)


def same_detections(a, b):
    """Equal boxes, and scores equal as the float32 the detector computes them in."""
    assert a.shape == b.shape, f"{a.shape} != {b.shape}"
    np.testing.assert_array_equal(a[:, :4], b[:, :4])
    np.testing.assert_array_equal(a[:, 4].astype(np.float32), b[:, 4].astype(np.float32))
