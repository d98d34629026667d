package org.lockspi.jdbc.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The lock ids: part of the tables' layout, so pinned here; the cache gives the same ids and stays bounded. */
class LockIdsTest {

    @Test
    void aLockIdIsTheBase64urlSha256OfTheKey() {
        // computed outside Java (sha256, base64url without padding): the id of a row never changes
        assertEquals("HBaK2wDSCOQvkzFFKfH6nAQn62MjPO2pWl21K3ASpxk", LockIds.of("orders"));
        assertEquals(43, LockIds.of("~" + "x".repeat(5462)).length());
    }

    @Test
    void theCacheGivesTheSameIdsAndKeepsAtMostItsBound() {
        LockIds ids = new LockIds();
        assertEquals(LockIds.of("orders"), ids.get("orders"));
        assertEquals(LockIds.of("orders"), ids.get("orders"), "from the cache");
        for (int i = 0; i < 3 * LockIds.MAX; i++) {
            String key = "order-" + i;
            assertEquals(LockIds.of(key), ids.get(key));
            assertTrue(ids.size() <= LockIds.MAX, "at most " + LockIds.MAX + " ids: " + ids.size());
        }
        String longKey = "~" + "y".repeat(LockIds.MAX_KEY);
        int before = ids.size();
        assertEquals(LockIds.of(longKey), ids.get(longKey));
        assertEquals(before, ids.size(), "a key longer than " + LockIds.MAX_KEY + " characters is not kept");
    }
}
