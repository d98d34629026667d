package org.lockspi.jdbc;

import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.lockspi.tck.jdbc.DatabaseBackend;

/**
 * {@link RevocationChecks} on a database whose holders learn of a request at their next renewal (MariaDB, H2), in
 * the databases profile beside the TCK class's §27: the upgrade of an earlier version's tables (the dialect's schema
 * file's own ALTER TABLE statements), a revoked holder told within the renewal interval plus a pass, and one cut off
 * while revoked told when it is back. One subclass per database; PostgreSQL's checks are in
 * {@link JdbcProviderTest}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class RevocationBackendTests {
    private DatabaseBackend db;

    /** @return a started database; closed after the last test */
    abstract DatabaseBackend start();

    /** @return the dialect's name, as in its schema file's */
    abstract String dialect();

    @BeforeAll
    void startDatabase() {
        db = start();
    }

    @AfterAll
    void stopDatabase() {
        db.close();
    }

    @Test
    void aSchemaOfTheVersionBeforeRevocationIsUpgraded() throws Exception {
        RevocationChecks.schemaOfTheEarlierVersionIsUpgraded(db, dialect());
    }

    @Test
    void aHolderCutOffWhileRevokedIsToldWhenItIsBack() throws Exception {
        RevocationChecks.aCutOffHolderIsToldWhenItIsBack(db);
    }

    /** leaseTime 3 s: a renewal each second finds the request; bound the interval plus a pass (1 s, loaded). */
    @Test
    void aRevocationReachesTheHolderAtItsNextRenewal() throws Exception {
        long[] ms = RevocationChecks.revokedToLost(db.uri() + "?leaseTime=3s", Duration.ofSeconds(2));
        System.out.println("[revocation] " + db.description() + ", renewal (leaseTime 3s): revoke returned -> holder "
                + "LOST, ms: " + java.util.Arrays.toString(ms));
    }
}
