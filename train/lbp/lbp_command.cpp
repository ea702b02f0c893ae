#include "train/lbp/lbp_command.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "cli/duration_text.hpp"
#include "cli/number_text.hpp"
#include "cli/output_paths.hpp"
#include "cli/usage_error.hpp"
#include "cli/values.hpp"
#include "common/error.hpp"
#include "common/model_io.hpp"
#include "data/progress.hpp"
#include "train/command_line.hpp"
#include "train/lbp/histogram_svm_stage.hpp"
#include "train/lbp/lbp_evaluation.hpp"
#include "train/lbp/lbp_trainer.hpp"

namespace po = boost::program_options;

namespace cascade::train::lbp {

namespace {

constexpr const char* kUsage = R"(Usage: cascade-train lbp --pos PATH --neg PATH --output MODEL.xml [options]

Trains a WaldBoost cascade of multi-block LBP weak learners (one 256-entry response table per weak learner,
one weak learner per stage) and writes it in the project's XML format, which cascade-detect runs. During
training each stage gets an SPRT rejection threshold set on the positives the weak learners are fitted to,
and hard negatives are mined from the negative images at every scale and position; the written model's
thresholds come from calibration photos the weak learners never saw (--calibration), so that its miss rate
(--alpha) holds on new photos. A log line per weak learner goes to stdout, a progress bar with ETA to a
terminal's stderr. A checkpoint is written after every mining round (and every --checkpoint-every weak
learners); after an interruption, the same command with --resume continues and writes the model an
uninterrupted run would have.

Example (INRIA crops, 96x160 with the 64x128 person in the centre):
  cascade-train lbp --pos ../shared/data/inria/96X160H96/Train/pos --neg ../shared/data/negatives_web \
      --neg ../shared/data/negatives --holdout 0.2 --output pedestrian.xml)";

constexpr unsigned kLineLength = 110;

class LogObserver : public LbpTrainingObserver {
public:
    explicit LogObserver(data::Progress& progress) : progress_(progress) {}

    void mined(const MiningEvent& e) override {
        std::ostringstream line;
        line << "mining: " << e.mined << " of " << e.needed << " hard negatives for the cascade of " << e.weak_learners
             << " weak learners, from " << e.scanned << " windows scanned in " << e.visits << " image visits (rate "
             << cli::scientific_text(e.reach) << "); " << cli::scientific_text(static_cast<double>(e.scanned_total)) << " of "
             << cli::scientific_text(static_cast<double>(e.universe)) << " windows scanned so far"
             << (e.exhausted ? "; every window has now been scanned" : "");
        progress_.log(line.str());
    }

    void weak_added(const WeakEvent& e) override {
        std::ostringstream line;
        line << "weak " << e.index + 1 << "/" << e.limit << "  error " << cli::fixed_text(e.error, 4) << "  Z " << cli::fixed_text(e.z, 4)
             << "  cells " << e.feature.width << "x" << e.feature.height << " at (" << e.feature.x << ","
             << e.feature.y << ")  threshold " << cli::fixed_text(e.threshold, 4) << "  positives kept " << e.positives_live
             << "/" << e.positives_total;
        if (std::isfinite(e.accept))
            line << "  accept " << cli::fixed_text(e.accept, 4) << " (" << e.positives_accepted << " positives accepted)";
        line << "  negatives rejected " << e.negatives_rejected << "/"
             << e.negatives_before << "  mined " << e.negatives_mined << " scanned " << e.windows_scanned
             << "  est. FPR " << cli::scientific_text(e.fpr_estimate) << "  " << cli::duration_text(progress_.elapsed());
        progress_.log(line.str());
        progress_.update(e.index + 1);
    }

    void checkpointed(int weak_learners, const std::string& path) override {
        progress_.log("checkpoint: " + std::to_string(weak_learners) + " weak learners in " + path);
    }

    void note(const std::string& text) override { progress_.log(text); }

private:
    data::Progress& progress_;
};

// The command line's values, before their checks.
struct LbpCommand {
    data::DatasetSpec spec;
    LbpTrainConfig config;
    std::string window, output, checkpoint;
    double eval_scale_factor = 1.1;
    int eval_stride = 2;
    bool final_histogram_svm = false;
    HistogramSvmOptions final_svm;
};

po::options_description final_stage_options(LbpCommand& c) {
    HistogramSvmOptions& f = c.final_svm;
    po::options_description final("Final stage", kLineLength, kLineLength / 2);
    final.add_options()
        ("final-histogram-svm", po::bool_switch(&c.final_histogram_svm),
         "end the cascade with a linear SVM over uniform-LBP histograms of 16x16 cells at step 8, trained behind "
         "the WaldBoost stages with rounds of hard negatives (runs on the CPU only)")
        ("final-svm-c", po::value(&f.svm.c)->default_value(f.svm.c, "0.01"), "the final SVM's C")
        ("final-svm-bias", po::value(&f.svm.bias_feature)->default_value(f.svm.bias_feature, "10"),
         "the final SVM's constant feature (liblinear's -B: larger regularises its bias less)")
        ("final-rounds", po::value(&f.rounds)->default_value(f.rounds),
         "rounds of --final-negatives negatives: the first passes the stages, each later one also the SVM so far "
         "at its margin")
        ("final-negatives", po::value(&f.negatives)->default_value(f.negatives), "negatives mined per round")
        ("final-mine-scale", po::value(&f.mine_scale_factor)->default_value(f.mine_scale_factor, "1.2"),
         "pyramid scale step of the negative images while mining for the final stage");
    return final;
}

