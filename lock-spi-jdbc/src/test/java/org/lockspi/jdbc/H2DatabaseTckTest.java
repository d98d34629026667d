package org.lockspi.jdbc;

import java.time.Duration;
import java.util.Map;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.LockProviderTck;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.jdbc.H2ServerBackend;

/**
 * The whole conformance kit against an H2 server in a child JVM (lock-tck-jdbc), waiters polling: in the databases
 * profile. The server restarts in about a second, so a 3 s lease outlives it.
 */
class H2DatabaseTckTest extends LockProviderTck {

    @Override
    public LockProvider provider() {
        return new JdbcLockProvider();
    }

    @Override
    protected TckBackend startBackend() {
        return H2ServerBackend.start();
    }

    @Override
    protected String clientParameters() {
        return "leaseTime=3s&connectTimeout=1s&socketTimeout=1s&retryMax=250ms";
    }

    /** The lease time, a renewal interval of slack and a few back-off pauses. */
    @Override
    public Duration crashReleaseBound() {
        return Duration.ofSeconds(6);
    }

    @Override
    protected Map<String, String> unverifiedRulesAllowed() {
        return PostgresTckTest.UNVERIFIABLE;
    }
}
