// A Moonrollers starter bot in Java: a random legal move, and a look at the observation.
//
// The arena calls act(observation, legalActions) each time it is this seat's decision;
// it must return one element of legalActions, unchanged. The game's page in the guide
// shows a real observation with every field explained. Build: javac -d . *.java; run: java -cp . Bot

import java.util.List;
import java.util.Map;
import java.util.Random;

public class Bot implements Arena.Player {
    private final Random random = new Random(7); // seeded: the same match plays the same way again
    private boolean firstMove = true;

    @Override
    public Object act(Map<String, Object> observation, List<Object> legalActions) {
        Object turn = observation.get("turn"); // whose turn it is, the phase, the dice
        if (firstMove) {
            firstMove = false; // log once a match: stderr is capped at 64 KiB a match
            Arena.log("moonrollers seat " + observation.get("seat") + ": turn.phase="
                    + Json.get(turn, "phase") + ", " + Json.size(observation.get("display"))
                    + " crew cards on display");
        }
        return legalActions.get(random.nextInt(legalActions.size()));
    }

    public static void main(String[] args) throws Exception {
        Arena.run(Bot::new);
    }
}
