#include "train/lbp/stage_command.hpp"

#include <sstream>
#include <type_traits>

#include "cli/duration_text.hpp"
#include "cli/number_text.hpp"
#include "cli/output_paths.hpp"
#include "cli/usage_error.hpp"
#include "cli/values.hpp"
#include "common/model_io.hpp"
#include "common/opencv_cascade_xml.hpp"
#include "data/progress.hpp"
#include "train/command_line.hpp"
#include "train/lbp/lbp_evaluation.hpp"
#include "train/haar/haar_stage_features.hpp"
#include "train/lbp/stage_trainer.hpp"

namespace po = boost::program_options;

namespace cascade::train::lbp {

namespace {

constexpr const char* kUsage = R"(Usage: cascade-train lbp-opencv --pos PATH --neg PATH --output CASCADE.xml [options]

Trains an LBP cascade the way opencv_traincascade -featureType LBP did (OpenCV 3.4; OpenCV 4 no longer builds
it) and writes it in OpenCV's cascade XML, which cv::CascadeClassifier (OpenCV 4.6) loads, and in the project's
XML (--project-output). Each stage boosts subset stumps on the MB-LBP codes (OpenCV's 256-way categorical
split, one per weak learner) until, with its threshold set for --min-hit-rate on the positives, it passes at
most --max-false-alarm of its negatives; each stage's negatives are mined afresh from the negative images at
every scale and position with the cascade so far. A per-stage log goes to stdout, a progress bar with ETA to
a terminal's stderr; a checkpoint is written after every stage and --resume continues from it. The same
--seed, options and data give the same cascade on any number of threads.

opencv_traincascade's options and theirs here:
  -vec, -info           --pos (folders or lists of crops, annotation files, .vec files)
  -bg                   --neg (folders or lists of object-free images)
  -data                 --output (the cascade XML itself) and --checkpoint
  -numPos               all positives the cascade so far accepts are used
  -numNeg               --negatives        -numStages         --stages
  -w, -h                --window WxH       -bt DAB|RAB|LB|GAB --boost discrete|real|logit|gentle
  -minHitRate           --min-hit-rate     -maxFalseAlarmRate --max-false-alarm
  -weightTrimRate       --weight-trim-rate -maxWeakCount      --max-weak-count
  -maxDepth             --max-depth 1 only (stumps, as every OpenCV LBP cascade): deeper LBP trees need a
                        weak-learner form the model and detectors lack
  -precalcValBufSize    not needed: the codes of every feature are computed once per sample
opencv_createsamples's mirroring and distortions: --mirror, --jitter, --jitter-shift, --jitter-scale,
--jitter-rotation.

Example (faces, 24x24):
  cascade-train lbp-opencv --pos ../shared/data/faces/mit_cbcl_19x19 --pos-margin 0 --mirror \
      --neg ../shared/data/negatives_web --window 24x24 --stages 20 --output face_lbp.xml)";

constexpr const char* kHaarUsage = R"(Usage: cascade-train haar --pos PATH --neg PATH --output CASCADE.xml [options]

Trains a Haar cascade the way opencv_traincascade -featureType HAAR did (OpenCV 3.4; OpenCV 4 no longer
builds it) and writes it in OpenCV's cascade XML (featureType HAAR, stageType BOOST), which
cv::CascadeClassifier (OpenCV 4.6) loads, and in the project's XML (--project-output). The stage trainer of
lbp-opencv with Lienhart and Maydt's Haar features (--haar-mode): each weak learner is a threshold stump (or,
with --max-depth N, a tree of N levels of such splits, as CvBoostTree grew them) on features' values on the
variance-normalised window, computed as the detectors compute them. Each feature's values are precomputed per
sample as 256 bins (quantiles of its values on the positives; a threshold is a bin edge): one byte per
feature and sample, so the pool (--features) times the samples (positives +
--negatives) is the memory it needs: 24x24 has 162,336 BASIC, 210,400 CORE and 261,600 ALL features
(ALL on 3,000 samples: 785 MB), 19x19 has 63,960 BASIC features.
A per-stage log goes to stdout, a progress bar with ETA to a terminal's stderr; a checkpoint is written after
every stage and --resume continues from it. The same --seed, options and data give the same cascade on any
number of threads.

