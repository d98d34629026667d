package org.lockspi.tck.selftest;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.EnsembleProviderTck;
import org.lockspi.tck.ForwardingTckBackend;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.reference.MemProvider;
import org.lockspi.tck.reference.MemTckBackend;

/**
 * TCK classes that try a way to a green build without conformance, each seen in a real build of a provider
 * before the kit closed it. Their names do not end in {@code Test}: {@link GreenRoutesTest} runs them through the
 * launcher and expects each to end NOT CONFORMANT.
 */
final class GreenRoutes {
    private GreenRoutes() {
    }

    /** Replaces the kit's §3.1 with an empty test of the same name: it passes, and proves nothing. */
    static final class EmptyOverride extends TckRuns.Reference {
        @Override
        @Test
        @DisplayName("§3.1 a held mutex excludes every other client until it is released")
        public void heldMutexExcludesOtherClients() {
        }
    }

    /** Replaces the kit's §4.1 with a method that is no test: JUnit no longer sees the rule at all. */
    static final class HiddenOverride extends TckRuns.Reference {
        @Override
        public void holdCounts() {
        }
    }

    /** A backend that declares RESTART and then aborts in restart(): the rules that need it look not applicable. */
    static final class AbortingRestart extends TckRuns.MemRun {
        @Override
        public LockProvider provider() {
            return new MemProvider();
        }

        @Override
        protected TckBackend startBackend() {
            return new AbortingRestartBackend(new MemTckBackend());
        }
    }

    /** The ensemble class on a single server, allowing the ensemble rules it cannot show. */
    static final class EnsembleOnOneServer extends EnsembleProviderTck {
        @Override
        public LockProvider provider() {
            return new MemProvider();
        }

        @Override
        protected TckBackend startBackend() {
            return new MemTckBackend();
        }

        @Override
        public Duration leaseSpan() {
            return Duration.ofSeconds(2);
        }

        @Override
        protected Map<String, String> unverifiedRulesAllowed() {
            return Map.of("§19.1", "a single server", "§19.2", "a single server");
        }
    }

    /** A correct provider that declares no feature at all. */
    static final class NoFeatures extends TckRuns.MemRun {
        @Override
        public LockProvider provider() {
            return new MemProvider.NoFeatures();
        }
    }

    /** A correct provider that leaves LOST_NOTIFICATION, which it implements, out of what it declares. */
    static final class UndeclaredNotification extends TckRuns.MemRun {
        @Override
        public LockProvider provider() {
            return new MemProvider.UndeclaredNotification();
        }
    }

    /** {@link MemTckBackend} whose restart aborts the calling test instead of restarting. */
    private static final class AbortingRestartBackend extends ForwardingTckBackend {
        AbortingRestartBackend(MemTckBackend server) {
            super(server);
        }

        @Override
        public String description() {
            return delegate().description() + " (restart aborts)";
        }

        @Override
        public void restart() {
            Assumptions.abort("this server cannot be restarted here");
        }

        @Override
        public void stopServer() {
            Assumptions.abort("this server cannot be stopped here");
        }
    }
}
