#include "train/cov/cov_command.hpp"

#include <boost/program_options.hpp>
#include <filesystem>
#include <sstream>

#include "cli/duration_text.hpp"
#include "cli/number_text.hpp"
#include "cli/usage_error.hpp"
#include "cli/values.hpp"
#include "common/error.hpp"
#include "common/model_io.hpp"
#include "data/crop_options.hpp"
#include "train/command_line.hpp"
#include "train/cov/cov_cascade.hpp"
#include "train/hog/hog_data.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace cascade::train::cov {

namespace {

constexpr const char* kUsage = R"(Usage: cascade-train cov --pos CROPS --neg IMAGES [--neg IMAGES...] --output MODEL.xml [options]

Trains a region-covariance cascade (Tuzel, Porikli and Meer, "Pedestrian detection via classification on
Riemannian manifolds", PAMI 2008): each weak learner reads the 8x8 covariance of the features [x, y, |Ix|,
|Iy|, gradient magnitude, |Ixx|, |Iyy|, gradient angle] over one rectangle of the 64x128 window, normalised by
the whole window's, as a 36-vector. --weak logitboost (Tuzel et al.): LogitBoost whose weak learners are
weighted least-squares regressions on the vectors in the tangent space at the Karcher mean of the rectangle's
covariances over the positives; --weak block-svm: the HoG trainer's weak learner, a linear SVM on the vector
with real AdaBoost's --bins response bins. Each level boosts until it keeps --min-hit-rate of the positives
and passes at most --max-false-alarm of --negatives negatives mined anew from the negative images with the
cascade so far (every scale and grid position), until the cascade's false-positive rate there reaches
--target-false-alarm. --final-negatives N ends the cascade with one linear SVM over the vectors of a grid of
rectangles (--final-grids) and, with --final-lbp-histograms, the uniform-LBP histograms of square cells
(--final-lbp-cells), trained on the positives the levels keep and N negatives they pass, mined at
--final-mine-scale (--final-rounds R: R rounds of N, each after the first mined with the SVM so far). A resume
with --levels below the checkpoint's level count cuts the cascade to that many levels (no final stage is
checkpointed: a finished run resumes to try other final stages).

