#include "train/lbp/lbp_evaluation.hpp"

#include "common/cascade_eval.hpp"
#include "common/feature_family.hpp"
#include "common/lbp_cpu_detector.hpp"
#include "common/parallel.hpp"
#include "common/scan.hpp"
#include "data/image_files.hpp"

namespace cascade::train::lbp {

namespace {

template <class Cascade>
double detection_rate(const Cascade& cascade, const std::vector<GrayImage>& windows, int threads, int ring) {
    using Family = typename FamilyOf<Cascade>::type;
    const typename Family::View view = view_of(cascade);
    std::vector<char> accepted(windows.size());
    parallel_for(
        static_cast<int>(windows.size()),
        [&](int i) {
            typename Family::Planes planes;
            Family::build(cascade, windows[static_cast<std::size_t>(i)].view(), planes);
            const typename Family::Sampler sampler = Family::sampler(planes);
            int rejected_at = 0;
            double score = 0.0;
            accepted[static_cast<std::size_t>(i)] = accept_window(
                view, typename Family::template Window<typename Family::Sampler>{view, sampler, ring, ring},
                rejected_at, score);
        },
        threads);
    long long n = 0;
    for (char a : accepted) n += a;
    return windows.empty() ? 0.0 : static_cast<double>(n) / static_cast<double>(windows.size());
}

}  // namespace

double window_detection_rate(const LbpCascade& cascade, const std::vector<GrayImage>& windows, int threads, int ring) {
    return detection_rate(cascade, windows, threads, ring);
}

double window_detection_rate(const HaarCascade& cascade, const std::vector<GrayImage>& windows, int threads, int ring) {
    return detection_rate(cascade, windows, threads, ring);
}

NegativeScan scan_negative_images(const LbpCascade& cascade, const std::vector<std::string>& images,
                                  double scale_factor, int stride, int threads) {
    ScanParams params;
    params.pyramid.scale_factor = scale_factor;
    params.rule.stride = stride;
    params.threads = threads;
    NegativeScan scan;
    for (const std::string& path : images) {
        ScanStats stats;
        scan.accepted += static_cast<long long>(detect_windows(cascade, data::read_gray(path).view(), params, &stats).size());
        scan.windows += stats.windows;
    }
    return scan;
}

}  // namespace cascade::train::lbp
