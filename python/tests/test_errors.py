"""Bad arrays, options and files give Python exceptions with the tools' one-line messages."""
import numpy as np
import pytest

import cascade_toolkit as ct
from conftest import FRONTAL_FACE, ROOT, SAMPLES, need


@pytest.fixture(scope="module")
def faces():
    return ct.Detector(need(FRONTAL_FACE))


@pytest.fixture(scope="module")
def gray():
    return ct.imread(need(SAMPLES / "messi5.jpg"), gray=True)


def test_wrong_dtype_is_a_type_error(faces, gray):
    with pytest.raises(TypeError, match=r"image: dtype float32 is not supported"):
        faces.detect(gray.astype(np.float32))
    with pytest.raises(TypeError, match="bool"):
        faces.detect(gray > 0)


@pytest.mark.parametrize("shape", [(2, 50, 50, 3), (50,), (50, 50, 4), (50, 50, 1)])
def test_a_shape_that_is_not_an_image_is_a_value_error(faces, shape):
    with pytest.raises(ValueError, match=r"image: shape \(.*\) is not an image"):
        faces.detect(np.zeros(shape, np.uint8))


def test_non_adjacent_pixels_are_refused_with_the_remedy(faces, gray):
    for array in (gray[:, ::2], np.asfortranarray(gray), ct.imread(SAMPLES / "messi5.jpg")[:, :, 1], gray[::-1]):
        with pytest.raises(ValueError, match=r"not adjacent in memory .*numpy.ascontiguousarray"):
            faces.detect(array)


def test_empty_and_too_small_images(faces):
    with pytest.raises(ValueError, match=r"image: shape \(0, 0\) is empty"):
        faces.detect(np.zeros((0, 0), np.uint8))
    with pytest.raises(ValueError, match=r"image: 30x20 is smaller than the model window 24x24"):
        faces.detect(np.zeros((20, 30), np.uint8))
    with pytest.raises(ValueError, match=r"smaller than the model window 64x128"):
        ct.Detector().detect_batch([np.zeros((200, 200), np.uint8), np.zeros((100, 100), np.uint8)])
    with pytest.raises(TypeError, match="numpy array"):
        ct.Detector().detect_batch([[1, 2, 3]])


def test_bad_options_are_value_errors_with_cascade_detects_messages():
    with pytest.raises(ValueError, match=r"--scale-factor: 1 is out of range"):
        ct.Detector(scaleFactor=1)
    with pytest.raises(ValueError, match=r"--min-neighbors: -1 is negative"):
        ct.Detector(min_neighbors=-1)
    with pytest.raises(ValueError, match=r"--min-neighbors: only applies to --group opencv"):
        ct.Detector(group="nms", minNeighbors=2)
    with pytest.raises(ValueError, match=r"--max-size: 10x10 is smaller than the model window 64x128"):
        ct.Detector(maxSize=(10, 10))
    with pytest.raises(ValueError, match=r"--backend: unknown backend 'tpu'"):
        ct.Detector(backend="tpu")
    with pytest.raises(ValueError, match=r"unknown keyword 'output'"):
        ct.Detector(output="x.json")
    with pytest.raises(ValueError, match=r"--scale-factor given twice"):
        ct.Detector(scaleFactor=1.2, scale_factor=1.3)


def test_opencv_zero_sizes_mean_none(gray):
    same = ct.Detector(need(FRONTAL_FACE), minSize=(0, 0), maxSize=(0, 0)).detect(gray)
    np.testing.assert_array_equal(same, ct.Detector(FRONTAL_FACE).detect(gray))


def test_model_files(tmp_path):
    with pytest.raises(OSError, match=r"missing.xml: cannot open the model file"):
        ct.load_model(tmp_path / "missing.xml")
    corrupt = tmp_path / "corrupt.xml"
    corrupt.write_text("<cascade_model format_version=\"2\" kind=\"lbp\"><stages>")
    with pytest.raises(ct.ModelError, match="corrupt.xml"):
        ct.load_model(corrupt)
    assert issubclass(ct.ModelError, ValueError)
    packed = tmp_path / "model.cpk"
    ct.load_model(need(FRONTAL_FACE)).export(packed)
    damaged = bytearray(packed.read_bytes())
    damaged[40] ^= 1
    (tmp_path / "damaged.cpk").write_bytes(bytes(damaged))
    with pytest.raises(ct.ModelError, match="damaged.cpk: .*checksum"):
        ct.Detector(tmp_path / "damaged.cpk")
    with pytest.raises(TypeError, match="model: expected None"):
        ct.Detector(42)
    with pytest.raises(OSError, match="nothing.png: cannot open the file"):
        ct.imread(tmp_path / "nothing.png")


def test_every_model_format_loads_and_detects_alike(tmp_path, gray):
    xml = ct.load_model(need(FRONTAL_FACE))
    xml.save(tmp_path / "project.xml")
    xml.export(tmp_path / "packed.cpk")
    reference = ct.Detector(xml).detect(gray)
    for path in (tmp_path / "project.xml", tmp_path / "packed.cpk"):
        model = ct.load_model(path)
        assert (model.kind, model.window, model.stages) == ("lbp", (24, 24), xml.stages)
        np.testing.assert_array_equal(ct.Detector(model).detect(gray), reference)
    hog = ct.load_model(ROOT / "models/pedestrian_hog.xml")
    assert hog.kind == "hog" and hog.window == (64, 128) and "pedestrian_hog.xml" in repr(hog)
