package org.lockspi.jdbc;

import org.lockspi.tck.jdbc.DatabaseBackend;
import org.lockspi.tck.jdbc.H2ServerBackend;

/** {@link RevocationBackendTests} on H2 (lock-tck-jdbc's server), in the databases profile. */
class H2RevocationBackendTest extends RevocationBackendTests {

    @Override
    DatabaseBackend start() {
        return H2ServerBackend.start();
    }

    @Override
    String dialect() {
        return "h2";
    }
}
