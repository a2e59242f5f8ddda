public class Bot { public static void main(String[] args) {} }
