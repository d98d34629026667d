package org.lockspi.tck.internal;

import java.time.Duration;
import java.util.Locale;

/**
 * The measured times the fault rules print, one line each: {@code [§18 figures] §18.1 provider 'x', T=4000 ms: ...},
 * every time also as a multiple of the lease span {@code T}.
 */
public final class Figures {
    private Figures() {
    }

    /**
     * Prints one line of figures to standard output.
     *
     * @param rule     the rule, e.g. {@code §18.1}; its section names the line
     * @param provider the provider's name
     * @param t        the lease span
     * @param text     the figures
     */
    public static void print(String rule, String provider, Duration t, String text) {
        int dot = rule.indexOf('.');
        String section = dot < 0 ? rule : rule.substring(0, dot);
        System.out.println("[" + section + " figures] " + rule + " provider '" + provider + "', T=" + t.toMillis()
                + " ms: " + text);
    }

    /**
     * @param from an instant ({@link System#nanoTime()})
     * @param at   a later one, or 0 for "never"
     * @param t    the lease span
     * @return {@code "1234 ms (0.31 T)"}, or {@code "never"}
     */
    public static String since(long from, long at, Duration t) {
        if (at == 0) {
            return "never";
        }
        long ms = (at - from) / 1_000_000;
        return ms + " ms" + String.format(Locale.ROOT, " (%.2f T)", (double) ms / t.toMillis());
    }
}
