// The options of cascade-eval window and composite that say what to measure on: --pos and --neg, and the
// part of them that cascade-train held out (--holdout, or --pos-holdout and --neg-holdout apart, --seed,
// --group-by) and how a crop holds its object (--pos-margin), as option text bound by add_split_options and
// checked by split_of.
#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <vector>

#include "bench/eval/test_sets.hpp"

namespace cascade::eval {

struct SplitText {
    std::vector<std::string> positives, negatives;
    std::string holdout, pos_holdout, neg_holdout, seed, group_by, pos_margin;
};

void add_split_options(boost::program_options::options_description& options, SplitText& text);

// Throws cli::UsageError naming the option: no --pos or --neg, a fraction outside [0, 1), a negative seed,
// an unknown grouping, --pos-holdout or --neg-holdout beside --holdout.
TestSplit split_of(const SplitText& text);

}  // namespace cascade::eval
