package org.lockspi.jdbc;

import org.lockspi.tck.jdbc.DatabaseBackend;
import org.lockspi.tck.jdbc.MariaDbBackend;

/** {@link RevocationBackendTests} on MariaDB (lock-tck-jdbc's server), in the databases profile. */
class MariaDbRevocationBackendTest extends RevocationBackendTests {

    @Override
    DatabaseBackend start() {
        return MariaDbBackend.start();
    }

    @Override
    String dialect() {
        return "mariadb";
    }
}
