// The trainers' parts without real data: thresholds, backward pruning, weights, the random permutation, the
// feature pool, checkpoint files, option checks, and bad input (a one-line message; cascade-train exits
// non-zero). The data readers are tested in tests/data.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits>
#include <set>

#include "cli/usage_error.hpp"
#include "common/error.hpp"
#include "tests/support/scratch_files.hpp"
#include "train/backward_pruning.hpp"
#include "train/boost_weights.hpp"
#include "train/checkpoint_file.hpp"
#include "train/index_permutation.hpp"
#include "train/lbp/code_bins.hpp"
#include "train/lbp/code_table.hpp"
#include "train/lbp/feature_pool.hpp"
#include "train/lbp/lbp_trainer.hpp"
#include "train/lbp/weak_fit.hpp"
#include "train/wald_threshold.hpp"

namespace fs = std::filesystem;
using namespace cascade;
using namespace cascade::train;
using namespace cascade::train::lbp;
using cascade::test::input_error;
using cascade::test::ScratchDir;
using cascade::test::write_noise_png;

TEST_CASE("SPRT threshold: rejects below every positive for free, a positive only where negatives dominate") {
    RejectionInput in;
    in.positives = {1.0, 2.0, 3.0, 4.0};
    in.negatives = {-3.0, -2.0, 0.0, 0.5, 1.5, 2.5, 5.0};
    in.alpha = 0.5;  // a threshold may reject a positive where negatives below it outnumber positives 2:1
    in.budget = 4;
    const Rejection r = sprt_rejection(in);
    // At 2.0: 1/4 of the positives and 5/7 of the negatives lie below: 5/7 * 0.5 >= 1/4. At 3.0: 2/4 against
    // 6/7 * 0.5: not allowed.
    CHECK(r.threshold == 2.0f);
    CHECK(r.positives == 1);
    CHECK(r.negatives == 5);
    in.budget = 0;  // no budget: only below every positive
    CHECK(sprt_rejection(in).threshold == 1.0f);
    CHECK(final_rejection(in, 1.0f).threshold == 1.0f);
    in.budget = 2;
    CHECK(final_rejection(in, 1.0f).threshold == 3.0f);  // the last stage spends the budget without a ratio test
}

TEST_CASE("float_floor keeps the double it was taken from") {
    for (double v : {0.1, -0.1, 1.0 / 3.0, -2.0 / 3.0, 1e-30, 12345.678901234})
        CHECK(static_cast<double>(float_floor(v)) <= v);
    CHECK(float_floor(0.5) == 0.5f);
    CHECK(rejection_budget(0.05, 400, 99, 100) == 20);
    CHECK(rejection_budget(0.05, 400, 49, 100) == 10);
}

TEST_CASE("backward pruning keeps exactly the positives the full classifier keeps") {
    // Four positives, three stages; alpha 0.25 drops the one with the lowest final sum (the last).
    const std::vector<std::vector<double>> sums = {
        {1.0, 2.0, 3.0}, {-1.0, 0.5, 2.5}, {0.5, -0.5, 4.0}, {2.0, 1.0, 0.0}};
    const std::vector<float> t = backward_pruning_thresholds(sums, 0.25);
    REQUIRE(t.size() == 3);
    CHECK(t[2] == 2.5f);
    CHECK(t[0] == -1.0f);  // lowest first-stage sum among the three kept; the dropped one does not count
    CHECK(t[1] == -0.5f);
}

TEST_CASE("backward pruning with acceptance thresholds: accepted positives are kept and bound no later stage") {
    // P0 reaches stage 0's acceptance threshold 2.0 (2.5 >= 2.0): decided there, so its low later sums do not
    // count. Finals with P0 as +inf: 0.0 (P3), 2.5, 3.0, +inf; alpha 0.25 drops one, P3, so the last threshold
    // is 2.5. Stage 0: lowest of P0, P1, P2 = -1.0; stage 1: lowest of P1, P2 (P0 decided) = 0.5. Without the
    // acceptance threshold P0's final -5.0 would be the one dropped (last threshold 0.0).
    const std::vector<std::vector<double>> sums = {
        {2.5, -3.0, -5.0}, {1.0, 2.0, 3.0}, {-1.0, 0.5, 2.5}, {0.5, 1.5, 0.0}};
    const float none = std::numeric_limits<float>::infinity();
    CHECK(backward_pruning_thresholds(sums, 0.25) == std::vector<float>{-1.0f, 0.5f, 0.0f});
    CHECK(backward_pruning_thresholds(sums, 0.25, {2.0f, none, none}) == std::vector<float>{-1.0f, 0.5f, 2.5f});

    // Every positive accepted at stage 0 (acceptance -2.0 is below all their first sums): stage 0's threshold
    // must still lie below its acceptance threshold, and the stages no positive reaches undecided get the
    // largest float, never +inf (a model's thresholds are finite).
    const std::vector<float> all = backward_pruning_thresholds(sums, 0.25, {-2.0f, none, none});
    CHECK(all[0] < -2.0f);
    CHECK(all[0] == std::nextafter(-2.0f, -none));
    CHECK(all[1] == std::numeric_limits<float>::max());
    CHECK(all[2] == std::numeric_limits<float>::max());
}

