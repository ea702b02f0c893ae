"""The GPU backend (a build with CUDA, on a machine with a CUDA device) finds what the CPU finds, in its exact
pyramid mode, from one thread and from a pool; without either it skips, saying why."""
from concurrent.futures import ThreadPoolExecutor

import pytest

import cascade_toolkit as ct
from conftest import FRONTAL_FACE, ROOT, SAMPLES, need, same_detections

MODELS = [(FRONTAL_FACE, {"scale_factor": 1.1}), (ROOT / "models/pedestrian_hog.xml", {"stride": 4}),
          (ROOT / "models/pedestrian_lbp_accept_64x128.xml", {})]


def gpu_detector(model, **options):
    try:
        return ct.Detector(model, backend="gpu", **options)
    except ValueError as e:
        if "no CUDA device" in str(e) or "not available in this build" in str(e):
            pytest.skip(f"SKIP: {e}")
        raise


@pytest.mark.parametrize("model,options", MODELS)
def test_gpu_equals_cpu(model, options):
    images = [ct.imread(need(SAMPLES / name)) for name in ("messi5.jpg", "building.jpg", "board.jpg")]
    gpu = gpu_detector(need(model), **options)
    cpu = ct.Detector(model, **options)
    assert gpu.backend == "gpu"
    for image, found in zip(images, gpu.detect_batch(images)):
        same_detections(found, cpu.detect(image))
    with ThreadPoolExecutor(max_workers=4) as pool:
        for image, found in zip(images * 2, pool.map(gpu.detect, images * 2)):
            same_detections(found, cpu.detect(image))
