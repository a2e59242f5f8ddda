// Runtime.exec and ProcessBuilder: reads the host's files through a shell, dials the
// host's database, starts a daemon meant to outlive the match, then plays on. Each
// attempt prints BLOCKED or LEAK; the daemon dies with the match.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;

public class RuntimeExec {
    static void run(String... command) {
        try {
            Process process = Runtime.getRuntime().exec(command);
            String output = new String(process.getInputStream().readAllBytes())
                    + new String(process.getErrorStream().readAllBytes());
            int status = process.waitFor();
            String verdict = status == 0 ? "LEAK " : "BLOCKED ";
            System.err.println(verdict + String.join(" ", command) + ": status " + status + ": " + output.trim());
        } catch (Exception refused) {
            System.err.println("BLOCKED " + String.join(" ", command) + ": " + refused);
        }
    }

    static void attack() {
        run("/bin/sh", "-c", "cat /etc/passwd");
        run("/usr/bin/bash", "-c", "echo ping > /dev/tcp/127.0.0.1/5432");
        try {
            Files.readAllBytes(Path.of("__SETTINGS__"));
            System.err.println("LEAK read settings");
        } catch (Exception refused) {
            System.err.println("BLOCKED read settings: " + refused);
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", 6379), 2000);
            System.err.println("LEAK connected to 127.0.0.1:6379");
        } catch (Exception refused) {
            System.err.println("BLOCKED connect 127.0.0.1:6379: " + refused);
        }
        try {
            new ProcessBuilder("/usr/bin/setsid", "/bin/sh", "-c",
                    "trap '' HUP TERM INT; while :; do sleep 1; done", "arena-hostile-daemon-marker")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (Exception refused) {
            System.err.println("daemon failed: " + refused);
        }
    }

    static String firstLegalAction(String line) {
        String legal = line.substring(line.indexOf("\"legal_actions\""));
        String rest = legal.substring(legal.indexOf('[') + 1).stripLeading();
        int depth = 0;
        boolean quoted = false, escaped = false;
        for (int i = 0; i < rest.length(); i++) {
            char ch = rest.charAt(i);
            if (quoted) {
                if (escaped) escaped = false;
                else if (ch == '\\') escaped = true;
                else if (ch == '"') quoted = false;
                continue;
            }
            if (ch == '"') quoted = true;
            else if (ch == '[' || ch == '{') depth++;
            else if ((ch == ']' || ch == '}') && depth > 0) depth--;
            else if (ch == ']' || ch == '}' || (ch == ',' && depth == 0)) return rest.substring(0, i);
        }
        return rest;
    }

    static String matchId(String line) {
        String value = line.substring(line.indexOf("\"match\"") + 7);
        value = value.substring(value.indexOf(':') + 1).stripLeading();
        int end = 0;
        while (value.charAt(end) != ',' && value.charAt(end) != '}') end++;
        return value.substring(0, end);
    }

    public static void main(String[] args) throws Exception {
        BufferedReader input = new BufferedReader(new InputStreamReader(System.in));
        PrintStream out = System.out;
        boolean attacked = false;
        for (String line; (line = input.readLine()) != null; ) {
            if (!line.contains("\"act\"")) continue;
            if (!attacked) {
                attacked = true;
                attack();
            }
            out.println("{\"match\":" + matchId(line) + ",\"action\":" + firstLegalAction(line) + "}");
            out.flush();
        }
    }
}
