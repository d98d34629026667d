package org.lockspi.examples;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.leader.LeaderListener;
import org.lockspi.leader.Leadership;
import org.lockspi.leader.NotLeaderException;
import org.lockspi.leader.Participant;
import org.lockspi.leader.StopReason;
import org.lockspi.leader.Term;

/**
 * One node of the scheduler example, in a process of its own: the use of the original raw-ZooKeeper article.
 * Every node runs the same code and joins one leader election ({@link Leadership}); the leader polls the task
 * states, and when that node dies another node is elected and takes the role over. The code knows only
 * {@code lock-api}.
 *
 * <pre>
 * --lock=URI      the lock service; provider and session timeout come with it
 * --name=NAME     the election's name (default scheduler/poller)
 * --id=ID         this node's id in the election (default node-&lt;pid&gt;)
 * --interval=MS   pause between two polls (default 250)
 * </pre>
 *
 * Lines on standard output: {@code STANDBY <provider>} once joined; {@code POLLER <fencing token> <epoch ms>} when
 * it was elected; {@code POLL <n>} per poll, each after {@link Term#checkValid()}; {@code DEPOSED <reason>} when
 * its term ended ({@code UNCERTAIN}: its lease turned uncertain, and it stops at once; {@code LOST}), after which
 * it asks again. {@code stop} on standard input, or its end, leaves the election (a graceful hand-over) and ends
 * the process with {@code STOPPED}.
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
            ExampleArgs a = ExampleArgs.parse("SchedulerNode", args, Set.of("lock", "name", "id", "interval"),
                    Set.of());
            String uri = a.value("lock", null);
            if (uri == null) {
                throw new IllegalArgumentException("SchedulerNode: --lock=URI is required");
            }
            run(uri, a.value("name", "scheduler/poller"), a.value("id", "node-" + ProcessHandle.current().pid()),
                    a.integer("interval", 250, 1, 60_000));
        } catch (Exception | Error e) {
            e.printStackTrace();
            System.out.println("ERROR " + e);
            exit = 2;
        }
        System.exit(exit);
    }

    private static void run(String uri, String election, String id, int interval) throws InterruptedException {
        CountDownLatch stop = stopOnCommand();
        try (LockService locks = Locks.open(uri);
             Participant node = Leadership.join(locks, election, id, new Poller(interval))) {
            say("STANDBY " + locks.providerName());
            stop.await();
        }
        say("STOPPED");
    }

    /** Polls on a thread of its own while its term lasts; the callbacks only start and stop it. */
    private static final class Poller implements LeaderListener {
        private final int interval;
        private Thread polling; // the participant's thread only

        Poller(int interval) {
            this.interval = interval;
        }

        @Override
        public void elected(Term term) {
            say("POLLER " + term.fencingToken() + " " + System.currentTimeMillis());
            polling = new Thread(() -> poll(term), "poller");
            polling.start();
        }

        @Override
        public void stopLeading(Term term, StopReason reason) {
            polling.interrupt();
            try {
                polling.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (reason != StopReason.CLOSED) {
                say("DEPOSED " + reason);
            }
        }

        private void poll(Term term) {
            try {
                for (int n = 1; ; n++) {
                    term.checkValid(); // NotLeaderException the moment the lease is not HELD
                    say("POLL " + n); // here the real node reads the task table and dispatches work with the token
                    Thread.sleep(interval); // the polling period
                }
            } catch (NotLeaderException | InterruptedException e) {
                // the term ended: stop polling
            }
        }
    }

    /** @return a latch that opens on {@code stop} or the end of standard input */
    private static CountDownLatch stopOnCommand() {
        CountDownLatch stop = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null && !line.equals("stop"); line = in.readLine()) {
                    // nothing else is understood
                }
            } catch (IOException e) {
                // the parent is gone: stop as well
            }
            stop.countDown();
        }, "scheduler-node-commands");
        t.setDaemon(true);
        t.start();
        return stop;
    }

    private static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
