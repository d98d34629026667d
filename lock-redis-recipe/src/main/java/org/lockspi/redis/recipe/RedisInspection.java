package org.lockspi.redis.recipe;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.lockspi.LockInfo;

/**
 * Reads a lock's keys for {@code LockService.inspect} and {@code list} ({@link RedisKeys}): the holders from the
 * exclusive key and the reader and permit sets (live members only) in one script, the waiters by counting the
 * waiter keys with {@code SCAN} (on every master of a cluster) (never {@code KEYS}). Reads only.
 */
final class RedisInspection {
    private static final int SCAN_COUNT = 1000;

    private RedisInspection() {
    }

    static LockInfo inspect(RedisOps redis, String prefix, String clientId, String name) {
        RedisKeys keys = new RedisKeys(prefix, name);
        List<?> reply = (List<?>) Scripts.INSPECT.run(redis, List.of(keys.lock, keys.readers, keys.permits),
                List.of());
        String exclusive = (String) reply.get(0);
        List<LockInfo.Holder> holders = new ArrayList<>();
        LockInfo.Kind kind = LockInfo.Kind.NONE;
        if (!exclusive.isEmpty()) {
            RedisEntry entry = RedisEntry.parse(exclusive);
            boolean write = RedisEntry.WRITE.equals(entry.kind());
            kind = write ? LockInfo.Kind.READ_WRITE : LockInfo.Kind.MUTEX;
            holders.add(entry.holder(write ? LockInfo.Mode.WRITE : LockInfo.Mode.EXCLUSIVE, clientId));
        }
        for (Object reader : (List<?>) reply.get(1)) {
            kind = LockInfo.Kind.READ_WRITE;
            holders.add(RedisEntry.parse((String) reader).holder(LockInfo.Mode.READ, clientId));
        }
        for (Object permit : (List<?>) reply.get(2)) {
            kind = LockInfo.Kind.SEMAPHORE;
            holders.add(RedisEntry.parse((String) permit).holder(LockInfo.Mode.PERMIT, clientId));
        }
        int waiters = scan(redis, glob(keys.waiter("")) + "*").size();
        if (holders.isEmpty() && waiters == 0) {
            return LockInfo.empty(name);
        }
        return new LockInfo(name, kind, holders, waiters);
    }

    /** Names with a holder or a waiter key whose name starts with {@code namePrefix}. */
    static List<String> list(RedisOps redis, String prefix, String namePrefix) {
        String start = prefix + "{";
        Set<String> names = new HashSet<>();
        for (String key : scan(redis, glob(start + namePrefix) + "*")) {
            int close = key.indexOf('}', start.length());
            if (!key.startsWith(start) || close < 0) {
                continue;
            }
            String suffix = key.substring(close + 1);
            if (suffix.isEmpty() || suffix.equals(":read") || suffix.equals(":sem") || suffix.startsWith(":wait:")) {
                names.add(key.substring(start.length(), close));
            }
        }
        return List.copyOf(names);
    }

    private static Set<String> scan(RedisOps redis, String match) {
        return redis.scan(match, SCAN_COUNT);
    }

    /** Escapes the glob characters of {@code SCAN MATCH}. */
    private static String glob(String literal) {
        return literal.replaceAll("([*?\\[\\]\\\\])", "\\\\$1");
    }
}
