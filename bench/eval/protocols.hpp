// The two evaluation protocols of cascade-eval, for one model each.
//
// Per window (Dalal and Triggs; the reference theses): each positive crop's centred window is classified;
// every window of a scan of the person-free images with a fixed stride at every pyramid scale is a negative.
// A threshold on the final score, with the last stage's own threshold removed (model_scan.hpp), is swept:
// miss rate against false positives per window (DET), summarised at 1e-4 and 1e-5 FPPW.
//
// Per image (Dollar et al., PAMI 2012): the windows of a fixed-stride scan of each annotated image that reach
// the last `swept_stages` stages, scored by depth score (model_scan.hpp) less the full depth's (a window the
// cascade accepts scores its final sum, as cascade-detect reports it; one cut earlier, less than -span / 2),
// are grouped and matched to the boxes (box_matching.hpp, IoU >= min_iou); a threshold on the grouped score
// is swept: miss rate against false positives per image, with the log-average miss rate over 1e-2 .. 1
// FPPI. swept_stages 1 sweeps the final score; more reach further (more detections, higher FPPI) through the
// cut cascades. The same matching and sweep also score the detections of a cascade-detect run (CPU or GPU)
// as they are.
#pragma once

#include <string>
#include <vector>

#include "bench/eval/eval_result.hpp"
#include "bench/eval/test_sets.hpp"
#include "bench/eval/window_scorer.hpp"
#include "common/detection.hpp"
#include "common/model.hpp"
#include "common/postprocess.hpp"
#include "common/scan.hpp"
#include "data/annotations.hpp"

namespace cascade::eval {

// The per-window protocol for any detector (a cascade: cascade_scorer; OpenCV's HOG: opencv_hog.hpp), positive
// crops scored on `threads` workers, negative images one at a time (the scorer parallelises the scan), with a
// progress bar on a terminal. Fills work_per_window: the scorer's work over the negative windows. Throws what
// the scorer throws (InputError for an unreadable image or a crop smaller than the window).
ModelResult window_protocol(const WindowScorer& scorer, const TestSet& set, int threads);

struct ImageProtocolParams {
    ScanParams scan;
    GroupingParams grouping;
    double min_iou = 0.5;
    int swept_stages = 1;
};

// Requires scan.rule.stride > 0 and swept_stages >= 1; decodes one image at a time and shows a progress bar
// on a terminal. Throws InputError for an unreadable image or when no image has a box.
ModelResult image_protocol(const Model& model, const std::vector<data::AnnotatedImage>& images,
                           const ImageProtocolParams& params);

// The per-image protocol over detections made elsewhere (a cascade-detect run, detection_run.hpp):
// detections[i] are those on images[i], matched the same way, their own score swept. Reads no image.
// Requires detections.size() == images.size(). Throws InputError when no image has a box.
ModelResult image_protocol(const std::vector<std::vector<Detection>>& detections,
                           const std::vector<data::AnnotatedImage>& images, double min_iou);

}  // namespace cascade::eval