TEST_CASE("weights: exp(-yH) per class summing to 1/2, trimming drops the lightest, deterministically") {
    const std::vector<double> w = class_weights({0.0, 1.0, 900.0}, +1);  // 900 would overflow a plain exp(-H)
    CHECK(w[0] + w[1] + w[2] == doctest::Approx(0.5));
    CHECK(w[0] / w[1] == doctest::Approx(std::exp(1.0)));
    const std::vector<double> n = class_weights({0.0, 1.0}, -1);
    CHECK(n[1] / n[0] == doctest::Approx(std::exp(1.0)));
    CHECK(trim_weights({0.4, 0.01, 0.3, 0.29}, 0.02) == std::vector<int>{0, 2, 3});
    CHECK(trim_weights({0.25, 0.25, 0.25, 0.25}, 0.3) == std::vector<int>{0, 1, 2});  // ties by index
    CHECK(trim_weights({0.4, 0.01}, 0.0).size() == 2);
}

TEST_CASE("the miner's index permutation visits every index once") {
    for (std::uint64_t n : {1ull, 2ull, 7ull, 1000ull, 4097ull}) {
        const IndexPermutation p(n, 42);
        std::set<std::uint64_t> seen;
        for (std::uint64_t i = 0; i < n; ++i) seen.insert(p(i));
        CHECK(seen.size() == n);
        CHECK(*seen.rbegin() == n - 1);
    }
}

TEST_CASE("feature pool: distinct features inside the window, all of them when asked for more") {
    CHECK(count_lbp_features({3, 3}) == 1);
    CHECK(count_lbp_features({24, 24}) == 8464);
    const auto all = sample_lbp_features({24, 24}, 100000, 1);
    CHECK(all.size() == 8464);
    const auto pool = sample_lbp_features({64, 128}, 5000, 7);
    REQUIRE(pool.size() == 5000);
    std::set<std::tuple<int, int, int, int>> distinct;
    for (const LbpFeature& f : pool) {
        CHECK(f.x + 3 * f.width <= 64);
        CHECK(f.y + 3 * f.height <= 128);
        distinct.insert({f.x, f.y, f.width, f.height});
    }
    CHECK(distinct.size() == pool.size());
    CHECK(sample_lbp_features({64, 128}, 5000, 7).front().x == pool.front().x);  // same seed, same pool
}

TEST_CASE("feature pool: a minimum cell size leaves the smaller cells out") {
    // Cells of 2..8 px on 24x24: (25 - 3w) positions across for w = 2..8, as many down: 70 x 70.
    CHECK(count_lbp_features({24, 24}, 2) == 4900);
    CHECK(sample_lbp_features({24, 24}, 100000, 1, 2).size() == 4900);
    const auto pool = sample_lbp_features({64, 128}, 5000, 7, 4);
    REQUIRE(pool.size() == 5000);
    int smallest = 64;
    for (const LbpFeature& f : pool) {
        smallest = std::min<int>(smallest, std::min(f.width, f.height));
        CHECK(f.x + 3 * f.width <= 64);
        CHECK(f.y + 3 * f.height <= 128);
    }
    CHECK(smallest == 4);
    LbpTrainConfig c;
    c.min_cell = 22;  // three 22-px cells do not fit across 64 px
    CHECK(input_error([&] { validate(c); }).find("--min-cell: ") == 0);
}

