package org.lockspi.examples;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.lockspi.Locks;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.support.ChildJvm;

/**
 * The oversell scenario of the original ZkClient article, with processes and a real database: 10 items in stock,
 * 15 clients, each buying one item with an unguarded read-then-update (no transaction) inside a distributed lock.
 * With the lock exactly 10 are sold; with {@code --no-lock} the same clients usually sell more than there are.
 *
 * <p>This process starts the lock server (ZooKeeper by default, Redis with {@code --redis}, none with {@code --uri})
 * and an H2 database server, then {@code --workers} {@link StockWorker} processes, releases them at once and
 * prints what they sold. The workers are one and the same program for every provider: the lock URI alone picks
 * the backend, {@code provider=NAME} in it (or {@code --provider=NAME}, or {@code -Dlockspi.provider=NAME}) the
 * client library.
 *
 * <pre>
 * ./mvnw -q -Pstock -pl lock-examples -am verify -DskipTests
 * ./mvnw -q -Pstock -pl lock-examples -am verify -DskipTests -Dexec.args="--provider=curator"
 * ./mvnw -q -Pstock -pl lock-examples -am verify -DskipTests -Dexec.args="--redis"
 * ./mvnw -q -Pstock -pl lock-examples -am verify -DskipTests -Dexec.args="--no-lock"
 * </pre>
 *
 * Options: {@code --workers=15 --stock=10 --think=20} (ms of business logic between the read and the write),
 * {@code --name=stock/product-1} (the lock), {@code --uri=URI}, {@code --provider=NAME}, {@code --redis},
 * {@code --no-lock}. Exits with 1 if, with the lock, anything was oversold, lost or overlapped.
 */
public final class StockExample {
    private static final Duration START = Duration.ofSeconds(90);
    private static final Duration FINISH = Duration.ofSeconds(180);

    private StockExample() {
    }

    /**
     * @param args see the class description
     */
    public static void main(String[] args) {
        int exit;
        try {
            Outcome outcome = run(System.out, args);
            exit = outcome.locked() && !outcome.report().clean() ? 1 : 0;
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            exit = 64;
        }
        System.exit(exit);
    }

    /**
     * The result of one run.
     *
     * @param locked   whether the workers used the lock
     * @param provider the provider the workers used, or {@code none}
     * @param report   what the database says
     * @param elapsed  from the start signal to the last worker's end
     */
    record Outcome(boolean locked, String provider, StockReport report, Duration elapsed) {
    }

    /**
     * Runs the example.
     *
     * @param out  where to print
     * @param args see the class description
     * @return the outcome
     * @throws IllegalArgumentException for bad arguments
     * @throws AssertionError           if a worker fails or does not answer in time (its error output is quoted)
     */
    static Outcome run(PrintStream out, String... args) {
        Set<String> options = new HashSet<>(ExampleBackend.OPTIONS);
        options.addAll(Set.of("workers", "stock", "think", "name"));
        Set<String> switches = new HashSet<>(ExampleBackend.SWITCHES);
        switches.add("no-lock");
        ExampleArgs a = ExampleArgs.parse("StockExample", args, options, switches);
        int workers = a.integer("workers", 15, 1, 200);
        int stock = a.integer("stock", 10, 0, 1_000_000);
        int think = a.integer("think", 20, 0, 60_000);
        String name = a.value("name", "stock/product-1");
        boolean locked = !a.flag("no-lock");

        try (ExampleBackend backend = locked ? ExampleBackend.start(a, "/shop", null) : null;
             StockDatabase db = StockDatabase.start(stock);
             ChildJvm.Group group = new ChildJvm.Group()) {
            out.println("database:   " + db.description() + ", " + stock + " items in stock");
            out.println("lock:       " + (locked ? backend.description() : "none (--no-lock)"));
            if (locked) {
                out.println("lock URI:   " + backend.display() + "   lock name: " + name);
                out.println("installed:  " + Locks.providers().stream().map(LockProvider::name).toList());
            }
            List<ChildJvm> children = new ArrayList<>();
            for (int i = 1; i <= workers; i++) {
                List<String> workerArgs = new ArrayList<>(List.of("--jdbc=" + db.workerUrl(),
                        "--label=" + label(i), "--think=" + think, "--name=" + name));
                if (locked) {
                    workerArgs.add("--lock=" + backend.uri());
                }
                children.add(group.start(StockWorker.class, workerArgs.toArray(String[]::new)));
            }
            String provider = null;
            for (ChildJvm child : children) {
                String ready = expect(child, START, "READY ");
                provider = ready.substring("READY ".length());
            }
            out.println(workers + " worker processes ready, provider: " + provider + "; go");
            long started = System.nanoTime();
            for (ChildJvm child : children) {
                child.send("go");
            }
            Map<String, String> results = new LinkedHashMap<>();
            for (int i = 0; i < children.size(); i++) {
                String line = expect(children.get(i), FINISH, "SOLD ", "SOLD_OUT", "STALE ");
                expect(children.get(i), FINISH, "DONE ");
                results.put(label(i + 1) + " (pid " + children.get(i).pid() + ")",
                        line.equals("SOLD_OUT") ? "found none left"
                                : line.startsWith("STALE ") ? "refused by the fence: " + line
                                : locked ? "bought 1 item, fencing token " + line.substring("SOLD ".length())
                                : "bought 1 item");
            }
            Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
            results.forEach((worker, result) -> out.println("  " + worker + ": " + result));
            StockReport report = db.report();
            out.println(report.summary());
            if (locked) {
                out.println("fencing tokens increasing in the order of sale: "
                        + (report.tokensIncreasing() ? "yes" : "no"));
            }
            out.printf("%d workers with %s in %d ms%n", workers, locked ? provider : "no lock", elapsed.toMillis());
            return new Outcome(locked, provider, report, elapsed);
        }
    }

    static String label(int i) {
        return String.format("worker-%02d", i);
    }

    /**
     * Waits for a line of the child's starting with one of {@code prefixes}; an {@code ERROR} line instead fails.
     */
    static String expect(ChildJvm child, Duration timeout, String... prefixes) {
        String[] withError = new String[prefixes.length + 1];
        System.arraycopy(prefixes, 0, withError, 0, prefixes.length);
        withError[prefixes.length] = "ERROR ";
        String line = child.awaitLine(timeout, withError);
        if (line.startsWith("ERROR ")) {
            throw new AssertionError(child + " failed: " + line + child.stderrTail());
        }
        return line;
    }
}
