package org.lockspi.internal;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.lockspi.LockConnectionException;
import org.lockspi.LockInfo;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockKeys;

/**
 * {@code LockService.inspect} and {@code list} over a backend: the name checks, the mapping of the backend's keys
 * back to lock names, the filter by prefix, and the tokens a provider without fencing does not vouch for.
 */
final class Inspection {
    private Inspection() {
    }

    /**
     * The backend key of a lock name, as acquisitions use it ({@link LockKeys#key(String)}).
     *
     * @param name a lock name
     * @return its key
     */
    static String keyOf(String name) {
        return LockKeys.key(name);
    }

    /**
     * The lock name a backend key stands for, the inverse of {@link #keyOf(String)}, in this one place.
     *
     * @param key a backend's key for a lock
     * @return the lock's name, or null for a key no lock name maps to (a node or key someone else wrote)
     */
    static String nameOf(String key) {
        try {
            return LockKeys.name(key);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Checks a prefix for {@code list}: any string (the empty string lists every lock).
     *
     * @param prefix the prefix
     * @return the prefix
     * @throws NullPointerException if it is null
     */
    static String checkPrefix(String prefix) {
        return Objects.requireNonNull(prefix, "prefix is null");
    }

    /**
     * @return whether a name of the readable form, which is its own key, can start with the prefix: the backend
     *         may then narrow its walk by it
     */
    private static boolean readableCanStartWith(String prefix) {
        String stem = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
        return prefix.isEmpty() || Names.isReadable(stem)
                && !(prefix.endsWith("/") && stem.split("/").length >= Names.MAX_SEGMENTS);
    }

    /**
     * @param localWaiters the asking service's acquisitions of the lock waiting in its local queue: the server's
     *                     view does not hold them, so they are added to its waiters
     */
    static LockInfo inspect(LockBackend backend, String name, boolean fencing, String description,
                            int localWaiters) {
        LockInfo raw = call(() -> backend.inspect(keyOf(name)), "inspecting '" + name + "'", description);
        if (raw == null) {
            throw new IllegalStateException("the backend returned no view of '" + name + "': " + backend);
        }
        List<LockInfo.Holder> holders = fencing ? raw.holders()
                : raw.holders().stream().map(LockInfo.Holder::withoutFencingToken).toList();
        return new LockInfo(name, raw.kind(), holders, raw.waiters() + localWaiters);
    }

    /**
     * A readable name is its own key, so the backend narrows its walk by the prefix itself; a name outside the
     * readable form has a key starting with {@code '~'} whatever the name starts with, so those keys are listed
     * apart and filtered here after {@link #nameOf(String)}.
     */
    static List<String> list(LockBackend backend, String prefix, String description) {
        Set<String> keys = new HashSet<>();
        if (readableCanStartWith(prefix)) {
            keys.addAll(call(() -> backend.list(prefix), "listing the locks under '" + prefix + "'", description));
        }
        if (!prefix.isEmpty()) {
            String encoded = String.valueOf(LockKeys.ENCODED_MARK);
            keys.addAll(call(() -> backend.list(encoded), "listing the locks under '" + prefix + "'", description));
        }
        TreeSet<String> names = new TreeSet<>();
        for (String key : keys) {
            String name = nameOf(key);
            if (name != null && name.startsWith(prefix)) {
                names.add(name);
            }
        }
        return List.copyOf(names);
    }

    interface Read<T> {
        T run() throws InterruptedException;
    }

    static <T> T call(Read<T> read, String what, String description) {
        try {
            return read.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockConnectionException("interrupted while " + what + " on " + description, e);
        }
    }
}
