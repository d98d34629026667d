package org.lockspi.jdbc.internal;

import java.util.function.Consumer;
import javax.sql.DataSource;
import org.lockspi.LockException;

/**
 * Where a backend's connections come from: for the URI form, a HikariCP pool the provider builds and closes (so
 * HikariCP must be on the class path); for an application's {@code DataSource}, that one, left open.
 */
public final class Pools {
    private Pools() {
    }

    /**
     * @param settings the URI form's options
     * @return connections from a new HikariCP pool
     * @throws LockException if HikariCP is not on the class path
     */
    public static Connections forUri(JdbcSettings settings) {
        try {
            Class.forName("com.zaxxer.hikari.HikariDataSource", false, Pools.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new LockException("the URI form of the JDBC provider builds a HikariCP pool: put "
                    + "com.zaxxer:HikariCP on the class path, or open the provider on your own DataSource with "
                    + "JdbcLockProvider.open(dataSource, parameters)", e);
        }
        return HikariPool.open(settings);
    }

    /**
     * @param dataSource an application's connections
     * @return connections from it; a broken one is removed from a HikariCP pool by its own call, else aborted
     */
    public static Connections forDataSource(DataSource dataSource) {
        Consumer<java.sql.Connection> evict = null;
        if (isHikari(dataSource)) {
            evict = HikariPool.evictor(dataSource);
        }
        return new Connections(dataSource, evict, null, dataSource::getConnection);
    }

    private static boolean isHikari(DataSource dataSource) {
        for (Class<?> c = dataSource.getClass(); c != null; c = c.getSuperclass()) {
            if (c.getName().equals("com.zaxxer.hikari.HikariDataSource")) {
                return true;
            }
        }
        return false;
    }
}
