package org.lockspi.zookeeper.recipe.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ZkLayoutTest {
    private static final String A = "_c_6f1c2e6a-8a51-4b0e-9d2f-3c1d1e5f7a01-";
    private static final String B = "_c_0a9b8c7d-1e2f-4a3b-8c4d-5e6f7a8b9c02-";
    private static final String C = "_c_ffffffff-ffff-4fff-bfff-ffffffffff03-";

    @Test
    void protectedPrefixIsCuratorsFormat() {
        UUID id = UUID.fromString("6f1c2e6a-8a51-4b0e-9d2f-3c1d1e5f7a01");
        assertEquals(A, ZkLayout.protectedPrefix(id));
        // Curator: "_c_" + 36-character UUID + "-", then the base name, then 10 digits
        assertEquals(40, ZkLayout.protectedPrefix(UUID.randomUUID()).length());
    }

    @Test
    void mutexNodesSortBySequenceNotByPrefix() {
        List<String> children = List.of(C + "lock-0000000003", A + "lock-0000000010", B + "lock-0000000002");
        assertEquals(List.of(B + "lock-0000000002", C + "lock-0000000003", A + "lock-0000000010"),
                ZkLayout.sorted(children, ZkLayout.MUTEX));
    }

    @Test
    void readAndWriteNodesShareOneOrdering() {
        List<String> children = List.of(A + "__WRIT__0000000005", C + "__READ__0000000004",
                B + "__READ__0000000006");
        assertEquals(List.of(C + "__READ__0000000004", A + "__WRIT__0000000005", B + "__READ__0000000006"),
                ZkLayout.sorted(children, ZkLayout.READ, ZkLayout.WRITE));
    }

    @Test
    void sortKeyTakesWhatFollowsTheLastBaseName() {
        assertEquals("0000000007", ZkLayout.sortKey("_c_x-lock-lock-0000000007", ZkLayout.MUTEX));
        assertEquals("foreign", ZkLayout.sortKey("foreign", ZkLayout.MUTEX)); // no base name: the whole name
        assertEquals("0000000001", ZkLayout.sortKey(A + "__READ__0000000001", ZkLayout.READ, ZkLayout.WRITE));
    }

    /** A lock's node holds the nodes of the names below it too: they are no lock nodes, neither ordered nor counted. */
    @Test
    void theNodesOfNamesBelowAreNoLockNodes() {
        assertTrue(ZkLayout.isNode(A + "lock-0000000003", ZkLayout.MUTEX));
        assertTrue(ZkLayout.isNode(A + "__READ__0000000003", ZkLayout.READ, ZkLayout.WRITE));
        assertTrue(ZkLayout.isNode(A + "lease-0000000003", ZkLayout.LEASE));
        assertTrue(ZkLayout.isNode("lock--2147483648", ZkLayout.MUTEX), "the counter past 2^31");
        assertTrue(ZkLayout.isNode("lock--000000005", ZkLayout.MUTEX), "the counter past 2^31");
        assertTrue(ZkLayout.isNode("anything"), "no base name: every child");
        for (String below : List.of("0", "-", "00", "lock-", "x-lock-0", "locks", "leases", "__READ__", "__WRIT__",
                A + "lock-000000003", A + "lock-00000000031", A + "lease-0000000003", A + "lock-000000000x")) {
            assertFalse(ZkLayout.isNode(below, ZkLayout.MUTEX), below);
        }
        List<String> children = List.of("0", "-", "locks", A + "lock-0000000004", B + "lock-0000000002");
        assertTrue(ZkPredicates.exclusive(children, B + "lock-0000000002", ZkLayout.MUTEX).holds(),
                "'0' sorts before every sequence number, but is the lock <name>/0");
        assertEquals(new ZkPredicates.Verdict(false, B + "lock-0000000002"),
                ZkPredicates.exclusive(children, A + "lock-0000000004", ZkLayout.MUTEX));
        assertTrue(ZkPredicates.read(List.of("__WRIT__", "0", A + "__READ__0000000001"), A + "__READ__0000000001")
                .holds(), "the lock <name>/__WRIT__ is no writer of <name>");
    }

    @Test
    void pathsJoinAndSplit() {
        assertEquals("/a/b", ZkLayout.join("/a", "b"));
        assertEquals("/b", ZkLayout.join("/", "b"));
        assertEquals("b", ZkLayout.nodeName("/a/b"));
    }

    @Test
    void exclusiveHolderIsFirstAndWaitersWatchTheirPredecessor() {
        List<String> sorted = List.of("n1", "n2", "n3");
        assertTrue(ZkPredicates.exclusive(sorted, "n1").holds());
        assertNull(ZkPredicates.exclusive(sorted, "n1").watch());
        assertEquals(new ZkPredicates.Verdict(false, "n2"), ZkPredicates.exclusive(sorted, "n3"));
        assertEquals(new ZkPredicates.Verdict(false, "n1"), ZkPredicates.exclusive(sorted, "n2"));
        assertNull(ZkPredicates.exclusive(sorted, "gone"));
    }

    @Test
    void readerWaitsOnlyForTheFirstWriterAheadOfIt() {
        List<String> sorted = ZkLayout.sorted(List.of(A + "__READ__0000000001", B + "__WRIT__0000000002",
                C + "__READ__0000000003", A + "__WRIT__0000000004", B + "__READ__0000000005"),
                ZkLayout.READ, ZkLayout.WRITE);
        assertTrue(ZkPredicates.read(sorted, A + "__READ__0000000001").holds());
        assertEquals(new ZkPredicates.Verdict(false, B + "__WRIT__0000000002"),
                ZkPredicates.read(sorted, C + "__READ__0000000003"));
        assertEquals(new ZkPredicates.Verdict(false, B + "__WRIT__0000000002"),
                ZkPredicates.read(sorted, B + "__READ__0000000005"));
        assertNull(ZkPredicates.read(sorted, "gone"));
    }

    @Test
    void writerWaitsForItsPredecessorWhateverItsKind() {
        List<String> sorted = ZkLayout.sorted(List.of(A + "__READ__0000000001", B + "__READ__0000000002",
                C + "__WRIT__0000000003"), ZkLayout.READ, ZkLayout.WRITE);
        assertEquals(new ZkPredicates.Verdict(false, B + "__READ__0000000002"),
                ZkPredicates.exclusive(sorted, C + "__WRIT__0000000003", ZkLayout.READ, ZkLayout.WRITE));
    }

    @Test
    void downgradedReadCarryingTheWriteSequenceKeepsTheQueuedWriterOut() {
        // A writes (5), B's writer queues (6), A downgrades: its read node carries 5, A then releases its write
        String write = A + "__WRIT__0000000005";
        String queued = B + "__WRIT__0000000006";
        String downgraded = A + "__READ__0000000005";
        String[] order = {ZkLayout.READ, ZkLayout.WRITE};
        assertTrue(ZkPredicates.exclusive(List.of(downgraded, queued, write), write, order).holds(),
                "the downgraded read, at the same place, is not ahead of its own write");
        assertEquals(false, ZkPredicates.exclusive(List.of(downgraded, queued, write), queued, order).holds());
        assertEquals(new ZkPredicates.Verdict(false, downgraded),
                ZkPredicates.exclusive(List.of(queued, downgraded), queued, order), "write released: read ahead");
        assertTrue(ZkPredicates.exclusive(List.of(queued), queued, order).holds(), "read released");
        String laterReader = C + "__READ__0000000007";
        assertEquals(new ZkPredicates.Verdict(false, queued),
                ZkPredicates.read(List.of(queued, downgraded, laterReader), laterReader), "later readers queue");
        assertTrue(ZkPredicates.read(List.of(downgraded, laterReader), laterReader).holds(),
                "with no writer queued, later readers share with the downgraded read");
    }

    @Test
    void readersAheadOfAllWritersShare() {
        List<String> sorted = List.of("r__READ__0000000001", "r__READ__0000000002");
        assertTrue(ZkPredicates.read(sorted, "r__READ__0000000002").holds());
    }

    @Test
    void verdictsDoNotDependOnTheListingOrder() {
        List<String> listed = List.of(C + "__READ__0000000006", A + "__WRIT__0000000002", B + "__READ__0000000001",
                C + "__WRIT__0000000004", A + "__READ__0000000003", B + "__READ__0000000005");
        assertEquals(new ZkPredicates.Verdict(false, C + "__WRIT__0000000004"),
                ZkPredicates.exclusive(listed, B + "__READ__0000000005", ZkLayout.READ, ZkLayout.WRITE));
        assertEquals(new ZkPredicates.Verdict(false, A + "__WRIT__0000000002"),
                ZkPredicates.read(listed, C + "__READ__0000000006"));
        assertTrue(ZkPredicates.read(listed, B + "__READ__0000000001").holds());
        assertTrue(ZkPredicates.exclusive(List.of(A + "lock-0000000009", B + "lock-0000000007"),
                B + "lock-0000000007", ZkLayout.MUTEX).holds());
        assertNull(ZkPredicates.read(listed, A + "__READ__0000000007"));
    }

    /** The one-pass predicates give the answers Curator's drivers give over the sorted children. */
    @Test
    void onePassAgreesWithTheSortedDefinition() {
        Random random = new Random(42);
        String[] prefixes = {A, B, C};
        for (int round = 0; round < 300; round++) {
            List<String> children = new ArrayList<>();
            int n = 1 + random.nextInt(12);
            for (int i = 0; i < n; i++) {
                String base = random.nextBoolean() ? ZkLayout.READ : ZkLayout.WRITE;
                children.add(prefixes[random.nextInt(3)] + base + String.format("%010d", 3 * i + random.nextInt(3)));
            }
            List<String> sorted = ZkLayout.sorted(children, ZkLayout.READ, ZkLayout.WRITE);
            Collections.shuffle(children, random);
            for (int at = 0; at < sorted.size(); at++) {
                String ours = sorted.get(at);
                String predecessor = at == 0 ? null : sorted.get(at - 1);
                String firstWriter = sorted.subList(0, at).stream()
                        .filter(c -> c.contains(ZkLayout.WRITE)).findFirst().orElse(null);
                assertEquals(new ZkPredicates.Verdict(predecessor == null, predecessor),
                        ZkPredicates.exclusive(children, ours, ZkLayout.READ, ZkLayout.WRITE));
                assertEquals(new ZkPredicates.Verdict(firstWriter == null, firstWriter),
                        ZkPredicates.read(children, ours));
            }
        }
    }

    /** The in-place keys of the predicates are ZkLayout.sortKey's, compared as String.compareTo compares them. */
    @Test
    void inPlaceKeysAgreeWithSortKey() {
        String[] names = {"_c_x-lock-lock-0000000007", "_c_x-lock-0000000007", "foreign", "lock-", "", "lock-lock-",
            A + "__READ__0000000001", B + "__WRIT__0000000001", "__WRIT____READ__0000000002",
            "__READ____WRIT__0000000002", "x__WRIT__y__READ__0000000003", "_c_y-lock-00000000070"};
        String[][] bases = {{ZkLayout.MUTEX}, {ZkLayout.READ, ZkLayout.WRITE}, {}};
        for (String[] b : bases) {
            for (String x : names) {
                int xs = ZkPredicates.keyStart(x, b);
                assertEquals(ZkLayout.sortKey(x, b), x.substring(xs), x);
                for (String y : names) {
                    int expected = Integer.signum(ZkLayout.sortKey(x, b).compareTo(ZkLayout.sortKey(y, b)));
                    assertEquals(expected, Integer.signum(ZkPredicates.compareKeys(x, xs, y,
                            ZkPredicates.keyStart(y, b))), x + " vs " + y);
                }
            }
        }
    }

    @Test
    void revocationDataIsTheMarkOrARequestCarryingTheRequester() {
        assertEquals("lockspi:revocable", new String(ZkLayout.revocableData(), StandardCharsets.UTF_8));
        assertTrue(ZkLayout.isRevocableData(ZkLayout.revocableData()));
        assertNull(ZkLayout.requestedBy(ZkLayout.revocableData()));
        byte[] request = ZkLayout.revocationRequest("ops: Jörg (ticket 7)");
        assertEquals("lockspi:revoke:ops: Jörg (ticket 7)", new String(request, StandardCharsets.UTF_8));
        assertEquals("ops: Jörg (ticket 7)", ZkLayout.requestedBy(request));
        assertFalse(ZkLayout.isRevocableData(request));
        // what the nodes of acquisitions without the opt-in, and plain Curator applications' nodes, carry
        for (byte[] other : new byte[][] {new byte[0], "10.0.0.7".getBytes(StandardCharsets.UTF_8), null,
                "__REVOKE__".getBytes(StandardCharsets.UTF_8)}) {
            assertFalse(ZkLayout.isRevocableData(other));
            assertNull(ZkLayout.requestedBy(other));
        }
    }
}