TEST_CASE("code bins: 256 are the codes themselves, 59 give each uniform code a bin, the rest one") {
    const CodeBins all = code_bins(256);
    for (int c = 0; c < kLbpCodes; ++c) CHECK(all.bin[static_cast<std::size_t>(c)] == c);
    const CodeBins uniform = code_bins(59);
    CHECK(uniform.count == 59);
    std::vector<int> size(59, 0);
    for (std::uint8_t b : uniform.bin) ++size[b];
    CHECK(std::count(size.begin(), size.begin() + 58, 1) == 58);
    CHECK(size[58] == 198);
    // Uniform: no transition, one run of ones (also across bit 7 to bit 0); not: more than two transitions.
    for (int c : {0x00, 0xff, 0x0f, 0x81, 0x38}) CHECK(uniform.bin[static_cast<std::size_t>(c)] != 58);
    for (int c : {0x55, 0x05, 0x99}) CHECK(uniform.bin[static_cast<std::size_t>(c)] == 58);
    LbpTrainConfig c;
    c.code_bins = 58;
    CHECK(input_error([&] { validate(c); }).find("--code-bins: ") == 0);
}

TEST_CASE("LBP weak learner: responses 1/2 ln((W+ + eps) / (W- + eps)) times the shrinkage, the same feature") {
    // Eight 9x9 windows, a pool of every 3x3-cell feature; four positives (slots 0-3), four negatives.
    const std::vector<LbpFeature> pool = sample_lbp_features({9, 9}, 1000, 1);
    std::vector<GrayImage> windows;
    for (int i = 0; i < 8; ++i) {
        GrayImage w(9, 9);
        for (std::size_t p = 0; p < w.pixels.size(); ++p)
            w.pixels[p] = static_cast<std::uint8_t>((p * static_cast<std::size_t>(i + 3) * 37) % 251);
        windows.push_back(w);
    }
    CodeTable codes(static_cast<int>(pool.size()), 8);
    codes.fill(pool, {0, 1, 2, 3, 4, 5, 6, 7}, windows, 1);
    const WeightedSlots all{{0, 1, 2, 3}, {0.1, 0.1, 0.2, 0.1}, {4, 5, 6, 7}, {0.125, 0.125, 0.125, 0.125}};
    const LbpWeakFit full = fit_lbp_weak(codes, all, all, {code_bins(256), 2.0, 1.0, 0.0}, 1);
    const LbpWeakFit half = fit_lbp_weak(codes, all, all, {code_bins(256), 2.0, 0.5, 0.0}, 1);
    CHECK(half.feature == full.feature);
    const double eps = 2.0 / 8;
    std::array<double, kLbpCodes> positive{}, negative{};
    for (int i = 0; i < 4; ++i) {
        positive[codes.code(full.feature, i)] += all.positive_weights[static_cast<std::size_t>(i)];
        negative[codes.code(full.feature, i + 4)] += all.negative_weights[static_cast<std::size_t>(i)];
    }
    for (int c = 0; c < kLbpCodes; ++c) {
        const double h = 0.5 * std::log((positive[c] + eps) / (negative[c] + eps));
        CHECK(full.responses[static_cast<std::size_t>(c)] == doctest::Approx(h).epsilon(1e-6));
        CHECK(half.responses[static_cast<std::size_t>(c)] == doctest::Approx(h / 2).epsilon(1e-6));
    }
    // With 59 bins, every code gets its bin's response from the weights of all the bin's codes.
    const CodeBins bins = code_bins(59);
    const LbpWeakFit binned = fit_lbp_weak(codes, all, all, {bins, 2.0, 1.0, 0.0}, 1);
    std::array<double, 59> bin_positive{}, bin_negative{};
    for (int i = 0; i < 4; ++i) {
        bin_positive[bins.bin[codes.code(binned.feature, i)]] += all.positive_weights[static_cast<std::size_t>(i)];
        bin_negative[bins.bin[codes.code(binned.feature, i + 4)]] += all.negative_weights[static_cast<std::size_t>(i)];
    }
    for (int c = 0; c < kLbpCodes; ++c) {
        const int b = bins.bin[static_cast<std::size_t>(c)];
        const double h = 0.5 * std::log((bin_positive[b] + eps) / (bin_negative[b] + eps));
        CHECK(binned.responses[static_cast<std::size_t>(c)] == doctest::Approx(h).epsilon(1e-6));
    }
    // With a bin prior of 3, a code's response times n / (n + 3), n the samples with that code.
    const LbpWeakFit damped = fit_lbp_weak(codes, all, all, {code_bins(256), 2.0, 1.0, 3.0}, 1);
    std::array<double, kLbpCodes> damped_positive{}, damped_negative{};
    std::array<int, kLbpCodes> samples{};
    for (int i = 0; i < 4; ++i) {
        const int p = codes.code(damped.feature, i), q = codes.code(damped.feature, i + 4);
        damped_positive[p] += all.positive_weights[static_cast<std::size_t>(i)];
        damped_negative[q] += all.negative_weights[static_cast<std::size_t>(i)];
        ++samples[p];
        ++samples[q];
    }
    for (int c = 0; c < kLbpCodes; ++c) {
        const double n = samples[c];
        const double h = n / (n + 3.0) * 0.5 * std::log((damped_positive[c] + eps) / (damped_negative[c] + eps));
        CHECK(damped.responses[static_cast<std::size_t>(c)] == doctest::Approx(h).epsilon(1e-6));
    }
    for (const double bad : {0.0, 1.5}) {
        LbpTrainConfig c;
        c.shrinkage = bad;
        CHECK(input_error([&] { validate(c); }).find("--shrinkage: must lie in (0, 1]") == 0);
    }
    LbpTrainConfig c;
    c.bin_prior = -1.0;
    CHECK(input_error([&] { validate(c); }).find("--bin-prior: ") == 0);
}

