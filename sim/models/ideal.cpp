// "No overhead" (Nexus++ paper, V-B): task work and dependences only.
#include "../model.hpp"

namespace weft::sim {

std::unique_ptr<model> make_ideal_model(params &) {
  return std::make_unique<model>();
}

} // namespace weft::sim
