package org.lockspi.examples;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.fencing.JdbcFence;

/**
 * One shop client of the stock example, in a process of its own: it buys one item (or, with {@code --loop}, one
 * item after another) with the unguarded read-then-update of the original article, no transaction, inside a
 * distributed lock. The code knows only {@code lock-api} and JDBC; the lock URI decides backend and provider.
 *
 * <pre>
 * --jdbc=URL    the shop's database
 * --lock=URI    the lock service, e.g. zookeeper://127.0.0.1:2181/shop; absent: no lock at all
 * --name=NAME   the lock's name (default stock/product-1)
 * --label=TEXT  this worker's name in the sales table
 * --think=MS    the order's business logic between the read and the write (default 20)
 * --loop        buy until sold out or told to stop, instead of once
 * --late-write  buy once, but after the read print CHECKED and wait for {@code write} before writing: a holder that
 *               can be paused (SIGSTOP) between its check of the lease and its write
 * </pre>
 *
 * With a lock whose provider has fencing tokens, the write of the stock row goes through a {@link JdbcFence} on
 * the resource {@code stock/<product>}, in one transaction with the sale: a token lower than one already written
 * is refused ({@code STALE}), and nothing of that sale is written.
 *
 * <p>It talks in lines: prints {@code READY <provider>} and waits for {@code go} on standard input; then prints
 * {@code SOLD <fencing token>} per item, {@code SOLD_OUT} if it found none left, {@code STALE <token> <highest>} if
 * the fence refused its write; {@code stop} on standard input (or its end) ends a loop after the current item;
 * finally {@code DONE <items bought> <overlaps seen>}. With {@code --late-write} it prints {@code CHECKED <token>
 * <items read>} between its read and its write, and writes on {@code write}. A failure prints
 * {@code ERROR <exception>} and exits with 2.
 */
public final class StockWorker {
    /** How long one acquisition may wait; a stuck lock fails the run instead of hanging it. */
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** H2's SQL state for a duplicate key. */
    private static final String DUPLICATE_KEY = "23505";
    /** The stock row's fence: the highest token that wrote it (the table is made by {@link StockDatabase}). */
    static final JdbcFence FENCE = JdbcFence.withDefaultTable();

    private final Connection db;
    private final String label;
    private final String provider;
    private final long thinkMillis;
    private final Commands commands;
    private final boolean lateWrite;
    private int overlaps;

    private StockWorker(Connection db, String label, String provider, long thinkMillis, Commands commands,
                        boolean lateWrite) {
        this.db = db;
        this.label = label;
        this.provider = provider;
        this.thinkMillis = thinkMillis;
        this.commands = commands;
        this.lateWrite = lateWrite;
    }

    /**
     * @param args see the class description
     */
    public static void main(String[] args) {
        int exit = 0;
        try {
            ExampleArgs a = ExampleArgs.parse("StockWorker", args,
                    Set.of("jdbc", "lock", "name", "label", "think"), Set.of("loop", "late-write"));
            run(a);
        } catch (Exception | Error e) {
            e.printStackTrace();
            say("ERROR " + e);
            exit = 2;
        }
        System.exit(exit);
    }

    private static void run(ExampleArgs a) throws SQLException, InterruptedException {
        String jdbc = a.value("jdbc", null);
        if (jdbc == null) {
            throw new IllegalArgumentException("StockWorker: --jdbc=URL is required");
        }
        String uri = a.value("lock", null);
        String label = a.value("label", "worker-" + ProcessHandle.current().pid());
        int think = a.integer("think", 20, 0, 60_000);
        boolean loop = a.flag("loop");
        boolean lateWrite = a.flag("late-write");
        if (loop && lateWrite) {
            throw new IllegalArgumentException("StockWorker: --loop and --late-write do not go together");
        }
        Commands commands = Commands.start();
        try (Connection db = DriverManager.getConnection(jdbc);
             LockService locks = uri == null ? null : Locks.open(uri)) {
            DistributedLock lock = locks == null ? null : locks.mutex(a.value("name", "stock/product-1"));
            boolean tokens = locks != null && locks.features().contains(LockFeature.FENCING_TOKENS);
            StockWorker worker = new StockWorker(db, label, locks == null ? "none" : locks.providerName(), think,
                    commands, lateWrite);
            say("READY " + worker.provider);
            if (!commands.awaitGo()) {
                say("DONE 0 0");
                return;
            }
            int bought = 0;
            boolean more = true;
            while (more) {
                if (lock == null) {
                    more = worker.buyOne(null);
                } else {
                    try (Lease lease = lock.acquire(WAIT)) {
                        lease.checkValid();
                        more = worker.buyOne(tokens ? lease.fencingToken() : null);
                    }
                }
                bought += more ? 1 : 0;
                more &= loop && !commands.stopped();
            }
            say("DONE " + bought + " " + worker.overlaps);
        }
    }

