// dlib imglab XML datasets (data/annotations.hpp read_dlib_xml).
#include "data/annotations.hpp"
#include "fuzz/harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace cascade;
    const std::string path = fuzz::scratch_file("dataset.xml", data, size);
    fuzz::accept_input_errors([&] { data::read_dlib_xml(path); });
    return 0;
}
