// The HoG trainer's checkpoint (train/stage_checkpoint.hpp): a folder with state.txt and cascade.xml
// (checkpoint_input.hpp).
#include <filesystem>

#include "fuzz/checkpoint_input.hpp"
#include "fuzz/harness.hpp"
#include "train/stage_checkpoint.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace cascade;
    static const std::string dir = [] {
        const std::string made = fuzz::scratch_dir() + "/hog_checkpoint";
        std::filesystem::create_directories(made);
        return made;
    }();
    HogCascade cascade;
    fuzz::read_checkpoint_input(data, size, dir + "/state.txt", dir + "/cascade.xml",
                                [&] { train::read_stage_checkpoint(dir, "cascade-train-hog", cascade); });
    return 0;
}
