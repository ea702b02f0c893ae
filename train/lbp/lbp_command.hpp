// cascade-train lbp: WaldBoost training of an LBP cascade (train/lbp/lbp_trainer.hpp) from the command line.
#pragma once

namespace cascade::train::lbp {

// argv[0] is "lbp". Returns the exit code.
int command(int argc, char** argv);

}  // namespace cascade::train::lbp
