package org.lockspi.spring.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.lockspi.Locks;
import org.lockspi.spi.LockProvider;
import org.lockspi.spi.LockUri;

/**
 * The {@code lockspi.parameters.*} of the provider that is opened. A flat key ({@code leaseTime}) applies to every
 * provider; a key {@code <scope>.<name>} applies only when the scope is the provider's name
 * ({@code curator.sessionTimeout}) or a URI scheme the provider serves ({@code redis.leaseTime},
 * {@code zookeeper.sessionTimeout}). For one parameter set at several levels, the provider's name wins over its
 * scheme, and a scheme over the flat key. A scope that is neither an installed provider's name or scheme nor one
 * of lockspi's own ({@link #KNOWN_SCOPES}) is a typo and fails, as does a parameter the provider does not accept
 * (the engine's own, {@code provider} and {@code failFast}, every provider takes).
 */
public final class ProviderParameters {
    /** The provider names and URI schemes of lockspi's providers, installed or not: valid scopes everywhere. */
    public static final Set<String> KNOWN_SCOPES = Set.of("zookeeper-raw", "curator", "zkclient", "redis-baseline",
            "redis-fair", "redis-lettuce", "redis-lettuce-fair", "jdbc", "inmemory", "zookeeper", "redis", "rediss",
            "redis-sentinel", "rediss-sentinel", "redis-cluster", "rediss-cluster", "mem", "jdbc+postgresql",
            "jdbc+mariadb", "jdbc+h2");

    private static final String PREFIX = "lockspi.parameters.";
    /** The engine's own parameters, which every provider takes. */
    private static final Set<String> ENGINE_PARAMETERS = Set.of(Locks.PROVIDER_PARAMETER, Locks.FAIL_FAST_PARAMETER,
            Locks.REVOCABLE_PARAMETER);

    private ProviderParameters() {
    }

    /**
     * The provider {@link Locks#open(String, String)} chooses for a URI, by the same rules (pinned name, the URI's
     * {@code provider} parameter, the system property, then the preferred provider of the scheme).
     *
     * @param uri    the parsed URI
     * @param pinned the name of {@code lockspi.provider}, or null
     * @return the provider, or null where {@code Locks} cannot choose one (it then says why)
     */
    public static LockProvider chosen(LockUri uri, String pinned) {
        String name = pinned != null ? pinned : uri.parameter(Locks.PROVIDER_PARAMETER)
                .orElse(System.getProperty(Locks.PROVIDER_PROPERTY));
        List<LockProvider> installed = Locks.providers(); // most preferred first
        if (name != null && !name.isBlank()) {
            return installed.stream().filter(p -> p.name().equals(name.strip())).findFirst().orElse(null);
        }
        List<LockProvider> serving = installed.stream().filter(p -> p.schemes().contains(uri.scheme())).toList();
        boolean tie = serving.size() > 1 && serving.get(0).priority() == serving.get(1).priority();
        return serving.isEmpty() || tie ? null : serving.get(0);
    }

    /**
     * @param name the provider's name
     * @return the installed provider of that name, or null
     */
    public static LockProvider installed(String name) {
        return Locks.providers().stream().filter(p -> p.name().equals(name)).findFirst().orElse(null);
    }

    /**
     * The parameters that apply to a provider, as a URI query without its {@code ?}.
     *
     * @param parameters the {@code lockspi.parameters} map as bound (scoped keys hold their dot)
     * @param provider   the provider to be opened; null when unknown: then only the flat parameters, unchecked
     * @return {@code name=value&...}, empty without any
     * @throws LockspiConfigurationException if a scope is unknown or the provider does not accept a parameter
     */
    public static String query(Map<String, String> parameters, LockProvider provider) {
        Set<String> scopes = new TreeSet<>(KNOWN_SCOPES);
        Locks.providers().forEach(p -> {
            scopes.add(p.name());
            scopes.addAll(p.schemes());
        });
        Map<String, String> applied = new LinkedHashMap<>();
        Map<String, String> source = new LinkedHashMap<>(); // parameter -> its property
        for (int level = 0; level < 3; level++) { // flat, by scheme, by name: a later level overrides
            for (Map.Entry<String, String> p : parameters.entrySet()) {
                String key = p.getKey();
                int dot = key.indexOf('.');
                String scope = dot < 0 ? null : key.substring(0, dot);
                if (scope != null && !scopes.contains(scope)) {
                    throw new LockspiConfigurationException(PREFIX + key, "'" + scope + "' is neither a lock provider"
                            + " nor a URI scheme", "Scope a parameter by a provider name or scheme (" + scopes
                            + "), e.g. lockspi.parameters.redis.leaseTime=10s, or leave it flat "
                            + "(lockspi.parameters.leaseTime=10s) to apply it to every provider.", null);
                }
                boolean applies = switch (level) {
                    case 0 -> scope == null;
                    case 1 -> provider != null && scope != null && provider.schemes().contains(scope)
                            && !scope.equals(provider.name());
                    default -> provider != null && scope != null && scope.equals(provider.name());
                };
                if (applies) {
                    String name = scope == null ? key : key.substring(dot + 1);
                    applied.put(name, p.getValue());
                    source.put(name, PREFIX + key);
                }
            }
        }
        if (provider != null) {
            for (String name : applied.keySet()) {
                if (!ENGINE_PARAMETERS.contains(name) && !provider.parameters().contains(name)) {
                    throw new LockspiConfigurationException(source.get(name), "lock provider '" + provider.name()
                            + "' has no parameter '" + name + "' (it accepts "
                            + new TreeSet<>(provider.parameters()) + ")",
                            "Remove it, or scope it to the provider it is meant for so that a switch of provider "
                                    + "ignores it: lockspi.parameters.<provider or scheme>." + name + ", e.g. "
                                    + "lockspi.parameters.redis." + name + ".", null);
                }
            }
        }
        return applied.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("&"));
    }

    /**
     * A provider's refusal of a parameter value (or of the URI) as a configuration failure naming the property.
     *
     * @param parameters the {@code lockspi.parameters} map as bound
     * @param refusal    the provider's {@link IllegalArgumentException}
     * @param otherwise  the property when no parameter of the map is named in its message
     * @return the failure to throw: {@code lockspi.parameters.<key>} of the parameter the message names, or
     *         {@code otherwise}
     */
    public static LockspiConfigurationException refused(Map<String, String> parameters,
                                                        IllegalArgumentException refusal, String otherwise) {
        String text = String.valueOf(refusal.getMessage());
        String property = otherwise;
        for (String key : parameters.keySet()) {
            if (text.contains("parameter '" + key.substring(key.indexOf('.') + 1) + "'")) {
                property = PREFIX + key;
                break;
            }
        }
        return new LockspiConfigurationException(property, text, "Correct " + property + " (durations are written "
                + "500ms, 30s, 5m or PT30S; the provider's README lists its parameters).", refusal);
    }
}