opencv_traincascade's options and theirs here:
  -vec, -info           --pos (folders or lists of crops, annotation files, .vec files)
  -bg                   --neg (folders or lists of object-free images)
  -data                 --output (the cascade XML itself) and --checkpoint
  -numPos               all positives the cascade so far accepts are used
  -numNeg               --negatives        -numStages         --stages
  -w, -h                --window WxH       -bt DAB|RAB|LB|GAB --boost discrete|real|logit|gentle
  -minHitRate           --min-hit-rate     -maxFalseAlarmRate --max-false-alarm
  -weightTrimRate       --weight-trim-rate -maxWeakCount      --max-weak-count
  -mode BASIC|CORE|ALL  --haar-mode basic|core|all
  -maxDepth             --max-depth (1: stumps, the default; at most 25)
  -precalcValBufSize    not needed: every feature's value is binned once per sample
opencv_createsamples's mirroring and distortions: --mirror, --jitter, --jitter-shift, --jitter-scale,
--jitter-rotation.

Example (faces, 19x19, BASIC, a pool of 20,000 features):
  cascade-train haar --pos ../shared/data/faces/mit_cbcl_19x19 --pos-margin 0 --mirror \
      --neg ../shared/data/negatives_web --window 19x19 --haar-mode basic --features 20000 --stages 20 \
      --output face_haar.xml)";

constexpr unsigned kLineLength = 110;

class LogObserver : public StageTrainingObserver {
public:
    explicit LogObserver(data::Progress& progress) : progress_(progress) {}

    void stage_started(int stage, int positives, int negatives, double acceptance) override {
        progress_.log("stage " + std::to_string(stage + 1) + ": " + std::to_string(positives) + " positives, " +
                      std::to_string(negatives) + " negatives (false alarm rate so far " +
                      cli::scientific_text(acceptance) + ")");
        progress_.log("  weak   hit rate   false alarm");
    }

    void weak_added(const StageProgress& p) override {
        char line[64];
        std::snprintf(line, sizeof line, "  %4d   %8.4f   %11.4f", p.weak_count, p.hit_rate, p.false_alarm);
        progress_.log(line);
    }

    void stage_added(const StageEvent& e) override {
        std::ostringstream line;
        line << "stage " << e.stage + 1 << "/" << e.stages << " done: " << e.boosted.weaks.size()
             << " weak learners, hit rate " << cli::fixed_text(e.boosted.last.hit_rate, 4) << ", false alarm "
             << cli::fixed_text(e.boosted.last.false_alarm, 4) << ", " << e.negatives << " negatives mined from "
             << e.scanned << " windows, " << cli::fixed_text(e.seconds, 1) << " s (total "
             << cli::duration_text(progress_.elapsed()) << ")";
        progress_.log(line.str());
        progress_.update(e.stage + 1);
    }

    void checkpointed(int stages, const std::string& path) override {
        progress_.log("checkpoint: " + std::to_string(stages) + " stages in " + path);
    }

    void note(const std::string& text) override { progress_.log(text); }

private:
    data::Progress& progress_;
};

struct StageCommand {
    bool haar = false;  // cascade-train haar, else lbp-opencv
    data::DatasetSpec spec;
    StageTrainConfig config;
    std::string window, output, project_output, checkpoint, boost = "gentle", haar_mode = "basic";
};

// LBP trees deeper than stumps need a new weak-learner form in the common model (one MB-LBP feature per weak
// learner today); validate() bounds Haar's depth.
void check_max_depth(bool haar, int depth) {
    if (haar || depth <= 1) return;  // validate() refuses 0 and below
    throw cli::UsageError("--max-depth", std::to_string(depth) +
        ": LBP trees deeper than stumps need a weak-learner form the model and detectors lack; only 1 (stumps)");
}

BoostType parse_boost(const std::string& text) {
    if (text == "gentle" || text == "GAB") return BoostType::gentle;
    if (text == "discrete" || text == "DAB") return BoostType::discrete;
    if (text == "real" || text == "RAB") return BoostType::real;
    if (text == "logit" || text == "LB") return BoostType::logit;
    throw cli::UsageError("--boost", "'" + text + "' is not one of gentle, discrete, real, logit (GAB, DAB, RAB, LB)");
}

