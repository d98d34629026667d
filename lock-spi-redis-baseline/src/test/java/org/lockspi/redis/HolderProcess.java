package org.lockspi.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.Locks;

/**
 * A lock holder in a JVM of its own, driven by {@link ChildHolder}: acquires a non-reentrant mutex, prints
 * {@code HELD <token>}, prints {@code STATE <state>} on every state change, and obeys {@code release} and
 * {@code exit} on standard input.
 */
public final class HolderProcess {
    private HolderProcess() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        String uri = args[0];
        String name = args[1];
        try (LockService service = Locks.open(uri, new RedisLockProvider())) {
            Lease lease = service.nonReentrantMutex(name).acquire(Duration.ofSeconds(20));
            lease.addListener((l, previous, current) -> System.out.println("STATE " + current));
            System.out.println("HELD " + lease.fencingToken());
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null && !line.equals("exit"); line = in.readLine()) {
                if (line.equals("release")) {
                    lease.release();
                    System.out.println("RELEASED " + lease.state());
                }
            }
        }
    }
}
