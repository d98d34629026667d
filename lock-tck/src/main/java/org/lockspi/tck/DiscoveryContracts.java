package org.lockspi.tck;

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

/** §1 Discovery and selection: the provider is found by {@link java.util.ServiceLoader} and chosen by the rules. */
public interface DiscoveryContracts extends TckContext {

    @Test
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

    @Test
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

    @Test
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

    @Test
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

    @Test
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

    @Test
    @DisplayName("§1.6 an unknown provider name fails at once, listing the installed providers")
    default void unknownNameFails() {
        String unknown = "no-such-provider-" + provider().name();
        ProviderSelectionException e = throwsWithin(ProviderSelectionException.class, BOUND,
                "open with an unknown provider name", () -> Locks.open(clientUri(), unknown).close());
        assertNames(e, unknown);
        assertNames(e, provider().name());
    }

    @Test
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

    @Test
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

    @Test
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

    @Test
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
