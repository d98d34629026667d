package org.lockspi.examples;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.Locks;

/**
 * One node of the scheduler example, in a process of its own: the use of the original raw-ZooKeeper article.
 * Every node runs the same code; the lock elects the one that polls the task states, and when that node dies the
 * lock passes to another node, which takes the role over. The code knows only {@code lock-api}.
 *
 * <pre>
 * --lock=URI      the lock service; provider and session timeout come with it
 * --name=NAME     the lock's name (default scheduler/poller)
 * --interval=MS   pause between two polls (default 250)
 * </pre>
 *
 * Lines on standard output: {@code STANDBY <provider>} once connected; {@code POLLER <fencing token> <epoch ms>}
 * when it became the poller; {@code POLL <n>} per poll; {@code PAUSED} when its lease became uncertain (it does not
 * poll until sure again) and {@code LOST} when the lease is gone, after which it queues again. {@code stop} on
 * standard input, or its end, closes the service (a graceful hand-over) and ends the process.
 */
public final class SchedulerNode {

    private SchedulerNode() {
    }

    /**
     * @param args see the class description
     */
    public static void main(String[] args) {
        int exit = 0;
        try {
            ExampleArgs a = ExampleArgs.parse("SchedulerNode", args, Set.of("lock", "name", "interval"), Set.of());
            String uri = a.value("lock", null);
            if (uri == null) {
                throw new IllegalArgumentException("SchedulerNode: --lock=URI is required");
            }
            run(uri, a.value("name", "scheduler/poller"), a.integer("interval", 250, 1, 60_000));
        } catch (Exception | Error e) {
            e.printStackTrace();
            System.out.println("ERROR " + e);
            exit = 2;
        }
        System.exit(exit);
    }

    private static void run(String uri, String name, int interval) throws InterruptedException {
        try (LockService locks = Locks.open(uri)) {
            stopOnCommand(locks);
            DistributedLock lock = locks.mutex(name);
            boolean tokens = locks.features().contains(LockFeature.FENCING_TOKENS);
            say("STANDBY " + locks.providerName());
            while (!locks.isClosed()) {
                Lease lease;
                try {
                    lease = lock.acquire(); // a standby node waits here as long as it takes
                } catch (IllegalStateException e) {
                    if (locks.isClosed()) {
                        break; // 'stop' closed the service while we waited
                    }
                    throw e;
                }
                try (lease) {
                    say("POLLER " + (tokens ? lease.fencingToken() : "none") + " " + System.currentTimeMillis());
                    poll(lease, interval);
                }
            }
            say("STOPPED");
        }
    }

    /** Polls the task states while the lease is held; returns once it is lost. */
    private static void poll(Lease lease, int interval) throws InterruptedException {
        boolean paused = false;
        for (int n = 1; ; ) {
            LeaseState state = lease.state();
            if (state == LeaseState.HELD) {
                paused = false;
                say("POLL " + n++); // here the real node reads the task table and dispatches work
            } else if (state == LeaseState.UNCERTAIN) {
                if (!paused) {
                    say("PAUSED"); // another node may be the poller by now: do nothing until sure again
                }
                paused = true;
            } else {
                say(state == LeaseState.LOST ? "LOST" : "RELEASED");
                return;
            }
            Thread.sleep(interval); // the polling period
        }
    }

    /** Closes the service on {@code stop} or the end of standard input, which ends every wait of {@code main}. */
    private static void stopOnCommand(LockService locks) {
        Thread t = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null && !line.equals("stop"); line = in.readLine()) {
                    // nothing else is understood
                }
            } catch (IOException e) {
                // the parent is gone: stop as well
            }
            locks.close();
        }, "scheduler-node-commands");
        t.setDaemon(true);
        t.start();
    }

    private static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
