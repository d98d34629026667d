package org.lockspi.examples;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.lockspi.tck.support.ChildJvm;

/**
 * The use of the original raw-ZooKeeper article: scheduler nodes that elect one poller ({@code Leadership}), and a
 * take-over when the poller's process dies. This process starts the lock server (ZooKeeper by default, Redis with
 * {@code --redis}, none with {@code --uri}) and {@code --nodes} {@link SchedulerNode} processes; it lets the poller
 * poll a few times, kills its process with {@code SIGKILL} (no clean-up, as in a crash), and measures how long until
 * another node polls. That time is the crash-release time of the backend: the ZooKeeper session timeout, the Redis
 * lease time; {@code --session=MS} sets it in the URI (default 3000).
 *
 * <pre>
 * ./mvnw -q -Pscheduler -pl lock-examples -am verify -DskipTests
 * ./mvnw -q -Pscheduler -pl lock-examples -am verify -DskipTests -Dexec.args="--provider=zkclient"
 * ./mvnw -q -Pscheduler -pl lock-examples -am verify -DskipTests -Dexec.args="--redis"
 * </pre>
 *
 * Options: {@code --nodes=3 --kills=2} (at most nodes - 1), {@code --session=3000}, {@code --interval=250} (ms between
 * polls), {@code --polls=3} (polls before each kill), {@code --name=scheduler/poller}, {@code --uri=URI},
 * {@code --provider=NAME}, {@code --redis}. Exits with 1 if two nodes ever polled in the same term.
 */
public final class SchedulerExample {
    private static final Duration WAIT = Duration.ofSeconds(90);

    private SchedulerExample() {
    }

    /**
     * @param args see the class description
     */
    public static void main(String[] args) {
        int exit;
        try {
            Outcome outcome = run(System.out, args);
            exit = outcome.violations().isEmpty() ? 0 : 1;
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            exit = 64;
        }
        System.exit(exit);
    }

