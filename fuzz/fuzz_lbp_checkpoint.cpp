// The LBP trainer's checkpoint (train/lbp/lbp_checkpoint.hpp): two files, the state and the model so far; the
// input holds both (harness.hpp write_split).
#include "fuzz/harness.hpp"
#include "fuzz/seed_settings.hpp"
#include "train/lbp/lbp_checkpoint.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace cascade;
    const std::string path = fuzz::scratch_dir() + "/checkpoint";
    fuzz::write_split(data, size, path, train::lbp::checkpoint_model_path(path));
    fuzz::accept_input_errors([&] { train::lbp::load_lbp_checkpoint(path, fuzz::kSeedSettings); });
    return 0;
}
