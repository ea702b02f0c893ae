#include "bench/eval/split_options.hpp"

#include <utility>

#include "cli/usage_error.hpp"
#include "cli/values.hpp"
#include "data/crop_options.hpp"

namespace po = boost::program_options;

namespace cascade::eval {

using cli::UsageError;

namespace {

double fraction_of(const char* option, const std::string& text) {
    if (text.empty()) return 0.0;
    const double h = cli::parse_real(option, text);
    if (!(h >= 0.0 && h < 1.0)) throw UsageError(option, text + " is out of range (0 <= F < 1)");
    return h;
}

}  // namespace

void add_split_options(po::options_description& o, SplitText& text) {
    o.add_options()
        ("pos", po::value(&text.positives)->value_name("SRC"),
         "positive crops: a folder (with nested folders: UMIST's person/face/*.pgm) or list file of images with "
         "the window in their centre; repeatable")
        ("neg", po::value(&text.negatives)->value_name("SRC"), "person-free images: folder or list file; repeatable")
        ("holdout", po::value(&text.holdout)->value_name("F"),
         "use only the part cascade-train held out with this --holdout (and --seed, --group-by) for the same "
         "--pos/--neg: crops split by source photo, images one by one; 0 uses everything given (default: 0)")
        ("pos-holdout", po::value(&text.pos_holdout)->value_name("F"),
         "instead of --holdout, for the positives alone: 0 measures every crop given (positives from another "
         "folder than the model's) (default: 0)")
        ("neg-holdout", po::value(&text.neg_holdout)->value_name("F"),
         "instead of --holdout, for the negatives alone: the training's --holdout to measure on the negative "
         "images its model never saw (default: 0)")
        ("seed", po::value(&text.seed)->value_name("N"), "the training --seed of the split (default: 1)")
        ("group-by", po::value(&text.group_by)->value_name("name|folder"),
         "the training --group-by of the positives' split: name (INRIA's crop001001a..f are one photo) or "
         "folder (the files of one folder are one person) (default: name)")
        ("pos-margin", po::value(&text.pos_margin)->value_name("N|T,R,B,L"),
         "window protocol: the object is each crop minus this margin (N pixels on every side, or top,right,"
         "bottom,left), resized to each model's window as cascade-train --pos-margin does (default: the window "
         "centred in the crop, unscaled)");
}

TestSplit split_of(const SplitText& text) {
    if (text.positives.empty()) throw UsageError("--pos", "is required");
    if (text.negatives.empty()) throw UsageError("--neg", "is required");
    const std::pair<const char*, const std::string*> apart[] = {{"--pos-holdout", &text.pos_holdout},
                                                                 {"--neg-holdout", &text.neg_holdout}};
    for (const auto& [option, value] : apart)
        if (!value->empty() && !text.holdout.empty())
            throw UsageError(option, "cannot be combined with --holdout (give the two fractions apart, or one)");
    TestSplit split;
    split.positives = text.positives;
    split.negatives = text.negatives;
    split.pos_holdout = fraction_of("--pos-holdout", text.pos_holdout);
    split.neg_holdout = fraction_of("--neg-holdout", text.neg_holdout);
    if (!text.holdout.empty()) split.pos_holdout = split.neg_holdout = fraction_of("--holdout", text.holdout);
    if (!text.seed.empty()) {
        const int seed = cli::parse_int("--seed", text.seed);
        if (seed < 0) throw UsageError("--seed", text.seed + " is negative");
        split.seed = static_cast<std::uint64_t>(seed);
    }
    if (!text.group_by.empty()) split.group_by = data::parse_group_by("--group-by", text.group_by);
    if (!text.pos_margin.empty()) split.margin = data::parse_margin("--pos-margin", text.pos_margin);
    return split;
}

}  // namespace cascade::eval
