package org.lockspi.curator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockspi.Lease;
import org.lockspi.Locks;
import org.lockspi.DistributedReadWriteLock;
import org.lockspi.tck.internal.Poll;

/**
 * The downgrade sequence of spec rule 6.8 on one path across client libraries: client A takes the write lock, a
 * writer of client B queues, A takes the read lock (a downgrade, granted at once) and releases the write lock. B's
 * writer must stay out until A releases the read. A and B are each either a plain Curator application (an
 * {@link InterProcessReadWriteLock} on its own client, no lockspi) or a lockspi client of one of the three
 * ZooKeeper providers; every side has its own session.
 *
 * <p>Plain Curator 5.9 keeps the writer out: since CURATOR-621 its downgraded read node carries the write node's
 * sequence number instead of a new one, so it sorts ahead of every writer queued behind the write. The recipe of
 * zookeeper-raw and zkclient makes the same node, and the curator provider is Curator's recipe, so every mix holds.
 */
class CuratorDowngradeInteropTest extends ZkTestSupport {
    private static final String PLAIN = "plain-curator";
    private static final Duration WAIT = Duration.ofSeconds(10);
    /** How long a probe writer tries while the downgraded read is held; it must come back empty. */
    private static final long PROBE_MS = 300;
    /** How soon the queued writer must get in once the read is released. */
    private static final Duration BOUND = Duration.ofSeconds(2);

    private final List<CuratorFramework> apps = new ArrayList<>();
    private ExecutorService pool;

    @BeforeEach
    void startPool() {
        pool = Executors.newCachedThreadPool();
    }

    @AfterEach
    void stopAll() throws InterruptedException {
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        apps.forEach(CuratorFramework::close);
    }

    /** One client's read-write lock on the test's path; used by one thread at a time (both kinds are thread-owned). */
    private interface Side {
        void write() throws Exception;

        void read() throws Exception;

        /** @return whether the write lock was acquired within {@code millis} */
        boolean tryWrite(long millis) throws Exception;

        void releaseWrite() throws Exception;

        void releaseRead() throws Exception;
    }

    /** A plain Curator application's lock. */
    private static final class PlainSide implements Side {
        private final InterProcessReadWriteLock rw;

        PlainSide(CuratorFramework app, String name) {
            rw = new InterProcessReadWriteLock(app, path(name));
        }

        @Override
        public void write() throws Exception {
            assertTrue(rw.writeLock().acquire(WAIT.toMillis(), TimeUnit.MILLISECONDS), "plain Curator write");
        }

        @Override
        public void read() throws Exception {
            assertTrue(rw.readLock().acquire(WAIT.toMillis(), TimeUnit.MILLISECONDS), "plain Curator read");
        }

        @Override
        public boolean tryWrite(long millis) throws Exception {
            return rw.writeLock().acquire(millis, TimeUnit.MILLISECONDS);
        }

        @Override
        public void releaseWrite() throws Exception {
            rw.writeLock().release();
        }

        @Override
        public void releaseRead() throws Exception {
            rw.readLock().release();
        }
    }

    /** A lockspi client's lock. */
    private static final class OurSide implements Side {
        private final DistributedReadWriteLock rw;
        private Lease write;
        private Lease read;

        OurSide(DistributedReadWriteLock rw) {
            this.rw = rw;
        }

        @Override
        public void write() throws Exception {
            write = rw.writeLock().acquire(WAIT);
        }

        @Override
        public void read() throws Exception {
            read = rw.readLock().acquire(WAIT);
        }

        @Override
        public boolean tryWrite(long millis) throws Exception {
            write = rw.writeLock().tryAcquire(Duration.ofMillis(millis)).orElse(null);
            return write != null;
        }

        @Override
        public void releaseWrite() {
            write.release();
        }

        @Override
        public void releaseRead() {
            read.release();
        }
    }

    /** @param who {@link #PLAIN} or a provider's name; a new client (session) each time */
    private Side side(String who, String name) throws InterruptedException {
        if (who.equals(PLAIN)) {
            CuratorFramework app = CuratorProviderTest.rawClient(null);
            apps.add(app);
            return new PlainSide(app, name);
        }
        return new OurSide(closeLater(Locks.open(uri(), who)).readWriteLock(name));
    }

