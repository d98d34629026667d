package org.lockspi.jdbc.internal;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The URI form's connections straight from the driver, for the provider's HikariCP pool and the dedicated
 * connections: a connect that fails as a connection (refused, reset, timed out) is told to {@link Connections} at
 * once, so that the backend reports the outage while the pool still waits up to its connection timeout for a
 * connection (the pool drops its dead connections without a word when it validates them).
 */
final class DirectDataSource implements DataSource {
    private final String url;
    private final Properties properties;
    private volatile Connections connections;

    DirectDataSource(String url, Properties properties) {
        this.url = url;
        this.properties = properties;
    }

    /** @param connections told of each connect that failed as a connection */
    void reportTo(Connections connections) {
        this.connections = connections;
    }

    @Override
    public Connection getConnection() throws SQLException {
        try {
            return DriverManager.getConnection(url, properties);
        } catch (SQLException e) {
            Connections told = connections;
            if (told != null && Connections.broken(e)) {
                told.unreachable();
            }
            throw e;
        }
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("the credentials are in the URI: " + url);
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        // DriverManager's
    }

    @Override
    public void setLoginTimeout(int seconds) {
        // the driver's connectTimeout property
    }

    @Override
    public int getLoginTimeout() {
        return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("no parent logger");
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        throw new SQLException("not a wrapper of " + type.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return type.isInstance(this);
    }
}
