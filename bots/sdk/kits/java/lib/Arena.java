// Moon Arena bot protocol for Java (standard library only): the loop that answers the
// arena, with the JSON of Json.java.
//
// The arena writes one JSON object per line on stdin ("start", "act", "end"); the bot
// answers each "act" with one line {"match": ..., "action": <one of legal_actions>}.
// Nothing else may go to stdout: log with Arena.log (stderr).

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

final class Arena {
    private Arena() {}

    /** One match's player: act returns one element of legalActions. */
    interface Player {
        default void start(Map<String, Object> info) {}

        Object act(Map<String, Object> observation, List<Object> legalActions);

        default void end(Object result) {}
    }

    private static final PrintStream OUT =
            new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);

    /** One line to stderr (the arena keeps the first 64 KiB of a match's stderr). */
    static void log(String line) {
        System.err.println(line);
        System.err.flush();
    }

    private static void say(Map<String, Object> message) {
        OUT.print(Json.write(message) + "\n");
        OUT.flush();
    }

    /** Writes {"match": ..., "error": ...} and ends the process with status 1. */
    private static void fail(Object match, String reason) {
        Map<String, Object> message = new LinkedHashMap<>();
        if (match != null) message.put("match", match);
        message.put("error", reason.length() > 500 ? reason.substring(0, 500) : reason);
        say(message);
        log("error: " + reason);
        System.exit(1);
    }

    /**
     * Answers the arena until its input closes. newPlayer makes the player of one match:
     * several matches may interleave in one process, each keyed by its "match" value.
     */
    @SuppressWarnings("unchecked")
    static void run(Supplier<Player> newPlayer) throws IOException {
        BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 16);
        Map<String, Player> playing = new HashMap<>();
        String line;
        while ((line = input.readLine()) != null) {
            if (line.isBlank()) continue;
            Object parsed = null;
            try {
                parsed = Json.parse(line);
            } catch (IllegalArgumentException e) {
                fail(null, "the referee sent a line that is not JSON");
            }
            if (!(parsed instanceof Map)) fail(null, "the referee sent a line that is not a JSON object");
            Map<String, Object> message = (Map<String, Object>) parsed;
            Object match = message.get("match");
            String key = Json.write(match);
            Object type = message.get("type");
            try {
                if ("act".equals(type)) {
                    Player player = playing.computeIfAbsent(key, k -> newPlayer.get());
                    Object observation = message.get("observation");
                    Object legal = message.get("legal_actions");
                    Object action = player.act(
                            observation instanceof Map ? (Map<String, Object>) observation : new LinkedHashMap<>(),
                            legal instanceof List ? (List<Object>) legal : List.of());
                    Map<String, Object> reply = new LinkedHashMap<>();
                    if (match != null) reply.put("match", match);
                    reply.put("action", action);
                    say(reply);
                } else if ("start".equals(type)) {
                    Player player = newPlayer.get();
                    playing.put(key, player);
                    player.start(message);
                } else if ("end".equals(type)) {
                    Player player = playing.remove(key);
                    if (player == null) player = newPlayer.get();
                    player.end(message.get("result"));
                    if (match == null) System.exit(0);
                }
            } catch (RuntimeException e) {
                e.printStackTrace();
                fail(match, "bot raised " + e);
            }
        }
        OUT.flush();
    }
}
