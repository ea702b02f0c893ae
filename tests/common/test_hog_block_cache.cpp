// The CPU scan's cache of Dalal-Triggs descriptors and LBP cell counts (common/hog_block_cache.hpp): every window
// of the default model (HOG-LBP: 105 Dalal-Triggs blocks and 64 LBP-histogram learners in its final stage) on real
// photographs gets exactly the stage, the sum and the decision that the uncached evaluation gives it, at the
// strides the toolkit scans with (8, 4) and one off the blocks' 8-pixel grid (6).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "common/hog_eval.hpp"
#include "common/model_io.hpp"
#include "common/scan_pyramid.hpp"
#include "tests/support/sanitized.hpp"
#include "tests/support/test_data.hpp"

using namespace cascade;

namespace {

struct WindowResult {
    int level, x, y, rejected_at;
    double score;
    bool accepted;

    bool operator==(const WindowResult& o) const {
        return level == o.level && x == o.x && y == o.y && rejected_at == o.rejected_at && score == o.score &&
               accepted == o.accepted;
    }
};

// scan_pyramid's visitor: every window's result, through the level's cached sampler or (cached == false) through
// the plain HogSampler under it, which computes every block of every window.
class AllWindows {
public:
    struct Task {
        AllWindows* owner;
        std::vector<WindowResult> results;

        int visit(const LevelPlanes<HogFamily>& level, int x, int y) {
            return owner->cached_ ? evaluate(level.sampler, level.index, x, y)
                                  : evaluate(static_cast<const HogSampler&>(level.sampler), level.index, x, y);
        }

        template <class Sampler>
        int evaluate(const Sampler& sampler, int level, int x, int y) {
            WindowResult r{level, x, y, 0, 0.0, false};
            r.accepted = accept_window(owner->view_, HogWindow<Sampler>{owner->view_, sampler, x, y}, r.rejected_at, r.score);
            results.push_back(r);
            return r.rejected_at;
        }
    };

    AllWindows(const HogCascade& cascade, bool cached) : view_(view_of(cascade)), cached_(cached) {}
    Task task() { return {this, {}}; }
    void merge(Task& t) { all_.insert(all_.end(), t.results.begin(), t.results.end()); }
    const std::vector<WindowResult>& all() const { return all_; }

private:
    HogCascadeView view_;
    bool cached_;
    std::vector<WindowResult> all_;
};

std::vector<WindowResult> scan(const HogCascade& cascade, const GrayView& image, int stride, bool cached) {
    ScanParams params;
    params.rule.stride = stride;
    params.pyramid.scale_factor = 1.2;
    params.threads = 1;  // levels in a fixed order: the two scans' lists line up
    AllWindows visitor(cascade, cached);
    scan_pyramid(cascade, image, params, visitor);
    return visitor.all();
}

}  // namespace

TEST_CASE("the block cache gives the default model's windows exactly the uncached stages, sums and decisions") {
    std::vector<test::ImageSource> images = test::real_images();
    if (images.empty()) return;
    if (test::kSanitized) images.resize(1);
    const Model model = load_model(std::string(CASCADE_SOURCE_DIR) + "/models/pedestrian_hog.xml");
    const auto& cascade = std::get<HogCascade>(model.cascade);
    const int last = static_cast<int>(cascade.stages.size()) - 1;
    std::int64_t final_stage = 0, accepted = 0;
    for (const auto& source : images) {
        const cv::Mat gray = test::load_gray(source);
        const GrayView image{gray.data, gray.cols, gray.rows, static_cast<int>(gray.step)};
        for (const int stride : {8, 4, 6}) {
            const std::vector<WindowResult> cached = scan(cascade, image, stride, true);
            const std::vector<WindowResult> plain = scan(cascade, image, stride, false);
            REQUIRE(cached.size() == plain.size());
            std::size_t first_difference = 0;
            while (first_difference < cached.size() && cached[first_difference] == plain[first_difference])
                ++first_difference;
            CHECK_MESSAGE(first_difference == cached.size(), source.label << " stride " << stride << ": window "
                                                                         << first_difference << " differs");
            for (const WindowResult& r : cached) {
                final_stage += r.rejected_at >= last ? 1 : 0;
                accepted += r.accepted ? 1 : 0;
            }
        }
    }
    MESSAGE(final_stage << " windows reached the final stage, " << accepted << " accepted");
    CHECK(final_stage > 100);  // the cached descriptors were read, and by many windows
    CHECK(accepted > 0);
}
