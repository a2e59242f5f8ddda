# Writes Bot.java: 40,000 chained methods of arithmetic, about 3.5 MB of source.
print("public class Bot {")
for n in range(40_000):
    previous = max(n - 1, 0)
    print(
        f"    static long m{n}(long x) {{ return (x * {n} + 7) ^ (x >>> 3) - m{previous}(x / 2); }}"
    )
print("    public static void main(String[] args) { System.out.println(m39999(1)); }")
print("}")
