package org.lockspi.cli;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import org.lockspi.LockInfo;

/**
 * Formats a lock's view for an operator (text) or a program (JSON). The kind and modes are the API's
 * ({@link LockInfo.Kind}, {@link LockInfo.Mode}) on every backend. One case is not the layout's to tell:
 * ZooKeeper keeps a non-reentrant mutex as Curator does, a semaphore of one permit, so a semaphore view with at
 * most one holder there may be either; the text says so, and JSON carries {@code "mayBeNonReentrantMutex"}.
 */
final class Output {
    private Output() {
    }

    /**
     * @param info     the view
     * @param uri      the URI to show, password masked
     * @param provider the provider that read it
     * @param now      the time to compute how long each holder has held
     * @param zooKeeper whether the view is of a ZooKeeper layout
     * @return the text, ending in a line break
     */
    static String text(LockInfo info, String uri, String provider, Instant now, boolean zooKeeper) {
        StringBuilder b = new StringBuilder();
        b.append("lock:      ").append(info.name()).append('\n');
        b.append("server:    ").append(uri).append("  (provider ").append(provider).append(")\n");
        b.append("kind:      ").append(info.kind()).append(info.kind() == LockInfo.Kind.NONE
                ? "  (no state on the server: nobody holds it, nobody waits)"
                : mayBeNonReentrantMutex(info, zooKeeper) ? "  (or a non-reentrant mutex: ZooKeeper keeps one as a "
                + "semaphore of one permit, and the layout does not say which)" : "").append('\n');
        b.append("holders:   ").append(info.holders().size());
        if (info.kind() == LockInfo.Kind.SEMAPHORE) {
            b.append("  (permits in use: ").append(info.permitsInUse()).append(')');
        }
        b.append('\n');
        b.append("waiters:   ").append(info.waiters()).append('\n');
        if (info.isHeld()) {
            String format = "  %-10s %-20s %-26s %s%n";
            b.append(String.format(format, "MODE", "FENCING TOKEN", "SINCE (server clock)", "HELD FOR"));
            for (LockInfo.Holder h : info.holders()) {
                String token = h.fencingToken().isPresent() ? Long.toString(h.fencingToken().getAsLong()) : "-";
                String since = h.since().map(Instant::toString).orElse("-");
                String heldFor = h.since().map(t -> duration(Duration.between(t, now))).orElse("-");
                b.append(String.format(format, h.mode(), token, since, heldFor + (h.own() ? "  (this client)" : "")));
            }
        }
        return b.toString();
    }

    /** @return e.g. {@code 3.2 s}, {@code 12 min 5 s}, {@code 2 h 3 min}; a negative skew shows as 0 s */
    static String duration(Duration d) {
        if (d.isNegative()) {
            return "0.0 s";
        }
        long seconds = d.getSeconds();
        if (seconds < 60) {
            return String.format("%.1f s", d.toMillis() / 1000.0);
        }
        if (seconds < 3600) {
            return seconds / 60 + " min " + seconds % 60 + " s";
        }
        return seconds / 3600 + " h " + seconds % 3600 / 60 + " min";
    }

    /**
     * @param info      a view
     * @param zooKeeper whether it is of a ZooKeeper layout
     * @return whether it may be a non-reentrant mutex shown as a semaphore: on ZooKeeper, with at most one permit
     *         held (a non-reentrant mutex never has two holders)
     */
    static boolean mayBeNonReentrantMutex(LockInfo info, boolean zooKeeper) {
        return zooKeeper && info.kind() == LockInfo.Kind.SEMAPHORE && info.holders().size() <= 1;
    }

    static String json(LockInfo info, String provider, boolean zooKeeper) {
        String holders = info.holders().stream().map(h -> "{\"mode\":" + quote(h.mode().name())
                + ",\"fencingToken\":" + (h.fencingToken().isPresent() ? Long.toString(h.fencingToken().getAsLong())
                : "null")
                + ",\"since\":" + h.since().map(t -> quote(t.toString())).orElse("null")
                + ",\"own\":" + h.own() + "}").collect(Collectors.joining(","));
        return "{\"name\":" + quote(info.name()) + ",\"provider\":" + quote(provider) + ",\"kind\":"
                + quote(info.kind().name()) + ",\"holders\":[" + holders + "],\"waiters\":" + info.waiters()
                + ",\"permitsInUse\":" + info.permitsInUse() + ",\"mayBeNonReentrantMutex\":"
                + mayBeNonReentrantMutex(info, zooKeeper) + "}";
    }

    static String json(List<String> names) {
        return names.stream().map(Output::quote).collect(Collectors.joining(",", "[", "]"));
    }

    /** A JSON string; names are ASCII today, but quote and escape everything a string may hold. */
    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
