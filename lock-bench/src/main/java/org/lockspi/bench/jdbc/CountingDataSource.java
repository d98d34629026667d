package org.lockspi.bench.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * A DataSource that counts what its connections send: statements executed ({@code execute*}, a batch as one) and
 * commits and rollbacks, each a round trip to the database. Every variant of the bench uses the same pool through
 * one of these, so their counts compare.
 */
final class CountingDataSource {
    final AtomicLong statements = new AtomicLong();
    final AtomicLong commits = new AtomicLong();
    final DataSource dataSource;

    CountingDataSource(DataSource target) {
        this.dataSource = (DataSource) proxy(target, DataSource.class);
    }

    void reset() {
        statements.set(0);
        commits.set(0);
    }

    private Object proxy(Object target, Class<?> type) {
        InvocationHandler handler = (p, method, args) -> {
            String name = method.getName();
            if (target instanceof Statement && name.startsWith("execute")) {
                statements.incrementAndGet();
            } else if (target instanceof Connection && (name.equals("commit") || name.equals("rollback"))) {
                commits.incrementAndGet();
            }
            Object result = invoke(method, target, args);
            if (result instanceof Connection && !name.equals("unwrap")) {
                return proxy(result, Connection.class);
            }
            if (result instanceof Statement) {
                return proxy(result, method.getReturnType());
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
