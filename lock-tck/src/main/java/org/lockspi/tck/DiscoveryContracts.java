package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.assertNames;
import static org.lockspi.tck.internal.Checks.assertNoSecret;
import static org.lockspi.tck.internal.Checks.throwsWithin;
import static org.lockspi.tck.internal.Checks.withCredentials;
import static org.lockspi.tck.internal.Checks.withParameter;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.LockException;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.ProviderSelectionException;
import org.lockspi.spi.LockProvider;
import org.lockspi.spi.LockUri;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/** §1 Discovery and selection: the provider is found by {@link java.util.ServiceLoader} and chosen by the rules. */
@Inapplicable(kinds = {MUTEX, NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC}, shapes = {ONE_WAITER,
        SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_LOCK)
public interface DiscoveryContracts extends TckContext {

    /**
     * Looks for the provider under test among {@code Locks.providers()}, which reads
     * {@code META-INF/services/org.lockspi.spi.LockProvider} through {@link java.util.ServiceLoader}. The installed
     * provider of that name must be of the same class as the one under test, and no two installed providers may share a
     * name.
     */
    @Test
    @Diagnosis("The provider's jar lacks META-INF/services/org.lockspi.spi.LockProvider, or the file names another "
            + "class; a duplicate name means another jar on the class path registers a provider with the same "
            + "LockProvider.name().")
    @Covers(kinds = {})
    @DisplayName("§1.1 Locks.providers() lists the provider: it is registered with ServiceLoader")
    default void providerIsRegistered() {
        List<LockProvider> installed = Locks.providers();
        List<String> names = installed.stream().map(LockProvider::name).collect(Collectors.toList());
        assertTrue(names.contains(provider().name()), "provider '" + provider().name() + "' is not found by "
                + "ServiceLoader (META-INF/services/" + LockProvider.class.getName() + "); installed: " + names);
        LockProvider found = installed.stream().filter(p -> p.name().equals(provider().name())).findFirst()
                .orElseThrow();
        assertEquals(provider().getClass(), found.getClass(), "the installed provider named '"
                + provider().name() + "' is another class");
        assertEquals(names.size(), names.stream().distinct().count(), "provider names are not unique: " + names);
    }

    /**
     * Reads the provider's description: {@code name()} and {@code version()} are not blank, {@code schemes()} is not
     * empty, is all lower case and contains the backend's scheme, {@code features()} and {@code parameters()} are not
     * null, and {@code parameters()} does not contain {@code provider}, which the engine consumes.
     */
    @Test
    @Diagnosis("Look at LockProvider.name/version/schemes/features/parameters: a version read from a resource the jar "
            + "lacks comes out blank, a scheme in upper case never matches a URI, and 'provider' among parameters() "
            + "claims the engine's own parameter.")
    @Covers(kinds = {})
    @DisplayName("§1.2 the provider describes itself: name, version, lower-case schemes including the backend's")
    default void providerDescribesItself() {
        LockProvider p = provider();
        assertFalse(p.name() == null || p.name().isBlank(), "name() is blank");
        assertFalse(p.version() == null || p.version().isBlank(), "version() is blank");
        assertFalse(p.schemes().isEmpty(), "schemes() is empty");
        for (String scheme : p.schemes()) {
            assertEquals(scheme.toLowerCase(Locale.ROOT), scheme, "schemes must be lower case");
        }
        assertTrue(p.schemes().contains(backend().scheme()), "provider '" + p.name() + "' serves " + p.schemes()
                + " but the backend's scheme is " + backend().scheme());
        assertNotNull(p.features(), "features() is null");
        assertNotNull(p.parameters(), "parameters() is null");
        assertFalse(p.parameters().contains(Locks.PROVIDER_PARAMETER),
                "the parameter 'provider' belongs to the engine and must not be declared by a provider");
    }

    /**
     * Opens a service at the client URI four ways: by the provider's name, by the provider instance, with the URI
     * parameter {@code provider=<name>}, and by name with an agreeing parameter. Each service reports the provider's
     * name; the one opened by name reports exactly the provider's {@code features()} and is open.
     */
    @Test
    @Diagnosis("Selection is the engine's; a failure means LockProvider.open refused the client URI, or the instance "
            + "ServiceLoader creates differs from the one under test (name() or features() set through static state "
            + "or configuration instead of being fixed by the class).")
    @Covers(kinds = {})
    @DisplayName("§1.3 Locks.open with the provider's name, instance or provider= parameter uses that provider")
    default void openByNameUsesIt() {
        String name = provider().name();
        try (LockService byName = Locks.open(clientUri(), name)) {
            assertEquals(name, byName.providerName());
            assertEquals(provider().features(), byName.features());
            assertFalse(byName.isClosed());
        }
        try (LockService byInstance = Locks.open(clientUri(), provider())) {
            assertEquals(name, byInstance.providerName());
        }
        String pinnedUri = withParameter(clientUri(), Locks.PROVIDER_PARAMETER + "=" + name);
        try (LockService byParameter = Locks.open(pinnedUri)) {
            assertEquals(name, byParameter.providerName());
        }
        try (LockService agreeing = Locks.open(pinnedUri, name)) {
            assertEquals(name, agreeing.providerName());
        }
    }

    /**
     * With the system property {@code lockspi.provider} cleared, opens a URI of the backend's scheme without a pin. If
     * the two most preferred installed providers of the scheme have the same {@code priority()}, the open fails within
     * 2 s with {@code ProviderSelectionException} naming both; otherwise the service is the provider of highest
     * priority, opened at the backend's bare URI.
     */
    @Test
    @Diagnosis("Two providers of one scheme with the same LockProvider.priority() are an ambiguous choice: give a "
            + "variant or test double a lower priority than the provider applications should get. LockProvider.open "
            + "must also accept the bare URI, without parameters.")
    @Covers(kinds = {})
    @DisplayName("§1.4 Locks.open(uri) takes the single most preferred provider of the scheme, or fails on a tie")
    default void openByPreference() {
        String scheme = backend().scheme();
        List<LockProvider> serving = Locks.providers().stream().filter(p -> p.schemes().contains(scheme))
                .collect(Collectors.toList());
        String previous = System.clearProperty(Locks.PROVIDER_PROPERTY);
        try {
            if (serving.size() > 1 && serving.get(0).priority() == serving.get(1).priority()) {
                ProviderSelectionException e = throwsWithin(ProviderSelectionException.class, BOUND,
                        "open with a tie at the top", () -> Locks.open(clientUri()).close());
                assertNames(e, serving.get(0).name());
                assertNames(e, serving.get(1).name());
            } else {
                // the backend's bare URI: the preferred provider may be another one, which would refuse the
                // parameters of the provider under test
                try (LockService service = Locks.open(backend().uri())) {
                    assertEquals(serving.get(0).name(), service.providerName(),
                            "the most preferred provider of '" + scheme + "' is not the one chosen");
                }
            }
        } finally {
            if (previous != null) {
                System.setProperty(Locks.PROVIDER_PROPERTY, previous);
            }
        }
    }

    /**
     * With {@code lockspi.provider} set to the provider's name, {@code Locks.open(uri)} opens that provider. Set to a
     * name no installed provider has, the open fails within 2 s with {@code ProviderSelectionException} naming the
     * value and the property.
     */
    @Test
    @Diagnosis("Pinning is the engine's; a failure means the provider ServiceLoader finds under that name cannot open "
            + "the client URI, or its LockProvider.name() differs from that of the instance under test.")
    @Covers(kinds = {})
    @DisplayName("§1.5 the system property lockspi.provider pins the provider")
    default void systemPropertyPins() {
        String previous = System.getProperty(Locks.PROVIDER_PROPERTY);
        try {
            System.setProperty(Locks.PROVIDER_PROPERTY, provider().name());
            try (LockService service = Locks.open(clientUri())) {
                assertEquals(provider().name(), service.providerName());
            }
            System.setProperty(Locks.PROVIDER_PROPERTY, "no-such-provider-" + provider().name());
            ProviderSelectionException e = throwsWithin(ProviderSelectionException.class, BOUND,
                    "open with the property naming no installed provider", () -> Locks.open(clientUri()).close());
            assertNames(e, "no-such-provider-" + provider().name());
            assertNames(e, Locks.PROVIDER_PROPERTY);
        } finally {
            if (previous == null) {
                System.clearProperty(Locks.PROVIDER_PROPERTY);
            } else {
                System.setProperty(Locks.PROVIDER_PROPERTY, previous);
            }
        }
    }

    /**
     * Opens by a provider name that is not installed: {@code ProviderSelectionException} within 2 s, whose message
     * names the unknown name and lists the installed providers, the provider under test among them.
     */
    @Test
    @Diagnosis("The message lists Locks.providers(): a provider missing from the list is not registered for "
            + "ServiceLoader (see §1.1), or the name() of its registered instance differs from the one under test.")
    @Covers(kinds = {})
    @DisplayName("§1.6 an unknown provider name fails at once, listing the installed providers")
    default void unknownNameFails() {
        String unknown = "no-such-provider-" + provider().name();
        ProviderSelectionException e = throwsWithin(ProviderSelectionException.class, BOUND,
                "open with an unknown provider name", () -> Locks.open(clientUri(), unknown).close());
        assertNames(e, unknown);
        assertNames(e, provider().name());
    }

    /**
     * Opens a URI of a scheme no provider serves: pinned by the provider's name it fails with
     * {@code ProviderSelectionException} naming the scheme and the provider, given the provider instance with
     * {@code IllegalArgumentException} naming the scheme, and without a pin with {@code ProviderSelectionException}
     * naming the scheme; each within 2 s.
     */
    @Test
    @Diagnosis("The engine refuses the scheme from LockProvider.schemes() before open() is called: this fails only if "
            + "schemes() claims any scheme (a custom Set whose contains() is always true) or the lock-api on the "
            + "class path is not the kit's.")
    @Covers(kinds = {})
    @DisplayName("§1.7 a provider that does not serve the URI's scheme is refused at once")
    default void wrongSchemeFails() {
        String scheme = "noscheme" + Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36);
        String uri = scheme + "://127.0.0.1:1/tck";
        ProviderSelectionException byName = throwsWithin(ProviderSelectionException.class, BOUND,
                "open by name for another scheme", () -> Locks.open(uri, provider().name()).close());
        assertNames(byName, scheme);
        assertNames(byName, provider().name());
        IllegalArgumentException byInstance = throwsWithin(IllegalArgumentException.class, BOUND,
                "open by instance for another scheme", () -> Locks.open(uri, provider()).close());
        assertNames(byInstance, scheme);
        ProviderSelectionException none = throwsWithin(ProviderSelectionException.class, BOUND,
                "open a scheme no provider serves", () -> Locks.open(uri).close());
        assertNames(none, scheme);
    }

    /**
     * Opens a URI whose {@code provider=} parameter names another provider than the one asked for: by name it fails
     * with {@code ProviderSelectionException} naming both, by instance with one naming the parameter's provider; each
     * within 2 s.
     */
    @Test
    @Diagnosis("The check is the engine's (org.lockspi.internal.ProviderRegistry) and comes before LockProvider.open; "
            + "if it fails, the lock-api on the class path is not the kit's, e.g. an older copy shaded into the "
            + "provider's jar.")
    @Covers(kinds = {})
    @DisplayName("§1.8 a provider= parameter that disagrees with the provider asked for fails at once")
    default void disagreeingPinsFail() {
        String other = "other-than-" + provider().name();
        String uri = withParameter(clientUri(), Locks.PROVIDER_PARAMETER + "=" + other);
        ProviderSelectionException byName = throwsWithin(ProviderSelectionException.class, BOUND,
                "open by name with a disagreeing provider= parameter", () -> Locks.open(uri, provider().name()).close());
        assertNames(byName, other);
        assertNames(byName, provider().name());
        ProviderSelectionException byInstance = throwsWithin(ProviderSelectionException.class, BOUND,
                "open by instance with a disagreeing provider= parameter", () -> Locks.open(uri, provider()).close());
        assertNames(byInstance, other);
    }

    /**
     * Opens the client URI with an added parameter {@code noSuchTckParameter=1}, by instance and by name:
     * {@code IllegalArgumentException} within 2 s naming the parameter, before any connection is made.
     */
    @Test
    @Diagnosis("The engine refuses a parameter missing from LockProvider.parameters() before open(): a parameters() "
            + "that accepts anything (a set built from the URI, or one whose contains() is always true) lets a "
            + "misspelt option through. It must list exactly the options open() understands.")
    @Covers(kinds = {})
    @DisplayName("§1.9 a URI parameter the provider does not accept fails at once, naming the parameter")
    default void unknownParameterFails() {
        String uri = withParameter(clientUri(), "noSuchTckParameter=1");
        IllegalArgumentException e = throwsWithin(IllegalArgumentException.class, BOUND,
                "open with an unknown parameter", () -> Locks.open(uri, provider()).close());
        assertNames(e, "noSuchTckParameter");
        IllegalArgumentException byName = throwsWithin(IllegalArgumentException.class, BOUND,
                "open by name with an unknown parameter", () -> Locks.open(uri, provider().name()).close());
        assertNames(byName, "noSuchTckParameter");
    }

    /**
     * Puts a random password in the URI's user part, and in each declared parameter whose name ends with
     * {@code password}, then provokes every refusal: an unknown parameter, an unknown or disagreeing provider, a
     * malformed URI, and an open the server refuses or accepts. The password must appear in no exception (message,
     * {@code toString()}, causes, suppressed exceptions, stack trace) and not in an open service's {@code toString()}.
     */
    @Test
    @Diagnosis("Look at the messages LockProvider.open builds and the backend's toString(): the raw URI string, a "
            + "client library's connection string or exception, or a settings toString() printing a *password "
            + "parameter leaks it. Name hosts from LockUri.hostList().")
    @Covers(kinds = {})
    @DisplayName("§1.10 credentials in a URI never appear in an exception or toString()")
    default void credentialsNeverShown() {
        String secret = "Tck5ecret" + Integer.toString(ThreadLocalRandom.current().nextInt(1 << 30), 36);
        String uri = withCredentials(clientUri(), "tckuser", secret);

        RuntimeException unknownParameter = assertThrows(IllegalArgumentException.class,
                () -> Locks.open(withParameter(uri, "noSuchTckParameter=1"), provider()).close());
        assertNoSecret(unknownParameter, secret);
        RuntimeException unknownProvider = assertThrows(ProviderSelectionException.class,
                () -> Locks.open(uri, "no-such-provider-" + provider().name()).close());
        assertNoSecret(unknownProvider, secret);
        RuntimeException disagreeing = assertThrows(ProviderSelectionException.class,
                () -> Locks.open(withParameter(uri, Locks.PROVIDER_PARAMETER + "=other"), provider()).close());
        assertNoSecret(disagreeing, secret);
        RuntimeException malformed = assertThrows(IllegalArgumentException.class,
                () -> Locks.open(uri.replace("@", "@bad host,"), provider()).close());
        assertNoSecret(malformed, secret);

        // A parameter named *password (any case) is a secret too: unknown to the provider, in a malformed URI, or
        // declared by it (alone it may be refused or accepted; either way its value never shows).
        RuntimeException unknownSecret = assertThrows(IllegalArgumentException.class,
                () -> Locks.open(withParameter(clientUri(), "tckPassword=" + secret), provider()).close());
        assertNames(unknownSecret, "tckPassword");
        assertNoSecret(unknownSecret, secret);
        RuntimeException malformedSecret = assertThrows(IllegalArgumentException.class,
                () -> Locks.open(withParameter(clientUri(), "bare&tckPassword=" + secret), provider()).close());
        assertNoSecret(malformedSecret, secret);
        for (String parameter : provider().parameters()) {
            if (LockUri.isSecretParameter(parameter)) {
                String withSecret = withParameter(uri, parameter + "=" + secret);
                RuntimeException besideUnknown = assertThrows(IllegalArgumentException.class,
                        () -> Locks.open(withParameter(withSecret, "noSuchTckParameter=1"), provider()).close());
                assertNoSecret(besideUnknown, secret);
                assertSecretNeverShown(withSecret, secret);
            }
        }

        // An unreachable server with credentials is §15.2, among the failure contracts.
        // The server may or may not accept these credentials; either way they must not leak.
        assertSecretNeverShown(uri, secret);
    }

    /** Opens {@code uri}: refused or accepted, the secret shows neither in the exception nor in toString(). */
    private void assertSecretNeverShown(String uri, String secret) {
        LockService service;
        try {
            service = Locks.open(uri, provider());
        } catch (LockException | IllegalArgumentException e) {
            assertNoSecret(e, secret);
            return;
        }
        try (LockService open = service) {
            assertFalse(open.toString().contains(secret), "the password appears in toString(): " + open);
        }
    }
}
