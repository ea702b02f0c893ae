"""train_lbp, train_hog and evaluate_window equal cascade-train's and cascade-eval's results on small real sets."""
import json
import subprocess

import numpy as np
import pytest

import cascade_toolkit as ct
from conftest import DATA, tool


def list_file(path, folder, count):
    """A list file of the first COUNT images of FOLDER (sorted), so that a short run reads a small real set."""
    source = DATA / folder
    if not source.is_dir():
        pytest.skip(f"SKIP: {source} is absent")
    images = sorted(p for p in source.iterdir() if p.suffix in (".jpg", ".png"))
    path.write_text("".join(f"{p}\n" for p in images[:count]))
    return str(path)


@pytest.fixture(scope="module")
def small_set(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sets")
    return (list_file(folder / "pos.txt", "inria/96X160H96/Train/pos", 160),
            list_file(folder / "neg.txt", "negatives", 12))


LBP = {"weak_learners": 4, "features": 400, "negatives": 300, "seed": 3, "threads": 2, "checkpoint": "none"}
HOG = {"stages": 2, "holdout": 0, "seed": 3, "blocks_per_round": 20, "negatives_per_stage": 300,
       "min_negatives": 50, "max_learners": 6, "threads": 2}


def cli_options(options):
    args = []
    for key, value in options.items():
        args += ["--" + key.replace("_", "-"), str(value)]
    return args


@pytest.mark.parametrize("kind,train,options", [("lbp", ct.train_lbp, LBP), ("hog", ct.train_hog, HOG)])
def test_training_returns_the_model_the_cli_writes(small_set, tmp_path, kind, train, options):
    pos, neg = small_set
    lines, steps = [], []
    model = train(pos, [neg], progress=lambda done, total, line: (lines if line else steps).append((done, total, line)),
                  **options)
    assert model.kind == kind and model.window == (64, 128) and model.stages >= 2
    assert any("wrote" in line for _, _, line in lines) and steps, "the progress callback saw the log and the bar"
    model.save(tmp_path / "python.xml")
    written = tmp_path / "cli.xml"
    subprocess.run([tool("cascade-train", "train"), kind, "--pos", pos, "--neg", neg, "--output", str(written),
                    *cli_options(options)], check=True, stdout=subprocess.DEVNULL)
    assert (tmp_path / "python.xml").read_text() == written.read_text()


def test_lbp_opencv_training_writes_the_cascade_the_cli_writes(tmp_path):
    pos = list_file(tmp_path / "faces.txt", "faces/mit_cbcl_19x19", 300)
    neg = list_file(tmp_path / "neg.txt", "negatives", 12)
    options = {"pos_margin": 0, "stages": 3, "negatives": 200, "features": 1500, "max_weak_count": 10, "seed": 2,
               "threads": 2, "checkpoint": "none"}
    lines = []
    model = ct.train_lbp_opencv(pos, neg, output=tmp_path / "python.xml",
                                progress=lambda done, total, line: lines.append(line), **options)
    assert model.kind == "lbp" and model.window == (24, 24) and model.stages == 3
    assert any(line and "wrote" in line for line in lines)
    assert ct.load_model(tmp_path / "python.xml").weak_learners == model.weak_learners
    written = tmp_path / "cli.xml"
    subprocess.run([tool("cascade-train", "train"), "lbp-opencv", "--pos", pos, "--neg", neg, "--output", str(written),
                    *cli_options(options)], check=True, stdout=subprocess.DEVNULL)
    assert (tmp_path / "python.xml").read_text() == written.read_text()
    assert (tmp_path / "python.model.xml").read_text() == (tmp_path / "cli.model.xml").read_text()


def test_training_errors_and_a_failing_callback(small_set, tmp_path):
    pos, neg = small_set
    with pytest.raises(ValueError, match="--alpha"):
        ct.train_lbp(pos, neg, alpha=2, **LBP)
    with pytest.raises(ValueError, match="unrecognised option|unknown option|unrecognized option"):
        ct.train_hog(pos, neg, no_such_option=1)
    with pytest.raises(OSError, match="missing_folder"):
        ct.train_lbp(str(tmp_path / "missing_folder"), neg, **LBP)

    def stop(done, total, line):
        raise KeyboardInterrupt("stopped by the callback")
    with pytest.raises(KeyboardInterrupt, match="stopped by the callback"):
        ct.train_lbp(pos, neg, progress=stop, **LBP)


def test_evaluate_window_equals_cascade_eval(small_set, tmp_path):
    pos, neg = small_set
    model = ct.load_model(None)
    options = {"stride": 16, "scale_factor": 1.3, "threads": 2}
    curve = ct.evaluate_window(model, pos, neg, **options)
    assert curve["positives"] == 160 and curve["images"] == 12 and curve["work_unit"] == "blocks"
    fp, miss = curve["false_positives"], curve["miss_rate"]
    assert fp.shape == miss.shape == curve["threshold"].shape and len(fp) > 1
    assert np.all(np.diff(fp) >= 0) and np.all(np.diff(miss) <= 0)
    model.save(tmp_path / "model.xml")
    out = tmp_path / "eval.json"
    subprocess.run([tool("cascade-eval", "bench/eval"), "window", "--model", str(tmp_path / "model.xml"), "--pos", pos,
                    "--neg", neg, "--json", str(out), *cli_options(options)], check=True, stdout=subprocess.DEVNULL)
    reference = np.array(json.loads(out.read_text())["models"][0]["curve"])
    np.testing.assert_allclose(np.stack([fp, miss, curve["threshold"]], axis=1), reference, rtol=1e-8)
    with pytest.raises(ValueError, match="--stride"):
        ct.evaluate_window(model, pos, neg, stride=0)