    /**
     * What a plain Curator application does: two plain Curator clients, the exact sequence. The writer queued
     * before the downgrade waits until the downgraded read is released: Curator 5.9 places the downgraded read node
     * at the write node's sequence number (CURATOR-621), which this test also checks on the server.
     */
    @Test
    void plainCuratorKeepsAWriterQueuedBeforeItsDowngradeOutUntilTheReadIsReleased() throws Exception {
        String name = "downgrade-plain-plain";
        List<String> downgraded = queuedWriterWaitsForDowngradedRead(side(PLAIN, name), side(PLAIN, name), name);
        assertEquals(1, downgraded.stream().filter(n -> n.contains("__READ__")).count(), "one read node " + downgraded);
        assertEquals(1, downgraded.stream().map(n -> n.substring(n.length() - 10)).distinct().count(),
                "plain Curator's downgraded read node carries its write node's sequence number: " + downgraded);
    }

    @ParameterizedTest(name = "{0} downgrades while a writer of {1} is queued")
    @CsvSource({
        "zookeeper-raw, plain-curator", "zkclient, plain-curator", "curator, plain-curator",
        "plain-curator, zookeeper-raw", "plain-curator, zkclient", "plain-curator, curator",
        "zookeeper-raw, curator", "zkclient, zookeeper-raw", "curator, zkclient"})
    void aWriterQueuedBeforeADowngradeWaitsInEveryMix(String downgrader, String writer) throws Exception {
        String name = "downgrade-" + downgrader + "-" + writer;
        List<String> downgraded = queuedWriterWaitsForDowngradedRead(side(downgrader, name), side(writer, name), name);
        assertEquals(1, downgraded.stream().map(n -> n.substring(n.length() - 10)).distinct().count(),
                "the downgraded read node carries its write node's sequence number, as Curator's: " + downgraded);
    }

    /**
     * The sequence: {@code first} writes, {@code queued} queues a writer, {@code first} downgrades and releases the
     * write. The queued writer stays out (a plain Curator probe writer also times out) until {@code first} releases
     * the read, then gets in within {@link #BOUND}; nothing is left behind.
     *
     * @return the nodes of {@code first} on the server right after the downgrade (its write and read node)
     */
    private List<String> queuedWriterWaitsForDowngradedRead(Side first, Side queued, String name) throws Exception {
        first.write();
        List<String> before = server.residue(name);
        assertEquals(1, before.size(), "the write node " + before);
        AtomicBoolean readHeld = new AtomicBoolean();
        AtomicLong acquiredAt = new AtomicLong();
        Future<Boolean> writer = pool.submit(() -> {
            assertTrue(queued.tryWrite(30_000), "the queued writer never got the lock");
            acquiredAt.set(System.nanoTime());
            boolean alone = !readHeld.get();
            queued.releaseWrite();
            return alone;
        });
        Poll.until("nodes of '" + name + "' with the writer queued", 2, () -> server.residue(name).size(), WAIT);
        List<String> queuedNodes = server.residue(name);
        first.read(); // the downgrade
        readHeld.set(true);
        List<String> downgraded = new ArrayList<>(server.residue(name));
        downgraded.removeAll(queuedNodes);
        downgraded.addAll(before);
        first.releaseWrite();

        // a writer woken by the write's release would be in within a round trip; the probe waits longer than that
        Side probe = side(PLAIN, name);
        assertFalse(probe.tryWrite(PROBE_MS), "a probe writer got in beside the downgraded read");
        assertFalse(writer.isDone(), "the writer queued before the downgrade got in beside the downgraded read");
        assertEquals(0, acquiredAt.get(), "the queued writer acquired while the downgraded read is held");

        readHeld.set(false);
        long released = System.nanoTime();
        first.releaseRead();
        assertTrue(writer.get(WAIT.toSeconds(), TimeUnit.SECONDS), "the queued writer got in beside the read");
        Duration took = Duration.ofNanos(acquiredAt.get() - released);
        assertTrue(took.compareTo(BOUND) <= 0, "the queued writer got in " + took.toMillis()
                + " ms after the read was released");
        Poll.until("nodes of '" + name + "' after every release", List.of(), () -> server.residue(name), WAIT);
        return downgraded;
    }
}