Positives are crops of the window plus --pos-margin pixels on each side (INRIA's 96x160 crops; at least 4).
A fraction --holdout of the source photos (--group-by) and of the negative images, chosen by --seed as the
other trainers do, is held out of training (cascade-eval window --holdout measures the model on it).

Examples:
  cascade-train cov --pos ../shared/data/inria/96X160H96/Train/pos --neg ../shared/data/inria/Train/neg \
      --holdout 0.2 --seed 1 --threads 2 --output pedestrian_cov.xml
  cascade-train cov ... --checkpoint cov-checkpoint --resume      (continue after the last finished level)
  cascade-train cov ... --mine-scale 1.05 --checkpoint cov-checkpoint --resume --mine-afresh
                                         (more levels, mined afresh at a finer pyramid)
  cascade-train cov ... --checkpoint cov-checkpoint --resume --levels 10 --final-negatives 5000 --final-rounds 2
                                         (the checkpoint's first 10 levels, then a final linear SVM stage))";

struct Settings {
    CropTrainingOptions crops;
    std::string checkpoint, weak = "logitboost", mapping = "tangent";
    bool resume = false, mine_afresh = false;
    CascadeOptions cascade;
};

void require(bool ok, const std::string& option, const std::string& problem) {
    if (!ok) throw cli::UsageError("--" + option, problem);
}

// Square grids (--final-grids, --final-lbp-cells) on the kCovGrid grid, their squares inside the window.
void require_grids(const std::vector<hog::BlockGridSpec>& grids, Size window, const std::string& option) {
    for (const hog::BlockGridSpec& g : grids)
        require(g.block % kCovGrid == 0 && g.stride % kCovGrid == 0 && g.block <= window.width, option,
                "needs blocks and strides that are multiples of " + std::to_string(kCovGrid) +
                    " pixels, blocks at most the window's width");
}

void check(const Settings& s) {
    const StageOptions& st = s.cascade.stage;
    require(!s.crops.positive_dirs.empty(), "pos", "is required");
    require(!s.crops.negative_dirs.empty(), "neg", "is required");
    require(!s.crops.output.empty(), "output", "is required");
    require(!s.resume || !s.checkpoint.empty(), "resume", "needs --checkpoint DIR");
    require(!s.mine_afresh || s.resume, "mine-afresh", "needs --resume");
    require(s.weak == "logitboost" || s.weak == "block-svm", "weak", "must be logitboost or block-svm");
    require(s.mapping == "tangent" || s.mapping == "log-euclidean", "mapping", "must be tangent or log-euclidean");
    const data::Margin& m = s.crops.margin;
    require(m.top >= kSampleMargin && m.right >= kSampleMargin && m.bottom >= kSampleMargin && m.left >= kSampleMargin,
            "pos-margin", "must be at least " + std::to_string(kSampleMargin) + " on every side (the window's features read its neighbours)");
    require(s.crops.holdout >= 0.0 && s.crops.holdout < 1.0, "holdout", "must be in [0, 1)");
    require(st.min_hit_rate > 0.0 && st.min_hit_rate <= 1.0, "min-hit-rate", "must be in (0, 1]");
    require(st.max_false_alarm > 0.0 && st.max_false_alarm < 1.0, "max-false-alarm", "must be in (0, 1)");
    require(s.cascade.target_false_alarm > 0.0 && s.cascade.target_false_alarm < 1.0, "target-false-alarm", "must be in (0, 1)");
    require(s.cascade.max_stages >= 1, "levels", "must be at least 1");
    require(st.max_weaks >= 1, "max-learners", "must be at least 1");
    require(st.rects_per_stage >= 1, "rects-per-level", "must be at least 1");
    require(st.rects_per_round >= 1, "rects-per-round", "must be at least 1");
    require(st.mean_samples >= 1, "mean-samples", "must be at least 1");
    require(st.bins >= 2 && st.bins <= kHogMaxBins, "bins", "must be 2.." + std::to_string(kHogMaxBins));
    require(st.svm.c > 0.0, "svm-c", "must be positive");
    require(st.ridge >= 0.0, "ridge", "must be at least 0");
    require(s.cascade.negatives >= 1, "negatives", "must be at least 1");
    require(s.cascade.per_image >= 1, "negatives-per-image", "must be at least 1");
    const FinalSvmOptions& f = s.cascade.final_svm;
    require(f.negatives >= 0, "final-negatives", "must be 0 (no final stage) or more");
    require(f.rounds >= 1, "final-rounds", "must be at least 1");
    require(!f.lbp_histograms || f.negatives > 0, "final-lbp-histograms", "needs a final stage (--final-negatives)");
    require_grids(f.lbp_cells, s.cascade.window, "final-lbp-cells");
    require(f.svm.c > 0.0, "final-svm-c", "must be positive");
    require(f.svm.bias_feature > 0.0, "final-svm-bias", "must be positive");
    require(f.min_hit_rate > 0.0 && f.min_hit_rate <= 1.0, "final-min-hit-rate", "must be in (0, 1]");
    require_grids(f.grids, s.cascade.window, "final-grids");
    cli::check_scale_factor("--final-mine-scale", f.mine_scale);
    cli::check_scale_factor("--mine-scale", s.cascade.mine_scale);
    cli::check_threads("--threads", s.crops.threads);
    std::vector<std::string> inputs = s.crops.positive_dirs;
    inputs.insert(inputs.end(), s.crops.negative_dirs.begin(), s.crops.negative_dirs.end());
    check_training_outputs(s.crops.output, s.checkpoint, inputs);
}

// Everything that changes the checkpointed levels but mining: data (file names) and settings, not threads or paths.
std::string fingerprint(const Settings& s, const hog::HogData& data) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (const auto& p : data.train_positives)
        for (unsigned char c : fs::path(p.path).filename().string() + "\n") h = (h ^ c) * 0x100000001b3ull;
    for (const auto& n : data.train_negatives)
        for (unsigned char c : fs::path(n.path).filename().string() + "\n") h = (h ^ c) * 0x100000001b3ull;
    const CascadeOptions& c = s.cascade;
    std::ostringstream out;
    out.precision(17);
    out << "data " << std::hex << h << std::dec << " positives " << data.train_positives.size() << " negatives "
        << data.train_negatives.size() << " margin " << data::margin_text(s.crops.margin) << " holdout " << s.crops.holdout
        << " jitter " << s.crops.jitter.copies << " " << s.crops.jitter.shift << " " << s.crops.jitter.scale << " seed " << c.stage.seed
        << " weak " << s.weak << " mapping " << s.mapping << " bins " << c.stage.bins << " min-hit-rate "
        << c.stage.min_hit_rate << " max-false-alarm " << c.stage.max_false_alarm << " rects " << c.stage.rects_per_stage
        << " " << c.stage.rects_per_round << " mean-samples " << c.stage.mean_samples << " max-learners "
        << c.stage.max_weaks << " ridge " << c.stage.ridge << " svm-c " << c.stage.svm.c;
    return out.str();
}

// The mining settings, which --mine-afresh lets change on a resume.
std::string mining_fingerprint(const CascadeOptions& c) {
    std::ostringstream out;
    out.precision(17);
    out << "negatives " << c.negatives << " " << c.per_image << " mine-scale " << c.mine_scale << " min-negatives "
        << c.min_negatives;
    return out.str();
}

void train_and_report(const Settings& s, const data::ProgressListener& listener) {
    data::Progress progress(kProgressUnit, kProgressUnits, listener);
    const Size window = s.cascade.window;
    const hog::HogData data = hog::find_hog_data(s.crops.positive_dirs, s.crops.negative_dirs, window, s.crops.holdout,
                                                 s.cascade.stage.seed, s.crops.threads, s.crops.group_by);
    data::Jitter jitter = s.crops.jitter;
    jitter.seed = s.cascade.stage.seed;
    CovSamples positives = load_positive_samples(data.train_positives, window, s.crops.margin, s.crops.threads, jitter);
    progress.log("data: " + std::to_string(data.train_positives.size()) + " training and " +
                 std::to_string(data.held_positives.size()) + " held-out positive crops, " +
                 std::to_string(data.train_negatives.size()) + " training and " +
                 std::to_string(data.held_negatives.size()) + " held-out negative images (holdout " +
                 cli::real_text(s.crops.holdout) + ", seed " + std::to_string(s.cascade.stage.seed) + ")");
    progress.log(std::to_string(positives.size()) + " positive windows loaded in " + cli::duration_text(progress.elapsed()));

    CascadeOptions options = s.cascade;
    options.checkpoint_dir = s.checkpoint;
    options.resume = s.resume;
    options.mine_afresh = s.mine_afresh;
    options.fingerprint = fingerprint(s, data);
    options.mining_fingerprint = mining_fingerprint(s.cascade);
    options.stage.kind = s.weak == "logitboost" ? WeakKind::logitboost : WeakKind::block_svm;
    options.stage.mapping = s.mapping == "tangent" ? kCovTangent : kCovLogEuclidean;
    options.stage.threads = s.crops.threads;
    const TrainingOutcome outcome = train_cascade(std::move(positives), data.train_negatives, options, progress);
    if (outcome.cascade.stages.empty())
        throw InputError(s.crops.output, "not written: no level could be trained (" + outcome.stop_reason + ")");
    save_model(Model{outcome.cascade, s.crops.output}, s.crops.output);
    std::string per_level;
    for (const auto& st : outcome.stages) per_level += (per_level.empty() ? "" : " ") + std::to_string(st.learners);
    progress.log("wrote " + s.crops.output + ": " + std::to_string(outcome.cascade.stages.size()) + " levels, " +
                 std::to_string(outcome.cascade.weaks.size()) + " learners (per level: " + per_level + "); stopped: " +
                 outcome.stop_reason + "; training time " + cli::duration_text(outcome.seconds));
}

}  // namespace

