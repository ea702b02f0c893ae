// INRIA annotation files (data/annotations.hpp read_inria_annotation).
#include "data/annotations.hpp"
#include "fuzz/harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace cascade;
    const std::string path = fuzz::scratch_file("annotation.txt", data, size);
    fuzz::accept_input_errors([&] { data::read_inria_annotation(path); });
    return 0;
}
