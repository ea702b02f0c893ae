#include "fuzz/checkpoint_input.hpp"

#include <cstdio>
#include <cstring>

#include "fuzz/harness.hpp"
#include "train/checkpoint_file.hpp"

namespace cascade::fuzz {

namespace {

std::string resealed(std::string state) {
    const std::size_t last = state.rfind("\nchecksum ");
    if (last != std::string::npos) state.resize(last + 1);
    return state + "checksum " + train::text_hash(state) + "\n";
}

}  // namespace

void read_checkpoint_input(const std::uint8_t* data, std::size_t size, const std::string& state_path,
                           const std::string& model_path, const std::function<void()>& load) {
    const auto* nul = static_cast<const std::uint8_t*>(std::memchr(data, 0, size));
    const std::string state = text_of(data, nul ? static_cast<std::size_t>(nul - data) : size);
    if (nul)
        write_bytes(model_path, nul + 1, size - state.size() - 1);
    else
        std::remove(model_path.c_str());
    for (const std::string& form : {state, resealed(state)}) {
        write_bytes(state_path, reinterpret_cast<const std::uint8_t*>(form.data()), form.size());
        accept_input_errors(load);
    }
}

}  // namespace cascade::fuzz
