package org.lockspi.jdbc;

import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockspi.tck.jdbc.H2ServerBackend;

/**
 * {@link RevocationChecks} on H2, in the databases profile (beside the TCK class's §27 there): the upgrade of an
 * earlier version's tables (the h2.sql file's own ALTER TABLE statements), and a revoked holder told by its
 * next renewal, within the renewal interval (leaseTime/3) plus a pass.
 */
class H2RevocationBackendTest {
    private static H2ServerBackend db;

    @BeforeAll
    static void start() {
        db = H2ServerBackend.start();
    }

    @AfterAll
    static void stop() {
        db.close();
    }

    @Test
    void aSchemaOfTheVersionBeforeRevocationIsUpgraded() throws Exception {
        RevocationChecks.schemaOfTheEarlierVersionIsUpgraded(db, "h2");
    }

    /** leaseTime 3 s: a renewal each second finds the request; bound the interval plus a pass (1 s on a loaded machine). */
    @Test
    void aRevocationReachesTheHolderAtItsNextRenewal() throws Exception {
        long[] ms = RevocationChecks.revokedToLost(db.uri() + "?leaseTime=3s", Duration.ofSeconds(2));
        System.out.println("[revocation] H2, renewal (leaseTime 3s): revoke returned -> holder LOST, ms: "
                + java.util.Arrays.toString(ms));
    }
}
