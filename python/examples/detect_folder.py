#!/usr/bin/env python3
"""Detection over a folder of images with cascade_toolkit, four ways, timed in images per second:

  serial    one Detector, one image after another (each image's pyramid levels already run on every core)
  threads   a concurrent.futures.ThreadPoolExecutor sharing one Detector (detect() releases the GIL)
  processes a concurrent.futures.ProcessPoolExecutor: the Detector is pickled (its model and options) to the
            worker processes, which read and detect the images; the arrays come back pickled
  dask      dask.bag over the images with Dask's threaded scheduler (Debian 12 packages python3-dask;
            Ray is not packaged by Debian 12, so there is no Ray example)

Usage (from the project root, after a build):
  PYTHONPATH=build/python python3 python/examples/detect_folder.py FOLDER [--model FILE] [--stride N]
      [--scale-factor F] [--workers N] [--ways serial,threads,processes,dask] [--json out.json]
Each way's detections are checked to be the same as serial's; --json writes them (file: [[x, y, w, h, score]]).
"""
import argparse
import functools
import json
import pathlib
import sys
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import cascade_toolkit as ct

EXTENSIONS = {".jpg", ".jpeg", ".png", ".bmp", ".pgm", ".ppm", ".tif", ".tiff", ".webp"}


def detect_file(detector, path):
    return detector.detect(ct.imread(path))


def serial(detector, paths, workers):
    return [detect_file(detector, p) for p in paths]


def threads(detector, paths, workers):
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(lambda p: detect_file(detector, p), paths))


def processes(detector, paths, workers):
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(functools.partial(detect_file, detector), paths))


def dask_bag(detector, paths, workers):
    import dask
    import dask.bag as db
    bag = db.from_sequence(paths, npartitions=max(1, min(len(paths), 4 * workers)))
    with dask.config.set(scheduler="threads", num_workers=workers):
        return bag.map(lambda p: detect_file(detector, p)).compute()


WAYS = {"serial": serial, "threads": threads, "processes": processes, "dask": dask_bag}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=pathlib.Path)
    parser.add_argument("--model", help="model file (default: the embedded HoG pedestrian model)")
    parser.add_argument("--stride", help="cascade-detect's --stride (default: auto)")
    parser.add_argument("--scale-factor", type=float, help="cascade-detect's --scale-factor (default: 1.1)")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--ways", default="serial,threads,processes,dask")
    parser.add_argument("--json", type=pathlib.Path, help="write the detections here")
    args = parser.parse_args()
    paths = sorted(str(p) for p in args.folder.iterdir() if p.suffix.lower() in EXTENSIONS)
    if not paths:
        sys.exit(f"detect_folder: error: {args.folder}: no images")
    options = {"stride": args.stride, "scale_factor": args.scale_factor}  # None: the default
    reference = None
    for name in args.ways.split(","):
        # serial: each image on every core (the detector's own threads); the pools: each image on one core, the
        # pool's workers running images side by side.
        detector = ct.Detector(args.model, threads=0 if name == "serial" else 1, **options)
        start = time.perf_counter()
        found = WAYS[name](detector, paths, args.workers)
        seconds = time.perf_counter() - start
        boxes = sum(len(d) for d in found)
        print(f"{name:9s} {len(paths)} images, {boxes} detections, {seconds:.2f} s, "
              f"{len(paths) / seconds:.2f} images/s")
        if reference is None:
            reference = found
        elif any(a.tolist() != b.tolist() for a, b in zip(reference, found)):
            sys.exit(f"detect_folder: error: {name} found other detections than {args.ways.split(',')[0]}")
    if args.json:
        args.json.write_text(json.dumps({p: d.tolist() for p, d in zip(paths, reference)}))


if __name__ == "__main__":
    main()
