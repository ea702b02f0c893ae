#include "fuzz/harness.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace cascade::fuzz {

namespace {

void remove_scratch() {
    std::error_code ignored;
    fs::remove_all(scratch_dir(), ignored);
}

std::string make_scratch() {
    const fs::path dir = fs::temp_directory_path() / ("cascade-fuzz-" + std::to_string(::getpid()));
    fs::create_directories(dir / "pos");
    for (const char* name : {"a.png", "b.jpg", "pos/c.png"}) std::ofstream(dir / name).put('\n');
    std::ofstream(dir / "people.txt") << "Image filename : \"a.png\"\n"
                                      << "Bounding box for object 1 \"PASperson\" (Xmin, Ymin) - (Xmax, Ymax) : "
                                         "(12, 20) - (75, 147)\n";
    return dir.string();
}

}  // namespace

const std::string& scratch_dir() {
    // Never destroyed: remove_scratch reads it at exit, after static objects may be gone.
    static const std::string* const dir = [] {
        const auto* made = new std::string(make_scratch());
        std::atexit(remove_scratch);
        return made;
    }();
    return *dir;
}

void write_bytes(const std::string& path, const std::uint8_t* data, std::size_t size) {
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data),
                                                                   static_cast<std::streamsize>(size));
}

std::string scratch_file(const std::string& name, const std::uint8_t* data, std::size_t size) {
    const std::string path = scratch_dir() + "/" + name;
    write_bytes(path, data, size);
    return path;
}

}  // namespace cascade::fuzz
