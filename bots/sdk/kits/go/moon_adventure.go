// A Moon Adventure starter bot in Go: a random legal move, and a look at the observation.
//
// The arena calls Act(observation, legalActions) each time it is this seat's decision;
// it must return one element of legalActions, unchanged. The game's page in the guide
// shows a real observation with every field explained. Build: go build -o bot *.go
package main

import "math/rand"

type starter struct {
	BotBase
	rng       *rand.Rand // seeded: the same match plays the same way again
	firstMove bool
}

func (bot *starter) Act(observation map[string]any, legalActions []Action) Action {
	phase := Str(observation["phase"]) // oxygen, act, replenish, ...
	if bot.firstMove {
		bot.firstMove = false // log once a match: stderr is capped at 64 KiB a match
		seat := Int(observation["seat"])
		Log("moon_adventure seat %d: phase=%s, role=%s",
			seat, phase, Str(Get(observation, "roles", int(seat))))
	}
	return legalActions[bot.rng.Intn(len(legalActions))]
}

func main() {
	Run(func() Bot { return &starter{rng: rand.New(rand.NewSource(7)), firstMove: true} })
}
