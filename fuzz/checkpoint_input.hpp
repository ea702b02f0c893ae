// The input of a checkpoint harness: two files, the state (the bytes before the first NUL) and the model (the
// bytes after it; none without a NUL). Each input is read twice: the state as it is, then resealed (its last
// "checksum" line, if any, replaced by the right one, train/checkpoint_file.hpp), so that the checks behind
// the checksum see mutated content too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace cascade::fuzz {

// Writes the state to `state_path` and the model to `model_path` (or removes it), then calls `load`, once
// for each form of the state; InputError from `load` is an expected outcome.
void read_checkpoint_input(const std::uint8_t* data, std::size_t size, const std::string& state_path,
                           const std::string& model_path, const std::function<void()>& load);

}  // namespace cascade::fuzz
