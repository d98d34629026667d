package org.lockspi.tck.selftest;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.LockProviderTck;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.TckBackend.Capability;
import org.lockspi.tck.reference.MemProvider;
import org.lockspi.tck.reference.MemTckBackend;

/**
 * TCK classes for the broken variants of the reference provider. Their names do not end in {@code Test}, so the
 * build does not run them; {@link BrokenProvidersTest} runs them through the launcher and expects failures.
 */
final class TckRuns {
    private TckRuns() {
    }

    /** The TCK class for one provider on a fresh in-memory server. */
    abstract static class MemRun extends LockProviderTck {
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
            return MemTckBackend.UNVERIFIABLE;
        }
    }

    /** The correct reference provider, to show what the broken ones get wrong. */
    static class Reference extends MemRun {
        @Override
        public LockProvider provider() {
            return new MemProvider();
        }
    }

    /** Grants every acquisition. */
    static final class GrantAll extends MemRun {
        @Override
        public LockProvider provider() {
            return new MemProvider.GrantAll();
        }
    }

    /** Leaks a timed-out acquisition's entry. */
    static final class LeakOnTimeout extends MemRun {
        @Override
        public LockProvider provider() {
            return new MemProvider.LeakOnTimeout();
        }
    }

    /** Declares FAIR but grants the newest waiter first. */
    static final class Lifo extends MemRun {
        @Override
        public LockProvider provider() {
            return new MemProvider.Lifo();
        }
    }

    /** Leaks an interrupted acquisition's entry. */
    static final class LeakOnInterrupt extends MemRun {
        @Override
        public LockProvider provider() {
            return new MemProvider.LeakOnInterrupt();
        }
    }

    /** Leaves a thread running after close(). */
    static final class LeakThread extends MemRun {
        @Override
        public LockProvider provider() {
            return new MemProvider.LeakThread();
        }
    }

    /** Correct, waiting in I/O (RUNNABLE), on a backend without INSPECT: only the thread shows it waits. */
    static final class IoWaitNoInspect extends MemRun {
        @Override
        public LockProvider provider() {
            return new MemProvider.IoWait();
        }

        @Override
        protected TckBackend startBackend() {
            return new MemTckBackend(EnumSet.of(Capability.FORCE_LOSS, Capability.RESTART, Capability.EMPTY_STATE_REMOVAL));
        }
    }

    /** The reference provider on a backend that does not declare RESTART, allowing nothing for it. */
    static class NoRestart extends MemRun {
        @Override
        public LockProvider provider() {
            return new MemProvider();
        }

        @Override
        protected TckBackend startBackend() {
            return new MemTckBackend(EnumSet.of(Capability.INSPECT, Capability.FORCE_LOSS, Capability.EMPTY_STATE_REMOVAL,
                    Capability.COUNTERS_ABOVE_32_BITS));
        }
    }

    /** {@link NoRestart}, allowing the rules that need RESTART by name. */
    static final class NoRestartAllowed extends NoRestart {
        static final String REASON = "this backend cannot restart its server";

        @Override
        protected Map<String, String> unverifiedRulesAllowed() {
            Map<String, String> allowed = new HashMap<>(super.unverifiedRulesAllowed());
            allowed.put("§13.3", REASON);
            allowed.put("§16.1", REASON);
            allowed.put("§16.2", REASON);
            allowed.put("§17.3", REASON);
            allowed.put("§18.4", REASON);
            return allowed;
        }
    }

    /** A server whose sessions die with it, and a provider that says so (no SURVIVES_RESTART). */
    static final class RestartEndsLeases extends MemRun {
        @Override
        public LockProvider provider() {
            return new MemProvider.RestartEndsLeases();
        }

        @Override
        protected TckBackend startBackend() {
            return new MemTckBackend(EnumSet.of(Capability.INSPECT, Capability.FORCE_LOSS, Capability.RESTART,
                    Capability.EMPTY_STATE_REMOVAL, Capability.COUNTERS_ABOVE_32_BITS), true);
        }
    }

    /** The same server, and a provider that claims SURVIVES_RESTART: §16.1 must catch the claim. */
    static final class RestartEndsLeasesClaimed extends MemRun {
        /** The in-memory server tells at once; a short bound keeps the expected failure quick. */
        @Override
        public Duration crashReleaseBound() {
            return Duration.ofSeconds(2);
        }

        @Override
        public LockProvider provider() {
            return new MemProvider();
        }

        @Override
        protected TckBackend startBackend() {
            return new MemTckBackend(EnumSet.of(Capability.INSPECT, Capability.FORCE_LOSS, Capability.RESTART,
                    Capability.EMPTY_STATE_REMOVAL, Capability.COUNTERS_ABOVE_32_BITS), true);
        }
    }

    /** The reference provider with a test template of its own, named after a rule: its invocations count. */
    static final class WithTemplate extends MemRun {
        @Override
        public LockProvider provider() {
            return new MemProvider();
        }

        @ParameterizedTest(name = "[{index}] {0}")
        @ValueSource(strings = {"first", "second"})
        @DisplayName("§3.1 a template's invocations are reported under its rule")
        void templated(String which) {
            assertFalse(which.isEmpty());
        }
    }

    /** Allows a rule that does not exist. */
    static final class UnknownRuleAllowed extends MemRun {
        @Override
        public LockProvider provider() {
            return new MemProvider();
        }

        @Override
        protected Map<String, String> unverifiedRulesAllowed() {
            return Map.of("§99.1", "no such rule");
        }
    }

    /** Correct, but declares only REENTRANT_MUTEX: every other feature must be refused and its tests skipped. */
    static final class MutexOnly extends MemRun {
        @Override
        public LockProvider provider() {
            return new MemProvider.MutexOnly();
        }
    }
}