    /**
     * The result of one run.
     *
     * @param provider   the provider the nodes used
     * @param takeOvers  for each kill, the time from the poller's death to the next node's first poll
     * @param tokens     the fencing tokens of the pollers, in order (empty without fencing tokens)
     * @param violations descriptions of moments when two nodes acted as poller; empty when all went well
     */
    record Outcome(String provider, List<Duration> takeOvers, List<Long> tokens, List<String> violations) {
        /** @return whether every poller's token was greater than its predecessor's */
        boolean tokensIncreasing() {
            for (int i = 1; i < tokens.size(); i++) {
                if (tokens.get(i) <= tokens.get(i - 1)) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * Runs the example.
     *
     * @param out  where to print
     * @param args see the class description
     * @return the outcome
     * @throws IllegalArgumentException for bad arguments
     * @throws AssertionError           if a node fails, ends unexpectedly or nothing happens in time
     */
    static Outcome run(PrintStream out, String... args) {
        Set<String> options = new HashSet<>(ExampleBackend.OPTIONS);
        options.addAll(Set.of("nodes", "kills", "session", "interval", "polls", "name"));
        ExampleArgs a = ExampleArgs.parse("SchedulerExample", args, options, ExampleBackend.SWITCHES);
        int nodes = a.integer("nodes", 3, 2, 50);
        int kills = a.integer("kills", nodes - 1, 0, nodes - 1);
        int session = a.integer("session", 3000, 500, 600_000);
        int interval = a.integer("interval", 250, 1, 60_000);
        int pollsPerTerm = a.integer("polls", 3, 1, 1000);
        String name = a.value("name", "scheduler/poller");

        try (ExampleBackend backend = ExampleBackend.start(a, "/scheduler", Duration.ofMillis(session));
             ChildJvm.Group group = new ChildJvm.Group()) {
            out.println("lock:      " + backend.description());
            out.println("lock URI:  " + backend.display() + "   election: " + name);
            Map<ChildJvm, String> labels = new HashMap<>();
            List<ChildJvm> children = new ArrayList<>();
            for (int i = 1; i <= nodes; i++) {
                ChildJvm child = group.start(SchedulerNode.class, "--lock=" + backend.uri(), "--name=" + name,
                        "--id=node-" + i, "--interval=" + interval);
                children.add(child);
                labels.put(child, "node-" + i + " (pid " + child.pid() + ")");
            }
            ChildLines lines = new ChildLines(children);
            String provider = null;
            int ready = 0;
            List<Duration> takeOvers = new ArrayList<>();
            List<Long> tokens = new ArrayList<>();
            List<String> violations = new ArrayList<>();
            Set<ChildJvm> killed = new HashSet<>();
            ChildJvm poller = null;
            long killedAt = 0; // epoch ms of the last kill, 0 before the first
            int polls = 0;
            while (true) {
                ChildLines.Line l = lines.next(WAIT);
                check(l, labels, killed);
                if (killed.contains(l.child())) {
                    continue; // written before it died, or its end
                }
                String who = labels.get(l.child());
                String[] words = l.line().split(" ");
                if (words[0].equals("STANDBY")) {
                    provider = words[1];
                    if (++ready == nodes) {
                        out.println(nodes + " scheduler processes up, provider " + provider + "; one is elected,"
                                + " the others stand by");
                    }
                } else if (words[0].equals("POLLER")) {
                    if (poller != null && poller != l.child()) {
                        violations.add(who + " became poller while " + labels.get(poller) + " still was");
                    }
                    poller = l.child();
                    polls = 0;
                    String token = words[1];
                    if (!token.equals("none")) {
                        tokens.add(Long.parseLong(token));
                    }
                    if (killedAt == 0) {
                        out.println(who + " is the poller, fencing token " + token);
                    } else {
                        Duration takeOver = Duration.ofMillis(Long.parseLong(words[2]) - killedAt);
                        takeOvers.add(takeOver);
                        out.println(who + " took over " + takeOver.toMillis() + " ms after the kill, fencing token "
                                + token);
                    }
                } else if (words[0].equals("POLL")) {
                    if (l.child() != poller) {
                        violations.add(who + " polled while " + (poller == null ? "no node" : labels.get(poller))
                                + " was the poller");
                        continue;
                    }
                    out.println("  " + who + " polls the task states (" + words[1] + ")");
                    if (++polls >= pollsPerTerm && ready == nodes) { // kill only when every node is waiting
                        if (killed.size() == kills) {
                            break;
                        }
                        poller.kill();
                        killedAt = System.currentTimeMillis();
                        killed.add(poller);
                        out.println("killed " + labels.get(poller) + " with SIGKILL");
                        poller = null;
                    }
                }
            }
            out.println("take-over times: " + takeOvers.stream().map(d -> d.toMillis() + " ms").toList()
                    + " (the crash-release time is set in the URI: " + backend.display().replaceAll(".*\\?", "") + ")");
            if (!tokens.isEmpty()) {
                Outcome o = new Outcome(provider, takeOvers, tokens, violations);
                out.println("pollers' fencing tokens " + tokens + ", increasing: " + (o.tokensIncreasing() ? "yes" : "no"));
            }
            out.println(violations.isEmpty() ? "one poller at a time: yes" : "TWO POLLERS: " + violations);
            return new Outcome(provider, takeOvers, tokens, violations);
        }
    }

    /** Fails on an {@code ERROR} line, or on the end of a node that was not killed. */
    private static void check(ChildLines.Line l, Map<ChildJvm, String> labels, Set<ChildJvm> killed) {
        if (l.line().startsWith("ERROR ")) {
            throw new AssertionError(labels.get(l.child()) + " failed: " + l.line() + l.child().stderrTail());
        }
        if (l.line().equals(ChildLines.ENDED) && !killed.contains(l.child())) {
            throw new AssertionError(labels.get(l.child()) + " ended unexpectedly" + l.child().stderrTail());
        }
    }
}
