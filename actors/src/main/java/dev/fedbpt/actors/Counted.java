package dev.fedbpt.actors;

/** "1 client", "4 clients": counts in progress and summary lines read as English. */
public final class Counted {
    private Counted() {
    }

    /** {@code n} and {@code noun}, with an s unless {@code n} is 1. */
    public static String of(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
