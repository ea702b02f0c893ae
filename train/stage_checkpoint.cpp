#include "train/stage_checkpoint.hpp"

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "cli/number_text.hpp"
#include "common/error.hpp"
#include "common/model_io.hpp"
#include "train/checkpoint_file.hpp"

namespace fs = std::filesystem;

namespace cascade::train {

namespace {

constexpr int kStateVersion = 2;  // 2: checksum, model hash

// A stage statistic: a number in [low, high] (hit and false-alarm rates in [0, 1], learner counts >= 1).
double stage_number(const std::string& text, double low, double high, const StateReader& reader) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !(v >= low && v <= high))
        reader.fail("stage statistic '" + text + "' is not a number in [" + cli::real_text(low) + ", " +
                    cli::real_text(high) + "]");
    return v;
}

std::string file_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void read_cursor(const StateReader& reader, MiningCursor& cursor) {
    const std::vector<std::string> consumed = reader.all("consumed");
    if (consumed.empty()) return;
    cursor.next = static_cast<int>(reader.integer("next", 0, INT_MAX));
    for (const std::string& c : consumed) {
        char* end = nullptr;
        cursor.consumed.push_back(std::strtoll(c.c_str(), &end, 10));
        if (c.empty() || *end != '\0' || cursor.consumed.back() < 0) reader.fail("consumed '" + c + "' is not a count");
    }
}

}  // namespace

template <class Cascade>
void write_stage_checkpoint(const std::string& dir, const std::string& kind, const Cascade& cascade,
                            const StageCheckpoint& state) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw InputError(dir, "cannot create the checkpoint folder (" + ec.message() + ")");
    save_model(Model{cascade, dir + "/cascade.xml"}, dir + "/cascade.xml");
    StateWriter writer(kind, kStateVersion);
    writer.text("fingerprint", state.fingerprint);
    writer.text("model", text_hash(model_xml(Model{cascade, dir + "/cascade.xml"}, dir + "/cascade.xml")));
    writer.real("seconds", state.seconds);
    for (const StageSummary& s : state.stages) {
        writer.integer("stage_learners", s.learners);
        writer.real("stage_hit_rate", s.hit_rate);
        writer.real("stage_false_alarm", s.false_alarm);
    }
    if (!state.cursor.consumed.empty()) {
        writer.integer("next", state.cursor.next);
        for (long long consumed : state.cursor.consumed) writer.integer("consumed", consumed);
    }
    writer.write(dir + "/state.txt");
}

template <class Cascade>
StageCheckpoint read_stage_checkpoint(const std::string& dir, const std::string& kind, Cascade& cascade) {
    const StateReader reader(dir + "/state.txt", kind, kStateVersion);
    StageCheckpoint state;
    state.fingerprint = reader.text("fingerprint");
    state.seconds = reader.real("seconds");
    const std::vector<std::string> learners = reader.all("stage_learners"), hits = reader.all("stage_hit_rate"),
                                   alarms = reader.all("stage_false_alarm");
    if (hits.size() != learners.size() || alarms.size() != learners.size()) reader.fail("stage entries do not match");
    for (std::size_t i = 0; i < learners.size(); ++i)
        state.stages.push_back({static_cast<int>(stage_number(learners[i], 1, 1e9, reader)),
                                stage_number(hits[i], 0.0, 1.0, reader), stage_number(alarms[i], 0.0, 1.0, reader)});
    read_cursor(reader, state.cursor);
    const Model model = load_model(dir + "/cascade.xml");
    const auto* loaded = std::get_if<Cascade>(&model.cascade);
    if (!loaded) throw InputError(dir + "/cascade.xml", "is not a cascade of the kind " + kind + " trains");
    if (loaded->stages.size() < state.stages.size()) reader.fail("records more stages than cascade.xml holds");
    cascade = *loaded;
    cascade.stages.resize(state.stages.size());
    const Stage* last = cascade.stages.empty() ? nullptr : &cascade.stages.back();
    cascade.weaks.resize(last ? static_cast<std::size_t>(last->first + last->count) : 0);
    // The record is the hash of the text the writer wrote: this build's text of the cascade cut to the recorded
    // stages (cascade.xml may hold one more, written just before a kill), or the file itself as an earlier
    // build wrote it (another format_version: the same cascade, another text).
    const std::string& recorded = reader.text("model");
    if (text_hash(model_xml(Model{cascade, dir + "/cascade.xml"}, dir + "/cascade.xml")) != recorded &&
        text_hash(file_text(dir + "/cascade.xml")) != recorded)
        reader.fail("its model " + dir + "/cascade.xml is not the one it was written with");
    return state;
}

template <class Cascade>
StageCheckpoint start_stage_checkpoint(bool resume, const std::string& dir, const std::string& kind,
                                       const std::string& fingerprint, Cascade& cascade) {
    StageCheckpoint state;
    state.fingerprint = fingerprint;
    if (!resume) return state;
    state = read_stage_checkpoint(dir, kind, cascade);
    if (state.fingerprint != fingerprint)
        throw InputError(dir, "was written with other data or settings; resume needs the same (checkpoint: " +
                                  state.fingerprint + "; now: " + fingerprint + ")");
    return state;
}

template void write_stage_checkpoint(const std::string&, const std::string&, const HogCascade&, const StageCheckpoint&);
template void write_stage_checkpoint(const std::string&, const std::string&, const CovCascade&, const StageCheckpoint&);
template StageCheckpoint read_stage_checkpoint(const std::string&, const std::string&, HogCascade&);
template StageCheckpoint read_stage_checkpoint(const std::string&, const std::string&, CovCascade&);
template StageCheckpoint start_stage_checkpoint(bool, const std::string&, const std::string&, const std::string&,
                                                HogCascade&);
template StageCheckpoint start_stage_checkpoint(bool, const std::string&, const std::string&, const std::string&,
                                                CovCascade&);

}  // namespace cascade::train
