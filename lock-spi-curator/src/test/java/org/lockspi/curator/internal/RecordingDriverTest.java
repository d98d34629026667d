package org.lockspi.curator.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.apache.curator.framework.recipes.locks.LockInternals;
import org.apache.curator.framework.recipes.locks.PredicateResults;
import org.apache.curator.framework.recipes.locks.StandardLockInternalsDriver;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;

/**
 * The mutex driver's one-pass verdict against Curator's standard driver over the sorted listing, for our own node (a
 * lock node); a child that is no lock node it passes over, where Curator's driver may wait for it.
 */
class RecordingDriverTest {
    private static final String LOCK_NAME = "lock-";
    private final StandardLockInternalsDriver curator = new StandardLockInternalsDriver();

    @Test
    void verdictIsCuratorsOverEveryOrderOfTheListing() throws Exception {
        Random random = new Random(42);
        for (int round = 0; round < 200; round++) {
            List<String> children = new ArrayList<>();
            int n = 1 + random.nextInt(40);
            List<Integer> sequences = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                sequences.add(i * 3 + random.nextInt(3)); // unique, as the server's are
            }
            for (int sequence : sequences) {
                String seq = String.format("%010d", sequence);
                // protected names (Curator, lockspi), plain ones, and a stray child without the base name
                children.add(switch (random.nextInt(6)) {
                    case 0 -> LOCK_NAME + seq;
                    case 1 -> "stray-" + seq;
                    default -> "_c_" + UUID.randomUUID() + "-" + LOCK_NAME + seq;
                });
            }
            Collections.shuffle(children, random);
            for (String ours : children) {
                if (ours.startsWith("stray-")) {
                    continue; // our own node is a lock node
                }
                List<String> sorted = LockInternals.getSortedChildren(LOCK_NAME, curator, children);
                PredicateResults expected = curator.getsTheLock(null, sorted, ours, 1);
                RecordingDriver driver = new RecordingDriver(sent -> { });
                PredicateResults actual = driver.getsTheLock(null,
                        LockInternals.getSortedChildren(LOCK_NAME, driver, children), ours, 1);
                assertEquals(expected.getsTheLock(), actual.getsTheLock(), ours + " in " + children);
                assertEquals(expected.getPathToWatch(), actual.getPathToWatch(), ours + " in " + children);
            }
        }
    }

    @Test
    void aChildThatIsNoLockNodeIsPassedOverWhereCuratorWaitsForIt() throws Exception {
        String ours = "_c_a-lock-0000000004";
        List<String> children = List.of("0", "-", ours, "_c_b-lock-0000000007"); // "0": the lock <name>/0
        RecordingDriver driver = new RecordingDriver(sent -> { });
        assertTrue(driver.getsTheLock(null, children, ours, 1).getsTheLock());
        List<String> sorted = LockInternals.getSortedChildren(LOCK_NAME, curator, children);
        assertEquals("0", curator.getsTheLock(null, sorted, ours, 1).getPathToWatch(), "Curator's driver waits");
    }

    @Test
    void theDriversSortLeavesTheListingAsTheServerGaveIt() {
        List<String> children = List.of("_c_b-lock-0000000003", "_c_a-lock-0000000001", "_c_c-lock-0000000002");
        assertEquals(children, LockInternals.getSortedChildren(LOCK_NAME, new RecordingDriver(sent -> { }),
                children));
    }

    @Test
    void aNodeMissingFromTheListingIsGoneAsForCurator() {
        List<String> children = List.of("_c_a-lock-0000000001");
        RecordingDriver driver = new RecordingDriver(sent -> { });
        assertThrows(KeeperException.NoNodeException.class,
                () -> driver.getsTheLock(null, children, "_c_b-lock-0000000002", 1));
        assertThrows(KeeperException.NoNodeException.class,
                () -> curator.getsTheLock(null, children, "_c_b-lock-0000000002", 1));
    }
}
