package org.lockspi.tck.jdbc;

class H2ServerBackendTest extends DatabaseBackendTests {
    @Override
    DatabaseBackend start() {
        return H2ServerBackend.start();
    }
}
