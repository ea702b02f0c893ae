// make_seeds OUT MODEL...: the seed corpora that tools/fuzz generates from real models (the repository's
// models/, OpenCV's cascades), each cut to its first stages so that a seed is small and fast to run:
//   OUT/fuzz_model_xml/   every model in the project's XML
//   OUT/fuzz_opencv_xml/  OpenCV cascades in their own XML (stages after the first ones removed)
//   OUT/fuzz_packed/      every model packed, as cascade-export writes it
//   OUT/fuzz_lbp_checkpoint/  a WaldBoost (running-sum) LBP model as the LBP trainer's checkpoint
//   OUT/fuzz_hog_checkpoint/  a HoG model as the HoG trainer's checkpoint
// Hand-written seeds for the text formats lie in fuzz/corpus/.
#include <tinyxml2.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "common/error.hpp"
#include "common/model_io.hpp"
#include "common/packed_model.hpp"
#include "fuzz/seed_settings.hpp"
#include "train/stage_checkpoint.hpp"

namespace fs = std::filesystem;
using namespace cascade;

namespace {

constexpr int kStages = 2;

template <class Cascade>
Cascade first_stages(Cascade c) {
    if (c.stages.size() <= kStages) return c;
    c.stages.resize(kStages);
    c.weaks.resize(static_cast<std::size_t>(c.stages.back().first + c.stages.back().count));
    if constexpr (std::is_same_v<Cascade, LbpCascade>) c.responses.resize(c.weaks.size() * kLbpCodes);
    if constexpr (std::is_same_v<Cascade, HaarCascade>) {
        const HaarTree& last = c.weaks.back();
        c.nodes.resize(static_cast<std::size_t>(last.first_node + last.node_count));
        c.leaves.resize(static_cast<std::size_t>(last.first_leaf + last.node_count + 1));
    }
    return c;
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_file(const fs::path& path, const std::string& bytes) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
}

// OpenCV's cascade XML with the stages after the first kStages removed (and stageNum saying so).
void write_opencv_seed(const std::string& source, const fs::path& out) {
    tinyxml2::XMLDocument doc;
    if (doc.LoadFile(source.c_str()) != tinyxml2::XML_SUCCESS) throw InputError(source, "cannot parse XML");
    tinyxml2::XMLElement* cascade = doc.RootElement()->FirstChildElement("cascade");
    tinyxml2::XMLElement* stages = cascade ? cascade->FirstChildElement("stages") : nullptr;
    if (!stages) throw InputError(source, "no <cascade><stages>");
    tinyxml2::XMLElement* keep = stages->FirstChildElement();
    for (int i = 1; keep && i < kStages; ++i) keep = keep->NextSiblingElement();
    while (keep && keep->NextSiblingElement()) stages->DeleteChild(keep->NextSiblingElement());
    if (tinyxml2::XMLElement* count = cascade->FirstChildElement("stageNum")) count->SetText(kStages);
    tinyxml2::XMLPrinter printer;
    doc.Print(&printer);
    write_file(out, printer.CStr());
}

// The LBP trainer's checkpoint of `cascade`, as fuzz_lbp_checkpoint reads it: state, NUL, model.
void write_lbp_checkpoint_seed(const LbpCascade& cascade, const fs::path& out) {
    train::lbp::LbpTrainingState state;
    state.cascade = cascade;
    state.cursor.next = 1;
    state.cursor.consumed = {12, 0, 7};
    state.pool = {train::NegativeWindow{0, 1, 8, 16}, std::nullopt, train::NegativeWindow{2, 0, 0, 4}};
    state.reach_at_refill = 0.25;
    state.pool_at_refill = 2;
    state.windows_scanned = 1000;
    state.negatives_mined = 2;
    const fs::path scratch = fs::temp_directory_path() / "cascade-make-seeds-checkpoint";
    train::lbp::save_lbp_checkpoint(scratch.string(), state, fuzz::kSeedSettings);
    const fs::path model = train::lbp::checkpoint_model_path(scratch.string());
    write_file(out, read_file(scratch) + std::string(1, '\0') + read_file(model));
    fs::remove(scratch);
    fs::remove(model);
}

// The HoG trainer's checkpoint of `cascade`, as fuzz_hog_checkpoint reads it: state.txt, NUL, cascade.xml.
void write_hog_checkpoint_seed(const HogCascade& cascade, const fs::path& out) {
    train::StageCheckpoint state;
    state.fingerprint = "seed 1, window 64x128";
    state.seconds = 12.5;
    for (const Stage& stage : cascade.stages) state.stages.push_back({stage.count, 0.9975, 0.5});
    const fs::path scratch = fs::temp_directory_path() / "cascade-make-seeds-hog-checkpoint";
    train::write_stage_checkpoint(scratch.string(), "cascade-train-hog", cascade, state);
    write_file(out, read_file(scratch / "state.txt") + std::string(1, '\0') + read_file(scratch / "cascade.xml"));
    fs::remove_all(scratch);
}

void write_seeds(const std::string& source, const fs::path& out) {
    const std::string name = fs::path(source).stem().string();
    Model model = load_model(source);
    std::visit([](auto& c) { c = first_stages(c); }, model.cascade);
    save_model(model, (out / "fuzz_model_xml" / (name + ".xml")).string());
    // Packing refuses an LBP histogram-SVM stage (CPU only); its XML seed above keeps it, the packed one drops it.
    if (auto* lbp = std::get_if<LbpCascade>(&model.cascade)) lbp->final_svm.reset();
    const std::vector<std::uint8_t> packed = pack_model(compile_model(model));
    write_file(out / "fuzz_packed" / (name + ".cpk"), std::string(packed.begin(), packed.end()));
    if (read_file(source).find("<opencv_storage") != std::string::npos)
        write_opencv_seed(source, out / "fuzz_opencv_xml" / (name + ".xml"));
    const auto* lbp = std::get_if<LbpCascade>(&model.cascade);
    if (lbp && lbp->policy == SumPolicy::running)
        write_lbp_checkpoint_seed(*lbp, out / "fuzz_lbp_checkpoint" / name);
    if (const auto* hog = std::get_if<HogCascade>(&model.cascade))
        write_hog_checkpoint_seed(*hog, out / "fuzz_hog_checkpoint" / name);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: make_seeds OUT MODEL...\n";
        return 2;
    }
    try {
        for (const char* dir : {"fuzz_model_xml", "fuzz_packed"}) fs::create_directories(fs::path(argv[1]) / dir);
        for (int i = 2; i < argc; ++i) write_seeds(argv[i], argv[1]);
    } catch (const std::exception& e) {
        std::cerr << "make_seeds: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
