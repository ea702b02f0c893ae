#include "train/hog/block_svm.hpp"

#include <linear.h>

#include <algorithm>
#include <cmath>
#include <memory>

namespace cascade::train::hog {

namespace {

void print_nothing(const char*) {}

struct ModelDeleter {
    void operator()(model* m) const { free_and_destroy_model(&m); }
};

}  // namespace

std::vector<int> resample_multiplicities(const std::vector<double>& weights, int draws) {
    double total = 0.0;
    for (double w : weights) total += w;
    std::vector<int> m(weights.size(), 0);
    double cumulative = 0.0;
    long long previous = 0;
    for (std::size_t i = 0; i < weights.size(); ++i) {
        cumulative += weights[i];
        const long long upto = i + 1 == weights.size()
                                   ? draws
                                   : static_cast<long long>(std::floor(draws * (cumulative / total) + 0.5));
        m[i] = static_cast<int>(upto - previous);
        previous = upto;
    }
    return m;
}

std::vector<float> train_linear_svm(const std::vector<float>& x, int dims, const std::vector<int>& labels,
                                    const std::vector<int>& multiplicities, const SvmOptions& options) {
    static const bool silenced = (set_print_string_function(&print_nothing), true);  // once, thread-safe
    (void)silenced;
    std::vector<float> out(static_cast<std::size_t>(dims) + 1, 0.f);
    out.back() = -1.f;  // never fires, unless trained below

    const auto nodes_per_row = static_cast<std::size_t>(dims) + 2;  // the features, the bias feature, the terminator
    const std::size_t n = labels.size();
    std::vector<feature_node> nodes(n * nodes_per_row);
    std::vector<feature_node*> rows;
    std::vector<double> y;
    bool seen_positive = false, seen_negative = false;
    for (std::size_t i = 0; i < n; ++i) {
        if (multiplicities[i] <= 0) continue;
        feature_node* row = &nodes[i * nodes_per_row];
        int k = 0;
        for (int d = 0; d < dims; ++d) {
            const float v = x[i * static_cast<std::size_t>(dims) + static_cast<std::size_t>(d)];
            if (v != 0.f) row[k++] = {d + 1, v};
        }
        row[k++] = {dims + 1, options.bias_feature};
        row[k] = {-1, 0.0};
        for (int copy = 0; copy < multiplicities[i]; ++copy) {
            rows.push_back(row);
            y.push_back(labels[i] > 0 ? 1.0 : -1.0);
        }
        (labels[i] > 0 ? seen_positive : seen_negative) = true;
    }
    if (!seen_positive || !seen_negative) return out;

    problem prob{};
    prob.l = static_cast<int>(rows.size());
    prob.n = dims + 1;
    prob.y = y.data();
    prob.x = rows.data();
    prob.bias = options.bias_feature;
    parameter param{};
    param.solver_type = L2R_L2LOSS_SVC;
    param.eps = options.epsilon;
    param.C = options.c;
    param.p = 0.1;

    const std::unique_ptr<model, ModelDeleter> trained(::train(&prob, &param));  // liblinear's train, not cascade::train
    // liblinear orders labels by first appearance; its decision value is positive for label[0].
    const double sign = trained->label[0] == 1 ? 1.0 : -1.0;
    for (int d = 0; d < dims; ++d) out[static_cast<std::size_t>(d)] = static_cast<float>(sign * trained->w[d]);
    out.back() = static_cast<float>(sign * trained->w[dims] * options.bias_feature);
    return out;
}

HogWeak train_block_svm(const Rect& block, const std::vector<float>& descriptors, const std::vector<int>& labels,
                        const std::vector<int>& multiplicities, const SvmOptions& options) {
    const std::vector<float> w = train_linear_svm(descriptors, kHogBlockDims, labels, multiplicities, options);
    HogWeak weak;
    weak.block = block;
    std::copy(w.begin(), w.begin() + kHogBlockDims, weak.weights);
    weak.bias = w.back();
    return weak;
}

}  // namespace cascade::train::hog
