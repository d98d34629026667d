package org.lockspi.tck;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.lockspi.inmemory.InMemoryLockProvider;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.reference.MemTckBackend;

/**
 * The TCK against the published in-memory provider ({@code lock-spi-inmemory}), on a space kept in use by the
 * kit's in-memory backend: every rule passes, is skipped for a feature the provider does not declare, or is
 * allowed unverified below with its reason. {@code ifExists=true} makes a space nobody uses unreachable (§15).
 */
class InMemoryProviderTckTest extends LockProviderTck {
    private final LockProvider provider = new InMemoryLockProvider();

    @Override
    public LockProvider provider() {
        return provider;
    }

    @Override
    protected TckBackend startBackend() {
        return new MemTckBackend();
    }

    @Override
    protected String clientParameters() {
        return "ifExists=true";
    }

    /** The in-memory space keeps no lease time of its own; 2 s paces the restart and leadership rules. */
    @Override
    public Duration leaseSpan() {
        return Duration.ofSeconds(2);
    }

    @Override
    protected Map<String, String> unverifiedRulesAllowed() {
        Map<String, String> allowed = new HashMap<>(MemTckBackend.UNVERIFIABLE);
        allowed.put("§14.2", "a space has no watches to count: a release signals the condition of each entry it "
                + "grants and no other (lock-spi-inmemory's SpaceTest counts the wake-ups)");
        allowed.put("§14.6", "a space has no watches to count, for any kind: a release signals the condition of each "
                + "entry it grants and no other (lock-spi-inmemory's SpaceTest counts the wake-ups)");
        return allowed;
    }
}
