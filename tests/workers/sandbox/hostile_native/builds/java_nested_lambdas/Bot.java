import java.util.concurrent.Callable;

public class Bot {
    static Object run(Runnable task) { return null; }
    static Object run(Callable<Object> task) { return null; }

    public static void main(String[] args) {
        Object bomb = run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> run(() -> null))))))))))))))))))))))))))))));
    }
}
