#include "train/hog/hog_command.hpp"

#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "cli/duration_text.hpp"
#include "cli/number_text.hpp"
#include "cli/usage_error.hpp"
#include "cli/values.hpp"
#include "common/error.hpp"
#include "common/hog_cpu_detector.hpp"
#include "common/model_io.hpp"
#include "data/crop_options.hpp"
#include "data/progress.hpp"
#include "train/command_line.hpp"
#include "train/hog/cascade_trainer.hpp"
#include "train/hog/evaluation.hpp"
#include "train/hog/hog_data.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace cascade::train::hog {

namespace {

constexpr const char* kUsage = R"(Usage: cascade-train hog --pos CROPS --neg IMAGES [--neg IMAGES...] --output MODEL.xml [options]
       cascade-train hog --evaluate MODEL.xml --pos CROPS --neg IMAGES [options]

Trains a pedestrian-style HoG cascade (Bilgic 2010, after Zhu et al. 2006): each stage is AdaBoost over
linear SVMs on single HoG blocks (36-D: 2x2 cells x 9 orientation bins), each round choosing the best of
--blocks-per-round blocks sampled from a pool of 5029; stages grow until they keep --min-hit-rate of the
positives and pass at most --max-false-alarm of the negatives, which are mined anew before each stage from the
negative images (false positives of the cascade so far, at all scales). --bins 0 gives Zhu et al.'s discrete
learners (+-vote), --bins N real AdaBoost's N response bins over each SVM's projection; --sum running makes
each stage continue the sum of the stages before (a soft cascade); --final-negatives N ends the cascade with
one linear SVM over a 16x16 block grid of the whole window (--final-grids for others; --final-descriptor
dalal-triggs for Dalal and Triggs' block descriptor; --final-lbp-histograms adds the uniform-LBP histograms of
the window's 16x16 cells, HOG-LBP), trained on N negatives mined with the stages (--final-rounds R: R rounds of
N, each after the first mined with the SVM so far).
--calibration F sets the boosted stages' thresholds on the crops of a fraction F of the training photos that
fit no learner, so that each stage keeps of unseen people about what it keeps of them. --jitter N adds N
shifted and scaled copies of every crop that fits the learners (the margin supplies the pixels moving in).

Positives are crops of the 64x128 window plus --pos-margin pixels on each side (INRIA's 96x160 crops), from
folders (with nested folders: UMIST's person/face/*.pgm) or list files; the margin gives the window's border
pixels their true gradients. A fraction --holdout of the source photos (--group-by: photos by file name or
by folder) and of the negative images, chosen by --seed as the other trainers do, is held out of training
and used at the end to report hit rate and false positives per window (FPPW) per cascade depth.

Examples:
  cascade-train hog --pos ../shared/data/inria/96X160H96/Train/pos --neg ../shared/data/inria/Train/neg \
      --holdout 0.2 --seed 1 --bins 8 --sum running --min-hit-rate 0.998 --target-false-alarm 1e-3 \
      --final-negatives 15000 --jitter 2 --jitter-shift 2 --jitter-scale 1.05 --output models/pedestrian_hog.xml
  cascade-train hog ... --checkpoint hog-checkpoint --resume      (continue after the last finished stage)
  cascade-train hog --evaluate models/pedestrian_hog.xml --pos ... --neg ... --seed 1)";

struct Settings {
    CropTrainingOptions crops;
    std::string checkpoint, evaluate;
    bool resume = false;
    double calibration = 0.0;
    CascadeOptions cascade;
    std::string sum = "per-stage";
    std::string final_descriptor = "integral";
    double final_mine_scale = 1.1;
    int final_mine_stride = 8;
    double eval_scale = 1.1;
    int eval_stride = kHogSparseStride;
};

void require(bool ok, const std::string& option, const std::string& problem) {
    if (!ok) throw cli::UsageError("--" + option, problem);
}

// "B/S[,B/S...]": grids of BxB blocks at stride S, each block even (2x2 cells) and inside the 64x128 window.
void check(const Settings& s) {
    const auto& st = s.cascade.stage;
    require(!s.crops.positive_dirs.empty(), "pos", "is required");
    require(!s.crops.negative_dirs.empty(), "neg", "is required");
    require(!s.crops.output.empty() || !s.evaluate.empty(), "output", "is required (or --evaluate MODEL)");
    require(!s.resume || !s.checkpoint.empty(), "resume", "needs --checkpoint DIR");
    require(s.crops.margin.top >= 1 && s.crops.margin.right >= 1 && s.crops.margin.bottom >= 1 && s.crops.margin.left >= 1, "pos-margin",
            "must be at least 1 on every side (the window's border pixels need neighbours)");
    require(s.crops.holdout >= 0.0 && s.crops.holdout < 1.0, "holdout", "must be in [0, 1)");
    require(s.calibration >= 0.0 && s.calibration < 1.0, "calibration", "must be in [0, 1)");
    require(st.min_hit_rate > 0.0 && st.min_hit_rate <= 1.0, "min-hit-rate", "must be in (0, 1]");
    require(st.max_false_alarm > 0.0 && st.max_false_alarm < 1.0, "max-false-alarm", "must be in (0, 1)");
    require(s.cascade.target_false_alarm > 0.0 && s.cascade.target_false_alarm < 1.0, "target-false-alarm", "must be in (0, 1)");
    require(s.cascade.max_stages >= 1, "stages", "must be at least 1");
    require(st.blocks_per_round >= 1, "blocks-per-round", "must be at least 1");
    require(st.bins == 0 || (st.bins >= 2 && st.bins <= kHogMaxBins), "bins",
            "must be 0 (discrete AdaBoost) or 2.." + std::to_string(kHogMaxBins) + " (real AdaBoost)");
    require(s.sum == "per-stage" || s.sum == "running", "sum", "must be per-stage or running");
    require(st.max_weaks >= 1, "max-learners", "must be at least 1");
    require(st.svm.c > 0.0, "svm-c", "must be positive");
    require(st.resample_factor > 0.0, "resample-factor", "must be positive");
    require(s.cascade.mining.count >= 1, "negatives-per-stage", "must be at least 1");
    require(s.cascade.mining.per_image >= 1, "negatives-per-image", "must be at least 1");
    cli::check_scale_factor("--mine-scale", s.cascade.mining.scale_factor);
    require(s.cascade.mining.stride >= 1, "mine-stride", "must be at least 1");
    require(s.cascade.final_negatives >= 0, "final-negatives", "must be 0 (no final stage) or more");
    require(s.cascade.final_svm.svm.c > 0.0, "final-svm-c", "must be positive");
    require(s.cascade.final_svm.svm.bias_feature > 0.0, "final-svm-bias", "must be positive");
    require(s.cascade.final_svm.min_hit_rate > 0.0 && s.cascade.final_svm.min_hit_rate <= 1.0, "final-min-hit-rate",
            "must be in (0, 1]");
    require(s.cascade.final_svm.rounds >= 1, "final-rounds", "must be at least 1");
    require(!s.cascade.final_svm.lbp_histograms || s.cascade.final_negatives > 0, "final-lbp-histograms",
            "needs a final stage (--final-negatives N)");
    require(s.final_descriptor == "integral" || s.final_descriptor == "dalal-triggs" ||
                s.final_descriptor == "dalal-triggs-gamma",
            "final-descriptor", "must be integral, dalal-triggs or dalal-triggs-gamma");
    for (const BlockGridSpec& g : s.cascade.final_svm.grids)
        require(s.final_descriptor == "integral" || g.block == kDalalTriggsBlock, "final-grids",
                "must have 16x16 blocks only with a Dalal-Triggs --final-descriptor");
    cli::check_scale_factor("--final-mine-scale", s.final_mine_scale);
    require(s.final_mine_stride >= 1, "final-mine-stride", "must be at least 1");
    cli::check_scale_factor("--eval-scale", s.eval_scale);
    require(s.eval_stride >= 1, "eval-stride", "must be at least 1");
    cli::check_threads("--threads", s.crops.threads);
    std::vector<std::string> inputs = s.crops.positive_dirs;
    inputs.insert(inputs.end(), s.crops.negative_dirs.begin(), s.crops.negative_dirs.end());
    if (!s.evaluate.empty()) inputs.push_back(s.evaluate);
    check_training_outputs(s.crops.output, s.checkpoint, inputs);
}

// Everything that changes the checkpointed stages: data (file names) and settings, not threads or paths, nor
// the final stage's settings (it is trained after the last checkpoint, so a finished run resumes to try others).
std::string fingerprint(const Settings& s, const HogData& data) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    auto hash = [&h](const std::string& path) {
        for (unsigned char c : fs::path(path).filename().string() + "\n") h = (h ^ c) * 0x100000001b3ull;
    };
    for (const auto& p : data.train_positives) hash(p.path);
    for (const auto& n : data.train_negatives) hash(n.path);
    const auto& c = s.cascade;
    std::ostringstream out;
    out.precision(17);
    out << "data " << std::hex << h << std::dec << " positives " << data.train_positives.size() << " negatives "
        << data.train_negatives.size() << " margin " << data::margin_text(s.crops.margin) << " holdout " << s.crops.holdout
        << " calibration " << s.calibration << " jitter " << s.crops.jitter.copies << " " << s.crops.jitter.shift << " "
        << s.crops.jitter.scale << " seed " << c.stage.seed
        << " min-hit-rate " << c.stage.min_hit_rate << " max-false-alarm " << c.stage.max_false_alarm
        << " blocks-per-round " << c.stage.blocks_per_round << " bins " << c.stage.bins << " sum " << s.sum
        << " max-learners " << c.stage.max_weaks << " svm-c "
        << c.stage.svm.c << " resample-factor " << c.stage.resample_factor << " negatives-per-stage "
        << c.mining.count << " negatives-per-image " << c.mining.per_image << " mine-scale " << c.mining.scale_factor
        << " mine-stride " << c.mining.stride << " min-negatives " << c.min_negatives;
    return out.str();
}

void report_evaluation(const Evaluation& e, const Settings& s, data::Progress& progress) {
    progress.log("held-out evaluation: " + std::to_string(e.positives) + " positive windows, " +
                 std::to_string(e.windows) + " negative windows in " + std::to_string(e.images) +
                 " images (stride " + std::to_string(s.eval_stride) + ", scale factor " + cli::real_text(s.eval_scale) + ")");
    for (const auto& d : e.depths) {
        char line[160];
        std::snprintf(line, sizeof line, "  %2d stages: hit rate %.4f, miss rate %.4f, FPPW %.3g", d.stages, d.hit_rate,
                      1.0 - d.hit_rate, d.fppw);
        progress.log(line);
    }
    char line[200];
    std::snprintf(line, sizeof line, "  blocks evaluated per negative window: %.2f; rejected within 4 stages: %s",
                  e.blocks_per_window, cli::percent_text(e.rejected_within(4), 2).c_str());
    progress.log(line);
    const double miss = e.miss_rate_at(1e-4);
    progress.log(std::isnan(miss) ? "  miss rate at 1e-4 FPPW: not reached (the whole cascade is above 1e-4 FPPW)"
                                  : "  miss rate at 1e-4 FPPW: " + cli::percent_text(miss, 2));
}

void train_and_report(const Settings& s, const data::ProgressListener& listener) {
    data::Progress progress(kProgressUnit, kProgressUnits, listener);
    const Size window = s.cascade.window;
    const HogData data =
        find_hog_data(s.crops.positive_dirs, s.crops.negative_dirs, window, s.crops.holdout, s.cascade.stage.seed, s.crops.threads, s.crops.group_by);
    progress.log("data: " + std::to_string(data.train_positives.size()) + " training and " +
                 std::to_string(data.held_positives.size()) + " held-out positive crops, " +
                 std::to_string(data.train_negatives.size()) + " training and " +
                 std::to_string(data.held_negatives.size()) + " held-out negative images (holdout " + cli::real_text(s.crops.holdout) +
                 ", by source photo grouped by " + data::group_by_name(s.crops.group_by) + ", seed " +
                 std::to_string(s.cascade.stage.seed) + ")");

    ScanParams scan;
    scan.pyramid.scale_factor = s.eval_scale;
    scan.rule.stride = s.eval_stride;
    scan.threads = s.crops.threads;
    auto evaluate_held_out = [&](const HogCascade& cascade) {
        if (data.held_positives.empty() || data.held_negatives.empty()) return false;
        report_evaluation(evaluate(cascade,
                                              load_positive_windows(data.held_positives, cascade.window, s.crops.margin, s.crops.threads),
                                              data.held_negatives, scan),
                          s, progress);
        return true;
    };
    if (!s.evaluate.empty()) {
        const Model model = load_model(s.evaluate);
        const auto* hog = std::get_if<HogCascade>(&model.cascade);
        if (!hog) throw InputError(s.evaluate, "is not a HoG cascade");
        if (!evaluate_held_out(*hog)) throw InputError("--holdout", "leaves no held-out positives or negative images to evaluate on");
        return;
    }

    std::vector<data::PositiveSource> fitting, calibrating;
    split_calibration(data.train_positives, s.calibration, s.cascade.stage.seed, fitting, calibrating);
    data::Jitter jitter = s.crops.jitter;
    jitter.seed = s.cascade.stage.seed;
    WindowSet positives = load_positive_windows(fitting, window, s.crops.margin, s.crops.threads, jitter);
    WindowSet calibration = load_positive_windows(calibrating, window, s.crops.margin, s.crops.threads);
    if (!calibrating.empty())
        progress.log("calibration: " + std::to_string(calibrating.size()) + " of the training crops (--calibration " +
                     cli::real_text(s.calibration) + ", by source photo) set the boosted stages' thresholds, " +
                     std::to_string(fitting.size()) + " fit the learners");
    progress.log("loaded in " + cli::duration_text(progress.elapsed()));

    CascadeOptions options = s.cascade;
    options.checkpoint_dir = s.checkpoint;
    options.resume = s.resume;
    options.fingerprint = fingerprint(s, data);
    options.policy = s.sum == "running" ? SumPolicy::running : SumPolicy::per_stage;
    options.stage.threads = options.mining.threads = options.final_svm.threads = s.crops.threads;
    options.mining.seed = options.stage.seed;
    options.final_svm.descriptor = s.final_descriptor == "dalal-triggs"         ? kHogDescriptorDalalTriggs
                                   : s.final_descriptor == "dalal-triggs-gamma" ? kHogDescriptorDalalTriggsGamma
                                                                                : kHogDescriptorIntegral;
    options.final_mining = options.mining;
    options.final_mining.scale_factor = s.final_mine_scale;
    options.final_mining.stride = s.final_mine_stride;
    const TrainingOutcome outcome =
        train_cascade(std::move(positives), data.train_negatives, options, progress, std::move(calibration));
    if (outcome.cascade.stages.empty())
        throw InputError(s.crops.output, "not written: no stage could be trained (" + outcome.stop_reason + ")");
    save_model(Model{outcome.cascade, s.crops.output}, s.crops.output);

    std::string per_stage;
    for (const auto& st : outcome.stages) per_stage += (per_stage.empty() ? "" : " ") + std::to_string(st.learners);
    progress.log("wrote " + s.crops.output + ": " + std::to_string(outcome.cascade.stages.size()) + " stages, " +
                 std::to_string(outcome.cascade.weaks.size()) + " learners (per stage: " + per_stage + "); stopped: " +
                 outcome.stop_reason + "; training time " + cli::duration_text(outcome.seconds));
    evaluate_held_out(outcome.cascade);
}

}  // namespace

