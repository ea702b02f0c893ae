#include "train/hog/cascade_trainer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cli/duration_text.hpp"
#include "common/cascade_eval.hpp"
#include "common/error.hpp"
#include "common/hog_block_pool.hpp"
#include "common/hog_eval.hpp"
#include "common/parallel.hpp"

namespace cascade::train::hog {

namespace {

constexpr const char* kCheckpointKind = "cascade-train-hog";

std::string format(const char* pattern, double a, double b = 0.0, double c = 0.0, double d = 0.0) {
    char text[256];
    std::snprintf(text, sizeof text, pattern, a, b, c, d);
    return text;
}

// The windows that the cascade accepts (all of them for an empty cascade), and the score of each (its last
// stage sum: what a running-sum stage continues from).
struct Accepted {
    std::vector<int> indices;
    std::vector<double> scores;
};

Accepted accepted(const HogCascade& cascade, const WindowSet& windows, int threads) {
    const HogCascadeView view = view_of(cascade);
    std::vector<char> pass(static_cast<std::size_t>(windows.size()));
    std::vector<double> score(static_cast<std::size_t>(windows.size()), 0.0);
    parallel_for(
        windows.size(),
        [&](int i) {
            const HogSampler sampler = windows.view(i);
            int rejected_at = 0;
            const auto k = static_cast<std::size_t>(i);
            pass[k] = accept_window(view, HogWindow<HogSampler>{view, sampler, 0, 0}, rejected_at, score[k]);
        },
        threads);
    Accepted out;
    for (int i = 0; i < windows.size(); ++i)
        if (pass[static_cast<std::size_t>(i)]) {
            out.indices.push_back(i);
            out.scores.push_back(score[static_cast<std::size_t>(i)]);
        }
    return out;
}

// The start of a run: a fresh cascade, or the one a checkpoint holds (with the same fingerprint).
StageCheckpoint start_state(const CascadeOptions& options, HogCascade& cascade, data::Progress& progress) {
    cascade.window = options.window;
    cascade.policy = options.policy;
    const StageCheckpoint state = start_stage_checkpoint(options.resume, options.checkpoint_dir, kCheckpointKind,
                                                         options.fingerprint, cascade);
    if (options.resume)
        progress.log("resuming after stage " + std::to_string(state.stages.size()) + " from " + options.checkpoint_dir);
    return state;
}

// The log line of a stage's mining; returns the FPPW it measured (false positives per window scanned).
double log_mining(const std::string& name, int stage, const MiningReport& mined, data::Progress& progress) {
    const double fppw = static_cast<double>(mined.false_positives) /
                        static_cast<double>(std::max<std::int64_t>(mined.windows_scanned, 1));
    std::string line = std::to_string(mined.found) + " negatives from " + std::to_string(mined.images_scanned) + "/" +
                       std::to_string(mined.images_total) + " images, " + std::to_string(mined.windows_scanned) +
                       " windows scanned, " + std::to_string(mined.false_positives) + " false positives" +
                       format(" (FPPW of the %.0f stages so far: %.3g)", stage, fppw);
    if (mined.ran_dry())
        line += "; the negative images ran dry (at most " + std::to_string(mined.per_image) + " kept per image)";
    progress.log(name + " mining: " + line);
    return fppw;
}

void log_weak(const std::string& name, int bins, const WeakReport& w, data::Progress& progress) {
    progress.log(name + " learner " + std::to_string(w.index + 1) + ": block " + std::to_string(w.block.x) + "," +
                 std::to_string(w.block.y) + " " + std::to_string(w.block.width) + "x" +
                 std::to_string(w.block.height) + (bins == 0 ? ", weighted error" : ", Z") +
                 format(" %.4f, threshold %.4f, hit rate %.4f, false alarm %.4f", w.score, w.threshold, w.hit_rate,
                        w.false_alarm));
}

// The sums a stage starts from: none (all 0) for per-stage sums; for a running sum the cascade's sums so far,
// positives then negatives (every kept positive and mined negative passed the cascade).
std::vector<double> initial_sums(SumPolicy policy, const HogCascade& cascade, const Accepted& positives,
                                 const WindowSet& negatives, const CascadeOptions& options) {
    if (policy != SumPolicy::running) return {};
    std::vector<double> sums = positives.scores;
    const std::vector<double> negative_sums = accepted(cascade, negatives, options.stage.threads).scores;
    sums.insert(sums.end(), negative_sums.begin(), negative_sums.end());
    return sums;
}

// Why training stops after stage s's mining measured `fppw` (empty: it goes on).
std::string mining_stop(int s, double fppw, const MiningReport& mined, const CascadeOptions& options) {
    if (s > 0 && fppw <= options.target_false_alarm)
        return format("the cascade's FPPW on the negative images, %.3g, reached the target %.3g", fppw,
                      options.target_false_alarm);
    if (mined.found < options.min_negatives)
        return "the negative images yield only " + std::to_string(mined.found) + " false positives (fewer than " +
               std::to_string(options.min_negatives) + ")";
    return {};
}

// The stage log's sample counts: "positives P[, calibration C], negatives N".
std::string sample_counts(const WindowSet& positives, const WindowSet& calibration, const WindowSet& negatives) {
    return "positives " + std::to_string(positives.size()) +
           (calibration.empty() ? "" : ", calibration " + std::to_string(calibration.size())) + ", negatives " +
           std::to_string(negatives.size());
}

// Appends a trained stage to the cascade and the outcome.
void add_stage(const StageResult& stage, TrainingOutcome& outcome) {
    HogCascade& cascade = outcome.cascade;
    cascade.stages.push_back({static_cast<int>(cascade.weaks.size()), static_cast<int>(stage.weaks.size()), stage.threshold});
    cascade.weaks.insert(cascade.weaks.end(), stage.weaks.begin(), stage.weaks.end());
    outcome.stages.push_back({static_cast<int>(stage.weaks.size()), stage.hit_rate, stage.false_alarm});
}

// The boosted stages and, when there is one, the final SVM with its threshold at its margin: what a
// bootstrapping round mines with.
HogCascade with_margin_stage(const HogCascade& boosted, const FinalSvm* svm) {
    HogCascade cascade = boosted;
    if (!svm) return cascade;
    cascade.stages.push_back({static_cast<int>(cascade.weaks.size()), static_cast<int>(svm->stage.weaks.size()), svm->margin});
    cascade.weaks.insert(cascade.weaks.end(), svm->stage.weaks.begin(), svm->stage.weaks.end());
    return cascade;
}

// The final linear-SVM stage (final_svm.hpp) on negatives mined with the boosted stages, then with each
// round's SVM at its margin; false when the negative images yield too few in the first round.
bool add_final_stage(const WindowSet& positives, const std::vector<data::NegativeImage>& negatives,
                     const CascadeOptions& options, TrainingOutcome& outcome, data::Progress& progress) {
    const HogCascade& cascade = outcome.cascade;
    const int s = static_cast<int>(cascade.stages.size()), threads = options.stage.threads;
    const bool running = options.policy == SumPolicy::running;
    const std::string name = "final stage (linear SVM)";
    const Accepted kept = accepted(cascade, positives, threads);
    WindowSet kept_positives = positives;
    kept_positives.keep(kept.indices);
    FinalSvmProblem problem(options.window, running, options.final_svm);
    problem.add(kept_positives, kept.scores, 1);
    MiningOptions mining = options.final_mining;
    mining.count = options.final_negatives;
    mining.lbp_bins = options.final_svm.lbp_histograms;
    FinalSvm svm;
    for (int round = 0; round < options.final_svm.rounds; ++round) {
        WindowSet mined(options.window);
        const MiningReport report = mine_negatives(with_margin_stage(cascade, round > 0 ? &svm : nullptr), negatives,
                                                   s + round, mining, mined, [](int, int) {});
        log_mining(name + " round " + std::to_string(round + 1), s + (round > 0 ? 1 : 0), report, progress);
        if (round == 0 && mined.size() < options.min_negatives) return false;
        if (mined.empty()) break;
        problem.add(mined, running ? accepted(cascade, mined, threads).scores : std::vector<double>{}, -1);
        svm = problem.train();
        const StageResult& stage = svm.stage;
        progress.log(name + " round " + std::to_string(round + 1) + ": " + std::to_string(stage.weaks.size()) +
                     " learners" +
                     format(", slope %.4g, threshold %.4f, margin %.4f, hit rate %.4f", stage.weaks.front().slope,
                            stage.threshold, svm.margin, stage.hit_rate) +
                     format(", false alarm %.4f", stage.false_alarm) + "; positives " +
                     std::to_string(problem.positives()) + ", negatives " + std::to_string(problem.negatives()));
    }
    add_stage(svm.stage, outcome);
    return true;
}

}  // namespace

TrainingOutcome train_cascade(WindowSet positives, const std::vector<data::NegativeImage>& negatives,
                              const CascadeOptions& options, data::Progress& progress, WindowSet calibration) {
    TrainingOutcome outcome;
    HogCascade& cascade = outcome.cascade;
    StageCheckpoint state = start_state(options, cascade, progress);
    outcome.stages = state.stages;
    const double earlier_seconds = state.seconds;
    auto seconds = [&] { return earlier_seconds + progress.elapsed(); };
    auto show = [&](double false_alarm) {
        const double done = false_alarm >= 1.0 ? 0.0 : std::log(false_alarm) / std::log(options.target_false_alarm);
        progress.update(static_cast<int>(std::clamp(done, 0.0, 1.0) * kProgressUnits));
    };

    double training_false_alarm = 1.0, training_hit_rate = 1.0;  // products of the stages' own rates
    for (const StageSummary& s : outcome.stages) {
        training_false_alarm *= s.false_alarm;
        training_hit_rate *= s.hit_rate;
    }
    double measured_false_alarm = training_false_alarm;  // until mining measures it
    const std::vector<Rect> pool = hog_block_pool(options.window);
    outcome.stop_reason = "reached " + std::to_string(options.max_stages) + " stages";

    for (int s = static_cast<int>(cascade.stages.size()); s < options.max_stages; ++s) {
        const double stage_start = seconds();
        const std::string name = "stage " + std::to_string(s + 1);

        const Accepted kept = accepted(cascade, positives, options.stage.threads);
        positives.keep(kept.indices);
        const Accepted kept_calibration = accepted(cascade, calibration, options.stage.threads);
        calibration.keep(kept_calibration.indices);
        const Calibration calibrating{&calibration, options.policy == SumPolicy::running ? kept_calibration.scores
                                                                                          : std::vector<double>{}};

        WindowSet mined_negatives(options.window);
        const MiningReport mined = mine_negatives(cascade, negatives, s, options.mining, mined_negatives,
                                                  [&](int, int) { show(measured_false_alarm); });
        measured_false_alarm = log_mining(name, s, mined, progress);
        show(measured_false_alarm);
        if (const std::string stop = mining_stop(s, measured_false_alarm, mined, options); !stop.empty()) {
            outcome.stop_reason = stop;
            break;
        }

        const StageResult stage =
            train_stage(positives, mined_negatives, initial_sums(options.policy, cascade, kept, mined_negatives, options),
                        calibrating, pool, s, options.stage, [&](const WeakReport& w) {
            log_weak(name, options.stage.bins, w, progress);
            show(measured_false_alarm * w.false_alarm);
        });
        if (stage.weaks.empty()) {
            outcome.stop_reason = "no weak learner beats chance on the mined negatives";
            break;
        }

        add_stage(stage, outcome);
        training_false_alarm *= stage.false_alarm;
        training_hit_rate *= stage.hit_rate;
        progress.log(name + ": " + std::to_string(stage.weaks.size()) + " learners" +
                     format(", threshold %.4f, hit rate %.4f, false alarm %.4f", stage.threshold, stage.hit_rate,
                            stage.false_alarm) +
                     format("; products: hit rate %.4f, false alarm %.3g", training_hit_rate, training_false_alarm) +
                     "; " + sample_counts(positives, calibration, mined_negatives) + "; " +
                     cli::duration_text(seconds() - stage_start));
        if (stage.false_alarm > options.stage.max_false_alarm)
            progress.log(name + ": stopped at " + std::to_string(options.stage.max_weaks) +
                         " learners above the false-alarm goal");
        if (!options.checkpoint_dir.empty()) {
            state.stages = outcome.stages;
            state.seconds = seconds();
            write_stage_checkpoint(options.checkpoint_dir, kCheckpointKind, cascade, state);
        }
    }
    if (options.final_negatives > 0 && !cascade.stages.empty() &&
        !add_final_stage(positives, negatives, options, outcome, progress))
        progress.log("final stage: not trained, the negative images yield too few false positives");
    outcome.seconds = seconds();
    return outcome;
}

}  // namespace cascade::train::hog
