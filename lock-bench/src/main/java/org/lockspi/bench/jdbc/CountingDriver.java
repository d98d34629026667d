package org.lockspi.bench.jdbc;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The PostgreSQL driver of {@link DriverManager}, replaced by one that counts what every connection it opens sends,
 * as {@link CountingDataSource} counts it (statements, a batch as one; commits and rollbacks): so that the pools a
 * variant builds itself from a URL, the provider's from its URI and the anchor's, are counted without handing them a
 * DataSource. A pool that names its driver class (the bench's own, {@link BenchDatabase}) keeps the driver itself
 * and is not counted. {@link #close()} puts the driver back. One at a time per JVM.
 */
public final class CountingDriver implements Driver, AutoCloseable {
    private final Driver target;
    private final CountingDataSource counter = new CountingDataSource();

    private CountingDriver(Driver target) {
        this.target = target;
    }

    /**
     * Replaces the driver {@link DriverManager} has for a URL by a counting one.
     *
     * @param url a URL of the database, e.g. {@code jdbc:postgresql://127.0.0.1:5432/postgres}
     * @return the counting driver, registered in the driver's place
     * @throws SQLException if no driver takes the URL
     */
    public static CountingDriver install(String url) throws SQLException {
        Driver target = DriverManager.getDriver(url);
        if (target instanceof CountingDriver) {
            throw new IllegalStateException("the driver of " + url + " counts already");
        }
        CountingDriver counting = new CountingDriver(target);
        DriverManager.deregisterDriver(target);
        DriverManager.registerDriver(counting);
        return counting;
    }

    /** @return the statements, commits and rollbacks the connections of this driver sent so far */
    public long requests() {
        return counter.statements.get() + counter.commits.get();
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        Connection c = target.connect(url, info);
        return c == null ? null : counter.wrap(c);
    }

    @Override
    public boolean acceptsURL(String url) throws SQLException {
        return target.acceptsURL(url);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
        return target.getPropertyInfo(url, info);
    }

    @Override
    public int getMajorVersion() {
        return target.getMajorVersion();
    }

    @Override
    public int getMinorVersion() {
        return target.getMinorVersion();
    }

    @Override
    public boolean jdbcCompliant() {
        return target.jdbcCompliant();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return target.getParentLogger();
    }

    /** Puts the driver it replaced back into {@link DriverManager}; idempotent. */
    @Override
    public synchronized void close() throws SQLException {
        boolean registered = DriverManager.drivers().anyMatch(d -> d == this);
        if (registered) {
            DriverManager.deregisterDriver(this);
            DriverManager.registerDriver(target);
        }
    }
}
