package org.lockspi.spi;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;
import org.lockspi.internal.Names;

/**
 * The mapping from a lock's name, any string, to its <em>backend key</em>: the one string a backend stores the
 * lock under (ZooKeeper: the node {@code <URI path>/<key>}; Redis: the keys {@code <keyPrefix>{<key>}...}). The
 * engine applies it once, so {@link AcquireRequest#name()} is the key, and it is the same for every provider:
 * the three ZooKeeper providers and a plain Curator application that computes it find the same node.
 *
 * <p><b>The mapping</b> (stable: it is part of the wire layout and never changes):
 * <ul>
 *   <li>A name of the <em>readable form</em> is its own key: one to eight segments separated
 *       by {@code '/'}, each 1 to 64 characters from {@code [A-Za-z0-9_.-]}, not
 *       starting with {@code '.'}; at most 255 characters. {@code orders} and
 *       {@code billing/invoice-42} are keys as they are.</li>
 *   <li>Every other name maps to one segment: {@code '~'} followed by the URL-safe base64 of its UTF-8 bytes,
 *       without padding (RFC 4648 §5: {@code A-Z a-z 0-9 - _}). {@code user:alice@example.com} maps to
 *       {@code ~dXNlcjphbGljZUBleGFtcGxlLmNvbQ}, so a plain Curator application locks
 *       {@code InterProcessMutex(client, "/myapp/~dXNlcjphbGljZUBleGFtcGxlLmNvbQ")} under the URI path
 *       {@code /myapp}. In Java: {@code "~" + Base64.getUrlEncoder().withoutPadding().encodeToString(
 *       name.getBytes(StandardCharsets.UTF_8))}.</li>
 * </ul>
 * {@code '~'} is not in the readable form's alphabet, so an encoded key never equals a readable one, and base64 is
 * one-to-one: two different names never share a key. A key is a valid ZooKeeper node name (no {@code '/'} in an
 * encoded key, no character ZooKeeper refuses) and holds no {@code ':'}, {@code '{'} or {@code '}'}, so it sits
 * safely inside a Redis hash tag.
 *
 * <p><b>Accepted names.</b> Any non-null, non-empty string of well-formed UTF-16 (an unpaired surrogate has no
 * UTF-8 form, so it is refused) of at most {@value #MAX_NAME_BYTES} UTF-8 bytes. An encoded key is then at most
 * 5,463 characters long: ZooKeeper bounds a path only by its {@code jute.maxbuffer} (1 MB by default), Redis keys
 * by 512 MB. (A listing of the URI path, {@code ls /myapp}, carries every key in one response under the same
 * 1 MB: a few hundred names near the limit fill it; the providers never list it.)
 *
 * <p>Stateless and thread-safe.
 */
public final class LockKeys {
    /** The longest name accepted, in UTF-8 bytes: {@value}. */
    public static final int MAX_NAME_BYTES = 4096;

    /** The first character of an encoded key, outside the readable form's alphabet: {@value}. */
    public static final char ENCODED_MARK = '~';

    /** Characters of a name that an error message shows before it cuts the rest. */
    private static final int SHOWN = 64;

    private LockKeys() {
    }

    /**
     * The backend key of a lock name.
     *
     * @param name the lock's name, as given to {@code LockService}
     * @return the name itself if it has the readable form, else {@code '~'} + base64url(UTF-8 bytes), no padding
     * @throws NullPointerException     if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is empty, holds an unpaired surrogate (the message gives
     *                                  its index) or is longer than {@link #MAX_NAME_BYTES} UTF-8 bytes (the
     *                                  message gives the length, the limit and the name's start)
     */
    public static String key(String name) {
        Objects.requireNonNull(name, "lock name is null");
        if (Names.isReadable(name)) {
            return name;
        }
        return ENCODED_MARK + Base64.getUrlEncoder().withoutPadding().encodeToString(utf8(name));
    }

    /**
     * The lock name a backend key stands for: the reverse of {@link #key(String)}, for tools that find keys on
     * the server ({@code name(key(n)).equals(n)} for every accepted {@code n}).
     *
     * @param key a backend key
     * @return the lock's name
     * @throws NullPointerException     if {@code key} is null
     * @throws IllegalArgumentException if {@code key} is no key {@link #key(String)} returns (neither of the
     *                                  readable form nor a canonical encoding of an accepted name)
     */
    public static String name(String key) {
        Objects.requireNonNull(key, "key is null");
        if (Names.isReadable(key)) {
            return key;
        }
        String name = decode(key);
        if (name == null) {
            throw new IllegalArgumentException("not a lock key: '" + shown(key) + "'");
        }
        return name;
    }

    /**
     * For messages: the name a key stands for, or the key itself if it is none.
     *
     * @param key a backend key, or any string
     * @return the name, or {@code key}
     */
    static String nameOrKey(String key) {
        if (key == null || Names.isReadable(key)) {
            return key;
        }
        String name = decode(key);
        return name == null ? key : name;
    }

    /** @return the name an encoded key stands for, or null if it is no canonical encoding of an accepted name */
    private static String decode(String key) {
        if (key.length() < 2 || key.charAt(0) != ENCODED_MARK) {
            return null;
        }
        String encoded = key.substring(1);
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_')) {
                return null;
            }
        }
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(encoded);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (bytes.length == 0 || bytes.length > MAX_NAME_BYTES) {
            return null;
        }
        String name;
        try {
            name = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
        // Canonical only: the one key key(name) gives (no readable name in disguise, no stray trailing bits).
        return key(name).equals(key) ? name : null;
    }

    /** Checks an accepted name and returns its UTF-8 bytes. */
    private static byte[] utf8(String name) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("lock name is empty");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < name.length() && Character.isLowSurrogate(name.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException("lock name is not well-formed UTF-16: unpaired surrogate \\u"
                        + Integer.toHexString(c).toUpperCase(java.util.Locale.ROOT) + " at index " + i + ": '"
                        + shown(name.substring(0, i)) + "'...");
            }
        }
        byte[] bytes;
        try {
            ByteBuffer encoded = StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).encode(CharBuffer.wrap(name));
            bytes = new byte[encoded.remaining()];
            encoded.get(bytes);
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("lock name is not well-formed UTF-16: '" + shown(name) + "'", e);
        }
        if (bytes.length > MAX_NAME_BYTES) {
            throw new IllegalArgumentException("lock name longer than " + MAX_NAME_BYTES + " UTF-8 bytes ("
                    + bytes.length + " bytes, " + name.length() + " chars): '" + shown(name) + "'");
        }
        return bytes;
    }

    /** @return the string, cut after {@value #SHOWN} characters (not inside a surrogate pair) with a marker */
    private static String shown(String s) {
        if (s.length() <= SHOWN) {
            return s;
        }
        int end = Character.isHighSurrogate(s.charAt(SHOWN - 1)) ? SHOWN - 1 : SHOWN;
        return s.substring(0, end) + "...(" + (s.length() - end) + " more chars)";
    }
}
