// The one exception type for bad input: a file (or parameter) name and what is wrong with it. Tools print it
// as a single line "<subject>: <problem>" and exit non-zero.
#pragma once

#include <stdexcept>
#include <string>

namespace cascade {

class InputError : public std::runtime_error {
public:
    InputError(const std::string& subject, const std::string& problem)
        : std::runtime_error(subject + ": " + problem), subject_(subject), problem_(problem) {}
    const std::string& subject() const { return subject_; }
    const std::string& problem() const { return problem_; }

private:
    std::string subject_;
    std::string problem_;
};

// Models that fail structural checks are bad input too.
using ModelError = InputError;

}  // namespace cascade
