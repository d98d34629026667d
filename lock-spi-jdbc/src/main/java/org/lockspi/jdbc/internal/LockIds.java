package org.lockspi.jdbc.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A lock's id in the tables, and a backend's cache of the ids of the keys it locked lately: the digest (a JCA
 * look-up, SHA-256, base64) need not be redone by every acquisition of a lock, whose id never changes. The cache
 * holds at most {@value #MAX} keys of at most {@value #MAX_KEY} characters (the readable form's longest) and starts
 * afresh when full: an application that locks many names computes their ids as it would without it. Thread-safe.
 */
final class LockIds {
    static final int MAX = 256;
    static final int MAX_KEY = 255;

    private final Map<String, String> ids = new ConcurrentHashMap<>();

    /**
     * @param key a lock's key
     * @return {@link #of(String)}, from the cache if it has it
     */
    String get(String key) {
        String id = ids.get(key);
        if (id == null) {
            id = of(key);
            if (key.length() <= MAX_KEY) {
                if (ids.size() >= MAX) {
                    ids.clear();
                }
                ids.put(key, id);
            }
        }
        return id;
    }

    /** @return how many ids the cache holds */
    int size() {
        return ids.size();
    }

    /**
     * @param key a lock's key (up to 5,463 characters)
     * @return the lock's id in the tables: the base64url SHA-256 of the key, 43 characters, short enough for
     *         every database's index and for a PostgreSQL channel name
     */
    static String of(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
