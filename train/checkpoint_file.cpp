#include "train/checkpoint_file.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "common/atomic_file.hpp"
#include "common/error.hpp"

namespace cascade::train {

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
    write_file_atomically(path, content_);
}

StateReader::StateReader(const std::string& path, const std::string& kind, int version) : path_(path) {
    std::ifstream in(path);
    if (!in) fail("cannot open checkpoint");
    std::string line;
    if (!std::getline(in, line) || line != kind + " " + std::to_string(version))
        fail("not a '" + kind + "' checkpoint of version " + std::to_string(version));
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

long long StateReader::integer(const std::string& key) const {
    const std::string& value = text(key);
    char* end = nullptr;
    const long long v = std::strtoll(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0') fail("entry '" + key + "' is not an integer");
    return v;
}

double StateReader::real(const std::string& key) const {
    const std::string& value = text(key);
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0') fail("entry '" + key + "' is not a number");
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
