package org.lockspi.bench.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * A DataSource that counts what its connections send: statements executed ({@code execute*}, a batch as one) and
 * commits and rollbacks, each a round trip to the database. Every variant of the bench uses the same pool through
 * one of these, so their counts compare. On demand it also records the prepared statements executed on the
 * calling thread (their SQL, the values bound to them), so that a variant's statements can be sent again by hand.
 */
final class CountingDataSource {
    final AtomicLong statements = new AtomicLong();
    final AtomicLong commits = new AtomicLong();
    final DataSource dataSource;
    /** The statements recorded on one thread, or null when not recording. */
    private volatile Thread recorder;
    private final List<Recorded> recorded = new ArrayList<>();

    /** One prepared statement as it was executed: its SQL, its values by parameter index, whether a query. */
    record Recorded(String sql, TreeMap<Integer, Object> values, boolean query) {
        /** Executes it again on a connection: binds the same values, reads the first row of a query. */
        void replay(Connection c) throws java.sql.SQLException {
            try (PreparedStatement s = c.prepareStatement(sql)) {
                for (var v : values.entrySet()) {
                    s.setObject(v.getKey(), v.getValue());
                }
                if (query) {
                    try (java.sql.ResultSet r = s.executeQuery()) {
                        if (!r.next()) {
                            throw new IllegalStateException("the replayed query returned no row: " + sql);
                        }
                    }
                } else if (s.executeUpdate() != 1) {
                    throw new IllegalStateException("the replayed statement changed no row: " + sql);
                }
            }
        }
    }

    CountingDataSource(DataSource target) {
        this.dataSource = (DataSource) proxy(target, DataSource.class, null);
    }

    /** Counts without a DataSource ({@link #dataSource} null): for connections {@link #wrap}ped one by one. */
    CountingDataSource() {
        this.dataSource = null;
    }

    /** @return a connection that counts what it sends here */
    Connection wrap(Connection connection) {
        return (Connection) proxy(connection, Connection.class, null);
    }

    void reset() {
        statements.set(0);
        commits.set(0);
    }

    /** Starts recording the prepared statements the calling thread executes, from none. */
    void record() {
        synchronized (recorded) {
            recorded.clear();
        }
        recorder = Thread.currentThread();
    }

    /** @return the statements recorded since {@link #record()}, which stops */
    List<Recorded> recorded() {
        recorder = null;
        synchronized (recorded) {
            return List.copyOf(recorded);
        }
    }

    private Object proxy(Object target, Class<?> type, String sql) {
        // the values bound to a prepared statement made while recording; null for every other proxy
        TreeMap<Integer, Object> values = sql != null && recorder == Thread.currentThread() ? new TreeMap<>() : null;
        InvocationHandler handler = (p, method, args) -> {
            String name = method.getName();
            if (target instanceof Statement && name.startsWith("execute")) {
                statements.incrementAndGet();
                if (values != null) {
                    synchronized (recorded) {
                        recorded.add(new Recorded(sql, new TreeMap<>(values), name.equals("executeQuery")));
                    }
                }
            } else if (target instanceof Connection && (name.equals("commit") || name.equals("rollback"))) {
                commits.incrementAndGet();
            } else if (values != null && name.startsWith("set") && args != null && args.length == 2
                    && args[0] instanceof Integer) {
                values.put((Integer) args[0], args[1]);
            }
            Object result = invoke(method, target, args);
            if (result instanceof Connection && !name.equals("unwrap")) {
                return proxy(result, Connection.class, null);
            }
            if (result instanceof Statement) {
                return proxy(result, method.getReturnType(),
                        name.equals("prepareStatement") && args != null ? (String) args[0] : null);
            }
            return result;
        };
        return Proxy.newProxyInstance(CountingDataSource.class.getClassLoader(), new Class<?>[] {type}, handler);
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
