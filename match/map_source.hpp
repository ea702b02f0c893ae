// Where cascade-match's maps come from (--backend): the CPU reference (match/score_map, match/covariance_map)
// or, in a build with CUDA, the GPU matchers (gpu/template_match_gpu, gpu/covariance_gpu), which give the same
// maps (tests/gpu/). A source holds the template at every --scales size, in that order.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "common/detection.hpp"
#include "common/score_map.hpp"
#include "common/staging_fill.hpp"
#include "common/template_score.hpp"
#include "match/options.hpp"

namespace cascade::match {

struct TemplatePlanes {
    std::vector<MatchPlanes> sizes;  // the template at each --scales size (host memory owned by the caller)
    std::vector<double> target;      // region covariance: the template's covariance
};

class MapSource {
public:
    virtual ~MapSource() = default;
    // One map per template size: TM_* scores, or region covariance distances (`grey`: the frame in grey).
    // `fill` (maps, best): empty, or, where staging() gave memory, writes the frame there strip by strip (image and
    // grey then view that memory): the source calls it as it uploads, each strip's upload overlapping the next fill.
    virtual std::vector<ScoreMap> maps(const MatchPlanes& image, const GrayView& grey, const StagingFill& fill) = 0;
    // --method exact: the exact positions of each template size, row-major.
    virtual std::vector<std::vector<MatchPosition>> exact(const MatchPlanes& image) = 0;
    // The best match over every template size, as merge_peaks of find_peaks takes it with top 1 and no threshold
    // (match/peaks.hpp), where the source finds it without handing over its maps (the GPU's region covariance:
    // only the result leaves the device); nullopt where it does not (then take the maps).
    virtual std::optional<Detection> best(const MatchPlanes&, const GrayView&, const StagingFill&) {
        return std::nullopt;
    }
    // Where the source wants a frame of `size` written (the GPU's region covariance: its pinned staging, laid out
    // as split_into in match/cv_planes.hpp writes it), or nullptr. Planes written there (before the call, or by
    // its fill) and passed to maps or best are not copied again.
    virtual std::uint8_t* staging(Size) { return nullptr; }
};

std::unique_ptr<MapSource> make_cpu_source(const Options& options, const TemplatePlanes& templates);
// Throws InputError ("--backend gpu") without a CUDA device; UsageError in a build without CUDA.
std::unique_ptr<MapSource> make_gpu_source(const Options& options, const TemplatePlanes& templates);

}  // namespace cascade::match
