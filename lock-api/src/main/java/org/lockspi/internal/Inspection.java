package org.lockspi.internal;

import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import org.lockspi.LockConnectionException;
import org.lockspi.LockInfo;
import org.lockspi.spi.LockBackend;

/**
 * {@code LockService.inspect} and {@code list} over a backend: the name checks, the mapping of the backend's keys
 * back to lock names, the filter by prefix, and the tokens a provider without fencing does not vouch for.
 */
final class Inspection {
    private Inspection() {
    }

    /**
     * The backend key of a lock name, as acquisitions use it. Today every name is its own key.
     *
     * @param name a checked lock name
     * @return its key
     */
    static String keyOf(String name) {
        return name;
    }

    /**
     * The lock name a backend key stands for; the inverse of {@link #keyOf(String)}. Today every key is its name; a key encoding for other names maps
     * back here, in this one place.
     *
     * @param key a backend's key for a lock
     * @return the lock's name
     */
    static String nameOf(String key) {
        return key;
    }

    /**
     * Checks a prefix for {@code list}: empty, or the start of a name of the grammar (a whole name, or one ending in
     * {@code '/'} before a further segment).
     *
     * @param prefix the prefix
     * @return the prefix
     * @throws NullPointerException     if it is null
     * @throws IllegalArgumentException if no name of the grammar starts with it
     */
    static String checkPrefix(String prefix) {
        Objects.requireNonNull(prefix, "prefix is null");
        if (prefix.isEmpty()) {
            return prefix;
        }
        String stem = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
        try {
            Names.check(stem);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("no lock name can start with the prefix '" + prefix + "': "
                    + e.getMessage(), e);
        }
        if (prefix.endsWith("/") && stem.split("/").length >= Names.MAX_SEGMENTS) {
            throw new IllegalArgumentException("no lock name can start with the prefix '" + prefix + "': a name has "
                    + "at most " + Names.MAX_SEGMENTS + " segments");
        }
        return prefix;
    }

    static LockInfo inspect(LockBackend backend, String name, boolean fencing, String description) {
        LockInfo raw = call(() -> backend.inspect(keyOf(name)), "inspecting '" + name + "'", description);
        if (raw == null) {
            throw new IllegalStateException("the backend returned no view of '" + name + "': " + backend);
        }
        List<LockInfo.Holder> holders = fencing ? raw.holders()
                : raw.holders().stream().map(LockInfo.Holder::withoutFencingToken).toList();
        return new LockInfo(name, raw.kind(), holders, raw.waiters());
    }

    /**
     * The backend narrows its walk by the prefix, which is right while keys are names; keys that encode other
     * names must then be listed whatever the prefix, and are filtered here after {@link #nameOf(String)}.
     */
    static List<String> list(LockBackend backend, String prefix, String description) {
        List<String> keys = call(() -> backend.list(prefix), "listing the locks under '" + prefix + "'", description);
        TreeSet<String> names = new TreeSet<>();
        for (String key : keys) {
            String name = nameOf(key);
            if (name.startsWith(prefix)) {
                names.add(name);
            }
        }
        return List.copyOf(names);
    }

    private interface Read<T> {
        T run() throws InterruptedException;
    }

    private static <T> T call(Read<T> read, String what, String description) {
        try {
            return read.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockConnectionException("interrupted while " + what + " on " + description, e);
        }
    }
}