po::options_description training_options(StageCommand& c) {
    StageTrainConfig& t = c.config;
    po::options_description options("Training", kLineLength, kLineLength / 2);
    options.add_options()
        ("stages", po::value(&t.stages)->default_value(t.stages), "at most this many stages (-numStages)")
        ("negatives", po::value(&t.negatives)->default_value(t.negatives),
         "hard negatives mined for each stage (-numNeg)")
        ("boost", po::value(&c.boost)->default_value(c.boost),
         "gentle, discrete, real or logit AdaBoost (-bt GAB, DAB, RAB, LB)")
        ("min-hit-rate", po::value(&t.boost.min_hit_rate)->default_value(t.boost.min_hit_rate, "0.995"),
         "each stage keeps at least this fraction of the positives reaching it (-minHitRate)")
        ("max-false-alarm", po::value(&t.boost.max_false_alarm)->default_value(t.boost.max_false_alarm, "0.5"),
         "each stage passes at most this fraction of its negatives (-maxFalseAlarmRate); training stops once the "
         "cascade's false alarm rate is at most this to the power --stages")
        ("weight-trim-rate", po::value(&t.boost.weight_trim_rate)->default_value(t.boost.weight_trim_rate, "0.95"),
         "weak learners are chosen on the heaviest samples holding this fraction of the weight (-weightTrimRate)")
        ("max-weak-count", po::value(&t.boost.max_weak_count)->default_value(t.boost.max_weak_count),
         "at most this many weak learners per stage (-maxWeakCount)")
        ("max-depth", po::value(&t.boost.max_depth)->default_value(t.boost.max_depth),
         c.haar ? "levels of splits of each weak learner's tree (-maxDepth; 1: stumps, at most 25)"
                : "depth of each weak learner's tree (-maxDepth); only 1, stumps, is trained for LBP")
        ("features", po::value(&t.features)->default_value(0),
         c.haar ? "choose among a random pool of this many Haar features of --haar-mode (0: every one, as OpenCV)"
                : "choose among a random pool of this many MB-LBP features (0: every feature of the window, as OpenCV)")
        ("mine-scale-factor", po::value(&t.mine_scale_factor)->default_value(t.mine_scale_factor, "1.1"),
         "pyramid scale step of the negative images while mining")
        ("mine-per-image", po::value(&t.mine_per_image)->default_value(t.mine_per_image),
         "at most this many hard negatives per visit of an image");
    if (c.haar)
        options.add_options()("haar-mode", po::value(&c.haar_mode)->default_value(c.haar_mode),
                              "basic, core or all (tilted too): Lienhart and Maydt's feature sets (-mode)");
    return options;
}

po::options_description run_options(StageCommand& c) {
    po::options_description run("Run", kLineLength, kLineLength / 2);
    run.add_options()
        ("help,h", "show this help")
        ("output,o", po::value(&c.output)->required(), "the cascade to write, in OpenCV's XML")
        ("project-output", po::value(&c.project_output),
         "the same cascade in the project's XML (default: OUTPUT less .xml, then .model.xml)")
        ("seed", po::value(&c.config.seed)->default_value(c.config.seed),
         "random seed (mining order, jitter, feature pool): the same model on any number of threads")
        ("threads", po::value(&c.config.boost.threads)->default_value(0), "worker threads (0: all cores)")
        ("checkpoint", po::value(&c.checkpoint), "checkpoint file (default: OUTPUT.checkpoint; 'none': none)")
        ("resume", po::bool_switch(&c.config.resume), "continue from the checkpoint if there is one");
    return run;
}

OpenCvStageParams opencv_params(const StageCommand& c) {
    OpenCvStageParams params;
    params.boost_type = opencv_boost_name(c.config.boost.type);
    params.min_hit_rate = c.config.boost.min_hit_rate;
    params.max_false_alarm = c.config.boost.max_false_alarm;
    params.weight_trim_rate = c.config.boost.weight_trim_rate;
    params.max_weak_count = c.config.boost.max_weak_count;
    params.max_depth = c.config.boost.max_depth;
    params.haar_mode = haar::opencv_mode_name(haar::parse_haar_mode(c.haar_mode));
    return params;
}