po::options_description learning_options(LbpTrainConfig& config) {
    po::options_description learning("Learning", kLineLength, kLineLength / 2);
    learning.add_options()
        ("weak-learners", po::value(&config.weak_learners)->default_value(config.weak_learners),
         "at most this many weak learners (= stages)")
        ("alpha", po::value(&config.alpha)->default_value(config.alpha, "0.05"),
         "target miss rate: sets the SPRT rejection thresholds during training and the model's thresholds")
        ("target-fpr", po::value(&config.target_fpr)->default_value(config.target_fpr),
         "stop once the training cascade's estimated false-positive rate per window is at most this (0: no "
         "target)")
        ("calibration", po::value(&config.calibration)->default_value(config.calibration, "0.25"),
         "fraction of the training photos whose positives set the model's thresholds (by backward pruning) "
         "rather than fit the weak learners (0: all positives do both)")
        ("accept", po::bool_switch(&config.accept),
         "also give each stage WaldBoost's acceptance threshold (just above every live negative's running sum): "
         "windows that reach it are accepted at once, positives that reach it leave training")
        ("features", po::value(&config.features)->default_value(config.features),
         "size of the random pool of LBP features the weak learners are chosen from")
        ("min-cell", po::value(&config.min_cell)->default_value(config.min_cell),
         "the pool's LBP cells are at least this many pixels wide and high (1x1 cells compare single pixels)")
        ("negatives", po::value(&config.negatives)->default_value(config.negatives), "size of the negative pool")
        ("refill-below", po::value(&config.refill_below)->default_value(config.refill_below, "0.5"),
         "mine new hard negatives when the live part of the pool falls below this fraction")
        ("trim", po::value(&config.trim)->default_value(config.trim, "0.05"),
         "weight trimming: choose features without the lightest samples holding this fraction of the weight")
        ("code-bins", po::value(&config.code_bins)->default_value(config.code_bins),
         "distinct responses per weak learner's table: 256 (one per LBP code) or 59 (uniform LBP: the 58 codes "
         "with at most two 0/1 transitions around the centre get one each, the other codes share one)")
        ("smoothing", po::value(&config.smoothing)->default_value(config.smoothing),
         "response table smoothing: eps = this / number of samples")
        ("shrinkage", po::value(&config.shrinkage)->default_value(config.shrinkage, "1"),
         "response tables times this, in (0, 1]: boosting's learning rate (smaller: more, gentler weak learners)")
        ("bin-prior", po::value(&config.bin_prior)->default_value(config.bin_prior),
         "each table bin's response also times n / (n + this), n the number of samples with its codes: bins "
         "that a few heavy samples fill respond little (0: off)")
        ("mine-scale-factor", po::value(&config.mine_scale_factor)->default_value(config.mine_scale_factor, "1.1"),
         "pyramid scale step of the negative images while mining")
        ("mine-per-image", po::value(&config.mine_per_image)->default_value(config.mine_per_image),
         "at most this many hard negatives per visit of an image");
    return learning;
}

po::options_description run_options(LbpCommand& c) {
    po::options_description run("Run", kLineLength, kLineLength / 2);
    run.add_options()
        ("help,h", "show this help")
        ("output,o", po::value(&c.output)->required(), "the model file to write (project XML)")
        ("seed", po::value(&c.config.seed)->default_value(c.config.seed), "random seed: the same seed, data and "
         "options give the same model on any number of cores")
        ("threads", po::value(&c.config.threads)->default_value(0), "worker threads (0: all cores)")
        ("checkpoint", po::value(&c.checkpoint),
         "checkpoint file (default: OUTPUT.checkpoint; 'none': no checkpoints)")
        ("checkpoint-every", po::value(&c.config.checkpoint_every)->default_value(c.config.checkpoint_every),
         "also checkpoint after every this many weak learners (0: only after mining)")
        ("resume", po::bool_switch(&c.config.resume), "continue from the checkpoint if there is one")
        ("eval-scale-factor", po::value(&c.eval_scale_factor)->default_value(c.eval_scale_factor, "1.1"),
         "held-out negatives: pyramid scale step")
        ("eval-stride", po::value(&c.eval_stride)->default_value(c.eval_stride),
         "held-out negatives: window positions every this many pixels");
    return run;
}

