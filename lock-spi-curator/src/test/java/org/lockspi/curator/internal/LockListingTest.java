package org.lockspi.curator.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.lockspi.spi.LockKind;

/** Which children Curator's read-write lock and semaphore see during an acquisition: their lock nodes only. */
class LockListingTest {
    private static final String LOCK = "_c_6f1c2e6a-8a51-4b0e-9d2f-3c1d1e5f7a01-lock-0000000004";
    private static final String READ = "_c_6f1c2e6a-8a51-4b0e-9d2f-3c1d1e5f7a01-__READ__0000000005";
    private static final String WRITE = "_c_0a9b8c7d-1e2f-4a3b-8c4d-5e6f7a8b9c02-__WRIT__0000000006";
    private static final String LEASE = "_c_0a9b8c7d-1e2f-4a3b-8c4d-5e6f7a8b9c02-lease-0000000007";
    /** Nodes of the names below {@code /app/n}: {@code n/0}, {@code n/locks}, {@code n/leases}, ... */
    private static final List<String> BELOW = List.of("0", "-", "locks", "leases", "__WRIT__", "x-lock-0");

    @AfterEach
    void clear() {
        LockListing.clear();
    }

    private static List<String> with(String... nodes) {
        List<String> children = new java.util.ArrayList<>(BELOW);
        children.addAll(List.of(nodes));
        return children;
    }

    @Test
    void aReadWriteLockSeesItsReadAndWriteNodes() {
        LockListing.begin("/app/n", LockKind.WRITE);
        assertEquals(List.of(READ, WRITE), LockListing.filter("/app/n", with(READ, WRITE)));
        assertEquals(with(READ), LockListing.filter("/app/other", with(READ)), "another node: as it is");
    }

    @Test
    void aSemaphoreSeesItsInternalMutexAndItsLeases() {
        LockListing.begin("/app/n", LockKind.SEMAPHORE);
        assertEquals(List.of(LOCK), LockListing.filter("/app/n/locks", with(LOCK)));
        assertEquals(List.of(LEASE), LockListing.filter("/app/n/leases", with(LEASE, LOCK)));
        LockListing.begin("/app/n", LockKind.NON_REENTRANT_MUTEX);
        assertEquals(List.of(LEASE), LockListing.filter("/app/n/leases", with(LEASE)));
    }

    @Test
    void outsideAnAcquisitionAndForTheMutexEveryChildShows() {
        assertEquals(with(LOCK), LockListing.filter("/app/n", with(LOCK)), "no acquisition on this thread");
        LockListing.begin("/app/n", LockKind.MUTEX);
        assertEquals(with(LOCK), LockListing.filter("/app/n", with(LOCK)), "the mutex's driver passes over them");
        LockListing.clear();
        LockListing.begin("/app/n", LockKind.WRITE);
        LockListing.clear();
        assertEquals(with(READ), LockListing.filter("/app/n", with(READ)), "cleared");
    }
}
