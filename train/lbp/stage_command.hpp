// cascade-train lbp-opencv: opencv_traincascade's LBP training (train/lbp/stage_trainer.hpp), written as
// OpenCV's cascade XML and the project's XML.
#pragma once

namespace cascade::train::lbp {

int stage_command(int argc, char** argv);

}  // namespace cascade::train::lbp
