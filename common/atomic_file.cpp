#include "common/atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <unistd.h>

#include "common/error.hpp"

namespace cascade {

std::string temporary_path_for(const std::string& path) {
    return path + ".tmp-" + std::to_string(::getpid());
}

void commit_file(const std::string& temporary, const std::string& path) {
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        std::remove(temporary.c_str());
        throw InputError(path, "cannot write file (" + reason + ")");
    }
}

void write_file_atomically(const std::string& path, const std::string& content) {
    const std::string temporary = temporary_path_for(path);
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out) throw InputError(path, std::string("cannot write file (") + std::strerror(errno) + ")");
        out.write(content.data(), static_cast<std::streamsize>(content.size()));
        out.flush();
        if (!out) {
            out.close();
            std::remove(temporary.c_str());
            throw InputError(path, "cannot write file (write failed; disk full?)");
        }
    }
    commit_file(temporary, path);
}

}  // namespace cascade
