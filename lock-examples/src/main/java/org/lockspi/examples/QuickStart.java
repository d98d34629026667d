package org.lockspi.examples;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.Locks;

/**
 * The main job in one screen: a real ZooKeeper server started in this process, three clients (three
 * {@link LockService}s, three sessions) contending for one lock, each holder printing its fencing token.
 *
 * <p>Run with {@code ./mvnw -q -Pquickstart -pl lock-examples -am verify -DskipTests}. The provider is chosen
 * by configuration only: add {@code -Dlockspi.provider=curator} (or {@code zkclient}, {@code zookeeper-raw}), or
 * {@code -Dexec.args="--redis"} for the Redis baseline on a Redis server started here, or
 * {@code -Dexec.args="--uri=zookeeper://zk1:2181/app"} for a server of your own.
 */
public final class QuickStart {
    private static final String LOCK = "demo/nightly-report";

    private QuickStart() {
    }

    /**
     * @param args {@code --uri=URI}, {@code --provider=NAME}, {@code --redis}; none for an embedded ZooKeeper
     * @throws Exception if the demo fails; it then exits non-zero
     */
    public static void main(String[] args) throws Exception {
        int clients = 3;
        int rounds = 3;
        ExampleArgs options = ExampleArgs.parse("QuickStart", args, ExampleBackend.OPTIONS, ExampleBackend.SWITCHES);
        try (ExampleBackend backend = ExampleBackend.start(options, "/demo", null)) {
            System.out.println("lock server: " + backend.description());
            System.out.println("lock URI:    " + backend.display());
            List<LockService> services = new ArrayList<>();
            List<Long> grants = new ArrayList<>();
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            try {
                for (int i = 0; i < clients; i++) {
                    services.add(Locks.open(backend.uri()));
                }
                System.out.println("provider: " + services.get(0).providerName() + " (installed: "
                        + Locks.providers().stream().map(p -> p.name()).toList() + ")");
                List<Future<?>> work = new ArrayList<>();
                for (int i = 0; i < clients; i++) {
                    String client = "client-" + (i + 1);
                    LockService service = services.get(i);
                    work.add(pool.submit(() -> {
                        for (int r = 0; r < rounds; r++) {
                            try (Lease lease = service.mutex(LOCK).acquire(Duration.ofSeconds(30))) {
                                synchronized (grants) {
                                    grants.add(lease.fencingToken());
                                }
                                System.out.printf("%s holds '%s'  fencing token %d%n", client, LOCK,
                                        lease.fencingToken());
                                Thread.sleep(50); // the guarded work
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : work) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
                for (LockService service : services) {
                    service.close();
                }
            }
            boolean increasing = true;
            for (int i = 1; i < grants.size(); i++) {
                increasing &= grants.get(i) > grants.get(i - 1);
            }
            System.out.println(grants.size() + " holders in turn; fencing tokens strictly increasing: "
                    + (increasing ? "yes" : "NO"));
            if (!increasing) {
                System.exit(1);
            }
        }
    }
}
