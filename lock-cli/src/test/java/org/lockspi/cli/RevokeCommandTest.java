package org.lockspi.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.redis.EmbeddedRedisBackend;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;

/** {@code lockspi revoke} against a real embedded ZooKeeper and a real redis-server, with a held lock. */
class RevokeCommandTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static TckBackend zookeeper;
    private static TckBackend redis;
    private final List<LockService> services = new ArrayList<>();

    @BeforeAll
    static void startServers() {
        zookeeper = EmbeddedZooKeeperBackend.start();
        redis = EmbeddedRedisBackend.start();
    }

    @AfterAll
    static void stopServers() throws Exception {
        if (zookeeper != null) {
            zookeeper.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    @AfterEach
    void closeServices() {
        services.forEach(LockService::close);
    }

    static Stream<String> servers() {
        return Stream.of("zookeeper", "redis");
    }

    private static String uri(String server) {
        return (server.equals("zookeeper") ? zookeeper : redis).uri();
    }

    private LockService open(String uri) {
        LockService service = Locks.open(uri);
        services.add(service);
        return service;
    }

    private static String name() {
        return "cli/revoke-" + ProcessHandle.current().pid() + "-" + NAMES.incrementAndGet();
    }

    private static String revocable(String uri) {
        return uri + (uri.indexOf('?') < 0 ? "?" : "&") + Locks.REVOCABLE_PARAMETER + "=true";
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void revokeEndsTheHoldersLeaseAndExitsZeroThenOne(String server) throws InterruptedException {
        String uri = uri(server);
        String name = name();
        Lease lease = open(revocable(uri)).mutex(name).acquire(Duration.ofSeconds(10));
        String token = Long.toString(lease.fencingToken());
        LockCliTest.Run run = LockCliTest.run("revoke", uri, name, token, "--as", "alice (OPS-42)",
                "--timeout", "20s");
        assertEquals(LockCli.OK, run.exit(), run.toString());
        assertEquals("revoked: " + name + " token " + token + "\n", run.out(), run.toString());
        assertEquals(LeaseState.LOST, lease.state(), "the holder's lease, once the tool returned");
        lease.release();
        LockCliTest.Run again = LockCliTest.run("revoke", uri, name, token, "--json");
        assertEquals(LockCli.FREE, again.exit(), again.toString());
        assertEquals("{\"name\":\"" + name + "\",\"token\":" + token + ",\"outcome\":\"no-holder\"}\n", again.out(),
                again.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aHolderThatDidNotOptInIsNotRevokedAndTheToolSaysWhy(String server) throws InterruptedException {
        String uri = uri(server);
        String name = name();
        try (Lease lease = open(uri).mutex(name).acquire(Duration.ofSeconds(10))) {
            LockCliTest.Run run = LockCliTest.run("revoke", uri, name, Long.toString(lease.fencingToken()));
            assertEquals(LockCli.FAILURE, run.exit(), run.toString());
            assertTrue(run.err().contains("revocable=true"), run.toString());
            assertEquals(LeaseState.HELD, lease.state());
        }
    }

    @Test
    void badArgumentsExitTwo() {
        for (String[] args : List.of(new String[] {"revoke", zookeeper.uri(), "a"},
                new String[] {"revoke", zookeeper.uri(), "a", "x1"},
                new String[] {"revoke", zookeeper.uri(), "a", "-1"},
                new String[] {"revoke", zookeeper.uri(), "a", "1", "--timeout", "soon"},
                new String[] {"revoke", zookeeper.uri(), "a", "1", "--as", " "})) {
            LockCliTest.Run run = LockCliTest.run(args);
            assertEquals(LockCli.USAGE, run.exit(), String.join(" ", args) + ": " + run);
        }
    }

    @Test
    void helpListsTheExitCodesOfRevoke() {
        LockCliTest.Run help = LockCliTest.run("revoke", "--help");
        assertEquals(LockCli.OK, help.exit(), help.toString());
        assertTrue(help.out().matches("(?s).*Exit codes:\\n +0 +revoked: .*\\n +1 +no holder .*\\n +2 +usage error: .*"
                + "\\n +3 +unreachable: .*\\n +4 +not revoked: .*"), help.toString());
    }
}
