// The HoG trainer's checkpoint (train/hog/hog_checkpoint.hpp): a folder with state.txt and cascade.xml; the
// input holds both (harness.hpp write_split).
#include <filesystem>

#include "fuzz/harness.hpp"
#include "train/hog/hog_checkpoint.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace cascade;
    static const std::string dir = [] {
        const std::string made = fuzz::scratch_dir() + "/hog_checkpoint";
        std::filesystem::create_directories(made);
        return made;
    }();
    fuzz::write_split(data, size, dir + "/state.txt", dir + "/cascade.xml");
    HogCascade cascade;
    fuzz::accept_input_errors([&] { train::hog::read_hog_checkpoint(dir, cascade); });
    return 0;
}