// Trains the command's family and writes both files; returns the cascade.
template <class Cascade>
StageResult<Cascade> train_family(const StageCommand& c, const data::Dataset& dataset, LogObserver& observer) {
    const LbpTrainingData data{dataset.positives, dataset.positive_groups, dataset.negatives};
    StageResult<Cascade> result;
    if constexpr (std::is_same<Cascade, HaarCascade>::value)
        result = haar::train_haar_stages(c.config, haar::parse_haar_mode(c.haar_mode), data, observer);
    else
        result = train_lbp_stages(c.config, data, observer);
    save_opencv_cascade(result.cascade, opencv_params(c), c.output);
    save_model(Model{result.cascade, c.project_output}, c.project_output);
    return result;
}

template <class Cascade>
void train_and_write(const StageCommand& c, const data::ProgressListener& listener) {
    data::Progress progress("stages", c.config.stages, listener);
    const data::Dataset dataset = data::load_dataset(c.spec);
    progress.log("data: " + std::to_string(dataset.positives.size()) + " training positives, " +
                 std::to_string(dataset.negatives.size()) + " negative images; held out " +
                 std::to_string(dataset.heldout_positives.size()) + " positives and " +
                 std::to_string(dataset.heldout_negatives.size()) + " negative images");
    LogObserver observer(progress);
    const StageResult<Cascade> result = train_family<Cascade>(c, dataset, observer);
    progress.log("stopped: " + result.stopped_because);
    progress.log("wrote " + c.output + " and " + c.project_output + ": " + std::to_string(result.cascade.stages.size()) +
                 " stages, " + std::to_string(result.cascade.weaks.size()) + " weak learners; false alarm rate " +
                 cli::scientific_text(result.false_alarm) + " per window at the last mining; " +
                 std::to_string(result.negatives_mined) + " negatives mined from " +
                 std::to_string(result.windows_scanned) + " windows; training took " +
                 cli::duration_text(progress.elapsed()));
    if (!dataset.heldout_positives.empty())
        progress.log("held out: miss rate " +
                     cli::fixed_text(1.0 - window_detection_rate(result.cascade, dataset.heldout_positives,
                                                                 c.config.boost.threads), 4) +
                     " on " + std::to_string(dataset.heldout_positives.size()) + " positives");
}

std::string default_project_output(const std::string& output) {
    const std::string stem = output.size() > 4 && output.substr(output.size() - 4) == ".xml"
                                 ? output.substr(0, output.size() - 4) : output;
    return stem + ".model.xml";
}

bool run_stage_command(bool haar, int argc, const char* const* argv, const data::ProgressListener& listener) {
    StageCommand c;
    c.haar = haar;
    po::options_description options("", kLineLength, kLineLength / 2);
    options.add(dataset_options(c.spec, c.window, kLineLength, "24x24"))
        .add(training_options(c))
        .add(run_options(c));
    po::variables_map vm;
    if (!parse_command_line(argc, argv, options, haar ? kHaarUsage : kUsage, vm)) return false;
    c.config.window = c.spec.crop.window = cli::parse_size("--window", c.window);
    c.config.boost.type = parse_boost(c.boost);
    if (haar) haar::parse_haar_mode(c.haar_mode);
    check_max_depth(haar, c.config.boost.max_depth);
    c.config.checkpoint = c.checkpoint == "none" ? "" : c.checkpoint.empty() ? c.output + ".checkpoint" : c.checkpoint;
    if (c.project_output.empty()) c.project_output = default_project_output(c.output);
    c.spec.seed = c.config.seed;
    c.spec.threads = c.config.boost.threads;
    validate(c.config);
    check_dataset_options(c.spec);
    cli::check_threads("--threads", c.config.boost.threads);
    std::vector<std::string> inputs = c.spec.positives;
    inputs.insert(inputs.end(), c.spec.negatives.begin(), c.spec.negatives.end());
    check_training_outputs(c.output, c.config.checkpoint, inputs);
    check_training_outputs(c.project_output, c.output, inputs);
    cli::check_writable_path("--checkpoint", c.config.checkpoint);
    if (haar)
        train_and_write<HaarCascade>(c, listener);
    else
        train_and_write<LbpCascade>(c, listener);
    return true;
}

}  // namespace

bool stage_run(int argc, const char* const* argv, const data::ProgressListener& listener) {
    return run_stage_command(false, argc, argv, listener);
}

bool haar_run(int argc, const char* const* argv, const data::ProgressListener& listener) {
    return run_stage_command(true, argc, argv, listener);
}

}  // namespace cascade::train::lbp
