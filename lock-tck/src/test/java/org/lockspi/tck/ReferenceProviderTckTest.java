package org.lockspi.tck;

import java.util.Map;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.reference.MemProvider;
import org.lockspi.tck.reference.MemTckBackend;

/** The TCK against its own reference provider: every contract must pass or be skipped with its reason. */
class ReferenceProviderTckTest extends LockProviderTck {
    private final LockProvider provider = new MemProvider();

    @Override
    public LockProvider provider() {
        return provider;
    }

    @Override
    protected TckBackend startBackend() {
        return new MemTckBackend();
    }

    @Override
    protected Map<String, String> unverifiedRulesAllowed() {
        return MemTckBackend.UNVERIFIABLE;
    }

    @Override
    protected String clientParameters() {
        return "connectTimeout=1s";
    }
}
