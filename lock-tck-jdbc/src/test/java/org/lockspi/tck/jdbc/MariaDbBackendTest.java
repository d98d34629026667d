package org.lockspi.tck.jdbc;

class MariaDbBackendTest extends DatabaseBackendTests {
    @Override
    DatabaseBackend start() {
        return MariaDbBackend.start();
    }
}
