package org.lockspi.tck.zookeeper;

import java.time.Duration;
import org.lockspi.LockFeature;
import org.lockspi.tck.EnsembleProviderTck;
import org.lockspi.tck.TckBackend;

/**
 * The ensemble contracts (§19) for a ZooKeeper provider against a {@link ZooKeeperEnsembleBackend} of three members
 * in child JVMs, with its bounds derived from the {@link ZooKeeperTimeouts} the class gives, as
 * {@link ZooKeeperProviderTck} does for a single server.
 */
public abstract class ZooKeeperEnsembleProviderTck extends EnsembleProviderTck {

    /** @return the reason for {@link LockFeature#LEASE_TIME}, {@link ZooKeeperProviderTck#NO_LEASE_TIME} */
    @Override
    protected java.util.Map<LockFeature, String> undeclaredBecause() {
        return java.util.Map.of(LockFeature.LEASE_TIME, ZooKeeperProviderTck.NO_LEASE_TIME);
    }


    /** @return the timeouts of the clients this class opens */
    protected abstract ZooKeeperTimeouts timeouts();

    @Override
    protected TckBackend startBackend() {
        return ZooKeeperEnsembleBackend.start();
    }

    @Override
    protected final String clientParameters() {
        return timeouts().parameters();
    }

    /** @return the session timeout */
    @Override
    public final Duration leaseSpan() {
        return timeouts().session();
    }

    /** @return {@code min(connectTimeout, sessionTimeout / 2)}, the bound the ZooKeeper providers document */
    @Override
    public Duration releaseBound() {
        return timeouts().releaseBound();
    }
}
