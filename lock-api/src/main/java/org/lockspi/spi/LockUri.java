package org.lockspi.spi;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parsed lock-service URI: {@code scheme://[user[:password]@]host[:port][,host[:port]...][/path][?k=v&...]},
 * for example {@code zookeeper://zk1:2181,zk2:2181/app?sessionTimeout=30s} or
 * {@code redis://:secret@cache:6379/0?leaseTime=30s}. Immutable.
 *
 * <p>Several hosts are allowed (a ZooKeeper ensemble), so the authority is not a {@link java.net.URI} server
 * authority. User, password and parameter values are percent-decoded. A parameter may appear once. A trailing
 * {@code '/'} of the path is dropped; empty path segments are refused, and so is an {@code '@'} anywhere but at
 * the end of the user info (a password with an unencoded {@code '/'}, {@code '?'}, {@code '#'} or {@code '@'}).
 *
 * <p>Credentials never leave this object by accident: {@link #toString()} masks the password and the value of
 * every {@linkplain #isSecretParameter(String) secret parameter} (a name ending in {@code password}, such as
 * {@code trustStorePassword}), and every exception message built here uses that form.
 */
public final class LockUri {
    private static final Pattern SHAPE = Pattern.compile(
            "([A-Za-z][A-Za-z0-9+.-]*)://(?:([^@/?#]*)@)?([^/?#]*)(/[^?#]*)?(?:\\?([^#]*))?");
    private static final Pattern HOST = Pattern.compile("(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9._-]+)(?::(\\d{1,5}))?");
    /** A secret parameter's value in raw text: after {@code ?} or {@code &}, a name ending in "password". */
    private static final Pattern SECRET_PARAMETER = Pattern.compile("(?i)([?&][^=&#?]*password=)[^&#]*");
    private static final Pattern DURATION = Pattern.compile("(\\d{1,12})(ms|s|m|h)");

    private final String scheme;
    private final String user;
    private final String password;
    private final List<String> hosts;
    private final String path;
    private final Map<String, String> parameters;

    private LockUri(String scheme, String user, String password, List<String> hosts, String path,
                    Map<String, String> parameters) {
        this.scheme = scheme;
        this.user = user;
        this.password = password;
        this.hosts = List.copyOf(hosts);
        this.path = path;
        this.parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    }

    /**
     * Parses a URI.
     *
     * @param uri the URI text
     * @return the parsed URI
     * @throws NullPointerException     if {@code uri} is null
     * @throws IllegalArgumentException if it is malformed; the message shows it with the password masked
     */
    public static LockUri parse(String uri) {
        Objects.requireNonNull(uri, "uri");
        Matcher m = SHAPE.matcher(uri.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("malformed lock URI, expected "
                    + "scheme://[user[:password]@]host[:port][,host[:port]...][/path][?key=value&...]: "
                    + maskRaw(uri));
        }
        // An '@' outside the user info means a password with an unencoded '/', '?', '#' or '@': refuse it, or
        // a piece of the password would be taken for a host, path or parameter and show in messages.
        int userInfoEnd = m.group(2) == null ? -1 : m.end(2);
        if (uri.strip().indexOf('@', userInfoEnd + 1) >= 0) {
            throw new IllegalArgumentException("malformed lock URI, '@' outside the user info (percent-encode '@', "
                    + "'/', '?' and '#' in user and password as %40, %2F, %3F and %23): " + maskRaw(uri));
        }
        String scheme = m.group(1).toLowerCase(Locale.ROOT);
        String user = null;
        String password = null;
        if (m.group(2) != null) {
            String info = m.group(2);
            int colon = info.indexOf(':');
            user = decode(colon < 0 ? info : info.substring(0, colon), uri);
            password = colon < 0 ? null : decode(info.substring(colon + 1), uri);
            if (user.isEmpty()) {
                user = null;
            }
        }
        List<String> hosts = new ArrayList<>();
        if (m.group(3).isEmpty()) {
            throw new IllegalArgumentException("lock URI has no host: " + maskRaw(uri));
        }
        for (String host : m.group(3).split(",", -1)) {
            Matcher h = HOST.matcher(host);
            if (!h.matches()) {
                throw new IllegalArgumentException("malformed host '" + host + "' in lock URI: " + maskRaw(uri));
            }
            if (h.group(2) != null) {
                int port = Integer.parseInt(h.group(2));
                if (port < 1 || port > 65535) {
                    throw new IllegalArgumentException("port out of range 1..65535: " + port + " in lock URI: "
                            + maskRaw(uri));
                }
            }
            hosts.add(host);
        }
        String path = m.group(4) == null ? "" : m.group(4);
        if (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1); // "/" -> "", "/app/" -> "/app"
        }
        if (path.contains("//") || path.endsWith("/")) {
            throw new IllegalArgumentException("empty path segment in lock URI: " + maskRaw(uri));
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        if (m.group(5) != null && !m.group(5).isEmpty()) {
            for (String pair : m.group(5).split("&", -1)) {
                int eq = pair.indexOf('=');
                String key = eq < 0 ? pair : pair.substring(0, eq);
                String value = eq < 0 ? "" : decode(pair.substring(eq + 1), uri);
                if (key.isEmpty()) {
                    throw new IllegalArgumentException("empty parameter name in lock URI: " + maskRaw(uri));
                }
                if (value.isEmpty()) {
                    throw new IllegalArgumentException("parameter '" + key + "' has no value in lock URI: "
                            + maskRaw(uri));
                }
                if (parameters.put(key, value) != null) {
                    throw new IllegalArgumentException("parameter '" + key + "' given twice in lock URI: "
                            + maskRaw(uri));
                }
            }
        }
        return new LockUri(scheme, user, password, hosts, path, parameters);
    }

    /** @return the scheme, lower case */
    public String scheme() {
        return scheme;
    }

    /** @return the user name, if the URI has one */
    public Optional<String> user() {
        return Optional.ofNullable(user);
    }

    /** @return the password, if the URI has one; never put it in a message */
    public Optional<String> password() {
        return Optional.ofNullable(password);
    }

    /** @return the hosts as written, each {@code host} or {@code host:port}; at least one */
    public List<String> hosts() {
        return hosts;
    }

    /** @return the hosts joined by commas, as a ZooKeeper connect string wants them */
    public String hostList() {
        return String.join(",", hosts);
    }

    /** @return the path, {@code ""} or starting with {@code '/'} and not ending with it */
    public String path() {
        return path;
    }

    /** @return the query parameters in the order given, decoded */
    public Map<String, String> parameters() {
        return parameters;
    }

    /**
     * @param name a parameter name
     * @return the URI without that parameter
     */
    public LockUri withoutParameter(String name) {
        Map<String, String> rest = new LinkedHashMap<>(parameters);
        rest.remove(name);
        return new LockUri(scheme, user, password, hosts, path, rest);
    }

    /**
     * @param name a parameter name
     * @return its value, if given
     */
    public Optional<String> parameter(String name) {
        return Optional.ofNullable(parameters.get(name));
    }

    /**
     * A duration parameter: {@code 250ms}, {@code 30s}, {@code 5m}, {@code 1h} or ISO-8601 ({@code PT30S}).
     *
     * @param name the parameter name
     * @param defaultValue the value if the parameter is absent
     * @param min the least value allowed
     * @param max the greatest value allowed
     * @return the value
     * @throws IllegalArgumentException if the value is malformed or out of {@code [min, max]}
     */
    public Duration duration(String name, Duration defaultValue, Duration min, Duration max) {
        String text = parameters.get(name);
        if (text == null) {
            return defaultValue;
        }
        Duration value;
        Matcher m = DURATION.matcher(text);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            switch (m.group(2)) {
                case "ms": value = Duration.ofMillis(n); break;
                case "s": value = Duration.ofSeconds(n); break;
                case "m": value = Duration.ofMinutes(n); break;
                default: value = Duration.ofHours(n); break;
            }
        } else {
            try {
                value = Duration.parse(text);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("parameter '" + name + "' is not a duration (like 500ms, 30s, "
                        + "5m, 1h or PT30S): '" + text + "' in lock URI: " + this);
            }
        }
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw new IllegalArgumentException("parameter '" + name + "' out of range [" + min + ", " + max
                    + "]: " + value + " in lock URI: " + this);
        }
        return value;
    }

    /**
     * An integer parameter.
     *
     * @param name the parameter name
     * @param defaultValue the value if the parameter is absent
     * @param min the least value allowed
     * @param max the greatest value allowed
     * @return the value
     * @throws IllegalArgumentException if the value is malformed or out of {@code [min, max]}
     */
    public int integer(String name, int defaultValue, int min, int max) {
        String text = parameters.get(name);
        if (text == null) {
            return defaultValue;
        }
        int value;
        try {
            value = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("parameter '" + name + "' is not an integer: '" + text
                    + "' in lock URI: " + this);
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException("parameter '" + name + "' out of range [" + min + ", " + max
                    + "]: " + value + " in lock URI: " + this);
        }
        return value;
    }

    /**
     * A boolean parameter: {@code true} or {@code false}.
     *
     * @param name the parameter name
     * @param defaultValue the value if the parameter is absent
     * @return the value
     * @throws IllegalArgumentException if the value is neither
     */
    public boolean bool(String name, boolean defaultValue) {
        String text = parameters.get(name);
        if (text == null) {
            return defaultValue;
        }
        if (text.equals("true") || text.equals("false")) {
            return Boolean.parseBoolean(text);
        }
        throw new IllegalArgumentException("parameter '" + name + "' is not true or false: '" + text
                + "' in lock URI: " + this);
    }

    /**
     * Whether a parameter's value is a secret, masked like the password: its name ends with {@code password} in any
     * case ({@code trustStorePassword}, {@code keyStorePassword}, ...), whether the provider knows it or not.
     *
     * @param name a parameter name
     * @return true if its value is never shown
     */
    public static boolean isSecretParameter(String name) {
        return name.toLowerCase(Locale.ROOT).endsWith("password");
    }

    /**
     * @return the URI with the password and the values of secret parameters replaced by {@code ***}; safe for logs
     *         and messages
     */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(scheme).append("://");
        if (user != null || password != null) {
            if (user != null) {
                b.append(user);
            }
            if (password != null) {
                b.append(":***");
            }
            b.append('@');
        }
        b.append(hostList()).append(path);
        if (!parameters.isEmpty()) {
            b.append('?');
            parameters.forEach((k, v) -> b.append(k).append('=').append(isSecretParameter(k) ? "***" : v).append('&'));
            b.setLength(b.length() - 1);
        }
        return b.toString();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof LockUri)) {
            return false;
        }
        LockUri u = (LockUri) o;
        return scheme.equals(u.scheme) && Objects.equals(user, u.user) && Objects.equals(password, u.password)
                && hosts.equals(u.hosts) && path.equals(u.path) && parameters.equals(u.parameters);
    }

    @Override
    public int hashCode() {
        return Objects.hash(scheme, user, hosts, path, parameters);
    }

    /**
     * The raw text with anything between "://" and '@' masked, and the values of secret parameters, for messages
     * about text that did not parse.
     */
    private static String maskRaw(String uri) {
        return maskUserInfo(SECRET_PARAMETER.matcher(uri).replaceAll("$1***"));
    }

    private static String maskUserInfo(String uri) {
        int at = uri.lastIndexOf('@');
        if (at < 0) {
            return uri;
        }
        // Keep the scheme when it can be told apart; mask everything after it up to the last '@' in any case,
        // also in text too malformed to say where the user info is ("redis:/:pw@h", "redis//:pw@h").
        int start = uri.indexOf("://");
        int from = start >= 0 && start < at ? start + 3 : 0;
        if (from == 0) {
            int colon = uri.indexOf(':');
            int slash = uri.indexOf('/');
            from = colon >= 0 && colon < at && (slash < 0 || colon < slash) ? colon + 1 : 0;
        }
        return uri.substring(0, from) + "***" + uri.substring(at);
    }

    private static String decode(String text, String uri) {
        if (text.indexOf('%') < 0) {
            return text;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '%') {
                if (i + 2 >= text.length() || Character.digit(text.charAt(i + 1), 16) < 0
                        || Character.digit(text.charAt(i + 2), 16) < 0) {
                    throw new IllegalArgumentException("malformed percent-escape in lock URI: " + maskRaw(uri));
                }
                out.write(Integer.parseInt(text.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                byte[] bytes = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                out.write(bytes, 0, bytes.length);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
