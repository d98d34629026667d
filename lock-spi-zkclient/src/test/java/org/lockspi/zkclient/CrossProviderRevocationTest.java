package org.lockspi.zkclient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockException;
import org.lockspi.LockService;
import org.lockspi.LockTimeoutException;
import org.lockspi.Locks;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.internal.StateRecorder;
import org.lockspi.tck.support.TcpProxy;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;
import org.lockspi.zookeeper.raw.RawZooKeeperLockProvider;

/**
 * Revocation between the two providers of the shared recipe, on one real server (spec §27, rule 7 of the brief):
 * each revokes the other's holder; the node's ACL decides who may revoke; a holder cut off from the server keeps the
 * lock while the request waits, and lets go once it is back in its session. Prints the time from {@code revoke}
 * called to the holder's listener told {@code LOST}, per direction.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class CrossProviderRevocationTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String OPERATOR = "ops@test";
    private static final int ROUNDS = 10;

    private EmbeddedZooKeeperBackend zk;
    private final List<AutoCloseable> open = new ArrayList<>();

    @BeforeAll
    void startServer() {
        zk = EmbeddedZooKeeperBackend.start();
    }

    @AfterAll
    void stopServer() {
        zk.close();
    }

    @AfterEach
    void closeClients() throws Exception {
        Collections.reverse(open);
        for (AutoCloseable c : open) {
            c.close();
        }
        open.clear();
    }

    private LockService client(LockProvider provider, String userInfo, String path, String parameters) {
        LockService service = Locks.open("zookeeper://" + userInfo + zk.address() + path
                + "?sessionTimeout=10s&connectTimeout=5s" + parameters, provider);
        open.add(service);
        return service;
    }

    @Test
    void eachProviderRevokesTheOthersHolder() throws Exception {
        LockProvider raw = new RawZooKeeperLockProvider();
        LockProvider zkclient = new ZkClientLockProvider();
        StringBuilder figures = new StringBuilder();
        for (LockProvider[] pair : new LockProvider[][] {{raw, zkclient}, {zkclient, raw}}) {
            LockService holder = client(pair[0], "", "/revoke", "&revocable=true");
            LockService operator = client(pair[1], "", "/revoke", "");
            String direction = pair[1].name() + " revokes " + pair[0].name();
            List<Long> millis = new ArrayList<>();
            for (int round = 0; round < ROUNDS; round++) {
                String name = "m-" + pair[0].name() + "-" + round;
                Lease lease = holder.mutex(name).acquire(WAIT);
                AtomicLong lostAt = new AtomicLong();
                CountDownLatch lost = new CountDownLatch(1);
                lease.addListener((l, previous, current) -> {
                    if (current == LeaseState.LOST) {
                        lostAt.set(System.nanoTime());
                        lost.countDown();
                    }
                });
                CompletableFuture<long[]> next = CompletableFuture.supplyAsync(() -> {
                    try (Lease got = operator.mutex(name).acquire(WAIT)) {
                        return new long[] {got.fencingToken(), lease.state().ordinal()};
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
                long asked = System.nanoTime();
                assertTrue(operator.revoke(name, lease.fencingToken(), WAIT, OPERATOR), direction + ": revoked");
                assertEquals(LeaseState.LOST, lease.state(), direction + ": the holder, once revoke returned");
                assertTrue(lost.await(2, TimeUnit.SECONDS), direction + ": the holder's listener told LOST");
                long[] got = next.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                assertTrue(got[0] > lease.fencingToken(), direction + ": the next holder's token is greater");
                assertEquals(LeaseState.LOST.ordinal(), got[1], direction + ": the revoked lease, when the next held");
                lease.release(); // late, of a LOST lease: does nothing, throws nothing
                millis.add(TimeUnit.NANOSECONDS.toMillis(lostAt.get() - asked));
            }
            Collections.sort(millis);
            figures.append(String.format(Locale.ROOT, " %s: revoke called -> holder LOST, median %d ms, max %d ms of %d;",
                    direction, millis.get(millis.size() / 2), millis.get(millis.size() - 1), millis.size()));
        }
        System.out.println("[revocation figures]" + figures);
        assertEquals(List.of(), zk.children("/revoke").stream().filter(c -> !zk.children("/revoke/" + c).isEmpty())
                .toList(), "no lock node left");
    }

    @Test
    void theAclDecidesWhoMayRevoke() throws Exception {
        LockService holder = client(new RawZooKeeperLockProvider(), "alice:secret@", "/acl", "&revocable=true");
        Lease lease = holder.mutex("m").acquire(WAIT);
        StateRecorder recorder = new StateRecorder();
        lease.addListener(recorder);
        long token = lease.fencingToken();
        for (LockService stranger : new LockService[] {
                client(new RawZooKeeperLockProvider(), "bob:other@", "/acl", ""),
                client(new ZkClientLockProvider(), "", "/acl", "")}) {
            long start = System.nanoTime();
            LockException e = assertThrows(LockException.class, () -> stranger.revoke("m", token, WAIT, OPERATOR));
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(2), "refused at once, not after the "
                    + "revocation's timeout: " + e);
            assertTrue(e.getMessage().contains("NOAUTH") && e.getMessage().contains("not allowed to revoke"),
                    "says the ACL refused it: " + e.getMessage());
        }
        assertEquals(LeaseState.HELD, lease.state(), "the holder, after the refused revocations");
        assertEquals(List.of(), recorder.changes(), "the holder's listener told nothing");
        LockService sameIdentity = client(new ZkClientLockProvider(), "alice:secret@", "/acl", "");
        assertTrue(sameIdentity.revoke("m", token, WAIT, OPERATOR), "the holder's own identity may revoke");
        assertEquals(LeaseState.LOST, lease.state());
    }

    @Test
    void aHolderCutOffKeepsTheLockUntilItIsBackAndSeesTheRequest() throws Exception {
        for (LockProvider provider : new LockProvider[] {new RawZooKeeperLockProvider(), new ZkClientLockProvider()}) {
            String uri = "zookeeper://" + zk.address() + "/cut?sessionTimeout=10s&connectTimeout=5s&revocable=true";
            TcpProxy proxy = TcpProxy.inFrontOf(uri);
            open.add(proxy);
            LockService holder = Locks.open(proxy.rewrite(uri), provider);
            open.add(holder);
            LockService other = client(new ZkClientLockProvider(), "", "/cut", "");
            String name = "m-" + provider.name();
            Lease lease = holder.mutex(name).acquire(WAIT);
            StateRecorder recorder = new StateRecorder();
            lease.addListener(recorder);
            proxy.blackHole(true);
            assertThrows(LockTimeoutException.class,
                    () -> other.revoke(name, lease.fencingToken(), Duration.ofSeconds(1), OPERATOR),
                    provider.name() + ": the cut-off holder cannot hear the request, so does not let go");
            assertTrue(other.mutex(name).tryAcquire().isEmpty(), provider.name() + ": the lock is still held");
            assertFalse(lease.state() == LeaseState.LOST, provider.name() + ": not LOST while nobody else holds");
            proxy.heal(); // back within its session: the data watch fires (or is read again) on the reconnection
            recorder.awaitChangeTo(LeaseState.LOST, WAIT);
            try (Lease next = other.mutex(name).acquire(WAIT)) {
                assertTrue(next.fencingToken() > lease.fencingToken(), provider.name() + ": the next token");
            }
            lease.release();
        }
    }
}
