"""Detector.detect on real images equals cascade-detect and the C++ reference detectors' recorded windows."""
import pathlib
import re
import pickle
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pytest

import cascade_toolkit as ct
from conftest import FRONTAL_FACE, ROOT, SAMPLES, cli_detections, need, same_detections

MESSI = SAMPLES / "messi5.jpg"


@pytest.fixture(scope="module")
def faces():
    return ct.Detector(need(FRONTAL_FACE), scaleFactor=1.1, minNeighbors=3)


@pytest.mark.parametrize("image", ["messi5.jpg", "building.jpg", "baboon.jpg", "board.jpg"])
def test_faces_equal_the_cli(faces, image, tmp_path):
    path = need(SAMPLES / image)
    found = faces.detect(ct.imread(path))
    same_detections(found, cli_detections(["--model", str(FRONTAL_FACE), "--scale-factor", "1.1",
                                           "--min-neighbors", "3", path], tmp_path))


def test_messi_has_faces_and_the_default_model_finds_what_the_cli_finds(tmp_path):
    path = need(MESSI)
    assert len(ct.Detector(need(FRONTAL_FACE)).detect(ct.imread(path))) > 0
    people = ct.Detector(first_scale=0.5, stride=4, min_neighbors=2).detect(ct.imread(path))
    same_detections(people, cli_detections(["--first-scale", "0.5", "--stride", "4", "--min-neighbors", "2", path],
                                           tmp_path))


def golden_windows(model_file):
    """The raw windows of messi5.jpg recorded from the C++ detectors (tests/common/golden): count and listed."""
    text = (ROOT / "tests/common/golden" / model_file).read_text()
    block = text[text.index("frame messi5.jpg"):]
    count = int(re.search(r"^(\d+) windows", block, re.M).group(1))
    lines = block.split("):\n", 1)[1].split("frame ")[0].strip().splitlines()
    return count, {tuple(line.split()) for line in lines}


@pytest.mark.parametrize("model,options,golden", [
    (FRONTAL_FACE, {"scale_factor": 1.1}, "opencv_lbpcascade_frontalface.txt"),
    (ROOT / "models/pedestrian_hog.xml", {"scale_factor": 1.05, "stride": 8}, "pedestrian_hog.txt"),
    (ROOT / "models/pedestrian_lbp_64x128.xml", {"scale_factor": 1.1}, "pedestrian_lbp_64x128.txt"),
])
def test_raw_windows_equal_the_recorded_cpp_detector(model, options, golden):
    windows = ct.Detector(need(model), group="none", **options).detect(ct.imread(need(MESSI)))
    count, listed = golden_windows(golden)
    assert len(windows) == count
    ours = {(str(int(x)), str(int(y)), str(int(w)), str(int(h)), f"{np.float32(s):.9g}") for x, y, w, h, s in windows}
    assert listed <= ours


def test_gray_bgr_and_views_give_the_same(faces):
    bgr = ct.imread(need(MESSI))
    gray = ct.imread(MESSI, gray=True)
    assert gray.shape == bgr.shape[:2] and gray.dtype == np.uint8
    same_detections(faces.detect(bgr), faces.detect(gray))
    # A slice is read in place (its row stride is the parent's); boxes are relative to the slice.
    view = gray[40:, 100:]
    same_detections(faces.detect(view), faces.detect(np.ascontiguousarray(view)))


def test_detect_batch_equals_detect(faces):
    images = [ct.imread(need(SAMPLES / name)) for name in ("messi5.jpg", "building.jpg", "baboon.jpg")]
    batch = faces.detect_batch(images)
    assert len(batch) == 3
    for image, found in zip(images, batch):
        same_detections(found, faces.detect(image))
    assert faces.detect_batch([]) == []


def test_a_pool_of_threads_finds_what_one_thread_finds(faces):
    images = [ct.imread(need(SAMPLES / name)) for name in ("messi5.jpg", "building.jpg", "baboon.jpg", "board.jpg")] * 3
    alone = [faces.detect(image) for image in images]
    with ThreadPoolExecutor(max_workers=6) as pool:
        together = list(pool.map(faces.detect, images))
    for a, b in zip(alone, together):
        same_detections(a, b)


def test_detectors_and_models_pickle_for_process_pools(faces):
    images = [ct.imread(need(SAMPLES / name)) for name in ("messi5.jpg", "building.jpg")]
    copy = pickle.loads(pickle.dumps(faces))
    assert copy.window == faces.window and copy.model.source == faces.model.source
    model = pickle.loads(pickle.dumps(faces.model))
    assert (model.kind, model.stages, model.weak_learners) == ("lbp", faces.model.stages, faces.model.weak_learners)
    people = ct.Detector(stride=8, minNeighbors=1)
    with ProcessPoolExecutor(max_workers=2) as pool:
        for detector in (faces, people):
            for image, found in zip(images, pool.map(detector.detect, images)):
                same_detections(found, detector.detect(image))


def test_detector_reports_its_model_and_window(faces):
    assert faces.window == (24, 24)
    assert faces.backend == "cpu"
    assert faces.model.kind == "lbp"
    default = ct.Detector()
    assert default.window == (64, 128) and default.model.kind == "hog"
    assert default.model.source == "embedded:pedestrian_hog"
