#include "train/cov/cov_cascade.hpp"

#include <algorithm>
#include <cmath>

#include "cli/duration_text.hpp"
#include "cli/number_text.hpp"
#include "common/error.hpp"
#include "train/lbp/lbp_window_classifier.hpp"

namespace cascade::train::cov {

namespace {

constexpr const char* kCheckpointKind = "cascade-train-cov";


// What a checkpoint records of the settings: the levels' first, then the miner's.
std::string checkpoint_fingerprint(const CascadeOptions& options) {
    return options.fingerprint + " " + options.mining_fingerprint;
}

// A checkpoint's levels with a fresh miner (mine_afresh): its fingerprint must start with the levels' settings.
StageCheckpoint restart_mining(const CascadeOptions& options, CovCascade& cascade) {
    StageCheckpoint state = read_stage_checkpoint(options.checkpoint_dir, kCheckpointKind, cascade);
    const std::string levels = options.fingerprint + " ";
    if (state.fingerprint.compare(0, levels.size(), levels) != 0)
        throw InputError(options.checkpoint_dir,
                         "was written with other data or level settings; --mine-afresh lets only the mining "
                         "settings change (checkpoint: " + state.fingerprint + "; now: " + checkpoint_fingerprint(options) + ")");
    state.fingerprint = checkpoint_fingerprint(options);
    state.cursor = MiningCursor{};
    return state;
}

// The start of a run: a fresh cascade, or the one a checkpoint holds (with the same fingerprint, or the same
// levels' settings and a fresh miner).
StageCheckpoint start_state(const CascadeOptions& options, CovCascade& cascade, data::Progress& progress) {
    cascade.window = options.window;
    cascade.policy = SumPolicy::per_stage;
    const bool afresh = options.resume && options.mine_afresh;
    StageCheckpoint state = afresh ? restart_mining(options, cascade)
                                         : start_stage_checkpoint(options.resume, options.checkpoint_dir, kCheckpointKind,
                                                                  checkpoint_fingerprint(options), cascade);
    if (options.resume)
        progress.log("resuming after level " + std::to_string(state.stages.size()) + " from " + options.checkpoint_dir +
                     (afresh ? ", the miner afresh" : ""));
    if (static_cast<int>(cascade.stages.size()) > options.max_stages) {
        const auto n = static_cast<std::size_t>(options.max_stages);
        cascade.weaks.resize(static_cast<std::size_t>(cascade.stages[n].first));
        cascade.stages.resize(n);
        state.stages.resize(n);
        progress.log("the checkpoint's levels cut to the first " + std::to_string(n));
    }
    return state;
}

void keep_accepted(const CovCascade& cascade, CovSamples& samples, int threads) {
    const std::vector<char> pass = accepted(cascade, samples, threads);
    std::vector<GrayImage> kept;
    for (std::size_t i = 0; i < pass.size(); ++i)
        if (pass[i]) kept.push_back(std::move(samples.crops[i]));
    samples.crops = std::move(kept);
    samples.positives = samples.size();
}

void log_weak(const std::string& name, const WeakReport& w, bool logitboost, data::Progress& progress) {
    progress.log(name + " learner " + std::to_string(w.index + 1) + ": rect " + std::to_string(w.rect.x) + "," +
                 std::to_string(w.rect.y) + " " + std::to_string(w.rect.width) + "x" + std::to_string(w.rect.height) +
                 (logitboost ? ", weighted residual " : ", Z ") + cli::real_text(w.score) + ", hit rate " +
                 cli::fixed_text(w.hit_rate, 4) + ", false alarm " + cli::fixed_text(w.false_alarm, 4));
}

}  // namespace

TrainingOutcome train_cascade(CovSamples positives, const std::vector<data::NegativeImage>& negatives,
                              const CascadeOptions& options, data::Progress& progress) {
    TrainingOutcome outcome;
    CovCascade& cascade = outcome.cascade;
    StageCheckpoint state = start_state(options, cascade, progress);
    outcome.stages = state.stages;
    NegativeMiner miner(negatives, sample_mining(options.window, options.mine_scale, options.per_image,
                                                 options.stage.seed, options.stage.threads));
    if (options.resume && !options.mine_afresh) miner.set_cursor(state.cursor);
    const double earlier_seconds = state.seconds;
    auto seconds = [&] { return earlier_seconds + progress.elapsed(); };
    auto show = [&](double false_alarm) {
        const double done = false_alarm >= 1.0 ? 0.0 : std::log(false_alarm) / std::log(options.target_false_alarm);
        progress.update(static_cast<int>(std::clamp(done, 0.0, 1.0) * kProgressUnits));
    };
    const std::vector<Rect> pool = rect_pool(options.window);
    const bool logitboost = options.stage.kind == WeakKind::logitboost;
    progress.log("rectangle pool: " + std::to_string(pool.size()) + " rectangles on the " + std::to_string(kCovGrid) +
                 "-pixel grid; mining universe: " + std::to_string(miner.universe()) + " windows in " +
                 std::to_string(negatives.size()) + " images");
    outcome.stop_reason = "reached " + std::to_string(options.max_stages) + " levels";

    for (int s = static_cast<int>(cascade.stages.size()); s < options.max_stages; ++s) {
        const double start = seconds();
        const std::string name = "level " + std::to_string(s + 1);
        keep_accepted(cascade, positives, options.stage.threads);
        const MiningBatch batch = miner.mine(options.negatives, lbp::CascadeWindowClassifier<CovCascade>(cascade));
        const double fppw = static_cast<double>(batch.windows.size()) / static_cast<double>(std::max(batch.scanned, 1LL));
        progress.log(name + " mining: " + std::to_string(batch.windows.size()) + " negatives, " +
                     std::to_string(batch.scanned) + " windows scanned" +
                     " (FPPW of the " + std::to_string(s) + " levels so far: " + cli::real_text(fppw) + ")" +
                     (batch.exhausted ? "; the negative images are used up" : ""));
        show(fppw);
        if (s > 0 && fppw <= options.target_false_alarm) {
            outcome.stop_reason = "the cascade's FPPW on the negative images, " + cli::real_text(fppw) +
                                  ", reached the target " + cli::real_text(options.target_false_alarm);
            break;
        }
        if (static_cast<int>(batch.windows.size()) < options.min_negatives) {
            outcome.stop_reason = "the negative images yield only " + std::to_string(batch.windows.size()) +
                                  " false positives (fewer than " + std::to_string(options.min_negatives) + ")";
            break;
        }
        CovSamples samples = positives;
        samples.crops.insert(samples.crops.end(), batch.crops.begin(), batch.crops.end());
        const StageResult stage = train_stage(samples, pool, s, options.stage, [&](const WeakReport& w) {
            log_weak(name, w, logitboost, progress);
            show(fppw * w.false_alarm);
        });
        cascade.stages.push_back({static_cast<int>(cascade.weaks.size()), static_cast<int>(stage.weaks.size()), stage.threshold});
        cascade.weaks.insert(cascade.weaks.end(), stage.weaks.begin(), stage.weaks.end());
        outcome.stages.push_back({static_cast<int>(stage.weaks.size()), stage.hit_rate, stage.false_alarm});
        progress.log(name + ": " + std::to_string(stage.weaks.size()) + " learners" +
                     ", threshold " + cli::fixed_text(stage.threshold, 4) + ", hit rate " +
                     cli::fixed_text(stage.hit_rate, 4) + ", false alarm " + cli::fixed_text(stage.false_alarm, 4) +
                     "; positives " + std::to_string(positives.size()) + ", negatives " +
                     std::to_string(batch.windows.size()) + "; " + cli::duration_text(seconds() - start));
        if (!options.checkpoint_dir.empty()) {
            state.stages = outcome.stages;
            state.seconds = seconds();
            state.cursor = miner.cursor();
            write_stage_checkpoint(options.checkpoint_dir, kCheckpointKind, cascade, state);
        }
    }
    if (options.final_svm.negatives > 0 && !cascade.stages.empty()) {
        keep_accepted(cascade, positives, options.stage.threads);
        if (!add_final_svm(positives, negatives, options.final_svm, options.stage, options.per_image,
                           options.min_negatives, cascade, outcome.stages, progress))
            progress.log("final stage: not trained, the negative images yield too few false positives");
    }
    outcome.seconds = seconds();
    return outcome;
}

}  // namespace cascade::train::cov