    /**
     * The critical section, as in the original article: read the stock, and if an item is left write the stock
     * minus one, without a transaction. Around it, the overlap detector: a row in {@code guard} while inside.
     *
     * @param token the fencing token of the lease held, or null
     * @return whether an item was bought
     */
    private boolean buyOne(Long token) throws SQLException, InterruptedException {
        enter();
        int items;
        try (PreparedStatement p = db.prepareStatement("SELECT items FROM stock WHERE id = ?")) {
            p.setInt(1, StockDatabase.PRODUCT);
            try (ResultSet r = p.executeQuery()) {
                r.next();
                items = r.getInt(1);
            }
        }
        boolean bought = items > 0;
        String outcome = bought ? "SOLD " + (token == null ? "none" : token) : "SOLD_OUT";
        if (bought) {
            if (thinkMillis > 0) {
                Thread.sleep(thinkMillis); // the order's business logic
            }
            if (lateWrite) {
                say("CHECKED " + token + " " + items);
                commands.awaitWrite(); // a SIGSTOP here is a holder paused between its check and its write
            }
            Long highest = write(items - 1, token);
            if (highest != null) {
                bought = false;
                outcome = "STALE " + token + " " + highest;
            }
        }
        leave();
        say(outcome);
        return bought;
    }

    /**
     * Writes the stock level and the sale in one transaction, fenced by the token if there is one.
     *
     * @return null if written; the highest token the fence had accepted if it refused this one
     */
    private Long write(int level, Long token) throws SQLException {
        String resource = "stock/" + StockDatabase.PRODUCT;
        db.setAutoCommit(false);
        try {
            if (token != null && !FENCE.tryAdvance(db, resource, token)) {
                long highest = FENCE.highest(db, resource).orElseThrow();
                db.rollback();
                try (PreparedStatement p = db.prepareStatement("INSERT INTO stale (worker, token) VALUES (?, ?)")) {
                    p.setString(1, label);
                    p.setLong(2, token);
                    p.executeUpdate();
                }
                db.commit();
                return highest;
            }
            try (PreparedStatement p = db.prepareStatement("UPDATE stock SET items = ? WHERE id = ?")) {
                p.setInt(1, level);
                p.setInt(2, StockDatabase.PRODUCT);
                p.executeUpdate();
            }
            try (PreparedStatement p = db.prepareStatement(
                    "INSERT INTO sale (worker, provider, token) VALUES (?, ?, ?)")) {
                p.setString(1, label);
                p.setString(2, provider);
                p.setObject(3, token);
                p.executeUpdate();
            }
            db.commit();
            return null;
        } catch (SQLException | RuntimeException e) {
            db.rollback();
            throw e;
        } finally {
            db.setAutoCommit(true);
        }
    }

    private void enter() throws SQLException {
        try (PreparedStatement p = db.prepareStatement("INSERT INTO guard (id) VALUES (1)")) {
            p.executeUpdate();
        } catch (SQLException e) {
            if (!DUPLICATE_KEY.equals(e.getSQLState())) {
                throw e;
            }
            overlap(); // someone else is inside
        }
    }

    private void leave() throws SQLException {
        try (PreparedStatement p = db.prepareStatement("DELETE FROM guard WHERE id = 1")) {
            if (p.executeUpdate() == 0) {
                overlap(); // someone else left our section for us
            }
        }
    }

    private void overlap() throws SQLException {
        overlaps++;
        try (PreparedStatement p = db.prepareStatement("INSERT INTO overlap (worker) VALUES (?)")) {
            p.setString(1, label);
            p.executeUpdate();
        }
    }

    private static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /**
     * The commands on standard input: {@code go}, then {@code write} (for a late write) or {@code stop}; the end of
     * input counts as stop.
     */
    private static final class Commands {
        private final CountDownLatch go = new CountDownLatch(1);
        private final CountDownLatch write = new CountDownLatch(1);
        private volatile boolean started;
        private volatile boolean stopped;

        static Commands start() {
            Commands c = new Commands();
            Thread t = new Thread(c::read, "stock-worker-commands");
            t.setDaemon(true);
            t.start();
            return c;
        }

        private void read() {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.equals("go")) {
                        started = true;
                        go.countDown();
                    } else if (line.equals("write")) {
                        write.countDown();
                    } else if (line.equals("stop")) {
                        break;
                    }
                }
            } catch (IOException e) {
                // the parent is gone: stop as on the end of input
            }
            stopped = true;
            go.countDown();
            write.countDown();
        }

        /** Waits for {@code write} (or the end of input, which writes too: the parent is gone). */
        void awaitWrite() throws InterruptedException {
            write.await();
        }

        /** @return true on {@code go}, false if told to stop first */
        boolean awaitGo() throws InterruptedException {
            go.await();
            return started;
        }

        boolean stopped() {
            return stopped;
        }
    }
}
