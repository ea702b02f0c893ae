#include "train/cov/cov_samples.hpp"

#include "common/cascade_eval.hpp"
#include "common/cov_eval.hpp"
#include "common/cov_features.hpp"
#include "common/error.hpp"
#include "common/parallel.hpp"
#include "data/image_files.hpp"
#include "train/hog/hog_data.hpp"

namespace cascade::train::cov {

namespace {

// The planes of sample i and its window's scales.
struct SampleView {
    CovPlanes planes;
    double scale[kCovFeatures];

    SampleView(const CovSamples& samples, int i, bool with_lbp_bins = false) {
        compute_cov_planes(samples.crops[static_cast<std::size_t>(i)].view(), planes, with_lbp_bins);
        cov_window_scales(planes.sampler(), kSampleMargin, kSampleMargin, samples.window, scale);
    }
    void covariance(const Rect& rect, double* c) const {
        cov_rect_covariance(planes.sampler(), kSampleMargin, kSampleMargin, rect, scale, c);
    }
};

int rounded_up(int v, int grid) { return (v + grid - 1) / grid * grid; }

GrayImage cut(const GrayImage& image, int x, int y, Size size) {
    GrayImage out(size.width, size.height);
    for (int r = 0; r < size.height; ++r)
        std::copy_n(image.pixels.data() + static_cast<std::size_t>(y + r) * image.width + x, size.width, out.row(r));
    return out;
}

}  // namespace

CovSamples load_positive_samples(const std::vector<data::PositiveSource>& crops, Size window,
                                 const data::Margin& margin, int threads, const data::Jitter& jitter) {
    data::check_jitter(jitter);
    const Size sample{window.width + 2 * kSampleMargin, window.height + 2 * kSampleMargin};
    const int per_crop = 1 + jitter.copies;
    CovSamples out;
    out.window = window;
    out.crops.resize(crops.size() * static_cast<std::size_t>(per_crop));
    parallel_for(
        static_cast<int>(crops.size()),
        [&](int i) {
            const std::string& path = crops[static_cast<std::size_t>(i)].path;
            const GrayImage crop = hog::read_margined_crop(path, window, margin);
            const int x = margin.left - kSampleMargin, y = margin.top - kSampleMargin;
            const auto first = static_cast<std::size_t>(i) * per_crop;
            out.crops[first] = cut(crop, x, y, sample);
            for (int c = 0; c < jitter.copies; ++c)  // the crop is the window unscaled: 1 pixel per window pixel
                out.crops[first + 1 + static_cast<std::size_t>(c)] =
                    cut(data::jittered(crop, data::draw_jitter(jitter, i, c), 1.0), x, y, sample);
        },
        threads);
    out.positives = out.size();
    return out;
}

MiningParams sample_mining(Size window, double scale_factor, int per_image, std::uint64_t seed, int threads) {
    MiningParams p;
    p.window = window;
    p.scale_factor = scale_factor;
    p.per_image = per_image;
    p.margin = kSampleMargin;
    p.step = kCovGrid;
    p.seed = seed;
    p.threads = threads;
    return p;
}

std::vector<char> accepted(const CovCascade& cascade, const CovSamples& samples, int threads) {
    const CovCascadeView view = view_of(cascade);
    const bool lbp_bins = uses_lbp_bins(cascade);
    std::vector<char> pass(static_cast<std::size_t>(samples.size()));
    parallel_for(
        samples.size(),
        [&](int i) {
            CovPlanes planes;
            compute_cov_planes(samples.crops[static_cast<std::size_t>(i)].view(), planes, lbp_bins);
            const CovLbpGridView sampler = planes.lbp_sampler();
            int rejected_at = 0;
            double score = 0.0;
            pass[static_cast<std::size_t>(i)] = accept_window(
                view, CovWindow<CovLbpGridView>(view, sampler, kSampleMargin, kSampleMargin), rejected_at, score);
        },
        threads);
    return pass;
}

std::vector<Rect> rect_pool(Size window) {
    const int min_w = std::max(kCovGrid, rounded_up((window.width + 9) / 10, kCovGrid));
    const int min_h = std::max(kCovGrid, rounded_up((window.height + 9) / 10, kCovGrid));
    std::vector<Rect> pool;
    for (int h = min_h; h <= window.height; h += kCovGrid)
        for (int w = min_w; w <= window.width; w += kCovGrid)
            for (int y = 0; y + h <= window.height; y += kCovGrid)
                for (int x = 0; x + w <= window.width; x += kCovGrid) pool.push_back({x, y, w, h});
    return pool;
}

VectorTable sample_vectors(const CovSamples& samples, const std::vector<CovWeak>& maps, int threads) {
    VectorTable table;
    table.rects = static_cast<int>(maps.size());
    table.samples = samples.size();
    table.values.resize(static_cast<std::size_t>(table.rects) * table.samples * kCovDims);
    parallel_for(
        samples.size(),
        [&](int i) {
            const SampleView view(samples, i);
            double c[kCovFeatures * kCovFeatures], v[kCovDims];
            for (int r = 0; r < table.rects; ++r) {
                const CovWeak& map = maps[static_cast<std::size_t>(r)];
                view.covariance(map.rect, c);
                cov_log_vector(map.mapping, map.mean_isqrt, c, v);
                float* out = table.values.data() + (static_cast<std::size_t>(r) * table.samples + i) * kCovDims;
                for (int k = 0; k < kCovDims; ++k) out[k] = static_cast<float>(v[k]);
            }
        },
        threads);
    return table;
}

std::vector<double> rect_covariances(const CovSamples& samples, const std::vector<int>& which,
                                     const std::vector<Rect>& rects, int threads) {
    constexpr std::size_t kSize = kCovFeatures * kCovFeatures;
    std::vector<double> out(rects.size() * which.size() * kSize);
    parallel_for(
        static_cast<int>(which.size()),
        [&](int k) {
            const SampleView view(samples, which[static_cast<std::size_t>(k)]);
            for (std::size_t r = 0; r < rects.size(); ++r)
                view.covariance(rects[r], &out[(r * which.size() + static_cast<std::size_t>(k)) * kSize]);
        },
        threads);
    return out;
}

std::vector<float> cell_histograms(const CovSamples& samples, const std::vector<Rect>& cells, int threads) {
    std::vector<float> out(static_cast<std::size_t>(samples.size()) * cells.size() * kLbpUniformBins);
    parallel_for(
        samples.size(),
        [&](int i) {
            const LbpBinPlane bins = build_lbp_bin_plane(samples.crops[static_cast<std::size_t>(i)].view());
            float* row = out.data() + static_cast<std::size_t>(i) * cells.size() * kLbpUniformBins;
            for (std::size_t c = 0; c < cells.size(); ++c)
                lbp_cell_features(bins.view(), kSampleMargin + cells[c].x, kSampleMargin + cells[c].y, cells[c].width,
                                  row + c * kLbpUniformBins);
        },
        threads);
    return out;
}

void add_responses(const CovSamples& samples, const std::vector<CovWeak>& weaks, std::vector<double>& sums,
                   int threads) {
    const bool lbp_bins = uses_lbp_bins(weaks);
    parallel_for(
        samples.size(),
        [&](int i) {
            const SampleView view(samples, i, lbp_bins);
            const CovLbpGridView sampler = view.planes.lbp_sampler();
            double& sum = sums[static_cast<std::size_t>(i)];
            for (const CovWeak& weak : weaks)
                sum += cov_learner_response(sampler, kSampleMargin, kSampleMargin, weak, view.scale);
        },
        threads);
}

}  // namespace cascade::train::cov