bool run(int argc, const char* const* argv, const data::ProgressListener& listener) {
    Settings s;
    CascadeOptions& c = s.cascade;
    po::options_description options("Options");
    // clang-format off
    options.add_options()
        ("help,h", "show this help");
    add_crop_training_options(options, s.crops);
    options.add_options()
        ("seed", po::value(&c.stage.seed)->default_value(1), "seed of every random choice")
        ("weak", po::value(&s.weak)->default_value("logitboost"), "weak learner: logitboost (Tuzel et al.'s regression on tangent vectors) or block-svm (the HoG trainer's linear SVM with response bins)")
        ("mapping", po::value(&s.mapping)->default_value("tangent"), "covariance to vector: tangent (at the Karcher mean over the positives) or log-euclidean")
        ("levels", po::value(&c.max_stages)->default_value(30), "maximum number of cascade levels")
        ("target-false-alarm", po::value(&c.target_false_alarm)->default_value(1e-4), "stop when the cascade's FPPW on the mined images reaches this")
        ("min-hit-rate", po::value(&c.stage.min_hit_rate)->default_value(0.998), "positives each level keeps")
        ("max-false-alarm", po::value(&c.stage.max_false_alarm)->default_value(0.35), "negatives each level may pass")
        ("max-learners", po::value(&c.stage.max_weaks)->default_value(60), "most weak learners in one level")
        ("rects-per-level", po::value(&c.stage.rects_per_stage)->default_value(300), "rectangles a level draws from the pool (each mapped once for every sample)")
        ("rects-per-round", po::value(&c.stage.rects_per_round)->default_value(200), "candidate rectangles of each boosting round (Tuzel et al.: 200)")
        ("mean-samples", po::value(&c.stage.mean_samples)->default_value(256), "positives whose Karcher mean maps a rectangle (tangent mapping)")
        ("bins", po::value(&c.stage.bins)->default_value(8), "block-svm: response bins")
        ("svm-c", po::value(&c.stage.svm.c)->default_value(1.0), "block-svm: liblinear's C")
        ("ridge", po::value(&c.stage.ridge)->default_value(1e-4), "logitboost: ridge of the regressions")
        ("negatives", po::value(&c.negatives)->default_value(4000), "negatives mined for each level")
        ("negatives-per-image", po::value(&c.per_image)->default_value(16), "most negatives from one image per visit")
        ("min-negatives", po::value(&c.min_negatives)->default_value(200), "stop when mining finds fewer")
        ("mine-scale", po::value(&c.mine_scale)->default_value(1.2), "pyramid scale factor of mining")
        ("final-negatives", po::value(&c.final_svm.negatives)->default_value(0), "negatives mined per round for a last stage of one linear SVM over the vectors of a rectangle grid (0: none)")
        ("final-rounds", po::value(&c.final_svm.rounds)->default_value(1), "bootstrapping rounds of the last stage: each after the first adds --final-negatives more, mined with its SVM at its margin, and trains it again")
        ("final-grids", po::value<std::string>()->default_value("16/8")->notifier([&c](const std::string& t) {
             c.final_svm.grids = hog::parse_grids("--final-grids", t);
         }), "the last stage's rectangles: square grids BLOCK/STRIDE (multiples of 4), comma-separated (16/8: 105 rectangles)")
        ("final-svm-c", po::value(&c.final_svm.svm.c)->default_value(0.01), "liblinear's C for the last stage's SVM")
        ("final-lbp-histograms", po::bool_switch(&c.final_svm.lbp_histograms), "the last stage's SVM also over the uniform-LBP histograms (59 bins, L1-sqrt) of the cells of --final-lbp-cells (as cascade-train hog's): two learners a cell")
        ("final-lbp-cells", po::value<std::string>()->default_value("16/16")->notifier([&c](const std::string& t) {
             c.final_svm.lbp_cells = hog::parse_grids("--final-lbp-cells", t);
         }), "the LBP cells of --final-lbp-histograms: SIDE/STRIDE[,SIDE/STRIDE...] (16/16: the window's non-overlapping 16x16 cells; 16/8: 16x16 cells every 8 pixels)")
        ("final-svm-bias", po::value(&c.final_svm.svm.bias_feature)->default_value(1.0), "the last stage's constant bias feature (liblinear's -B): larger regularises the bias less")
        ("final-min-hit-rate", po::value(&c.final_svm.min_hit_rate)->default_value(0.99), "positives the last stage keeps")
        ("final-mine-scale", po::value(&c.final_svm.mine_scale)->default_value(1.05), "pyramid scale factor for the last stage's mining (every 4-pixel grid position)")
        ("checkpoint", po::value(&s.checkpoint), "folder for a checkpoint after every level")
        ("resume", po::bool_switch(&s.resume), "continue from --checkpoint")
        ("mine-afresh", po::bool_switch(&s.mine_afresh), "with --resume: keep the checkpoint's levels but start the miner afresh, so that the mining options (--negatives, --negatives-per-image, --mine-scale, --min-negatives) may differ from the checkpoint's, e.g. a finer --mine-scale once the images are used up");
    // clang-format on
    po::variables_map vm;
    if (!parse_command_line(argc, argv, options, kUsage, vm)) return false;
    check(s);
    train_and_report(s, listener);
    return true;
}

}  // namespace cascade::train::cov
