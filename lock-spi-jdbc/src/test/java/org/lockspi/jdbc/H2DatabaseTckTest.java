package org.lockspi.jdbc;

import java.time.Duration;
import java.util.Map;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.LockProviderTck;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.jdbc.H2ServerBackend;

/**
 * The whole conformance kit against an H2 server in a child JVM (lock-tck-jdbc), waiters polling: in the databases
 * profile, with the parameters of {@link PostgresTckTest}: the server restarts in about a second, but a 3 s lease did
 * not outlive it once the machine was loaded (§18.4).
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
