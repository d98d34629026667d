package org.lockspi.tck.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.Locks;

/**
 * The lock client that the failure contracts run in a {@link ChildJvm}. It opens
 * {@code Locks.open(uri, provider)} (the provider found by {@link java.util.ServiceLoader} in the child) and
 * talks in lines on standard output:
 *
 * <dl>
 *   <dt>{@code hold <uri> <provider> <lock> <kind>}</dt>
 *   <dd>acquires the lock (waiting up to {@value #WAIT_SECONDS} s), prints {@code HELD <fencing token>} (or
 *       {@code HELD none} without {@link LockFeature#FENCING_TOKENS}) and waits for {@code release} on standard
 *       input, then prints {@code RELEASING <state>} (the lease's {@link Lease#state()} just before it is
 *       released), releases, prints {@code RELEASED} and ends; it also ends when its input closes.</dd>
 *   <dt>{@code hammer <uri> <provider> <lock> <kind> <n> <dir>}</dt>
 *   <dd>prints {@code READY}, waits for {@code go} on standard input, then {@code n} times acquires, runs
 *       {@link #guardedIncrement(Path)} on {@code dir} and releases; prints {@code DONE <n>}, or
 *       {@code OVERLAP <i>} and exits with {@value #EXIT_OVERLAP} as soon as it finds another holder inside the
 *       critical section.</dd>
 * </dl>
 * {@code <kind>} is {@code mutex} or {@code non-reentrant}. Any failure prints {@code ERROR <exception>} and exits
 * with {@value #EXIT_ERROR}; the stack trace goes to standard error.
 */
public final class HolderMain {
    /** Exit value after a failure. */
    public static final int EXIT_ERROR = 2;
    /** Exit value when two holders met in the critical section. */
    public static final int EXIT_OVERLAP = 3;
    /** Exit value for bad arguments. */
    public static final int EXIT_USAGE = 64;
    /** How long one acquisition may wait. */
    public static final int WAIT_SECONDS = 60;

    /** The file that exists while someone is inside the critical section. */
    static final String MARKER = "holder";
    /** The file that counts the passes through the critical section. */
    public static final String COUNTER = "counter";

    private HolderMain() {
    }

    /**
     * @param args see the class description
     */
    public static void main(String[] args) {
        if (args.length < 5 || !(args[0].equals("hold") && args.length == 5
                || args[0].equals("hammer") && args.length == 7)) {
            System.err.println("usage: hold <uri> <provider> <lock> <kind> | hammer <uri> <provider> <lock> <kind>"
                    + " <n> <dir>");
            System.exit(EXIT_USAGE);
        }
        int exit;
        try (LockService service = Locks.open(args[1], args[2])) {
            Acquirable lock = lock(service, args[3], args[4]);
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            exit = args[0].equals("hold")
                    ? hold(service, lock, in)
                    : hammer(lock, Integer.parseInt(args[5]), Path.of(args[6]), in);
        } catch (Exception | Error e) {
            e.printStackTrace();
            say("ERROR " + e);
            exit = EXIT_ERROR;
        }
        System.exit(exit);
    }

    /**
     * @param service the service
     * @param name    the lock name
     * @param kind    {@code mutex} or {@code non-reentrant}
     * @return the lock of that kind
     * @throws IllegalArgumentException for another kind
     */
    public static Acquirable lock(LockService service, String name, String kind) {
        switch (kind.toLowerCase(Locale.ROOT)) {
            case "mutex":
                return service.mutex(name);
            case "non-reentrant":
                return service.nonReentrantMutex(name);
            default:
                throw new IllegalArgumentException("kind is neither mutex nor non-reentrant: " + kind);
        }
    }

    private static int hold(LockService service, Acquirable lock, BufferedReader in)
            throws IOException, InterruptedException {
        Lease lease = lock.acquire(Duration.ofSeconds(WAIT_SECONDS));
        say("HELD " + (service.features().contains(LockFeature.FENCING_TOKENS) ? lease.fencingToken() : "none"));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.equals("release")) {
                say("RELEASING " + lease.state());
                lease.release();
                say("RELEASED");
                return 0;
            }
        }
        return 0; // the parent is gone; closing the service frees the lock
    }

    private static int hammer(Acquirable lock, int n, Path dir, BufferedReader in)
            throws IOException, InterruptedException {
        say("READY");
        String go = in.readLine();
        if (!"go".equals(go)) {
            say("ERROR expected 'go', got " + go);
            return EXIT_ERROR;
        }
        for (int i = 0; i < n; i++) {
            try (Lease lease = lock.acquire(Duration.ofSeconds(WAIT_SECONDS))) {
                if (!guardedIncrement(dir)) {
                    say("OVERLAP " + i);
                    return EXIT_OVERLAP;
                }
            }
        }
        say("DONE " + n);
        return 0;
    }

    /**
     * The critical section of the exclusion contracts, shared by every process: creates the marker file in
     * {@code dir} (creation fails if it exists, across processes), adds one to the counter file, deletes the
     * marker. Two holders at once show as a marker that is already there, or gone before its owner deletes it.
     *
     * @param dir a directory shared by every participant
     * @return false if another holder was inside the critical section
     * @throws IOException if the files cannot be used
     */
    public static boolean guardedIncrement(Path dir) throws IOException {
        Path marker = dir.resolve(MARKER);
        try {
            Files.createFile(marker);
        } catch (FileAlreadyExistsException e) {
            return false;
        }
        Path counter = dir.resolve(COUNTER);
        int count = Files.exists(counter) ? Integer.parseInt(Files.readString(counter).strip()) : 0;
        Files.writeString(counter, Integer.toString(count + 1));
        try {
            Files.delete(marker);
        } catch (NoSuchFileException e) {
            return false;
        }
        return true;
    }

    /**
     * @param dir a directory given to {@link #guardedIncrement(Path)}
     * @return how many passes it counted
     * @throws IOException if the counter cannot be read
     */
    public static int count(Path dir) throws IOException {
        Path counter = dir.resolve(COUNTER);
        return Files.exists(counter) ? Integer.parseInt(Files.readString(counter).strip()) : 0;
    }

    private static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
