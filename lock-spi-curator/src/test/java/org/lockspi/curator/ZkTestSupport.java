package org.lockspi.curator;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;

/** One real ZooKeeper server per test class; every client a test opens is closed after it. */
abstract class ZkTestSupport {
    /** The chroot the provider's clients use: the backend's own, which it creates and inspects. */
    static final String BASE = EmbeddedZooKeeperBackend.ROOT;
    static EmbeddedZooKeeperBackend server;
    private final List<AutoCloseable> opened = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void startServer() {
        server = EmbeddedZooKeeperBackend.start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @AfterEach
    void closeClients() throws Exception {
        List<AutoCloseable> all = new ArrayList<>(opened);
        opened.clear();
        for (AutoCloseable c : all) {
            c.close();
        }
    }

    String uri() {
        return "zookeeper://" + server.address() + BASE + "?sessionTimeout=2s&connectTimeout=2s";
    }

    LockService open() {
        return closeLater(Locks.open(uri(), "curator"));
    }

    /** @param sessionTimeout a longer session, for tests that must survive a server restart on a busy machine */
    LockService open(String sessionTimeout) {
        return closeLater(Locks.open(uri().replace("sessionTimeout=2s", "sessionTimeout=" + sessionTimeout),
                "curator"));
    }

    /**
     * @return one client of each ZooKeeper provider on the same path: zookeeper-raw, zkclient and curator, which
     *         share Curator's node layout
     */
    List<LockService> oneClientOfEachZooKeeperProvider() {
        List<LockService> clients = new ArrayList<>();
        for (String provider : List.of("zookeeper-raw", "zkclient", "curator")) {
            clients.add(closeLater(Locks.open(uri(), provider)));
        }
        return clients;
    }

    <T extends AutoCloseable> T closeLater(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    static String path(String name) {
        return BASE + "/" + name;
    }

    /** Threads of ZooKeeper and Curator clients still alive. */
    static List<Thread> clientThreads() {
        List<Thread> found = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            String n = t.getName();
            if (t.isAlive() && (n.contains("SendThread") || n.contains("EventThread") || n.startsWith("Curator-") || n.startsWith("lockspi-curator-"))) {
                found.add(t);
            }
        }
        return found;
    }
}
