// Starts sleeping threads until the JVM cannot: the pids cgroup and RLIMIT_NPROC
// refuse the next native thread ("unable to create native thread"); it says so, exits 3.
import java.io.BufferedReader;
import java.io.InputStreamReader;

public class ThreadFlood {
    public static void main(String[] args) throws Exception {
        BufferedReader input = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = input.readLine()) != null; ) {
            if (!line.contains("\"act\"")) continue;
            int count = 0;
            try {
                while (true) {
                    Thread sleeper = new Thread(null, () -> {
                        try {
                            Thread.sleep(600_000);
                        } catch (InterruptedException ignored) {
                        }
                    }, "sleeper", 64 << 10);
                    sleeper.setDaemon(true);
                    sleeper.start();
                    count++;
                }
            } catch (OutOfMemoryError refused) {
                System.err.println("BLOCKED thread " + count + ": " + refused.getMessage());
                System.err.flush();
                Runtime.getRuntime().halt(3);
            }
        }
    }
}
