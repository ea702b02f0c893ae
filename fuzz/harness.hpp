// What the fuzz harnesses share (docs/fuzzing.md).
//
// The rule each harness checks: a parser given any bytes returns a result or throws InputError (which the tools
// turn into a one-line error naming the file); any other exception, a crash, a hang or a sanitizer report is a
// finding. An exception other than InputError leaves the harness uncaught, and libFuzzer records the abort.
//
// Parsers that read files get the input written to a file of this process's scratch folder, which also holds
// a few empty files that list and annotation entries can name (a.png, b.jpg, pos/c.png) and an INRIA annotation
// (people.txt), so that entries resolve and the parsers' later steps are reached.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "common/error.hpp"

namespace cascade::fuzz {

// The scratch folder (created on first use, removed at exit).
const std::string& scratch_dir();

// Writes `size` bytes to `path` (replacing it).
void write_bytes(const std::string& path, const std::uint8_t* data, std::size_t size);
// Writes `size` bytes to scratch_dir()/name and returns its path.
std::string scratch_file(const std::string& name, const std::uint8_t* data, std::size_t size);

// The input as text.
inline std::string text_of(const std::uint8_t* data, std::size_t size) {
    return std::string(reinterpret_cast<const char*>(data), size);
}

// Runs `parse`; InputError is an expected outcome, anything else propagates.
template <class Parse>
void accept_input_errors(Parse&& parse) {
    try {
        parse();
    } catch (const InputError&) {
    }
}

}  // namespace cascade::fuzz