bool run(int argc, const char* const* argv, const data::ProgressListener& listener) {
    Settings s;
    auto& c = s.cascade;
    po::options_description options("Options");
    // clang-format off
    options.add_options()
        ("help,h", "show this help");
    add_crop_training_options(options, s.crops);
    options.add_options()
        ("evaluate", po::value(&s.evaluate), "evaluate this HoG model on the held-out data instead of training")
        ("calibration", po::value(&s.calibration)->default_value(0.0), "fraction of the training photos whose crops only set the boosted stages' thresholds (0: none)")
        ("seed", po::value(&c.stage.seed)->default_value(1), "seed of every random choice")
        ("stages", po::value(&c.max_stages)->default_value(30), "maximum number of stages")
        ("target-false-alarm", po::value(&c.target_false_alarm)->default_value(5e-5), "stop when the stages' false-alarm rates multiply to this")
        ("min-hit-rate", po::value(&c.stage.min_hit_rate)->default_value(0.99), "d_min: positives each stage keeps")
        ("max-false-alarm", po::value(&c.stage.max_false_alarm)->default_value(0.65), "f_max: negatives each stage may pass")
        ("blocks-per-round", po::value(&c.stage.blocks_per_round)->default_value(125), "blocks sampled (one SVM each) per boosting round")
        ("bins", po::value(&c.stage.bins)->default_value(0), "weak learners' response: 0 discrete AdaBoost (+-vote), 2..8 real AdaBoost over that many bins of the SVM's projection")
        ("sum", po::value(&s.sum)->default_value("per-stage"), "per-stage (each stage sums its own learners) or running (each stage continues the sum of the stages before: a soft cascade)")
        ("max-learners", po::value(&c.stage.max_weaks)->default_value(200), "most weak learners in one stage")
        ("svm-c", po::value(&c.stage.svm.c)->default_value(1.0), "liblinear's C for the block SVMs")
        ("resample-factor", po::value(&c.stage.resample_factor)->default_value(1.0), "SVM instances drawn by weight, per sample")
        ("negatives-per-stage", po::value(&c.mining.count)->default_value(2000), "negatives mined before each stage")
        ("negatives-per-image", po::value(&c.mining.per_image)->default_value(8), "most negatives kept from one image per stage")
        ("min-negatives", po::value(&c.min_negatives)->default_value(200), "stop training when mining finds fewer")
        ("final-negatives", po::value(&c.final_negatives)->default_value(0), "negatives mined for a last stage of one linear SVM over a 16x16 block grid (0: none)")
        ("final-svm-c", po::value(&c.final_svm.svm.c)->default_value(0.01), "liblinear's C for the last stage's SVM")
        ("final-svm-bias", po::value(&c.final_svm.svm.bias_feature)->default_value(1.0), "the last stage's constant bias feature (liblinear's -B): larger regularises the bias less")
        ("final-min-hit-rate", po::value(&c.final_svm.min_hit_rate)->default_value(0.99), "positives the last stage keeps")
        ("final-grids", po::value<std::string>()->default_value("16/8")->notifier([&c](const std::string& t) {
             c.final_svm.grids = parse_grids("--final-grids", t);
         }), "the last stage's blocks: grids BLOCK/STRIDE, comma-separated (16/8: Dalal and Triggs' 105 blocks)")
        ("final-descriptor", po::value(&s.final_descriptor)->default_value("integral"), "the last stage's block descriptor: integral (our integral-histogram blocks), dalal-triggs (Dalal and Triggs': Gaussian-weighted, trilinear votes, L2-Hys; 16x16 grids only) or dalal-triggs-gamma (the same on the square-root gamma-corrected image, as OpenCV's people detector)")
        ("final-lbp-histograms", po::bool_switch(&c.final_svm.lbp_histograms), "the last stage's SVM also over the uniform-LBP histograms (59 bins, L1-sqrt) of the window's non-overlapping 16x16 cells (HOG-LBP, Wang, Han and Yan 2009): two learners a cell")
        ("final-rounds", po::value(&c.final_svm.rounds)->default_value(1), "bootstrapping rounds of the last stage: each after the first adds --final-negatives more, mined with its SVM at its margin, and trains it again")
        ("final-mine-scale", po::value(&s.final_mine_scale)->default_value(1.1), "pyramid scale factor for the last stage's mining")
        ("final-mine-stride", po::value(&s.final_mine_stride)->default_value(8), "window stride for the last stage's mining")
        ("mine-scale", po::value(&c.mining.scale_factor)->default_value(1.1), "pyramid scale factor for mining")
        ("mine-stride", po::value(&c.mining.stride)->default_value(8), "window stride for mining (random offset per level)")
        ("eval-scale", po::value(&s.eval_scale)->default_value(1.1), "pyramid scale factor of the held-out scan")
        ("eval-stride", po::value(&s.eval_stride)->default_value(kHogSparseStride), "window stride of the held-out scan")
        ("checkpoint", po::value(&s.checkpoint), "folder for a checkpoint after every stage")
        ("resume", po::bool_switch(&s.resume), "continue from --checkpoint");
    // clang-format on
    po::variables_map vm;
    if (!parse_command_line(argc, argv, options, kUsage, vm)) return false;
    check(s);
    train_and_report(s, listener);
    return true;
}

}  // namespace cascade::train::hog
