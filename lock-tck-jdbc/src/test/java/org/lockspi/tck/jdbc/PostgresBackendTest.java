package org.lockspi.tck.jdbc;

class PostgresBackendTest extends DatabaseBackendTests {
    @Override
    DatabaseBackend start() {
        return PostgresBackend.start();
    }

    @Override
    String nextToken() {
        return "nextval('lockspi_token')";
    }
}
