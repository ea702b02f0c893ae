#include "train/checkpoint_file.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

#include "common/atomic_file.hpp"
#include "common/error.hpp"

namespace cascade::train {

namespace {

constexpr const char* kChecksum = "checksum ";

}  // namespace

std::string text_hash(const std::string& bytes) {
    std::uint64_t hash = 0xcbf29ce484222325ull;
    for (const unsigned char c : bytes) hash = (hash ^ c) * 0x100000001b3ull;
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(hash));
    return buffer;
}

StateWriter::StateWriter(const std::string& kind, int version) {
    content_ = kind + " " + std::to_string(version) + "\n";
}

void StateWriter::text(const std::string& key, const std::string& value) {
    content_ += key + " " + value + "\n";
}

void StateWriter::integer(const std::string& key, long long value) {
    text(key, std::to_string(value));
}

void StateWriter::real(const std::string& key, double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%a", value);
    text(key, buffer);
}

void StateWriter::write(const std::string& path) const {
    write_file_atomically(path, content_ + kChecksum + text_hash(content_) + "\n");
}

StateReader::StateReader(const std::string& path, const std::string& kind, int version) : path_(path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) fail("cannot open checkpoint");
    std::string content((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    std::istringstream in(content);
    std::string line;
    if (!std::getline(in, line) || line != kind + " " + std::to_string(version))
        fail("not a '" + kind + "' checkpoint of version " + std::to_string(version));
    const std::size_t last = content.rfind(kChecksum);
    if (last == std::string::npos || last == 0 || content[last - 1] != '\n' ||
        content.substr(last) != kChecksum + text_hash(content.substr(0, last)) + "\n")
        fail("its checksum does not match its content: it was changed or damaged (start afresh without --resume)");
    content.resize(last);
    in = std::istringstream(content);
    std::getline(in, line);
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        const auto space = line.find(' ');
        entries_.emplace_back(line.substr(0, space), space == std::string::npos ? "" : line.substr(space + 1));
    }
}

const std::string& StateReader::text(const std::string& key) const {
    const std::string* found = nullptr;
    for (const auto& [k, v] : entries_)
        if (k == key) {
            if (found) fail("entry '" + key + "' is repeated");
            found = &v;
        }
    if (!found) fail("entry '" + key + "' is missing");
    return *found;
}

long long StateReader::integer(const std::string& key, long long low, long long high) const {
    const std::string& value = text(key);
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || errno == ERANGE) fail("entry '" + key + "' is not an integer");
    if (v < low || v > high) fail("entry '" + key + "' " + value + " is out of range");
    return v;
}

double StateReader::real(const std::string& key, double low, double high) const {
    const std::string& value = text(key);
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0') fail("entry '" + key + "' is not a number");
    if (!(v >= low && v <= high)) fail("entry '" + key + "' " + value + " is not finite or out of range");
    return v;
}

std::vector<std::string> StateReader::all(const std::string& key) const {
    std::vector<std::string> values;
    for (const auto& [k, v] : entries_)
        if (k == key) values.push_back(v);
    return values;
}

void StateReader::fail(const std::string& problem) const {
    throw InputError(path_, problem);
}

}  // namespace cascade::train
