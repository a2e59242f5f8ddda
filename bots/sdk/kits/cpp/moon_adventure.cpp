// A Moon Adventure starter bot in C++: a random legal move, and a look at the observation.
//
// The arena calls act(observation, legal_actions) each time it is this seat's decision;
// it must return one element of legal_actions, unchanged. The game's page in the guide
// shows a real observation with every field explained. Build: g++ -O2 -std=c++17 -o bot *.cpp
#include <random>

#include "arena.hpp"

using arena::Json;

struct Bot : arena::BotBase {
    std::mt19937_64 rng{7};  // seeded: the same match plays the same way again
    bool first_move = true;

    Json act(const Json& observation, const Json& legal_actions) {
        const Json& phase = observation["phase"];  // oxygen, act, replenish, ...
        if (first_move) {
            first_move = false;  // log once a match: stderr is capped at 64 KiB a match
            const Json& seat = observation["seat"];
            arena::log("moon_adventure seat ", seat.as_int(), ": phase=", phase.as_string(),
                       ", role=", observation["roles"][static_cast<size_t>(seat.as_int())].as_string());
        }
        std::uniform_int_distribution<size_t> pick(0, legal_actions.size() - 1);
        return legal_actions[pick(rng)];
    }
};

int main() { return arena::run<Bot>(); }
