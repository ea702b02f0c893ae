// Checkpoint state files, shared by the trainers: a header line "<kind> <version>", then one "key value" line
// per entry; keys may repeat (records in order). Written atomically (common/atomic_file.hpp), so a kill
// during the write leaves the previous checkpoint whole. Reals are written in hexadecimal ("%a") and read back
// bit-identical, which resuming needs to reproduce an uninterrupted run exactly. The last line, "checksum H",
// is FNV-1a over every byte before it: a changed or damaged checkpoint is refused rather than resumed from.
#pragma once

#include <climits>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace cascade::train {

// FNV-1a (64 bits) of `bytes`, in hexadecimal: the checkpoints' checksum and their models' fingerprint.
std::string text_hash(const std::string& bytes);

class StateWriter {
public:
    StateWriter(const std::string& kind, int version);
    void text(const std::string& key, const std::string& value);
    void integer(const std::string& key, long long value);
    void real(const std::string& key, double value);
    void write(const std::string& path) const;

private:
    std::string content_;
};

class StateReader {
public:
    // Throws InputError naming `path` when it cannot be read or is not a `kind` file of this version.
    StateReader(const std::string& path, const std::string& kind, int version);

    // The value of a key that occurs once; InputError when it is missing or repeated, not a number, not
    // finite, or outside [low, high].
    const std::string& text(const std::string& key) const;
    long long integer(const std::string& key, long long low = 0, long long high = LLONG_MAX) const;
    double real(const std::string& key, double low = 0.0, double high = HUGE_VAL) const;
    // Every value of a repeated key, in order.
    std::vector<std::string> all(const std::string& key) const;

    // InputError naming the file and `problem`.
    [[noreturn]] void fail(const std::string& problem) const;

private:
    std::string path_;
    std::vector<std::pair<std::string, std::string>> entries_;
};

}  // namespace cascade::train
