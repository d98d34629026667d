package org.lockspi.curator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.junit.jupiter.api.Test;
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockException;
import org.lockspi.LockInfo;
import org.lockspi.LockService;
import org.lockspi.LockTimeoutException;
import org.lockspi.Locks;
import org.lockspi.tck.internal.StateRecorder;
import org.lockspi.tck.support.TcpProxy;

/**
 * Revocation across the ZooKeeper providers on one server, which share the node data of revocation (the kit's §27
 * runs each provider against itself): a zookeeper-raw or zkclient operator revokes a Curator holder and a Curator
 * operator a raw one, with a waiter of the third provider getting the lock only after the holder's lease is LOST; a
 * plain Curator application's holder is refused; a Curator holder cut off from the server keeps the lock until it is
 * back in its session and reads the request; the node's ACL decides who may revoke, either way; and a revocable
 * semaphore waiter interrupted beside a permit of its own service leaves that permit alone (the search for a node
 * Curator may leave behind).
 */
class CuratorRevocationTest extends ZkTestSupport {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private LockService open(String provider, boolean revocable) {
        String uri = uri() + (revocable ? "&" + Locks.REVOCABLE_PARAMETER + "=true" : "");
        return closeLater(Locks.open(uri, provider));
    }

    @Test
    void rawAndZkClientOperatorsRevokeACuratorHolderAndACuratorOperatorARawOne() throws Exception {
        revokeAcross("curator", "zookeeper-raw", "zkclient", "x-mutex", (s, n) -> s.mutex(n));
        revokeAcross("curator", "zkclient", "zookeeper-raw", "x-write", (s, n) -> s.readWriteLock(n).writeLock());
        revokeAcross("curator", "zookeeper-raw", "zkclient", "x-permit", (s, n) -> s.semaphore(n, 1));
        revokeAcross("zookeeper-raw", "curator", "zkclient", "x-raw-mutex", (s, n) -> s.mutex(n));
        revokeAcross("zookeeper-raw", "curator", "zkclient", "x-raw-permit", (s, n) -> s.semaphore(n, 1));
    }

