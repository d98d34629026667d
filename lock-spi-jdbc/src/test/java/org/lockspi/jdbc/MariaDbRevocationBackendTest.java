package org.lockspi.jdbc;

import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockspi.tck.jdbc.MariaDbBackend;

/**
 * {@link RevocationChecks} on MariaDB, in the databases profile (beside the TCK class's §27 there): the upgrade of an
 * earlier version's tables (the mariadb.sql file's own ALTER TABLE statements), and a revoked holder told by its
 * next renewal, within the renewal interval (leaseTime/3) plus a pass.
 */
class MariaDbRevocationBackendTest {
    private static MariaDbBackend db;

    @BeforeAll
    static void start() {
        db = MariaDbBackend.start();
    }

    @AfterAll
    static void stop() {
        db.close();
    }

    @Test
    void aSchemaOfTheVersionBeforeRevocationIsUpgraded() throws Exception {
        RevocationChecks.schemaOfTheEarlierVersionIsUpgraded(db, "mariadb");
    }

    /** leaseTime 3 s: a renewal each second finds the request; bound the interval plus a pass (1 s on a loaded machine). */
    @Test
    void aRevocationReachesTheHolderAtItsNextRenewal() throws Exception {
        long[] ms = RevocationChecks.revokedToLost(db.uri() + "?leaseTime=3s", Duration.ofSeconds(2));
        System.out.println("[revocation] MariaDB, renewal (leaseTime 3s): revoke returned -> holder LOST, ms: "
                + java.util.Arrays.toString(ms));
    }
}
