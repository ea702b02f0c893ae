// `cascade-train hog`: trains a HoG cascade (AdaBoost over random HoG-block linear SVMs, Bilgic 2010) and
// writes the project's XML model. argv[0] is the subcommand's name ("hog"); options follow. Returns the exit
// status: 0 done, 1 bad input (one line naming the file or option), 2 bad usage.
#pragma once

namespace cascade::train::hog {

int command(int argc, char** argv);

}  // namespace cascade::train::hog
