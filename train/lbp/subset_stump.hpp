// opencv_traincascade's LBP weak learner: a stump that splits the 256 MB-LBP codes of one feature into a
// subset and the rest, with one response (leaf) for each side: OpenCV's categorical stump (CvDTree with
// maxDepth 1 on a categorical variable).
//
// Every boost type fits the split the same way: a weighted least-squares regression of a target on the code,
// over the 256-way partition (Breiman's result: sorting the codes by their mean target and cutting that order
// gives the best two-way subset split). The targets and weights are the boosting type's:
//   - gentle (GAB), real (RAB), discrete (DAB): target y in {-1, +1}, the boosting weights (with y = +-1,
//     least squares equals the Gini criterion of OpenCV's classification trees);
//   - logit (LB): the working response z, weights p(1 - p) (Friedman, Hastie & Tibshirani 2000).
// With `ordered` codes (bins of a scalar feature, train/haar/haar_stage_features.hpp) the cut is made in code
// order instead: a threshold stump, the subset being the codes from `cut` up.
// The leaves: gentle, the weighted mean of y per side; real, 1/2 ln(W+ / W-) per side; discrete, the sign of
// the weighted mean per side (the trainer scales it by ln((1 - err) / err)); logit, 1/2 the weighted mean of z.
#pragma once

#include <array>
#include <vector>

#include "common/model.hpp"
#include "train/lbp/code_table.hpp"

namespace cascade::train::lbp {

enum class BoostType { discrete, real, logit, gentle };

// opencv_traincascade's names: DAB, RAB, LB, GAB.
const char* opencv_boost_name(BoostType type);

struct RegressionSamples {
    std::vector<int> slots;  // in the code table
    std::vector<double> targets;
    std::vector<double> weights;
};

struct SubsetStump {
    int feature = -1;  // index in the code table
    std::array<float, kLbpCodes> responses{};  // two values: one for the subset, one for the rest
    int cut = kLbpCodes;  // ordered codes: the subset is the codes >= cut (kLbpCodes: no split)
    double loss = 0.0;  // weighted squared error of the fit
};

// The feature whose best subset split has the least weighted squared error (ties: the lowest feature, then
// the first cut), with leaves for `type`. Features are evaluated in parallel; the result does not depend on
// `threads`.
SubsetStump fit_subset_stump(const CodeTable& codes, const RegressionSamples& samples, BoostType type, int threads,
                             bool ordered = false);

}  // namespace cascade::train::lbp