    /**
     * A holder of provider {@code holding} (revocable), a waiter of {@code waiting}, an operator of {@code revoking}:
     * revoke returns true with the holder's lease LOST, the waiter gets the lock then, with a greater token, and
     * nothing is left.
     */
    private void revokeAcross(String holding, String revoking, String waiting, String name,
                              BiFunction<LockService, String, Acquirable> lock) throws Exception {
        String label = revoking + " revokes " + holding + "'s " + name;
        LockService holder = open(holding, true);
        LockService operator = open(revoking, false);
        LockService other = open(waiting, false);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Lease lease = lock.apply(holder, name).acquire(WAIT);
            Future<long[]> waiter = pool.submit(() -> {
                try (Lease got = lock.apply(other, name).acquire(WAIT)) {
                    return new long[] {lease.state().ordinal(), got.fencingToken()};
                }
            });
            long token = lease.fencingToken();
            LockInfo info = operator.inspect(name);
            assertTrue(info.holders().stream().anyMatch(h -> h.fencingToken().orElse(-1) == token), label + ": "
                    + info);
            assertTrue(operator.revoke(name, token, WAIT, "ops@interop"), label);
            assertEquals(LeaseState.LOST, lease.state(), label + ": once revoke returned");
            long[] got = waiter.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertEquals(LeaseState.LOST, LeaseState.values()[(int) got[0]], label + ": the holder, when the waiter "
                    + "got the lock");
            assertTrue(got[1] > token, label + ": the waiter's token " + got[1] + " after " + token);
            lease.release(); // late, of a revoked lease: nothing happens
            assertFalse(operator.revoke(name, token, WAIT, "ops@interop"), label + ": the token once let go");
            assertEquals(List.of(), server.residue(name), label);
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void aPlainCuratorApplicationsHolderIsRefusedAndItsNodeLeftAsItWas() throws Exception {
        String name = "plain-app";
        CuratorFramework app = closeLater(CuratorProviderTest.rawClient(null));
        InterProcessMutex mutex = new InterProcessMutex(app, path(name));
        assertTrue(mutex.acquire(WAIT.toMillis(), TimeUnit.MILLISECONDS));
        try {
            String node = server.residue(name).get(0);
            byte[] before = app.getData().forPath(node);
            for (String provider : List.of("curator", "zookeeper-raw")) {
                LockService operator = open(provider, false);
                long token = operator.inspect(name).holders().get(0).fencingToken().getAsLong();
                IllegalStateException e = assertThrows(IllegalStateException.class,
                        () -> operator.revoke(name, token, WAIT, "ops@interop"), provider);
                assertTrue(e.getMessage().contains(Locks.REVOCABLE_PARAMETER), e.getMessage());
                assertArrayEquals(before, app.getData().forPath(node), provider + ": the node's data");
            }
            assertTrue(mutex.isAcquiredInThisProcess());
            assertNotNull(app.checkExists().forPath(node));
        } finally {
            mutex.release();
        }
        assertEquals(List.of(), server.residue(name));
    }

    @Test
    void aCuratorHolderCutOffKeepsTheLockUntilItIsBackAndSeesTheRequest() throws Exception {
        String name = "cut-off";
        String direct = "zookeeper://" + server.address() + BASE + "?sessionTimeout=10s&connectTimeout=5s";
        TcpProxy proxy = closeLater(TcpProxy.inFrontOf(direct));
        LockService holder = closeLater(Locks.open(proxy.rewrite(direct) + "&" + Locks.REVOCABLE_PARAMETER + "=true",
                "curator"));
        LockService other = open("zookeeper-raw", false);
        Lease lease = holder.mutex(name).acquire(WAIT);
        StateRecorder recorder = new StateRecorder();
        lease.addListener(recorder);
        proxy.blackHole(true);
        assertThrows(LockTimeoutException.class,
                () -> other.revoke(name, lease.fencingToken(), Duration.ofSeconds(1), "ops@interop"),
                "the cut-off holder cannot hear the request, so does not let go");
        assertTrue(other.mutex(name).tryAcquire().isEmpty(), "the lock is still held");
        assertNotEquals(LeaseState.LOST, lease.state(), "not LOST while nobody else holds");
        proxy.heal(); // back within its session: the data watch set before the cut reports the change
        recorder.awaitChangeTo(LeaseState.LOST, WAIT);
        try (Lease next = other.mutex(name).acquire(WAIT)) {
            assertTrue(next.fencingToken() > lease.fencingToken(), "the next token");
        }
        lease.release();
        assertEquals(List.of(), server.residue(name));
    }

    @Test
    void theAclDecidesWhoMayRevokeACuratorHolderAndWhomACuratorOperatorMay() throws Exception {
        String name = "acl";
        String alice = "zookeeper://alice:secret@" + server.address() + BASE + "?sessionTimeout=2s&connectTimeout=2s";
        String bob = alice.replace("alice:secret@", "bob:other@");
        for (String[] pair : new String[][] {{"curator", "zookeeper-raw"}, {"zookeeper-raw", "curator"}}) {
            LockService holder = closeLater(Locks.open(alice + "&" + Locks.REVOCABLE_PARAMETER + "=true", pair[0]));
            Lease lease = holder.mutex(name).acquire(WAIT);
            StateRecorder recorder = new StateRecorder();
            lease.addListener(recorder);
            long token = lease.fencingToken();
            for (LockService stranger : List.of(closeLater(Locks.open(bob, pair[1])), open(pair[1], false))) {
                LockException e = assertThrows(LockException.class,
                        () -> stranger.revoke(name, token, WAIT, "ops@interop"), pair[1] + " as a stranger");
                assertTrue(e.getMessage().contains("NOAUTH") && e.getMessage().contains("not allowed to revoke"),
                        "says the ACL refused it: " + e.getMessage());
            }
            assertEquals(LeaseState.HELD, lease.state(), pair[0] + "'s holder, after the refused revocations");
            assertEquals(List.of(), recorder.changes(), "its listener told nothing");
            LockService sameIdentity = closeLater(Locks.open(alice, pair[1]));
            assertTrue(sameIdentity.revoke(name, token, WAIT, "ops@interop"), pair[1] + " as the holder's identity");
            assertEquals(LeaseState.LOST, lease.state());
            lease.release();
        }
    }

    @Test
    void aRevocableSemaphoreWaiterInterruptedLeavesItsServicesPermitAlone() throws Exception {
        String name = "rev-int-s";
        LockService service = open("curator", true);
        Lease elsewhere = open("curator", true).semaphore(name, 2).acquire(WAIT);
        Lease held = service.semaphore(name, 2).acquire(WAIT);
        List<String> heldNodes = server.residue(name);
        // a second acquisition of the same service waits on the server (Curator's internal lock node and its lease
        // node) and is interrupted: the search for a node left behind runs, and must not take the permit's node,
        // marked and of the same session
        CuratorProviderTest.interruptWaiter(service.semaphore(name, 2), name, 2);
        assertEquals(heldNodes, server.residue(name));
        assertEquals(LeaseState.HELD, held.state());
        assertEquals(LeaseState.HELD, elsewhere.state());
        LockService operator = open("curator", false);
        assertTrue(operator.revoke(name, held.fencingToken(), WAIT, "ops@interop"), "still revocable");
        assertEquals(LeaseState.LOST, held.state());
        held.release();
        elsewhere.release();
        assertEquals(List.of(), server.residue(name));
    }
}
