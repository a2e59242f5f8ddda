//! A Moon-Bots starter bot in Rust: a random legal move, and a look at the observation.
//!
//! The arena calls `act(observation, legal_actions)` each time it is this seat's decision;
//! it must return one element of `legal_actions`, unchanged. The game's page in the guide
//! shows a real observation with every field explained. Build: rustc -O --edition 2021 -o bot main.rs

mod arena;

use arena::{Bot, Json, Rng};

struct Starter {
    rng: Rng, // seeded: the same match plays the same way again
    first_move: bool,
}

impl Bot for Starter {
    fn act(&mut self, observation: &Json, legal_actions: &[Json]) -> Json {
        let decision = observation.get("decision"); // null, or {"kind": "buy", ...}
        if self.first_move {
            self.first_move = false; // log once a match: stderr is capped at 64 KiB a match
            arena::log(&format!(
                "moon_bots seat {}: decision.kind={}, {} robots of mine",
                observation.get("seat").as_i64().unwrap_or(-1),
                decision.get("kind").as_str().unwrap_or("none"),
                observation.get("my_robots").len()
            ));
        }
        legal_actions[self.rng.below(legal_actions.len())].clone()
    }
}

fn main() {
    arena::run(|| Starter {
        rng: Rng::new(7),
        first_move: true,
    });
}
