// A Moon Adventure starter bot in Java: a random legal move, and a look at the observation.
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
        Object phase = observation.get("phase"); // oxygen, act, replenish, ...
        if (firstMove) {
            firstMove = false; // log once a match: stderr is capped at 64 KiB a match
            Object seat = observation.get("seat");
            Object role = Json.get(observation, "roles", ((Long) seat).intValue());
            Arena.log("moon_adventure seat " + seat + ": phase=" + phase + ", role=" + role);
        }
        return legalActions.get(random.nextInt(legalActions.size()));
    }

    public static void main(String[] args) throws Exception {
        Arena.run(Bot::new);
    }
}
