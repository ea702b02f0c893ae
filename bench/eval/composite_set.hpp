// A deterministic stand-in for annotated test photographs, built from the data at hand (../shared/data has
// INRIA's positive crops but no full annotated test images): held-out positive crops pasted, scaled, into
// held-out person-free photographs, with the pasted windows written as INRIA annotation files. It measures
// a detector on real people and real clutter at several scales, but the people stand on backgrounds they
// were not photographed in; report it as a composite set, never as INRIA's per-image benchmark.
//
// Layout written under `folder`: images/composite_NNNN.jpg (JPEG quality 95), annotations/composite_NNNN.txt
// (INRIA "PASCAL Annotation Version 1.00", 1-based inclusive corners) and annotations.lst (the annotation
// files, one per line), readable by cascade-eval image --annotations.
//
// Each picture gets 1..max_people crops, none overlapping another, each scaled by s, log-uniform in
// [min_scale, max_scale] and within the picture; the crop's outer half-margin is blended into the background
// so that its edge is no hard step. The ground-truth box is the crop's centre window (64x128 for INRIA)
// scaled by s: what a detector with that window reports, not INRIA's tighter person box.
#pragma once

#include <cstdint>
#include <string>

#include "bench/eval/test_sets.hpp"
#include "common/geometry.hpp"

namespace cascade::eval {

struct CompositeParams {
    int images = 200;
    int max_people = 3;
    double min_scale = 1.0;
    double max_scale = 2.0;
    Size window{64, 128};  // the window in the centre of each crop
    std::uint64_t seed = 1;
};

// Requires images >= 1, max_people >= 1, 0 < min_scale <= max_scale. Ensures the same files for the same
// test set and params. Throws InputError for an unreadable image, a crop smaller than the window, or when
// no background can hold a crop at min_scale. Files are written atomically, annotations.lst last.
void write_composite_set(const TestSet& set, const CompositeParams& params, const std::string& folder);

}  // namespace cascade::eval
