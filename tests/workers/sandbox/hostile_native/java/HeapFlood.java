// Keeps every megabyte it allocates: the JVM's heap limit (-Xmx, half the bot's
// memory) throws OutOfMemoryError, which ends the bot (exit status 1).
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;

public class HeapFlood {
    public static void main(String[] args) throws Exception {
        BufferedReader input = new BufferedReader(new InputStreamReader(System.in));
        List<byte[]> kept = new ArrayList<>();
        for (String line; (line = input.readLine()) != null; ) {
            if (!line.contains("\"act\"")) continue;
            while (true) kept.add(new byte[1 << 20]);
        }
    }
}