TEST_CASE("checkpoint files: reals read back bit-identical, a wrong kind is refused") {
    ScratchDir dir("ckpt");
    StateWriter out("test-kind", 3);
    out.real("x", 0.1);
    out.integer("n", -42);
    out.text("slot", "1 2 3 4");
    out.text("slot", "-");
    out.write(dir.file("state"));
    const StateReader in(dir.file("state"), "test-kind", 3);
    CHECK(in.real("x") == 0.1);
    CHECK(in.integer("n", -100, 100) == -42);
    CHECK(in.all("slot") == std::vector<std::string>{"1 2 3 4", "-"});
    CHECK_THROWS_AS(in.text("missing"), InputError);
    CHECK_THROWS_AS(StateReader(dir.file("state"), "other-kind", 3), InputError);
    // Counts and reals are checked: a negative count, a number out of its range.
    CHECK(input_error([&] { in.integer("n"); }) == dir.file("state") + ": entry 'n' -42 is out of range");
    CHECK(input_error([&] { in.real("x", 0.5, 1.0); }).find("entry 'x' 0x1.999999999999ap-4 is not finite or out of "
                                                              "range") != std::string::npos);
}

TEST_CASE("checkpoint files: a checksum over the content refuses a changed byte, NaN is refused where set") {
    ScratchDir dir("ckpt-sum");
    StateWriter out("test-kind", 1);
    out.integer("weak_learners", 37);
    out.real("rate", std::nan(""));
    out.write(dir.file("state"));
    std::ifstream file(dir.file("state"));
    const std::string content((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    REQUIRE(content.find("weak_learners 37\n") != std::string::npos);
    const StateReader good(dir.file("state"), "test-kind", 1);
    CHECK(input_error([&] { good.real("rate"); }).find("entry 'rate' nan is not finite") != std::string::npos);

    const auto write = [&](const std::string& text) { std::ofstream(dir.file("bad"), std::ios::binary) << text; };
    write(content.substr(0, content.find("37")) + "39" + content.substr(content.find("37") + 2));  // a flipped count
    const std::string changed = input_error([&] { StateReader(dir.file("bad"), "test-kind", 1); });
    CHECK(changed == dir.file("bad") + ": its checksum does not match its content: it was changed or damaged "
                                       "(start afresh without --resume)");
    write(content.substr(0, content.find("checksum ")));  // no checksum
    CHECK(input_error([&] { StateReader(dir.file("bad"), "test-kind", 1); }) == changed);
}

TEST_CASE("LBP trainer options: contradictory or out-of-range targets are usage errors") {
    LbpTrainConfig c;
    c.alpha = 0.3;
    c.target_fpr = 0.8;  // not below the detection rate 0.7 it would go with
    CHECK_THROWS_AS(validate(c), cli::UsageError);
    CHECK(input_error([&] { validate(c); }).find("--target-fpr: contradicts --alpha") == 0);
    c = LbpTrainConfig{};
    c.alpha = 1.0;
    CHECK(input_error([&] { validate(c); }).find("--alpha") == 0);
    c = LbpTrainConfig{};
    c.resume = true;
    CHECK(input_error([&] { validate(c); }).find("--resume") == 0);
}

// cascade-train beside this test binary (build/tests/X -> build/train/cascade-train).
std::string cascade_train() {
    return (fs::read_symlink("/proc/self/exe").parent_path().parent_path() / "train" / "cascade-train").string();
}

// Runs a command line; returns the exit status and stderr.
std::pair<int, std::string> run(const std::string& command, const ScratchDir& dir) {
    const int status = std::system((command + " >/dev/null 2>" + dir.file("stderr")).c_str());
    std::ifstream in(dir.file("stderr"));
    std::string err((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return {WEXITSTATUS(status), err};
}

TEST_CASE("cascade-train exits non-zero with one line on bad input and bad options") {
    const std::string exe = cascade_train();
    if (!fs::exists(exe)) {
        MESSAGE("SKIP: " << exe << " not built");
        return;
    }
    ScratchDir dir("cli");
    fs::create_directories(dir.file("empty"));
    fs::create_directories(dir.file("neg"));
    write_noise_png(dir.file("neg/a.png"), 320, 240, 6);
    const std::string base = exe + " lbp --neg " + dir.file("neg") + " --output " + dir.file("m.xml");
    auto [status, err] = run(base + " --pos " + dir.file("empty"), dir);
    CHECK(status == 1);
    CHECK(std::count(err.begin(), err.end(), '\n') == 1);
    CHECK(err.find("folder holds no image files") != std::string::npos);
    std::tie(status, err) = run(base + " --pos " + dir.file("empty") + " --alpha 2", dir);
    CHECK(status == 2);
    CHECK(err == "cascade-train lbp: error: --alpha: the target miss rate must lie in (0, 1)\n");
    std::tie(status, err) = run(exe + " lbq", dir);
    CHECK(status == 2);
    CHECK(!fs::exists(dir.file("m.xml")));
}

TEST_CASE("cascade-train lbp refuses nonsense numbers and unwritable or overwriting outputs before training") {
    const std::string exe = cascade_train();
    if (!fs::exists(exe)) {
        MESSAGE("SKIP: " << exe << " not built");
        return;
    }
    ScratchDir dir("cli-numbers");
    fs::create_directories(dir.file("neg"));
    fs::create_directories(dir.file("pos"));
    write_noise_png(dir.file("neg/a.png"), 320, 240, 6);
    write_noise_png(dir.file("pos/crop000001a.png"), 96, 160, 7);
    std::ofstream(dir.file("pos.lst")) << "pos/crop000001a.png\n";
    const std::string data = " --pos " + dir.file("pos") + " --neg " + dir.file("neg");
    const std::string base = exe + " lbp" + data + " --output " + dir.file("m.xml") + " ";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {base + "--smoothing inf", "--smoothing: 'inf' is not a finite number"},
        {base + "--holdout nan", "--holdout: 'nan' is not a finite number"},
        {base + "--threads -1", "--threads: -1 is out of range (0 for all cores, or 1..4096)"},
        {base + "--threads 100000", "--threads: 100000 is out of range (0 for all cores, or 1..4096)"},
        {base + "--seed -1", "--seed: '-1' is negative"},
        {base + "--padding -1", "--padding: must lie in [0, 10]"},
        {exe + " lbp --neg " + dir.file("neg") + " --output " + dir.file("m.xml"), "--pos: is required"},
        {exe + " lbp" + data + " --checkpoint none --output " + dir.file("missing/m.xml"),
         "--output: folder '" + dir.file("missing") + "' does not exist"},
        {exe + " lbp --pos " + dir.file("pos.lst") + " --neg " + dir.file("neg") + " --output " + dir.file("pos.lst"),
         "--output: '" + dir.file("pos.lst") + "' is an input; it would be overwritten"},
        {base + "--checkpoint " + dir.file("m.xml"),
         "--checkpoint: '" + dir.file("m.xml") + "' is the --output file; it would be overwritten"},
    };
    for (const auto& [command, message] : cases) {
        const std::string line = command;  // CAPTURE's lambda cannot capture a structured binding (C++17, clang)
        CAPTURE(line);
        const auto [status, err] = run(command, dir);
        CHECK(status == 2);
        CHECK(err == "cascade-train lbp: error: " + message + "\n");
    }
    std::ifstream list(dir.file("pos.lst"));
    CHECK(std::string((std::istreambuf_iterator<char>(list)), std::istreambuf_iterator<char>()) ==
          "pos/crop000001a.png\n");
    CHECK(!fs::exists(dir.file("m.xml")));
}
