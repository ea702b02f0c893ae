// opencv_createsamples info files, through read_annotations (data/annotations.hpp): a text file that is not an
// INRIA annotation is read as an info file when its first entry looks like one, else as a list of INRIA
// annotation files.
#include "data/annotations.hpp"
#include "fuzz/harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace cascade;
    const std::string path = fuzz::scratch_file("info.dat", data, size);
    fuzz::accept_input_errors([&] { data::read_annotations(path); });
    return 0;
}