// Trains, writes the model, and measures it on the held-out data when there is some.
void train_and_report(const LbpCommand& c, const data::ProgressListener& listener) {
    const LbpTrainConfig& config = c.config;
    data::Progress progress("weak learners", config.weak_learners, listener);
    const data::Dataset dataset = data::load_dataset(c.spec);
    progress.log("data: " + std::to_string(dataset.positives.size()) + " training positives, " +
                 std::to_string(dataset.negatives.size()) + " negative images; held out " +
                 std::to_string(dataset.heldout_positives.size()) + " positives (" +
                 std::to_string(dataset.heldout_photos) + " of " + std::to_string(dataset.photos) +
                 " photos, grouped by " + data::group_by_name(c.spec.group_by) + ") and " +
                 std::to_string(dataset.heldout_negatives.size()) + " negative images  " +
                 cli::duration_text(progress.elapsed()));
    if (dataset.centred_crops > 0)
        progress.log("positives: " + std::to_string(dataset.centred_crops) + " of " + std::to_string(dataset.crops) +
                     " crops are larger than the " + cli::size_text(c.spec.crop.window) +
                     " window: only the window-sized centre of each is used, unscaled (--pos-margin cuts the "
                     "object out of a crop and resizes it to the window instead)");
    LogObserver observer(progress);
    LbpTrainingResult result =
        train_lbp(config, {dataset.positives, dataset.positive_groups, dataset.negatives}, observer);
    // With the final stage, the positives with a ring of one pixel (the centre of a larger crop, or the crop resized
    // to it), held-out ones too: the stage's LBP codes read the neighbours of the window's outer pixels.
    std::vector<GrayImage> heldout_positives = dataset.heldout_positives;
    if (c.final_histogram_svm) {
        data::DatasetSpec ringed = c.spec;
        ringed.crop.window = {c.spec.crop.window.width + 2, c.spec.crop.window.height + 2};
        data::Dataset with_ring = data::load_dataset(ringed);
        heldout_positives = std::move(with_ring.heldout_positives);
        train_histogram_svm(result.cascade, with_ring.positives, 1, dataset.negatives, c.final_svm,
                            [&](const std::string& line) { progress.log(line + "  " + cli::duration_text(progress.elapsed())); });
    }
    save_model(Model{result.cascade, c.output}, c.output);
    progress.log("stopped: " + result.stopped_because);
    progress.log("wrote " + c.output + ": " + std::to_string(result.cascade.weaks.size()) +
                 " weak learners; miss rate " + cli::fixed_text(result.calibration_miss_rate, 4) +
                 " on the positives that set its thresholds; the training cascade's estimated false-positive "
                 "rate per window " + cli::scientific_text(result.fpr_estimate) + "; " +
                 std::to_string(result.negatives_mined) + " negatives mined from " +
                 std::to_string(result.windows_scanned) + " windows; training took " +
                 cli::duration_text(progress.elapsed()));
    if (!dataset.heldout_positives.empty() && !dataset.heldout_negatives.empty()) {
        const double detected =
            window_detection_rate(result.cascade, heldout_positives, config.threads, c.final_histogram_svm ? 1 : 0);
        const NegativeScan scan = scan_negative_images(result.cascade, dataset.heldout_negatives, c.eval_scale_factor,
                                                       c.eval_stride, config.threads);
        progress.log("held out: miss rate " + cli::fixed_text(1.0 - detected, 4) + " on " +
                     std::to_string(dataset.heldout_positives.size()) + " positives; false-positive rate " +
                     cli::scientific_text(scan.rate()) + " per window (" + std::to_string(scan.accepted) + " of " +
                     std::to_string(scan.windows) + " windows of " + std::to_string(dataset.heldout_negatives.size()) +
                     " images, scale step " + cli::fixed_text(c.eval_scale_factor, 2) + ", stride " +
                     std::to_string(c.eval_stride) + ")");
    }
}

}  // namespace

bool run(int argc, const char* const* argv, const data::ProgressListener& listener) {
    LbpCommand c;
    po::options_description options("", kLineLength, kLineLength / 2);
    options.add(dataset_options(c.spec, c.window, kLineLength))
        .add(learning_options(c.config))
        .add(final_stage_options(c))
        .add(run_options(c));
    po::variables_map vm;
    if (!parse_command_line(argc, argv, options, kUsage, vm)) return false;
    c.config.window = c.spec.crop.window = cli::parse_size("--window", c.window);
    c.config.checkpoint = c.checkpoint == "none" ? "" : c.checkpoint.empty() ? c.output + ".checkpoint" : c.checkpoint;
    c.spec.seed = c.config.seed;
    c.spec.threads = c.config.threads;
    validate(c.config);
    c.final_svm.mine_per_image = c.config.mine_per_image;
    c.final_svm.seed = c.config.seed;
    c.final_svm.threads = c.config.threads;
    if (c.final_histogram_svm) validate(c.final_svm);
    check_dataset_options(c.spec);
    cli::check_threads("--threads", c.config.threads);
    std::vector<std::string> inputs = c.spec.positives;
    inputs.insert(inputs.end(), c.spec.negatives.begin(), c.spec.negatives.end());
    check_training_outputs(c.output, c.config.checkpoint, inputs);
    cli::check_writable_path("--checkpoint", c.config.checkpoint);
    cli::check_scale_factor("--eval-scale-factor", c.eval_scale_factor);
    if (c.eval_stride < 1) throw cli::UsageError("--eval-stride", "must be at least 1");
    train_and_report(c, listener);
    return true;
}

}  // namespace cascade::train::lbp
