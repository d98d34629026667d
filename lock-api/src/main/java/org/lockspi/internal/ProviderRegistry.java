package org.lockspi.internal;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import org.lockspi.Locks;
import org.lockspi.ProviderSelectionException;
import org.lockspi.spi.LockProvider;
import org.lockspi.spi.LockUri;

/** Discovery and selection of providers: the rules documented on {@link Locks}. */
public final class ProviderRegistry {
    private static final System.Logger LOG = System.getLogger(ProviderRegistry.class.getName());
    private static final Comparator<LockProvider> PREFERENCE =
            Comparator.comparingInt(LockProvider::priority).reversed().thenComparing(LockProvider::name);

    private ProviderRegistry() {
    }

    /** @return the installed providers, most preferred first, one per name */
    public static List<LockProvider> installed() {
        Map<String, LockProvider> byName = new LinkedHashMap<>();
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (context != null) {
            load(ServiceLoader.load(LockProvider.class, context), byName);
        }
        load(ServiceLoader.load(LockProvider.class, Locks.class.getClassLoader()), byName);
        List<LockProvider> list = new ArrayList<>(byName.values());
        list.sort(PREFERENCE);
        return new Described(List.copyOf(list));
    }

    /** The installed providers, printed by name, version and class rather than {@code Class@hash}. */
    private static final class Described extends AbstractList<LockProvider> implements RandomAccess {
        private final List<LockProvider> providers;

        Described(List<LockProvider> providers) {
            this.providers = providers;
        }

        @Override
        public LockProvider get(int index) {
            return providers.get(index);
        }

        @Override
        public int size() {
            return providers.size();
        }

        @Override
        public String toString() {
            return providers.stream().map(ProviderRegistry::describe).collect(Collectors.joining(", ", "[", "]"));
        }
    }

    /**
     * @param p a provider, ours or a third party's
     * @return {@code name version (class) schemes=[...] priority=N features=[...]}; a provider whose
     *         descriptor methods throw is still described, with the failure in place of the value
     */
    public static String describe(LockProvider p) {
        return safely(p::name) + ' ' + safely(p::version) + " (" + p.getClass().getName() + ") schemes="
                + safely(p::schemes) + " priority=" + safely(p::priority) + " features=" + safely(p::features);
    }

    private static String safely(java.util.function.Supplier<?> value) {
        try {
            return String.valueOf(value.get());
        } catch (RuntimeException e) {
            return "<" + e + ">";
        }
    }

    private static void load(ServiceLoader<LockProvider> loader, Map<String, LockProvider> byName) {
        var it = loader.iterator();
        while (true) {
            try {
                if (!it.hasNext()) {
                    return;
                }
                LockProvider p = it.next();
                byName.putIfAbsent(p.name(), p);
            } catch (ServiceConfigurationError e) {
                LOG.log(System.Logger.Level.WARNING, "a lock provider could not be loaded and is skipped", e);
            }
        }
    }

    /**
     * Chooses the provider for a URI by the documented rules.
     *
     * @param uri      the parsed URI
     * @param argument the name given to {@code Locks.open(uri, name)}, or null
     * @param property the value of the system property, or null
     * @return the chosen provider
     */
    public static LockProvider select(LockUri uri, String argument, String property) {
        List<LockProvider> installed = installed();
        String parameter = uri.parameter(Locks.PROVIDER_PARAMETER).orElse(null);
        if (argument != null && parameter != null && !argument.equals(parameter)) {
            throw new ProviderSelectionException("provider '" + argument + "' was asked for, but the URI says "
                    + Locks.PROVIDER_PARAMETER + "=" + parameter + ": " + uri + describe(installed));
        }
        String pinned = argument != null ? argument : parameter != null ? parameter
                : property != null && !property.isBlank() ? property.strip() : null;
        if (pinned != null) {
            String source = argument != null ? "the provider argument"
                    : parameter != null ? "the URI parameter " + Locks.PROVIDER_PARAMETER
                    : "the system property " + Locks.PROVIDER_PROPERTY;
            for (LockProvider p : installed) {
                if (p.name().equals(pinned)) {
                    if (!p.schemes().contains(uri.scheme())) {
                        throw new ProviderSelectionException("provider '" + pinned + "' (from " + source
                                + ") does not serve scheme '" + uri.scheme() + "' of " + uri + describe(installed));
                    }
                    return p;
                }
            }
            throw new ProviderSelectionException("no lock provider named '" + pinned + "' (from " + source
                    + ") is installed" + describe(installed));
        }
        List<LockProvider> serving = installed.stream().filter(p -> p.schemes().contains(uri.scheme()))
                .collect(Collectors.toList());
        if (serving.isEmpty()) {
            throw new ProviderSelectionException("no installed lock provider serves scheme '" + uri.scheme()
                    + "' of " + uri + describe(installed));
        }
        if (serving.size() > 1 && serving.get(0).priority() == serving.get(1).priority()) {
            String tied = serving.stream().filter(p -> p.priority() == serving.get(0).priority())
                    .map(p -> "'" + p.name() + "'").collect(Collectors.joining(", "));
            throw new ProviderSelectionException("ambiguous lock provider for scheme '" + uri.scheme() + "': "
                    + tied + " have the same priority " + serving.get(0).priority() + describe(installed));
        }
        return serving.get(0);
    }

    /**
     * Checks that a URI's {@code provider} parameter, if any, names the given provider.
     *
     * @param uri      the parsed URI
     * @param provider the provider given explicitly
     */
    public static void checkPinned(LockUri uri, LockProvider provider) {
        uri.parameter(Locks.PROVIDER_PARAMETER).ifPresent(name -> {
            if (!name.equals(provider.name())) {
                throw new ProviderSelectionException("provider '" + provider.name() + "' was given, but the URI "
                        + "says " + Locks.PROVIDER_PARAMETER + "=" + name + ": " + uri);
            }
        });
        if (!provider.schemes().contains(uri.scheme())) {
            throw new IllegalArgumentException("provider '" + provider.name() + "' does not serve scheme '"
                    + uri.scheme() + "' (it serves " + provider.schemes() + "): " + uri);
        }
    }

    private static String describe(List<LockProvider> installed) {
        StringBuilder b = new StringBuilder("\nInstalled lock providers (most preferred first):");
        if (installed.isEmpty()) {
            b.append("\n  none: put a provider jar such as lock-spi-curator on the class path");
        }
        for (LockProvider p : installed) {
            b.append("\n  ").append(describe(p));
        }
        b.append("\nPick one with Locks.open(uri, \"name\"), the URI parameter ").append(Locks.PROVIDER_PARAMETER)
                .append("=name, or -D").append(Locks.PROVIDER_PROPERTY).append("=name.");
        return b.toString();
    }
}
