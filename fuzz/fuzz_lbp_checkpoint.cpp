// The LBP trainer's checkpoint (train/lbp/lbp_checkpoint.hpp): the state file and the model so far
// (checkpoint_input.hpp).
#include "fuzz/checkpoint_input.hpp"
#include "fuzz/harness.hpp"
#include "fuzz/seed_settings.hpp"
#include "train/lbp/lbp_checkpoint.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace cascade;
    const std::string path = fuzz::scratch_dir() + "/checkpoint";
    fuzz::read_checkpoint_input(data, size, path, train::lbp::checkpoint_model_path(path),
                                [&] { train::lbp::load_lbp_checkpoint(path, fuzz::kSeedSettings); });
    return 0;
}
