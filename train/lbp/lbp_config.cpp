// Checks of the LBP trainer's options, and the settings a checkpoint records.
#include <cstdio>

#include "cli/usage_error.hpp"
#include "cli/values.hpp"
#include "train/lbp/lbp_trainer.hpp"

namespace cascade::train::lbp {

namespace {

void require(bool ok, const std::string& option, const std::string& problem) {
    if (!ok) throw cli::UsageError(option, problem);
}

// Exact by default (for checkpoint settings); short for messages.
std::string number(double v, int digits = 17) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, v);
    return buffer;
}

// FNV-1a, 64 bits.
class Fingerprint {
public:
    void add(const void* data, std::size_t size) {
        const auto* bytes = static_cast<const unsigned char*>(data);
        for (std::size_t i = 0; i < size; ++i) hash_ = (hash_ ^ bytes[i]) * 0x100000001b3ull;
    }
    void add(int v) { add(&v, sizeof v); }
    void add(const std::string& s) { add(s.data(), s.size() + 1); }
    std::string hex() const {
        char buffer[24];
        std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(hash_));
        return buffer;
    }

private:
    std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

}  // namespace

void validate(const LbpTrainConfig& c) {
    require(c.window.width >= 3 && c.window.height >= 3, "--window", "must be at least 3x3 (one 1x1-cell LBP feature)");
    require(c.weak_learners >= 1, "--weak-learners", "must be at least 1");
    require(c.alpha > 0.0 && c.alpha < 1.0, "--alpha", "the target miss rate must lie in (0, 1)");
    require(c.calibration >= 0.0 && c.calibration < 1.0, "--calibration", "must lie in [0, 1)");
    require(c.target_fpr >= 0.0 && c.target_fpr < 1.0, "--target-fpr",
            "the target false-positive rate must lie in [0, 1) (0: no target)");
    require(c.features >= 1, "--features", "must be at least 1");
    require(c.min_cell >= 1 && 3 * c.min_cell <= c.window.width && 3 * c.min_cell <= c.window.height, "--min-cell",
            "must be at least 1 and fit three cells across the window");
    require(c.negatives >= 1, "--negatives", "must be at least 1");
    require(c.refill_below > 0.0 && c.refill_below <= 1.0, "--refill-below", "must lie in (0, 1]");
    require(c.trim >= 0.0 && c.trim < 1.0, "--trim", "must lie in [0, 1)");
    require(c.code_bins == kLbpCodes || c.code_bins == 59, "--code-bins", "must be 256 or 59 (uniform LBP)");
    require(c.bin_prior >= 0.0, "--bin-prior", "must be 0 (off) or more");
    require(c.smoothing > 0.0, "--smoothing", "must be positive");
    require(c.shrinkage > 0.0 && c.shrinkage <= 1.0, "--shrinkage", "must lie in (0, 1]");
    cli::check_scale_factor("--mine-scale-factor", c.mine_scale_factor);
    require(c.mine_per_image >= 1, "--mine-per-image", "must be at least 1");
    require(c.checkpoint_every >= 0, "--checkpoint-every", "must be 0 (only at refills) or more");
    require(!c.resume || !c.checkpoint.empty(), "--resume", "needs a checkpoint path");
    // Contradictory targets: a false-positive rate at or above the detection rate 1 - alpha is what guessing
    // at random already achieves, so it cannot be the goal of training.
    require(c.target_fpr < 1.0 - c.alpha, "--target-fpr",
            "contradicts --alpha: " + number(c.target_fpr, 6) + " is not below the target detection rate 1 - alpha = " +
                number(1.0 - c.alpha, 6) + " (random guessing reaches it)");
}

TrainingSettings data_settings(const LbpTrainingData& data) {
    Fingerprint positives, negatives;
    for (const GrayImage& p : data.positives) {
        positives.add(p.width);
        positives.add(p.height);
        positives.add(p.pixels.data(), p.pixels.size());
    }
    for (const std::string& g : data.positive_groups) positives.add(g);
    for (const data::NegativeImage& n : data.negatives) {
        negatives.add(n.path);
        negatives.add(n.size.width);
        negatives.add(n.size.height);
    }
    return {{"positive-samples", std::to_string(data.positives.size()) + "/" + positives.hex()},
            {"negative-images", std::to_string(data.negatives.size()) + "/" + negatives.hex()}};
}

TrainingSettings training_settings(const LbpTrainConfig& c, const LbpTrainingData& data) {
    TrainingSettings out{{"window", std::to_string(c.window.width) + "x" + std::to_string(c.window.height)},
                         {"weak-learners", std::to_string(c.weak_learners)},
                         {"alpha", number(c.alpha)},
                         {"calibration", number(c.calibration)},
                         {"accept", c.accept ? "yes" : "no"},
                         {"features", std::to_string(c.features)},
                         {"min-cell", std::to_string(c.min_cell)},
                         {"negatives", std::to_string(c.negatives)},
                         {"refill-below", number(c.refill_below)},
                         {"trim", number(c.trim)},
                         {"code-bins", std::to_string(c.code_bins)},
                         {"smoothing", number(c.smoothing)},
                         {"shrinkage", number(c.shrinkage)},
                         {"bin-prior", number(c.bin_prior)},
                         {"mine-scale-factor", number(c.mine_scale_factor)},
                         {"mine-per-image", std::to_string(c.mine_per_image)},
                         {"seed", std::to_string(c.seed)}};
    for (auto& entry : data_settings(data)) out.push_back(std::move(entry));
    return out;
}

}  // namespace cascade::train::lbp
