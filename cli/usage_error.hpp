// UsageError: a bad option or parameter (exit code 2), as opposed to cascade::InputError, a bad input file
// (exit code 1). Both carry a subject (an option such as "--stride", or a file) and a one-line problem.
#pragma once

#include "common/error.hpp"

namespace cascade::cli {

class UsageError : public InputError {
public:
    using InputError::InputError;
};

}  // namespace cascade::cli
