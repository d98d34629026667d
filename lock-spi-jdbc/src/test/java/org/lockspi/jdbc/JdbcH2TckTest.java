package org.lockspi.jdbc;

import java.time.Duration;
import java.util.Map;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.LockProviderTck;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.jdbc.H2ServerBackend;

/**
 * The whole conformance kit against an H2 server in a child JVM (lock-tck-jdbc), in the default build; PostgreSQL
 * and MariaDB run the same in the databases profile. A 3 s lease keeps the crash and loss contracts fast.
 */
class JdbcH2TckTest extends LockProviderTck {
    /** The client parameters of every TCK class of this module. */
    static final String PARAMETERS = "leaseTime=3s&connectTimeout=1s&socketTimeout=1s&retryMax=250ms";
    /** The rules no database fixture can verify, with why. */
    static final Map<String, String> UNVERIFIABLE = Map.of("§18.5", "a database that loses its committed rows "
            + "loses its locks and its token sequence with them: no lock on it is safe, and the provider does not "
            + "pretend otherwise (the fixtures restart a database only with its data, §18.4)");

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
        return PARAMETERS;
    }

    /** The lease time, a renewal interval of slack and a few back-off pauses. */
    @Override
    public Duration crashReleaseBound() {
        return Duration.ofSeconds(6);
    }

    @Override
    protected Map<String, String> unverifiedRulesAllowed() {
        return UNVERIFIABLE;
    }
}
