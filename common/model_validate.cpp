// Structural checks shared by every loader and by save_model (declared in common/model.hpp).
//
// Every check names the first problem it finds precisely enough to locate it in the file: the stage, the
// weak learner within it (and its index in the whole cascade), and the offending values.
#include <cmath>
#include <cstddef>
#include <limits>
#include <sstream>
#include <string>

#include "common/error.hpp"
#include "common/dalal_triggs_descriptor.hpp"
#include "common/hog_eval.hpp"
#include "common/lbp_uniform.hpp"
#include "common/model.hpp"

namespace cascade {

namespace {

constexpr int kMaxWindowSide = 4096;

std::string str(int v) { return std::to_string(v); }
std::string str(long long v) { return std::to_string(v); }
std::string str(std::size_t v) { return std::to_string(v); }

std::string window_text(Size w) { return str(w.width) + "x" + str(w.height); }

std::string float_text(float v) {
    if (std::isnan(v)) return "nan";
    return v > 0 ? "inf" : "-inf";
}

std::string number_text(float v) {
    if (!std::isfinite(v)) return float_text(v);
    std::ostringstream out;
    out << v;
    return out.str();
}

void check_header(Size window, SumPolicy policy, std::size_t num_stages, const std::string& source) {
    if (window.width < 1 || window.height < 1)
        throw InputError(source, "window size " + window_text(window) + " is not positive");
    if (window.width > kMaxWindowSide || window.height > kMaxWindowSide)
        throw InputError(source, "window size " + window_text(window) + " exceeds " + str(kMaxWindowSide) +
                                     " pixels on a side");
    if (policy != SumPolicy::per_stage && policy != SumPolicy::running)
        throw InputError(source, "unknown sum policy " + str(static_cast<int>(policy)));
    if (num_stages == 0) throw InputError(source, "the cascade has no stages");
}

// Stages must cut the weak learners [0, num_weaks) into consecutive, non-empty runs, in order. Acceptance
// thresholds belong to running sums (a per-stage sum restarts, so accepting on it would skip whole stages)
// and lie above the rejection threshold.
void check_stages(const std::vector<Stage>& stages, SumPolicy policy, std::size_t num_weaks,
                  const std::string& source) {
    long long next = 0;
    for (std::size_t s = 0; s < stages.size(); ++s) {
        const Stage& st = stages[s];
        const std::string where = "stage " + str(s) + ": ";
        if (st.first != next)
            throw InputError(source, where + "starts at weak learner " + str(st.first) + ", expected " + str(next) +
                                         " (stages must cover the weak learners contiguously, in order)");
        if (st.count < 1) throw InputError(source, where + "has " + str(st.count) + " weak learners (needs >= 1)");
        if (!std::isfinite(st.threshold))
            throw InputError(source, where + "threshold is " + float_text(st.threshold));
        if (st.accept != std::numeric_limits<float>::infinity()) {
            if (policy != SumPolicy::running)
                throw InputError(source, where + "has an acceptance threshold, which needs the running sum policy");
            if (!(st.accept > st.threshold))
                throw InputError(source, where + "acceptance threshold " + number_text(st.accept) +
                                             " is not above the rejection threshold " + number_text(st.threshold));
        }
        next += st.count;
        if (next > static_cast<long long>(num_weaks))
            throw InputError(source, where + "covers weak learners " + str(static_cast<long long>(st.first)) + ".." +
                                         str(next - 1) + " but the cascade has only " + str(num_weaks));
    }
    if (next != static_cast<long long>(num_weaks))
        throw InputError(source, "the stages cover " + str(next) + " weak learners but the cascade has " +
                                     str(num_weaks));
}

// "stage S weak learner K (#I)" for weak learner index i.
std::string weak_location(const std::vector<Stage>& stages, std::size_t i) {
    for (std::size_t s = 0; s < stages.size(); ++s) {
        const auto first = static_cast<std::size_t>(stages[s].first);
        if (i >= first && i < first + static_cast<std::size_t>(stages[s].count))
            return "stage " + str(s) + " weak learner " + str(i - first) + " (#" + str(i) + ")";
    }
    return "weak learner #" + str(i);
}

// Exactly +0: an unused entry of -0 would pack to other bytes than the XML gives back (it writes no unused
// entry), so that a save and a load would change a packed model.
bool is_plus_zero(float f) { return f == 0.f && !std::signbit(f); }

// The response of a HoG or covariance weak learner: cuts ascending, every value finite, entries past the used
// ones +0.
template <class Weak>
void check_step_response(const Weak& w, const std::string& where, const std::string& source) {
    if (w.num_cuts < 0 || w.num_cuts >= kHogMaxBins)
        throw InputError(source, where + str(w.num_cuts) + " cuts (0 to " + str(kHogMaxBins - 1) + " allowed)");
    for (int j = 0; j < kHogMaxBins - 1; ++j) {
        if (j >= w.num_cuts && !is_plus_zero(w.cuts[j]))
            throw InputError(source, where + "unused cut " + str(j) + " is not 0");
        if (!std::isfinite(w.cuts[j]))
            throw InputError(source, where + "cut " + str(j) + " is " + float_text(w.cuts[j]));
        if (j > 0 && j < w.num_cuts && !(w.cuts[j] > w.cuts[j - 1]))
            throw InputError(source, where + "cuts are not in ascending order at cut " + str(j));
    }
    for (int k = 0; k < kHogMaxBins; ++k) {
        if (k > w.num_cuts && !is_plus_zero(w.responses[k]))
            throw InputError(source, where + "unused response " + str(k) + " is not 0");
        if (!std::isfinite(w.responses[k]))
            throw InputError(source, where + "response " + str(k) + " is " + float_text(w.responses[k]));
    }
    if (!std::isfinite(w.slope)) throw InputError(source, where + "slope is " + float_text(w.slope));
}

// A Haar feature: every rectangle (unused ones are all zero) inside the window, its weight finite, and at
// least one weight non-zero.
void check_haar_feature(const HaarFeature& f, Size win, const std::string& where, const std::string& source) {
    if (f.tilted != 0 && f.tilted != 1)
        throw InputError(source, where + "tilted flag " + str(f.tilted) + " is neither 0 nor 1");
    bool any = false;
    for (int k = 0; k < kHaarRects; ++k) {
        const HaarRect& r = f.rects[k];
        const std::string rect = std::string(f.tilted ? "tilted " : "") + "rect " + str(k) + " (" + str(int{r.x}) +
                                 "," + str(int{r.y}) + "," + str(int{r.width}) + "," + str(int{r.height}) + ")";
        if (!std::isfinite(r.weight)) throw InputError(source, where + rect + " has weight " + float_text(r.weight));
        any = any || r.weight != 0.f;
        if (r.width < 0 || r.height < 0) throw InputError(source, where + rect + " has a negative side");
        // Upright: corners (x, y) to (x + w, y + h). Tilted: (x, y), (x - h, y + h), (x + w, y + w) and
        // (x + w - h, y + w + h), as OpenCV's CV_TILTED_OFS reads them.
        const int left = f.tilted ? r.x - r.height : r.x, right = r.x + r.width;
        const int bottom = f.tilted ? r.y + r.width + r.height : r.y + r.height;
        if (left < 0 || r.y < 0 || right > win.width || bottom > win.height)
            throw InputError(source, where + rect + " leaves the " + window_text(win) + " window");
    }
    if (!any) throw InputError(source, where + "the feature has no rect with a non-zero weight");
}

// A Haar tree: its nodes and leaves exist, every child is a later node of the tree or one of its leaves.
void check_haar_tree(const HaarCascade& c, const HaarTree& t, const std::string& where, const std::string& source) {
    if (t.node_count < 1) throw InputError(source, where + "has " + str(t.node_count) + " nodes (needs >= 1)");
    if (t.first_node < 0 || static_cast<std::size_t>(t.first_node) + static_cast<std::size_t>(t.node_count) >
                                c.nodes.size())
        throw InputError(source, where + "nodes " + str(t.first_node) + ".." +
                                     str(static_cast<long long>(t.first_node) + t.node_count - 1) +
                                     " do not exist (there are " + str(c.nodes.size()) + ")");
    if (t.first_leaf < 0 || static_cast<std::size_t>(t.first_leaf) + static_cast<std::size_t>(t.node_count) + 1 >
                                c.leaves.size())
        throw InputError(source, where + "its " + str(t.node_count + 1) + " leaves from " + str(t.first_leaf) +
                                     " do not exist (there are " + str(c.leaves.size()) + ")");
    for (int n = 0; n < t.node_count; ++n) {
        const HaarNode& node = c.nodes[static_cast<std::size_t>(t.first_node + n)];
        const std::string at_node = where + "node " + str(n) + ": ";
        if (!std::isfinite(node.threshold))
            throw InputError(source, at_node + "threshold is " + float_text(node.threshold));
        for (const std::int32_t child : {node.left, node.right})
            if (child > 0 ? (child <= n || child >= t.node_count) : child < -t.node_count)
                throw InputError(source, at_node + "child " + str(int{child}) +
                                             " is neither a later node of the tree nor one of its " +
                                             str(t.node_count + 1) + " leaves");
        check_haar_feature(node.feature, c.window, at_node, source);
    }
    for (int l = 0; l <= t.node_count; ++l) {
        const float v = c.leaves[static_cast<std::size_t>(t.first_leaf + l)];
        if (!std::isfinite(v)) throw InputError(source, where + "leaf " + str(l) + " is " + float_text(v));
    }
}

}  // namespace

void validate(const HaarCascade& cascade, const std::string& source) {
    check_header(cascade.window, cascade.policy, cascade.stages.size(), source);
    check_stages(cascade.stages, cascade.policy, cascade.weaks.size(), source);
    for (std::size_t i = 0; i < cascade.weaks.size(); ++i)
        check_haar_tree(cascade, cascade.weaks[i], weak_location(cascade.stages, i) + ": ", source);
}

namespace {

// The final histogram SVM's cells lie inside the window, its weights are finite and one per cell and bin.
void check_histogram_svm(const LbpHistogramSvm& svm, Size win, const std::string& source) {
    const std::string where = "histogram-svm: ";
    if (svm.cell < 1 || svm.step < 1 || svm.cells_x < 1 || svm.cells_y < 1)
        throw InputError(source, where + "cell " + str(svm.cell) + ", step " + str(svm.step) + " and " +
                                     str(svm.cells_x) + "x" + str(svm.cells_y) + " cells must be positive");
    if (static_cast<long long>(svm.cells_x - 1) * svm.step + svm.cell > win.width ||
        static_cast<long long>(svm.cells_y - 1) * svm.step + svm.cell > win.height)
        throw InputError(source, where + str(svm.cells_x) + "x" + str(svm.cells_y) + " cells of " + str(svm.cell) +
                                     " pixels at step " + str(svm.step) + " leave the " + window_text(win) + " window");
    const std::size_t expected = static_cast<std::size_t>(svm.cells_x) * svm.cells_y * kLbpUniformBins;
    if (svm.weights.size() != expected)
        throw InputError(source, where + str(svm.weights.size()) + " weights, expected " + str(expected) + " (" +
                                     str(svm.cells_x) + "x" + str(svm.cells_y) + " cells x " + str(kLbpUniformBins) +
                                     " bins)");
    for (std::size_t k = 0; k < svm.weights.size(); ++k)
        if (!std::isfinite(svm.weights[k]))
            throw InputError(source, where + "weight " + str(k) + " is " + float_text(svm.weights[k]));
    if (!std::isfinite(svm.bias)) throw InputError(source, where + "bias is " + float_text(svm.bias));
    if (!std::isfinite(svm.threshold)) throw InputError(source, where + "threshold is " + float_text(svm.threshold));
}

}  // namespace

void validate(const LbpCascade& cascade, const std::string& source) {
    check_header(cascade.window, cascade.policy, cascade.stages.size(), source);
    check_stages(cascade.stages, cascade.policy, cascade.weaks.size(), source);

    if (cascade.responses.empty() || cascade.responses.size() % kLbpCodes != 0)
        throw InputError(source, "the response tables hold " + str(cascade.responses.size()) +
                                     " values, not a positive multiple of " + str(kLbpCodes));
    const std::size_t num_tables = cascade.responses.size() / kLbpCodes;
    for (std::size_t t = 0; t < num_tables; ++t)
        for (int c = 0; c < kLbpCodes; ++c) {
            const float v = cascade.responses[t * kLbpCodes + static_cast<std::size_t>(c)];
            if (!std::isfinite(v))
                throw InputError(source, "response table " + str(t) + " entry " + str(c) + " is " + float_text(v));
        }

    const Size win = cascade.window;
    for (std::size_t i = 0; i < cascade.weaks.size(); ++i) {
        const LbpWeak& w = cascade.weaks[i];
        const LbpFeature& f = w.feature;
        const std::string where = weak_location(cascade.stages, i) + ": ";
        const std::string feature = "feature (" + str(int{f.x}) + "," + str(int{f.y}) + "," + str(int{f.width}) +
                                    "," + str(int{f.height}) + ")";
        if (f.width < 1 || f.height < 1)
            throw InputError(source, where + feature + " has a cell size below 1x1");
        if (f.x < 0 || f.y < 0 || f.x + 3 * f.width > win.width || f.y + 3 * f.height > win.height)
            throw InputError(source, where + feature + " leaves the " + window_text(win) + " window");
        if (w.table < 0 || static_cast<std::size_t>(w.table) >= num_tables)
            throw InputError(source, where + "response table " + str(w.table) + " does not exist (there are " +
                                         str(num_tables) + ")");
    }
    if (cascade.final_svm) check_histogram_svm(*cascade.final_svm, win, source);
}

namespace {

// An LBP-histogram learner (model.hpp) of a HoG or covariance cascade: a square cell, bins from first_bin on, no
// weight past the last bin.
void check_lbp_learner(Rect cell, const float* weights, int first_bin, const std::string& where,
                       const std::string& source) {
    if (cell.width < 1 || cell.width != cell.height)
        throw InputError(source, where + " is an LBP cell, which is square and at least 1x1");
    if (first_bin < 0 || first_bin >= kLbpUniformBins)
        throw InputError(source, where + ": first bin " + str(first_bin) + " is outside 0.." +
                                     str(kLbpUniformBins - 1));
    for (int k = lbp_learner_bins(first_bin); k < kHogBlockDims; ++k)
        if (weights[k] != 0.f)
            throw InputError(source, where + ": weight " + str(k) + " is past the last LBP bin (" +
                                         str(kLbpUniformBins - 1) + ") and must be 0");
}

}  // namespace

void validate(const HogCascade& cascade, const std::string& source) {
    check_header(cascade.window, cascade.policy, cascade.stages.size(), source);
    check_stages(cascade.stages, cascade.policy, cascade.weaks.size(), source);

    const Size win = cascade.window;
    for (std::size_t i = 0; i < cascade.weaks.size(); ++i) {
        const HogWeak& w = cascade.weaks[i];
        const Rect& b = w.block;
        const std::string where = weak_location(cascade.stages, i) + ": ";
        const std::string block =
            "block (" + str(b.x) + "," + str(b.y) + "," + str(b.width) + "," + str(b.height) + ")";
        if (w.descriptor == kHogDescriptorLbpHistogram)
            check_lbp_learner(w.block, w.weights, w.first_bin, where + block, source);
        else if (b.width < 2 || b.height < 2 || b.width % 2 != 0 || b.height % 2 != 0)
            throw InputError(source, where + block + " needs an even, positive width and height (2x2 cells)");
        if (w.descriptor != kHogDescriptorIntegral && !is_dalal_triggs(w.descriptor) &&
            w.descriptor != kHogDescriptorLbpHistogram)
            throw InputError(source, where + "descriptor " + str(w.descriptor) + " is unknown (0, 1, 2 or 3)");
        if (w.descriptor != kHogDescriptorLbpHistogram && w.first_bin != 0)
            throw InputError(source, where + "first bin " + str(w.first_bin) + " on a learner without LBP bins");
        if (is_dalal_triggs(w.descriptor) &&
            (b.width != kDalalTriggsBlock || b.height != kDalalTriggsBlock))
            throw InputError(source, where + block + " is a Dalal-Triggs block, which is 16x16");
        if (b.x < 0 || b.y < 0 || static_cast<long long>(b.x) + b.width > win.width ||
            static_cast<long long>(b.y) + b.height > win.height)
            throw InputError(source, where + block + " leaves the " + window_text(win) + " window");
        for (int k = 0; k < kHogBlockDims; ++k)
            if (!std::isfinite(w.weights[k]))
                throw InputError(source, where + "weight " + str(k) + " is " + float_text(w.weights[k]));
        if (!std::isfinite(w.bias)) throw InputError(source, where + "bias is " + float_text(w.bias));
        check_step_response(w, where, source);
    }
}

namespace {

// A covariance weak learner's rectangle, mapping, weights and mean (the response is check_step_response's).
void check_cov_weak(const CovWeak& w, Size win, const std::string& where, const std::string& source) {
    const Rect& r = w.rect;
    const std::string rect = "rect (" + str(r.x) + "," + str(r.y) + "," + str(r.width) + "," + str(r.height) + ")";
    if (r.x < 0 || r.y < 0 || r.width < kCovGrid || r.height < kCovGrid || r.x % kCovGrid || r.y % kCovGrid ||
        r.width % kCovGrid || r.height % kCovGrid)
        throw InputError(source, where + rect + " is not on the " + str(kCovGrid) + "-pixel grid (at least " +
                                     str(kCovGrid) + "x" + str(kCovGrid) + ")");
    if (static_cast<long long>(r.x) + r.width > win.width || static_cast<long long>(r.y) + r.height > win.height)
        throw InputError(source, where + rect + " leaves the " + window_text(win) + " window");
    if (w.mapping != kCovLogEuclidean && w.mapping != kCovTangent)
        throw InputError(source, where + "mapping " + str(w.mapping) + " is unknown (0 or 1)");
    if (w.descriptor == kCovDescriptorLbpHistogram) {
        check_lbp_learner(r, w.weights, w.first_bin, where + rect, source);
        if (w.mapping != kCovLogEuclidean)
            throw InputError(source, where + rect + " is an LBP cell, which has no covariance mapping");
    } else if (w.descriptor != kCovDescriptorCovariance) {
        throw InputError(source, where + "descriptor " + str(w.descriptor) + " is unknown (0 or 1)");
    } else if (w.first_bin != 0) {
        throw InputError(source, where + "first bin " + str(w.first_bin) + " on a learner without LBP bins");
    }
    for (int k = 0; k < kCovDims; ++k)
        if (!std::isfinite(w.weights[k]))
            throw InputError(source, where + "weight " + str(k) + " is " + float_text(w.weights[k]));
    if (!std::isfinite(w.bias)) throw InputError(source, where + "bias is " + float_text(w.bias));
    if (!(w.limit > 0.f)) throw InputError(source, where + "limit " + float_text(w.limit) + " is not positive");
    for (int k = 0; k < kCovFeatures * kCovFeatures; ++k) {
        const float m = w.mean_isqrt[k];
        if (w.mapping == kCovLogEuclidean ? !is_plus_zero(m) : !std::isfinite(m))
            throw InputError(source, where + "mean entry " + str(k) + " is " + float_text(m) +
                                         (w.mapping == kCovLogEuclidean ? " (a log-Euclidean learner has none)" : ""));
        if (m != w.mean_isqrt[(k % kCovFeatures) * kCovFeatures + k / kCovFeatures])
            throw InputError(source, where + "the mean's inverse square root is not symmetric at entry " + str(k));
    }
}

}  // namespace

void validate(const CovCascade& cascade, const std::string& source) {
    check_header(cascade.window, cascade.policy, cascade.stages.size(), source);
    check_stages(cascade.stages, cascade.policy, cascade.weaks.size(), source);
    const Size win = cascade.window;
    if (win.width % kCovGrid || win.height % kCovGrid || static_cast<long long>(win.width) * win.height > 65536)
        throw InputError(source, "window size " + window_text(win) + " is not a multiple of " + str(kCovGrid) +
                                     " pixels or exceeds 65536 pixels (a covariance model's limits)");
    for (std::size_t i = 0; i < cascade.weaks.size(); ++i) {
        const std::string where = weak_location(cascade.stages, i) + ": ";
        check_cov_weak(cascade.weaks[i], win, where, source);
        check_step_response(cascade.weaks[i], where, source);
    }
}

}  // namespace cascade
