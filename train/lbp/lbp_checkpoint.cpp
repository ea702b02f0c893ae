#include "train/lbp/lbp_checkpoint.hpp"

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <type_traits>

#include "common/error.hpp"
#include "common/model_io.hpp"
#include "train/checkpoint_file.hpp"

namespace cascade::train::lbp {

namespace {

constexpr const char* kKind = "cascade-train-lbp-checkpoint";
constexpr int kVersion = 2;  // 2: checksum, model hash, finished

void cut_tables(LbpCascade& cascade, long long weaks) {
    cascade.responses.resize(static_cast<std::size_t>(weaks) * kLbpCodes);
}

void cut_tables(HaarCascade& cascade, long long /*weaks: its trees, already cut, say where their tables end*/) {
    const HaarTree& last = cascade.weaks.back();
    cascade.nodes.resize(static_cast<std::size_t>(last.first_node + last.node_count));
    cascade.leaves.resize(static_cast<std::size_t>(last.first_leaf + last.node_count + 1));
}

// The first `weaks` weak learners of a cascade written later than the state, with the stages they make up
// (training only appends: whole stages of OpenCV-style cascades, one weak learner each for WaldBoost).
template <class Cascade>
Cascade first_weaks(Cascade cascade, long long weaks, const StateReader& state) {
    std::size_t stages = 0;
    while (stages < cascade.stages.size() &&
           cascade.stages[stages].first + cascade.stages[stages].count <= weaks)
        ++stages;
    const long long covered = stages == 0 ? 0 : cascade.stages[stages - 1].first + cascade.stages[stages - 1].count;
    if (static_cast<long long>(cascade.weaks.size()) < weaks || covered != weaks)
        state.fail("its model does not hold the " + std::to_string(weaks) + " weak learners it records in whole stages");
    cascade.weaks.resize(static_cast<std::size_t>(weaks));
    cascade.stages.resize(stages);
    cut_tables(cascade, weaks);
    return cascade;
}

}  // namespace

std::string checkpoint_model_path(const std::string& path) {
    return path + ".xml";
}

template <class Cascade>
std::string model_hash(const Cascade& cascade, const std::string& path) {
    return text_hash(model_xml(Model{cascade, path}, path));
}

template <class Cascade>
void save_checkpoint(const std::string& path, const TrainingState<Cascade>& state, const TrainingSettings& settings) {
    save_model(Model{state.cascade, checkpoint_model_path(path)}, checkpoint_model_path(path));
    StateWriter out(kKind, kVersion);
    for (const auto& [name, value] : settings) out.text("setting", name + " " + value);
    out.integer("weak_learners", static_cast<long long>(state.cascade.weaks.size()));
    out.text("model", model_hash(state.cascade, checkpoint_model_path(path)));
    if (!state.finished.empty()) out.text("finished", state.finished);
    out.integer("next", state.cursor.next);
    for (long long consumed : state.cursor.consumed) out.integer("consumed", consumed);
    out.real("reach_at_refill", state.reach_at_refill);
    out.integer("pool_at_refill", state.pool_at_refill);
    out.integer("windows_scanned", state.windows_scanned);
    out.integer("negatives_mined", state.negatives_mined);
    for (const auto& slot : state.pool)
        out.text("slot", slot ? std::to_string(slot->image) + " " + std::to_string(slot->level) + " " +
                                    std::to_string(slot->x) + " " + std::to_string(slot->y)
                              : "-");
    out.write(path);
}

template <class Cascade>
std::optional<TrainingState<Cascade>> load_checkpoint(const std::string& path, const TrainingSettings& settings) {
    if (!std::filesystem::exists(path)) return std::nullopt;
    const StateReader in(path, kKind, kVersion);
    const std::vector<std::string> recorded = in.all("setting");
    for (std::size_t i = 0; i < settings.size(); ++i) {
        const std::string wanted = settings[i].first + " " + settings[i].second;
        if (i >= recorded.size() || recorded[i] != wanted)
            in.fail("written under other settings: " + (i < recorded.size() ? recorded[i] : "(none)") + " there, " +
                    wanted + " here (resume with the original options and data, or start afresh)");
    }
    if (recorded.size() != settings.size()) in.fail("written under other settings (more of them)");

    TrainingState<Cascade> state;
    const Model model = load_model(checkpoint_model_path(path));
    const auto* cascade = std::get_if<Cascade>(&model.cascade);
    if (!cascade) in.fail(std::is_same<Cascade, LbpCascade>::value ? "its model is not an LBP cascade"
                                                                   : "its model is not a Haar cascade");
    state.cascade = first_weaks(*cascade, in.integer("weak_learners", 1, INT_MAX), in);
    if (model_hash(state.cascade, checkpoint_model_path(path)) != in.text("model"))
        in.fail("its model " + checkpoint_model_path(path) + " is not the one it was written with");
    state.cursor.next = static_cast<int>(in.integer("next", 0, INT_MAX));
    for (const std::string& consumed : in.all("consumed")) {
        char* end = nullptr;
        state.cursor.consumed.push_back(std::strtoll(consumed.c_str(), &end, 10));
        if (consumed.empty() || *end != '\0' || state.cursor.consumed.back() < 0)
            in.fail("malformed consumed count '" + consumed + "'");
    }
    state.reach_at_refill = in.real("reach_at_refill", 0.0, 1.0);
    state.pool_at_refill = static_cast<int>(in.integer("pool_at_refill", 0, INT_MAX));
    state.windows_scanned = in.integer("windows_scanned");
    state.negatives_mined = in.integer("negatives_mined");
    for (const std::string& slot : in.all("slot")) {
        if (slot == "-") {
            state.pool.emplace_back();
            continue;
        }
        std::istringstream fields(slot);
        NegativeWindow w;
        std::string rest;
        if (!(fields >> w.image >> w.level >> w.x >> w.y) || (fields >> rest) || w.image < 0 || w.level < 0 || w.x < 0 ||
            w.y < 0)
            in.fail("malformed slot '" + slot + "'");
        state.pool.emplace_back(w);
    }
    const std::vector<std::string> finished = in.all("finished");
    if (finished.size() > 1) in.fail("entry 'finished' is repeated");
    if (!finished.empty()) state.finished = finished.front();
    return state;
}

template void save_checkpoint(const std::string&, const TrainingState<LbpCascade>&, const TrainingSettings&);
template void save_checkpoint(const std::string&, const TrainingState<HaarCascade>&, const TrainingSettings&);
template std::optional<TrainingState<LbpCascade>> load_checkpoint(const std::string&, const TrainingSettings&);
template std::optional<TrainingState<HaarCascade>> load_checkpoint(const std::string&, const TrainingSettings&);

}  // namespace cascade::train::lbp
