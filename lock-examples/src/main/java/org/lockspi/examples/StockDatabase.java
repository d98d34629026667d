package org.lockspi.examples;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.h2.tools.Server;

/**
 * The shop's database for the stock example: an H2 database in memory, served over TCP by an H2 server in this
 * JVM, so that worker processes reach it as they would reach any database server.
 *
 * <pre>
 * stock (id INT PRIMARY KEY, items INT)        -- one row, id 1: the items left
 * sale  (id IDENTITY, worker, provider, token) -- one row per item sold, in the order sold
 * guard (id INT PRIMARY KEY)                   -- a row exists while a worker is inside the critical section
 * overlap (id IDENTITY, worker)                -- one row each time a worker found another one inside
 * stale (id IDENTITY, worker, token)           -- one row per write the fence refused
 * lockspi_fence (resource, token)              -- the highest token that wrote the stock row (JdbcFence)
 * </pre>
 */
final class StockDatabase implements AutoCloseable {
    /** The id of the one product. */
    static final int PRODUCT = 1;

    private final Server server;
    private final Connection local;
    private final String name;
    private final int initial;
    private boolean closed;

    private StockDatabase(Server server, Connection local, String name, int initial) {
        this.server = server;
        this.local = local;
        this.name = name;
        this.initial = initial;
    }

    /**
     * Starts an H2 TCP server on a free port of the loopback address and creates the tables with
     * {@code items} items in stock.
     *
     * @param items the initial stock
     * @return the running database; close it when done
     * @throws IllegalStateException if the server or the tables cannot be created
     */
    static StockDatabase start(int items) {
        String name = "shop-" + UUID.randomUUID();
        Server server = null;
        Connection local = null;
        try {
            // port 0: the system chooses; remote clients may open only databases that exist (no -ifNotExists)
            server = Server.createTcpServer("-tcpPort", "0").start();
            local = DriverManager.getConnection("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1");
            try (Statement s = local.createStatement()) {
                s.execute("CREATE TABLE stock (id INT PRIMARY KEY, items INT NOT NULL)");
                s.execute("CREATE TABLE sale (id BIGINT AUTO_INCREMENT PRIMARY KEY, worker VARCHAR(64) NOT NULL,"
                        + " provider VARCHAR(64) NOT NULL, token BIGINT)");
                s.execute("CREATE TABLE guard (id INT PRIMARY KEY)");
                s.execute("CREATE TABLE overlap (id BIGINT AUTO_INCREMENT PRIMARY KEY, worker VARCHAR(64) NOT NULL)");
                s.execute("CREATE TABLE stale (id BIGINT AUTO_INCREMENT PRIMARY KEY, worker VARCHAR(64) NOT NULL,"
                        + " token BIGINT NOT NULL)");
            }
            StockWorker.FENCE.createTable(local);
            try (PreparedStatement p = local.prepareStatement("INSERT INTO stock (id, items) VALUES (?, ?)")) {
                p.setInt(1, PRODUCT);
                p.setInt(2, items);
                p.executeUpdate();
            }
            return new StockDatabase(server, local, name, items);
        } catch (SQLException | RuntimeException e) {
            IllegalStateException failure = new IllegalStateException("cannot start the H2 database", e);
            if (local != null) {
                try {
                    local.close();
                } catch (SQLException c) {
                    failure.addSuppressed(c);
                }
            }
            if (server != null) {
                server.stop();
            }
            throw failure;
        }
    }

    /** @return the JDBC URL worker processes connect to */
    String workerUrl() {
        return "jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/mem:" + name;
    }

    /** @return a one-line description, e.g. {@code H2 2.5.252 over TCP at 127.0.0.1:40001} */
    String description() {
        return "H2 " + org.h2.engine.Constants.FULL_VERSION + " over TCP at 127.0.0.1:" + server.getPort();
    }

    /**
     * Reads the outcome.
     *
     * @return what was sold, in order, and what is left
     * @throws IllegalStateException if the tables cannot be read
     */
    StockReport report() {
        try (Statement s = local.createStatement()) {
            int remaining;
            try (ResultSet r = s.executeQuery("SELECT items FROM stock WHERE id = " + PRODUCT)) {
                r.next();
                remaining = r.getInt(1);
            }
            List<StockReport.Sale> sales = new ArrayList<>();
            try (ResultSet r = s.executeQuery("SELECT worker, provider, token FROM sale ORDER BY id")) {
                while (r.next()) {
                    String worker = r.getString(1);
                    String provider = r.getString(2);
                    long token = r.getLong(3);
                    sales.add(new StockReport.Sale(worker, provider, r.wasNull() ? null : token));
                }
            }
            int overlaps;
            try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM overlap")) {
                r.next();
                overlaps = r.getInt(1);
            }
            int stale;
            try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM stale")) {
                r.next();
                stale = r.getInt(1);
            }
            return new StockReport(initial, remaining, sales, overlaps, stale);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the outcome from " + description(), e);
        }
    }

    /** Drops the database and stops the server. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        IllegalStateException failure = null;
        try (Statement s = local.createStatement()) {
            s.execute("SHUTDOWN");
        } catch (SQLException e) {
            failure = new IllegalStateException("cannot shut down " + description(), e);
        }
        try {
            local.close();
        } catch (SQLException e) {
            if (failure == null) {
                failure = new IllegalStateException("cannot close the connection to " + description(), e);
            } else {
                failure.addSuppressed(e);
            }
        }
        server.stop();
        if (failure != null) {
            throw failure;
        }
    }
}
